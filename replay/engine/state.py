"""The table at one moment of a game: what a replay viewer or a deep link shows.

``state_at`` replays the whole record (so the findings and scores are the verifier's own)
and then reads the moment off the recomputed deal: the trick winners give each trick's
leader, which places every play at its seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import CARD_BITS, SUITS, card_name, play_name
from .findings import Code, Finding, pointer
from .parse import Record, parse_record
from .replay import replay
from .scoring import plain


def state_at(
    obj: Any,
    deal: int,
    trick: int | None = None,
    play: int | None = None,
    stored_rulesets: Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any] | None, list[Finding]]:
    """The state after ``play`` plays of ``trick`` of ``deal`` (1-based, as players count).

    Without ``play`` the trick is complete; without ``trick`` the deal is. Returns None
    with findings when the record cannot be replayed or the moment does not exist.
    """
    record, findings = parse_record(obj, stored_rulesets)
    if record is None:
        return None, findings
    if not 1 <= deal <= len(record.deals):
        return None, [_no_such(f"deal {deal} does not exist", "deals", len(record.deals))]
    report = replay(record)
    result = report.deals[deal - 1]
    source = record.deals[deal - 1]
    tricks = source.tricks or []
    n = len(record.players)
    if trick is None:
        trick, play = len(tricks), None
    if tricks and not 1 <= trick <= len(tricks):
        return None, [_no_such(f"trick {trick} does not exist", "tricks", len(tricks), deal)]
    plays_in_trick = len(tricks[trick - 1]) if tricks else 0
    if play is not None and not 0 <= play <= plays_in_trick:
        return None, [_no_such(f"play {play} does not exist", "plays", plays_in_trick, deal)]
    complete = trick - 1 if play is not None and play < plays_in_trick else trick
    leaders = [_first_leader(record, result.dealer), *result.trick_winners]
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
    dealt = source.hands or [list(p) for p in played]
    hands = [
        [card_name(c) for c in _without(hand, gone)]
        for hand, gone in zip(dealt, played, strict=True)
    ]
    taken = [0] * n
    for winner in result.trick_winners[:complete]:
        taken[winner] += 1
    deal_done = complete == len(tricks)
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
        "hands": hands if tricks or source.hands else None,
        "trick_so_far": current,
        "taken": taken if tricks else result.taken,
        "scores": [plain(s) for s in result.scores] if deal_done else None,
        "running": [plain(s) for s in (result.running if deal_done else before)],
        "findings": [
            f.to_dict()
            for f in report.findings
            if f.deal == deal and (f.trick is None or f.trick <= trick)
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


def _no_such(message: str, key: str, count: int, deal: int | None = None) -> Finding:
    where = pointer("deals", deal - 1, "tricks") if deal else pointer(key)
    return Finding(Code.RECORD_SCHEMA, message, deal=deal, expected=f"1…{count}", path=where)
