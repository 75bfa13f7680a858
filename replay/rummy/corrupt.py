"""Corruptions of a simulated record (docs/rummy.md "The simulator"): one defect per
finding code, at a place chosen at random, said in ``meta["corruption"]``.

Each defect is the record's first error in the order of docs/rummy.md "First error": what
the replay finds after it (a hand short of a card, claims that no longer add up) comes later.
Actions are inserted so that they move nothing (a replacement or lay-off on a meld that is
not on the table, a join of two such melds), except where the code needs a move.
"""

from __future__ import annotations

import copy
import random
from typing import TYPE_CHECKING, Any

from .cards import JOKER, card_name
from .melds import classify

if TYPE_CHECKING:
    from .simulate import TurnTrace

Json = dict[str, Any]
NOWHERE = 999  #: a meld number no simulated deal reaches

CORRUPTIONS = (
    "record.schema",
    "record.ruleset",
    "record.players",
    "record.card",
    "game.incomplete",
    "game.extra_deal",
    "deal.dealer",
    "deal.cards",
    "deal.duplicate_card",
    "deal.unfinished",
    "turn.order",
    "turn.draw",
    "turn.discard",
    "turn.after_out",
    "meld.not_held",
    "meld.first_round",
    "layoff.before_opening",
    "meld.invalid",
    "meld.opening",
    "layoff.invalid",
    "joker.replace",
    "joker.kept",
    "meld.join",
    "result.going_out",
    "result.left",
    "result.points",
    "result.running",
    "result.total",
)


def corrupt(
    record: Json, traces: list[list[TurnTrace]], mode: str, rng: random.Random
) -> Json | None:
    """``record`` with the defect ``mode``, or None when this game offers no place for it."""
    record = copy.deepcopy(record)
    n = len(record["players"])
    deals = record["deals"]
    where: Json = {"code": mode, "deal": None, "turn": None, "action": None, "seat": None}
    d = rng.randrange(len(deals))
    deal = deals[d]
    if mode.startswith("record."):
        if mode == "record.schema":
            del record["players"]
        elif mode == "record.ruleset":
            record["ruleset"] = "no_such_rummy"
        elif mode == "record.players":
            record["players"][1] = record["players"][0]
        elif "hands" in deals[0]:
            deals[0]["hands"][0][0] = "ZZ"
        else:
            return None
        record["meta"] = {"corruption": where}
        return record
    where["deal"] = d + 1
    if mode == "game.incomplete":
        record["deals"] = deals[:-1]
        record["totals"] = deals[-2]["running"] if len(deals) > 1 else [0] * n
        where["deal"] = None
    elif mode == "game.extra_deal":
        extra = copy.deepcopy(deals[-1])
        extra["dealer"] = (extra["dealer"] + 1) % n
        deals.append(extra)
        where["deal"] = len(deals)
    elif mode == "deal.dealer":
        deal["dealer"] = (deal["dealer"] + 1) % n
    elif mode.startswith("result."):
        _claim(record, deal, mode, where, rng)
    elif "turns" not in deal:
        return None
    elif mode == "deal.cards":
        seat = rng.randrange(n)
        deal["stock"].append(deal["hands"][seat].pop())
        where["seat"] = seat
    elif mode == "deal.duplicate_card":
        bottom = deal["stock"][-1]
        deal["stock"][-1] = "2S" if bottom.upper() not in ("2S", "X") else "3S"
    elif mode == "deal.unfinished":
        deal["turns"].pop()
    elif not _turn(deal, traces[d], mode, where, n, rng):
        return None
    record["meta"] = {"corruption": where}
    return record


def _claim(record: Json, deal: Json, mode: str, where: Json, rng: random.Random) -> None:
    n = len(record["players"])
    seat = rng.randrange(n)
    where["seat"] = seat
    if mode == "result.going_out":
        deal["out"] = (deal["out"] + 1) % n
        where["seat"] = None
    elif mode == "result.left":
        seat = (deal["out"] + 1 + rng.randrange(n - 1)) % n
        deal["left"][seat].append("2S")
        where["seat"] = seat
    elif mode == "result.points":
        deal["points"][seat] += 1
    elif mode == "result.running":
        deal["running"][seat] += 1
    else:
        record["totals"][seat] += 1
        where["deal"] = None


