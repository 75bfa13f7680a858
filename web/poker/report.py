"""A poker report as the pages show it: the verdict, the findings in words at their hand,
stage and action, each hand as recomputed (its winners, the pots of the club game, the
categories shown down, each seat's net and stack) and the stacks at the start and the end.

Built from the report's JSON and the seats' names, so a page of a stored game can show one
as the verify page does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from verification.selectors import Claim
from web.findings import Written, claim_at, claimed_values, findings_written
from web.poker.findings import POKER_CATALOGUE, POKER_PLACES, category_text


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    winners: list[str]


@dataclass(frozen=True, slots=True)
class Shown:
    """A category shown down: a seat's, or the casino dealer's (``name`` None)."""

    name: str | None
    category: str
    qualifies: bool | None = None  #: the casino dealer's hand qualifies


@dataclass(frozen=True, slots=True)
class PokerHand:
    number: int
    dealer: str | None  #: the club game's; None in the casino game
    winners: list[str]
    pots: list[Pot] | None  #: the club game's; None in the casino game
    shown: list[Shown]
    seats: list[tuple[Claim, Claim]]  #: each seat's net and stack after the hand


@dataclass(frozen=True, slots=True)
class SeatStacks:
    seat: int
    name: str
    start: int
    end: int
    net: int


@dataclass(frozen=True, slots=True)
class PokerView:
    verdict: str
    ruleset: str
    players: list[str]
    findings: list[Written]
    hands: list[PokerHand]
    stacks: list[SeatStacks]
    club: bool  #: the seats play for pots against each other, not each against the house


def _names(players: list[str], seats: Any) -> list[str]:
    return [players[s] if isinstance(s, int) and 0 <= s < len(players) else str(s) for s in seats]


def _hand(
    hand: dict[str, Any],
    players: list[str],
    nets: dict[tuple[Any, Any], Any],
    stacks: dict[tuple[Any, Any], Any],
) -> PokerHand:
    number = hand["number"]
    shown = [
        Shown(name, category_text(rank))
        for name, rank in zip(players, hand["ranks"], strict=True)
        if rank is not None
    ]
    if hand["dealer_rank"] is not None:
        shown.append(Shown(None, category_text(hand["dealer_rank"]), hand["dealer_qualifies"]))
    pots = hand["pots"]
    return PokerHand(
        number,
        None if hand["dealer"] is None else _names(players, [hand["dealer"]])[0],
        _names(players, hand["winners"]),
        None if pots is None else [Pot(p["amount"], _names(players, p["winners"])) for p in pots],
        shown,
        [
            (claim_at(nets, (number, seat), net), claim_at(stacks, (number, seat), stack))
            for seat, (net, stack) in enumerate(zip(hand["net"], hand["stacks"], strict=True))
        ],
    )


def poker_view(*, report: dict[str, Any], players: list[str]) -> PokerView:
    findings = findings_written(report.get("findings", []), POKER_PLACES, POKER_CATALOGUE, players)
    nets = claimed_values(findings, "result.payout")
    stacks = claimed_values(findings, "result.stack")
    raw = report.get("hands", [])
    hands = [_hand(hand, players, nets, stacks) for hand in raw]
    ruleset = report.get("ruleset") or {}
    return PokerView(
        verdict=str(report.get("verdict", "")),
        ruleset=str(ruleset.get("preset", "")),
        players=players,
        findings=findings,
        hands=hands,
        stacks=_stacks(raw, report.get("stacks"), players),
        club=any(hand["pots"] is not None for hand in raw),
    )


def _stacks(hands: list[dict[str, Any]], end: Any, players: list[str]) -> list[SeatStacks]:
    """Each seat's stack before the first hand (its stack after it, less its net) and at the
    end; none for a malformed report, which has no hands."""
    if not hands or not isinstance(end, list) or len(end) != len(players):
        return []
    first = hands[0]
    start = [s - n for s, n in zip(first["stacks"], first["net"], strict=True)]
    return [
        SeatStacks(seat, name, begin, final, final - begin)
        for seat, (name, begin, final) in enumerate(zip(players, start, end, strict=True))
    ]
