"""What both poker games share in replaying a hand: locating findings, reading the cards a
hand shows against its deck (docs/poker-format.md ``hand.unknown_card``,
``hand.duplicate_card``), and judging five cards by POKER §2."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import X1, X2, card_name
from ..findings import pointer
from .findings import PokerCode, PokerFinding
from .hands import Category, Made, evaluator, suit_key
from .parse import UNSEEN, Hand
from .rulesets import Ruleset


class Log:
    """The findings of one record; ``hand`` is the hand being replayed (1-based)."""

    def __init__(self, players: list[str]) -> None:
        self.players = players
        self.findings: list[PokerFinding] = []
        self.hand: int | None = None

    def add(
        self,
        code: PokerCode,
        message: str,
        *,
        stage: int | None = None,
        action: int | None = None,
        seat: int | None = None,
        expected: Any = None,
        actual: Any = None,
        path: tuple[str | int, ...] | None = None,
    ) -> None:
        self.findings.append(
            PokerFinding(
                code,
                message,
                self.hand,
                stage,
                action,
                seat,
                None if seat is None else self.players[seat],
                expected,
                actual,
                None if path is None else pointer(*path),
            )
        )


def names(cards: Sequence[int]) -> list[str]:
    return ["??" if c == UNSEEN else card_name(c) for c in cards]


class Seen:
    """The cards seen so far in one hand, in the order docs/poker-format.md reads them."""

    def __init__(self, log: Log, ruleset: Ruleset, joker: int | None) -> None:
        self.log = log
        self.seen: set[int] = set()
        allowed = set(range(52))
        if not ruleset.drawn_joker:
            allowed |= {X1, X2} if ruleset.deck == 54 else {X1} if ruleset.deck == 53 else set()
        self.allowed = allowed
        self.joker = joker

    def read(self, card: int, path: tuple[str | int, ...], **where: Any) -> int:
        """``card`` if the deck holds it and it is seen for the first time; a card that is
        not in the deck is read as unseen, a duplicate is kept (it is the card written)."""
        if card == UNSEEN:
            return card
        if card not in self.allowed:
            self.log.add(
                PokerCode.HAND_UNKNOWN_CARD,
                f"{card_name(card)} is not a card of this deck",
                actual=card_name(card),
                path=path,
                **where,
            )
            return UNSEEN
        if card in self.seen:
            self.log.add(
                PokerCode.HAND_DUPLICATE_CARD,
                f"{card_name(card)} is seen twice in this hand",
                actual=card_name(card),
                path=path,
                **where,
            )
        self.seen.add(card)
        return card


class Judge:
    """Five cards → their comparison key (POKER §2, suits where the ruleset says) and what
    they make. A drawn joker (J-poker) is read as the printed joker it stands for."""

    def __init__(self, ruleset: Ruleset, joker: int | None) -> None:
        self.evaluator = evaluator(ruleset.rules)
        self.suits = ruleset.suit_order if ruleset.suit_tiebreak else None
        self.joker = joker

    def wild(self, five: Sequence[int]) -> list[int]:
        return (
            [X1 if c == self.joker else c for c in five] if self.joker is not None else list(five)
        )

    def judge(self, five: Sequence[int]) -> tuple[int, Made]:
        hand = self.wild(five)
        made = self.evaluator.made(hand)
        value = self.evaluator.value(hand)
        if self.suits is None:
            return value, made
        return value << 15 | suit_key(hand, made, self.suits), made


def qualifies(made: Made, rule: str) -> bool:
    """POKER §3.4: ace-king high or better, a pair or better, or always."""
    if rule == "none" or made.category > Category.HIGH_CARD:
        return True
    return rule == "ace_king" and made.lineup[:2] == (12, 11)


def reveal(held: Sequence[int], shown: Sequence[int]) -> list[int] | None:
    """A seat's five cards with its unseen ones filled from the cards it shows; None when
    the shown cards are not its cards (a known card missing, or not five)."""
    if len(shown) != 5 or len(held) != 5:
        return None
    rest = list(shown)
    for card in held:
        if card != UNSEEN:
            if card not in rest:
                return None
            rest.remove(card)
    fill = iter(c for c in rest)
    return [next(fill) if c == UNSEEN else c for c in held]


def showdown(
    log: Log, seen: Seen, judge: Judge, hand: Hand, held: list[list[int]], at: Sequence[int]
) -> dict[int, tuple[int, Made]]:
    """The seats ``at`` the showdown → their judged hands; the shown cards reveal unseen
    ones (``held`` is updated), and the claimed categories are checked. A seat whose cards
    stay unknown is not judged (docs/poker-format.md: it wins nothing, or pushes)."""
    where = ("hands", hand.index, "showdown")
    for i, entry in enumerate(hand.showdown):
        seat = entry.seat
        if entry.cards is None:
            continue
        filled = reveal(held[seat], entry.cards)
        if filled is None:
            log.add(
                PokerCode.SHOWDOWN_CARDS,
                "the cards shown are not the cards this seat holds",
                seat=seat,
                expected=names(held[seat]),
                actual=names(entry.cards),
                path=(*where, i, "cards"),
            )
            continue
        for j, card in enumerate(filled):
            if held[seat][j] == UNSEEN:
                filled[j] = seen.read(
                    card, (*where, i, "cards", entry.cards.index(card)), seat=seat
                )
        held[seat] = filled
    judged = {}
    for seat in at:
        if len(held[seat]) != 5 or UNSEEN in held[seat]:
            log.add(
                PokerCode.SHOWDOWN_CARDS,
                "this seat is at the showdown, but its cards are not known",
                seat=seat,
                actual=names(held[seat]),
                path=("hands", hand.index, "cards", seat),
            )
            continue
        judged[seat] = judge.judge(held[seat])
    for i, entry in enumerate(hand.showdown):
        if entry.rank is None:
            continue
        five = held[entry.seat]
        known = len(five) == 5 and UNSEEN not in five
        category = str(judge.judge(five)[1].category) if known else None
        if entry.rank != category:
            log.add(
                PokerCode.SHOWDOWN_RANK,
                f"the hand makes {category or 'no known category'}, not {entry.rank}",
                seat=entry.seat,
                expected=category,
                actual=entry.rank,
                path=(*where, i, "rank"),
            )
    return judged


def check_claims(
    log: Log, hand: Hand, winners: list[int], net: list[int], stacks: list[int]
) -> None:
    """A hand's claimed ``winners``, ``net`` and ``stacks`` against the recomputed ones: one
    finding for the winners, one per seat whose net or stack differs."""
    at = ("hands", hand.index)
    if hand.winners is not None and sorted(set(hand.winners)) != winners:
        log.add(
            PokerCode.RESULT_WINNER,
            "the claimed winners of the hand differ",
            expected=winners,
            actual=hand.winners,
            path=(*at, "winners"),
        )
    for field, claimed, code in (
        ("net", hand.net, PokerCode.RESULT_PAYOUT),
        ("stacks", hand.stacks, PokerCode.RESULT_STACK),
    ):
        computed = net if field == "net" else stacks
        for seat, (want, got) in enumerate(zip(computed, claimed or computed, strict=True)):
            if want != got:
                log.add(
                    code,
                    f"the claimed {'net' if field == 'net' else 'stack'} is {got}, not {want}",
                    seat=seat,
                    expected=want,
                    actual=got,
                    path=(*at, field, seat),
                )


def pot_layers(
    contrib: Sequence[int], live: Sequence[int]
) -> tuple[list[int], list[tuple[int, tuple[int, ...]]]]:
    """What each seat is in for once the part of the largest bet nobody called goes back,
    and the pots that makes, main pot first: each its amount and the live seats that may
    win it. A folded seat's chips fall into the pots its bets reached; a level that holds
    no chips makes no pot."""
    paid = list(contrib)
    ranked = sorted(range(len(paid)), key=lambda s: paid[s], reverse=True)
    if len(paid) > 1 and paid[ranked[0]] > paid[ranked[1]]:
        paid[ranked[0]] = paid[ranked[1]]
    layers = []
    before = 0
    levels = sorted({paid[s] for s in live})
    for k, level in enumerate(levels):
        amount = sum(min(c, level) - min(c, before) for c in paid)
        if k == len(levels) - 1:
            amount += sum(c - min(c, level) for c in paid)
        before = level
        if amount:
            layers.append((amount, tuple(s for s in live if paid[s] >= level)))
    return paid, layers


__all__ = ["Judge", "Log", "Seen", "names", "pot_layers", "qualifies", "reveal", "showdown"]
