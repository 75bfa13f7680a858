"""The record writer: a simulated deal in the forms docs/format.md allows, chosen at random
(plays as strings or objects, tricks as lists or objects, hands now and then left out).
"""

from __future__ import annotations

from typing import Any

from ..scores import Number, plain
from ..tricks.rulesets import DealKind, TrumpMode
from .corruptions import NEEDS_HANDS, Plan
from .oracle import LEADS, STAR, SUITS, Call, Deal, Json, Play, Rules, name_of, sort_key


class Writer(Rules):
    plan: Plan

    def _write_deal(self, deal: Deal, running: list[Number]) -> Json:
        rng = self.rng
        regular = deal.kind is DealKind.REGULAR
        out: Json = {"kind": deal.kind.value} if not regular or rng.random() < 0.5 else {}
        out.update(dealer=deal.dealer, cards=deal.cards)
        # Now and then the hands are left out: they are then the cards each seat plays.
        if rng.random() >= 0.1 or self.plan.mode in NEEDS_HANDS:
            out["hands"] = [[name_of(c) for c in sorted(h, key=sort_key)] for h in deal.hands]
        if deal.trump_card is not None:
            out["trump_card"] = name_of(deal.trump_card)
        # Bidding deals name the declarer's trump; golden and misère may state the card's.
        stated = deal.declarer is not None or deal.kind is DealKind.NO_TRUMP or rng.random() < 0.5
        if self.r.trump is TrumpMode.DECLARED and stated:
            out["trump"] = None if deal.trump < 0 else SUITS[deal.trump]
        if deal.declarer is not None:
            out["declarer"] = deal.declarer
            out["calls"] = deal.calls
        if deal.bids is not None:
            out["bids"] = deal.written_bids
        out["tricks"] = deal.tricks
        if deal.claim is not None:
            out["claim"] = {"seat": deal.claim}
        out["taken"] = deal.taken
        out["scores"] = [plain(s) for s in deal.scores]
        out["running"] = [plain(s) for s in running]
        return out

    def _write_play(self, play: Play) -> Any:
        rng = self.rng
        name = name_of(play.card)
        if play.decl is Call.FACE:
            return name
        if play.decl == Call.HIGH and (
            not self.declarations or (self.r.joker_silent_high and rng.random() < 0.3)
        ):
            return name
        if rng.random() < 0.2:
            obj: Json = {"card": name, "joker": play.decl.value}
            if play.decl in LEADS:
                obj["suit"] = "trump" if play.named == STAR else SUITS[play.named]
            return obj
        if play.decl in LEADS:
            suit = "*" if play.named == STAR else SUITS[play.named]
            return name + ("+" if play.decl == Call.LEAD_HIGHEST else "-") + suit
        return name + {Call.HIGH: "+", Call.LOW: "-", Call.PLAIN: "="}[play.decl]