def _held(hand: list[int], rng: random.Random) -> int:
    return rng.choice([c for c in range(JOKER + 1) if hand[c]])


def _turn(
    deal: Json, trace: list[TurnTrace], mode: str, where: Json, n: int, rng: random.Random
) -> bool:
    turns = deal["turns"]
    if mode == "turn.after_out":
        last = turns[-1]["seat"]
        turns.append({"seat": (last + 1) % n, "draw": "stock", "discard": "2S"})
        where.update(turn=len(turns), seat=(last + 1) % n)
        return True
    if mode == "turn.draw":
        turns[0]["draw"] = "stock"
        where.update(turn=1, seat=turns[0]["seat"])
        return True
    candidates = list(range(len(turns)))
    rng.shuffle(candidates)
    for i in candidates:
        turn, info, t = turns[i], trace[i], i + 1
        actions = turn.setdefault("actions", [])
        held = [c for c in range(JOKER + 1) if info.hand[c]]
        seat = info.seat
        first_round = t <= n
        inserted: Json | None = None
        if mode == "turn.order" and t > 1:
            stated = (seat + 1) % n
            turn["seat"] = stated
            where.update(turn=t, seat=stated)
            return True
        if mode == "turn.discard":
            missing = [c for c in range(JOKER) if not info.hand[c]]
            turn["discard"] = card_name(rng.choice(missing))
            where.update(turn=t, seat=seat)
            return True
        if mode == "meld.not_held":
            missing = [c for c in range(JOKER) if not info.hand[c]]
            inserted = {"replace_joker": {"meld": NOWHERE, "card": card_name(rng.choice(missing))}}
        elif mode == "meld.first_round" and first_round:
            inserted = {"replace_joker": {"meld": NOWHERE, "card": card_name(rng.choice(held))}}
        elif first_round:
            continue
        elif mode == "layoff.before_opening" and not info.open_before and not info.opening:
            inserted = {"replace_joker": {"meld": NOWHERE, "card": card_name(rng.choice(held))}}
        elif mode in ("joker.replace", "layoff.invalid", "meld.join") and info.open_before:
            card = card_name(rng.choice(held))
            choices: dict[str, Json] = {
                "joker.replace": {"replace_joker": {"meld": NOWHERE, "card": card}},
                "layoff.invalid": {"lay_off": {"meld": NOWHERE, "cards": [card]}},
                "meld.join": {"join": {"meld": NOWHERE, "to": NOWHERE - 1}},
            }
            inserted = choices[mode]
        elif mode == "meld.invalid" and info.open_before:
            inserted = _invalid_meld(info.hand, turn["discard"], rng)
        elif mode == "meld.opening" and len(info.opening) > 1:
            del actions[len(info.opening) - 1 :]
            where.update(turn=t, action=1, seat=seat)
            return True
        elif mode == "joker.kept" and len(info.replaced) == 1:
            lay = info.replaced[0]
            del actions[lay]
            where.update(turn=t, action=lay, seat=seat)
            return True
        if inserted is not None:
            actions.append(inserted)
            where.update(turn=t, action=len(actions), seat=seat)
            return True
        if not actions:
            del turn["actions"]
    return False


def _invalid_meld(hand: list[int], discard: Any, rng: random.Random) -> Json | None:
    spare = [c for c in range(JOKER) for _ in range(hand[c])]
    if isinstance(discard, str) and discard != "X":
        for i, c in enumerate(spare):
            if card_name(c) == discard.upper():
                del spare[i]
                break
    for _ in range(20):
        if len(spare) < 3:
            return None
        cards = rng.sample(spare, 3)
        if classify(cards, [], None) is None:
            return {"meld": [card_name(c) for c in cards]}
    return None
