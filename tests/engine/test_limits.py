"""The most a game can hold (``tricks.limits``) and the bounds of a file's split."""

from __future__ import annotations

import copy
import io
import json
import struct
import tracemalloc
import zipfile

import pytest

from replay import (
    MAX_DEALS,
    MAX_PLAYS,
    Bounds,
    TooLarge,
    Verdict,
    record_excess,
    split_file,
    verify,
    zip_within,
)
from replay.poker.simulate import simulate_record as poker_record
from replay.rummy.simulate import simulate_game as rummy_game
from replay.simulate import simulate_game

#: The longest game the rules allow: two players, two decks, three rounds of RULES §8.
LONGEST = {"preset": "two_jacks", "options": {"deck": "104", "min_players": 2}}


def test_the_longest_legal_game_is_verified_and_holds_exactly_the_maxima() -> None:
    record = simulate_game(LONGEST, 2, 1)
    plays = sum(len(trick) for deal in record["deals"] for trick in deal["tricks"])
    assert (len(record["deals"]), plays) == (MAX_DEALS, MAX_PLAYS)
    assert verify(record).verdict is Verdict.VERIFIED
    assert record_excess(record) is None
    assert len(json.dumps(record)) < 1024 * 1024  # the service's default record limit


def test_a_game_repeated_to_forty_thousand_deals_is_past_the_deals() -> None:
    record = simulate_game("classic", 4, 7)
    record["deals"] = [copy.copy(d) for _ in range(40_000 // 36 + 1) for d in record["deals"]]
    excess = record_excess(record)
    assert excess is not None
    assert (excess.what, excess.path, excess.limit) == ("deals", "/deals", MAX_DEALS)
    assert excess.actual == len(record["deals"])


def test_deals_within_the_limit_with_too_many_plays_are_past_the_plays() -> None:
    record = simulate_game("classic", 4, 7)
    record["deals"][0]["tricks"] = [["6S"] * 1000] * 20
    excess = record_excess(record)
    assert excess is not None and excess.what == "plays"
    assert excess.actual > MAX_PLAYS


def test_a_rummy_deal_of_endless_turns_is_past_the_plays() -> None:
    record = rummy_game("joker_rummy", 3, 1)
    assert record_excess(record) is None
    turns = record["deals"][0]["turns"]
    record["deals"][0]["turns"] = turns * (MAX_PLAYS // len(turns) + 1)
    excess = record_excess(record)
    assert excess is not None and (excess.what, excess.path) == ("plays", "/deals")


def test_poker_hands_count_as_deals_and_their_actions_as_plays() -> None:
    record = poker_record("club_stud", 3, 4, 1)
    assert record_excess(record) is None
    hand = record["hands"][0]
    many = copy.deepcopy(record)
    many["hands"] = [hand] * (MAX_DEALS + 1)
    excess = record_excess(many)
    assert excess is not None and (excess.what, excess.path) == ("deals", "/hands")
    hand["stages"][0] = hand["stages"][0] * (MAX_PLAYS + 1)
    excess = record_excess(record)
    assert excess is not None and (excess.what, excess.path) == ("plays", "/hands")


def test_what_is_not_shaped_like_a_record_counts_as_nothing() -> None:
    assert record_excess([1, 2]) is None
    assert record_excess({"deals": 3}) is None


def _zip(name: str, data: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, data)
    return buffer.getvalue()


def _forged(data: bytes, claimed: int) -> bytes:
    """``data`` with every member's stated unpacked size replaced by ``claimed``."""
    forged = bytearray(data)
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        at = forged.find(signature)
        while at >= 0:
            forged[at + offset : at + offset + 4] = struct.pack("<I", claimed)
            at = forged.find(signature, at + 4)
    return bytes(forged)


BOMB_SIZE = 64 * 1024 * 1024


@pytest.fixture(scope="module")
def bomb() -> bytes:
    """A zip of 64 MiB of blank lines, some 64 KB packed."""
    return _zip("games.jsonl", b" " * BOMB_SIZE)


def _peak_of_split(data: bytes, bounds: Bounds) -> tuple[int, BaseException | None]:
    tracemalloc.start()
    try:
        split_file(data, "games.zip", bounds)
        error = None
    except TooLarge as refused:
        error = refused
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return peak, error


def test_a_zip_is_stopped_at_the_bound_as_it_inflates(bomb: bytes) -> None:
    peak, error = _peak_of_split(bomb, Bounds(unpacked=4 * 1024 * 1024))
    assert isinstance(error, TooLarge)
    assert error.excess.what == "unpacked bytes"
    assert 4 * 1024 * 1024 < error.excess.actual <= 6 * 1024 * 1024
    assert peak < 16 * 1024 * 1024


def test_a_zip_that_claims_its_members_small_inflates_no_further(bomb: bytes) -> None:
    forged = _forged(bomb, 1000)
    assert sum(i.file_size for i in zipfile.ZipFile(io.BytesIO(forged)).infolist()) == 1000
    peak, error = _peak_of_split(forged, Bounds(unpacked=4 * 1024 * 1024))
    assert error is None  # the member reads as its claimed 1,000 bytes, then fails its CRC
    assert peak < 16 * 1024 * 1024
    (document,) = split_file(forged, "games.zip")
    assert document.error is not None and "Bad CRC-32" in document.error.message


def test_a_zip_that_claims_its_members_huge_is_stopped_at_the_bound(bomb: bytes) -> None:
    _, error = _peak_of_split(_forged(bomb, 0xFFFFFFF0), Bounds(unpacked=4 * 1024 * 1024))
    assert isinstance(error, TooLarge) and error.excess.what == "unpacked bytes"


def test_a_million_empty_records_are_stopped_at_the_records_bound() -> None:
    data = _zip("games.jsonl", b"{}\n" * 1_000_000)
    assert len(data) < 10_000
    with pytest.raises(TooLarge) as refused:
        split_file(data, "games.zip", Bounds(records=100_000))
    assert (refused.value.excess.what, refused.value.excess.actual) == ("records", 100_001)


@pytest.mark.parametrize(
    "data", [b"{}\n" * 11, json.dumps([{}] * 11).encode()], ids=["lines", "array"]
)
def test_records_past_the_bound_are_refused_in_a_plain_file(data: bytes) -> None:
    assert len(split_file(data, "games.jsonl", Bounds(records=11))) == 11
    with pytest.raises(TooLarge):
        split_file(data, "games.jsonl", Bounds(records=10))


def test_a_zip_for_another_reader_is_counted_as_it_inflates() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.xml", b"x" * 3000)
        archive.writestr("b.xml", b"y" * 3000)
    zip_within(buffer.getvalue(), Bounds(unpacked=6000))
    with pytest.raises(TooLarge) as raised:
        zip_within(buffer.getvalue(), Bounds(unpacked=5999))
    assert (raised.value.excess.what, raised.value.excess.limit) == ("unpacked bytes", 5999)
    zip_within(b"PK\x03\x04 no zip", Bounds(unpacked=1))  # its reader says what is wrong
