"""The table at one moment of a game: what a replay viewer or a deep link shows.

``state_at`` replays the whole record (so the findings and scores are the verifier's own)
and then reads the moment off the recomputed deal: the trick winners give each trick's
leader, which places every play at its seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import CARD_BITS, SUITS, card_name, play_name
from ..findings import Finding
from ..scores import plain
from .game import replay
from .parse import Record, parse_record


def state_at(
    obj: Any,
    deal: int,
    trick: int | None = None,
    play: int | None = None,
    stored_rulesets: Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any] | None, list[Finding]]:
    """The state after ``play`` plays of ``trick`` of ``deal`` (1-based, as players count).

    Without ``play`` the trick is complete; without ``trick`` the deal is. Returns None
    with findings when the record cannot be replayed. A moment the record does not have is
    the caller's mistake, not the record's, so it raises ``NoSuchMoment``.
    """
    record, findings = parse_record(obj, stored_rulesets)
    if record is None:
        return None, findings
    if not 1 <= deal <= len(record.deals):
        raise NoSuchMoment("deal", deal, len(record.deals))
    report = replay(record)
    result = report.deals[deal - 1]
    source = record.deals[deal - 1]
    tricks = source.tricks or []
    n = len(record.players)
    if trick is None:
        trick, play = len(tricks), None
    if tricks and not 1 <= trick <= len(tricks):
        raise NoSuchMoment("trick", trick, len(tricks), deal=deal)
    plays_in_trick = len(tricks[trick - 1]) if tricks else 0
    if play is not None and not 0 <= play <= plays_in_trick:
        raise NoSuchMoment("play", play, plays_in_trick, deal=deal, trick=trick, first=0)
    complete = trick - 1 if play is not None and play < plays_in_trick else trick
    leaders = [_first_leader(record, result.dealer), *result.trick_winners]
    for t, stated in (result.counted_from or {}).items():
        leaders[t] = stated  # a trick led out of turn (RULES §10.11)
    played: list[list[int]] = [[] for _ in range(n)]
    current: list[dict[str, Any]] = []
    for t, entry in enumerate(tricks[:trick]):
        count = len(entry) if t < trick - 1 or play is None else play
        for k, code in enumerate(entry[:count]):
            seat = (leaders[t] + k) % n
            played[seat].append(code & CARD_BITS)
            if t == trick - 1:
                current.append(
                    {"seat": seat, "player": record.players[seat], "play": play_name(code)}
                )
    hands_dealt = source.hands  # read from the record's text on each access: once here
    dealt = hands_dealt or [list(p) for p in played]
    hands = [
        [card_name(c) for c in _without(hand, gone)]
        for hand, gone in zip(dealt, played, strict=True)
    ]
    taken = [0] * n
    for winner in result.trick_winners[:complete]:
        taken[winner] += 1
    deal_done = complete == len(tricks)
    if deal_done and result.claim is not None:  # the claimed tricks are the claimer's
        taken[result.claim[0]] += result.claim[1]
    before = report.deals[deal - 2].running if deal > 1 else [0] * n
    state = {
        "deal": deal,
        "trick": trick if tricks else None,
        "play": play,
        "dealer": result.dealer,
        "kind": result.kind,
        "cards": result.cards,
        "trump": None if result.trump is None or result.trump < 0 else SUITS[result.trump],
        "bids": result.bids,
        "leader": leaders[trick - 1] if tricks else None,
        "hands": hands if tricks or hands_dealt else None,
        "trick_so_far": current,
        "taken": taken if tricks else result.taken,
        "scores": [plain(s) for s in result.scores] if deal_done else None,
        "running": [plain(s) for s in (result.running if deal_done else before)],
        "findings": [
            f.to_dict()
            for f in report.findings
            if f.deal == deal and (f.trick is None or f.trick <= trick or deal_done)
        ],
        "verdict": str(report.verdict),
    }
    return state, []


def _first_leader(record: Record, dealer: int) -> int:
    n = len(record.players)
    return dealer if record.ruleset.first_leader_is_dealer else (dealer + 1) % n


def _without(hand: list[int], gone: list[int]) -> list[int]:
    left = list(hand)
    for card in gone:
        if card in left:
            left.remove(card)
    return left


class NoSuchMoment(ValueError):
    """``state_at`` was asked for a deal, trick or play the record does not have.

    ``name`` is the argument at fault, ``actual`` its value and ``expected`` the range the
    record allows (``"1…36"``), so that a caller can locate the mistake in its own terms.
    """

    def __init__(
        self,
        name: str,
        actual: int,
        last: int,
        *,
        deal: int | None = None,
        trick: int | None = None,
        first: int = 1,
    ) -> None:
        where = f" in trick {trick} of deal {deal}" if trick else f" in deal {deal}" if deal else ""
        super().__init__(f"{name} {actual} does not exist{where}")
        self.name = name
        self.actual = actual
        self.expected = f"{first}…{last}"
