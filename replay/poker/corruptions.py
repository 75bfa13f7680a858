"""One defect in a legal poker record, per finding code (docs/poker-format.md), at a
known place: ``corrupt`` returns the changed record, with ``meta["corruption"]`` saying
the code the replay must report and where (hand, stage, action, seat; 1-based numbers as
the report counts), or None when the record has no place for that defect."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from copy import deepcopy
from typing import Any, Final

from .hands import CATEGORY_NAMES

Record = dict[str, Any]
Place = tuple[int, int | None, int | None, int | None]  #: hand, stage, action, seat (0-based)
Corruption = Callable[[Record, int, random.Random], Place | None]


def _club(record: Record) -> bool:
    return "dealer_cards" not in record["hands"][0]


def _betting(stage: list[Record]) -> list[int]:
    return [i for i, a in enumerate(stage) if a["action"] != "exchange"]


def _actions(hand: Record, rng: random.Random) -> Iterator[tuple[int, int, Record]]:
    places = [(st, i, a) for st, stage in enumerate(hand["stages"]) for i, a in enumerate(stage)]
    rng.shuffle(places)
    yield from places


def hand_dealer(record: Record, h: int, rng: random.Random) -> Place | None:
    hand = record["hands"][h]
    if not _club(record):
        return None
    hand["dealer"] = (hand["dealer"] + 1) % len(record["seats"])
    return h, None, None, None


def hand_cards(record: Record, h: int, rng: random.Random) -> Place | None:
    hand = record["hands"][h]
    seats = [s for s, cards in enumerate(hand["cards"]) if cards]
    if not seats:
        return None
    seat = rng.choice(seats)
    hand["cards"][seat].append("??")
    return h, None, None, seat


def hand_unknown_card(record: Record, h: int, rng: random.Random) -> Place | None:
    hand = record["hands"][h]
    ruleset = record["ruleset"]
    preset = ruleset if isinstance(ruleset, str) else ruleset["preset"]
    if preset == "club_stud":
        return None
    seats = [s for s, cards in enumerate(hand["cards"]) if cards]
    if not seats:
        return None
    seat = rng.choice(seats)
    hand["cards"][seat][rng.randrange(5)] = "X1" if preset == "j_poker" else "X2"
    return h, None, None, seat


def hand_duplicate_card(record: Record, h: int, rng: random.Random) -> Place | None:
    hand = record["hands"][h]
    seats = [s for s, cards in enumerate(hand["cards"]) if cards]
    earlier = list(hand.get("dealer_cards") or [])
    if not _club(record) and seats:
        seat = rng.choice(seats)
    elif len(seats) >= 2:
        seat = rng.choice(seats[1:])
        earlier = [c for s in seats if s < seat for c in hand["cards"][s]]
    else:
        return None
    hand["cards"][seat][rng.randrange(len(hand["cards"][seat]))] = rng.choice(earlier)
    return h, None, None, seat


def hand_ante(record: Record, h: int, rng: random.Random) -> Place | None:
    hand = record["hands"][h]
    if _club(record):
        return None
    before = record["hands"][h - 1]["stacks"] if h else [s["stack"] for s in record["seats"]]
    seats = [s for s, a in enumerate(hand["antes"]) if a]
    if not seats:
        return None
    seat = rng.choice(seats)
    hand["antes"][seat] = before[seat] + 1
    return h, None, None, seat


def bet_order(record: Record, h: int, rng: random.Random) -> Place | None:
    hand = record["hands"][h]
    for st, stage in enumerate(hand["stages"]):
        pairs = [
            (i, j)
            for i, j in zip(_betting(stage), _betting(stage)[1:], strict=False)
            if j == i + 1 and stage[i]["seat"] != stage[j]["seat"]
        ]
        if _club(record) is False:
            pairs = [
                (i, i + 1)
                for i in range(len(stage) - 1)
                if stage[i]["seat"] != stage[i + 1]["seat"]
            ]
        if pairs:
            i, j = rng.choice(pairs)
            stage[i], stage[j] = stage[j], stage[i]
            return h, st, i, stage[i]["seat"]
    return None


def bet_after_fold(record: Record, h: int, rng: random.Random) -> Place | None:
    hand = record["hands"][h]
    for st, i, action in _actions(hand, rng):
        if action["action"] == "fold":
            hand["stages"][st].insert(i + 1, {"seat": action["seat"], "action": "call"})
            return h, st, i + 1, action["seat"]
    return None


def _calls(hand: Record, rng: random.Random) -> Iterator[tuple[int, int, Record]]:
    return ((st, i, a) for st, i, a in _actions(hand, rng) if a["action"] == "call")


def bet_action(record: Record, h: int, rng: random.Random) -> Place | None:
    hand = record["hands"][h]
    for st, i, action in _calls(hand, rng):
        action["action"] = "check" if _club(record) else "raise"
        if not _club(record):
            action["amount"] = 1
        return h, st, i, action["seat"]
    return None


def bet_amount(record: Record, h: int, rng: random.Random) -> Place | None:
    hand = record["hands"][h]
    for st, i, action in _calls(hand, rng):
        action["amount"] = 10**6
        return h, st, i, action["seat"]
    return None


def bet_missing(record: Record, h: int, rng: random.Random) -> Place | None:
    hand = record["hands"][h]
    stages = [st for st, stage in enumerate(hand["stages"]) if _betting(stage)]
    if not stages:
        return None
    st = rng.choice(stages)
    stage = hand["stages"][st]
    # The last action of a club round is always owed; any casino decision is.
    i = _betting(stage)[-1] if _club(record) else rng.choice(_betting(stage))
    seat = stage.pop(i)["seat"]
    return h, st, None, seat


def _exchanges(hand: Record, rng: random.Random) -> Iterator[tuple[int, int, Record]]:
    return (
        (st, i, a) for st, i, a in _actions(hand, rng) if a["action"] == "exchange" and a["cards"]
    )


def exchange_count(record: Record, h: int, rng: random.Random) -> Place | None:
    hand = record["hands"][h]
    for st, i, action in _exchanges(hand, rng):
        action["new"] = action["new"][:-1]
        return h, st, i, action["seat"]
    return None


def exchange_card(record: Record, h: int, rng: random.Random) -> Place | None:
    hand = record["hands"][h]
    for st, i, action in _exchanges(hand, rng):
        seat = action["seat"]
        others = [c for s, cards in enumerate(hand["cards"]) if s != seat for c in cards]
        others += hand.get("dealer_cards") or []
        if others:
            action["cards"][0] = rng.choice(others)
            return h, st, i, seat
    return None


def showdown_cards(record: Record, h: int, rng: random.Random) -> Place | None:
    hand = record["hands"][h]
    shown = hand.get("showdown") or []
    if not shown:
        return None
    entry = rng.choice(shown)
    others = [c for s, cards in enumerate(hand["cards"]) if s != entry["seat"] for c in cards]
    others += hand.get("dealer_cards") or []
    entry["cards"][0] = rng.choice([c for c in others if c not in entry["cards"]])
    return h, None, None, entry["seat"]


def showdown_rank(record: Record, h: int, rng: random.Random) -> Place | None:
    hand = record["hands"][h]
    shown = hand.get("showdown") or []
    if not shown:
        return None
    entry = rng.choice(shown)
    entry["rank"] = rng.choice([c for c in CATEGORY_NAMES if c != entry["rank"]])
    return h, None, None, entry["seat"]


def result_winner(record: Record, h: int, rng: random.Random) -> Place | None:
    hand = record["hands"][h]
    winners = hand["winners"]
    hand["winners"] = winners[1:] if winners else [0]
    return h, None, None, None


def result_pot(record: Record, h: int, rng: random.Random) -> Place | None:
    hand = record["hands"][h]
    if not hand.get("pots"):
        return None
    hand["pots"][0]["amount"] += 1
    return h, None, None, None


def result_payout(record: Record, h: int, rng: random.Random) -> Place | None:
    seat = rng.randrange(len(record["seats"]))
    record["hands"][h]["net"][seat] += 1
    return h, None, None, seat


def result_stack(record: Record, h: int, rng: random.Random) -> Place | None:
    seat = rng.randrange(len(record["seats"]))
    record["hands"][h]["stacks"][seat] += 1
    return h, None, None, seat


CORRUPTIONS: Final[dict[str, Corruption]] = {
    "hand.dealer": hand_dealer,
    "hand.cards": hand_cards,
    "hand.unknown_card": hand_unknown_card,
    "hand.duplicate_card": hand_duplicate_card,
    "hand.ante": hand_ante,
    "bet.order": bet_order,
    "bet.after_fold": bet_after_fold,
    "bet.action": bet_action,
    "bet.amount": bet_amount,
    "bet.missing": bet_missing,
    "exchange.count": exchange_count,
    "exchange.card": exchange_card,
    "showdown.cards": showdown_cards,
    "showdown.rank": showdown_rank,
    "result.winner": result_winner,
    "result.pot": result_pot,
    "result.payout": result_payout,
    "result.stack": result_stack,
}


def corrupt(record: Record, code: str, rng: random.Random) -> Record | None:
    """``record`` with one defect of ``code`` in the first hand (in a random order) that
    has a place for it; None when none has."""
    if code not in CORRUPTIONS:
        raise ValueError(f"no corruption {code!r}; there are {', '.join(CORRUPTIONS)}")
    hands = list(range(len(record["hands"])))
    rng.shuffle(hands)
    for h in hands:
        changed = deepcopy(record)
        place = CORRUPTIONS[code](changed, h, rng)
        if place is not None:
            hand, stage, action, seat = place
            changed.setdefault("meta", {})["corruption"] = {
                "code": code,
                "hand": hand + 1,
                "stage": None if stage is None else stage + 1,
                "action": None if action is None else action + 1,
                "seat": seat,
            }
            return changed
    return None


__all__ = ["CORRUPTIONS", "corrupt"]
