"""Jokers (RULES §5, §10.1–10.4; FORMAT ``play.joker``): declarations and who takes a trick
with a joker in it.

A wrong declaration is found once and read as players would read it, and a demand that
cannot stand is read as ``high``. A reading depends on the play, on whether it leads, on
whether the trick is the first and on the trump only, so each is made once per ruleset
(``Table.readings``).
"""

from __future__ import annotations

from typing import Final

from ..cards import CARD_BITS, DECL_SHIFT, NAMED_TRUMP, SUIT_SHIFT, X1, Declaration
from ..findings import Code
from .context import DealContext
from .report import JokerPlay
from .rulesets import DemandSuits, IdenticalCards, Ruleset, TrumpMode
from .table import TRICK_RANKS, Reading
from .twins import best_face

HIGH: Final = Declaration.HIGH
LOW: Final = Declaration.LOW
PLAIN: Final = Declaration.PLAIN
LEAD_HIGHEST: Final = Declaration.LEAD_HIGHEST
LEAD_LOWEST: Final = Declaration.LEAD_LOWEST
HIGHS: Final = frozenset({HIGH, LEAD_HIGHEST})  #: the declarations that take a trick


def declaration(
    ctx: DealContext, t: int, k: int, seat: int, code: int, check: bool
) -> tuple[int, int, bool]:
    """A joker's declaration as the replay applies it: the declaration, the named suit of a
    lead (-1 if none), and whether the play passed; a problem is found when ``check``."""
    trump = ctx.trump
    key = (code, k == 0, t == 0, trump)
    readings = ctx.game.readings
    reading = readings.get(key)
    if reading is None:
        reading = readings[key] = read_declaration(ctx.game.ruleset, code, k, t, trump)
    decl, suit, problem = reading
    if problem:
        if check:
            ctx.play_finding(Code.PLAY_JOKER, problem, t, k, seat, code)
        return decl, suit, False
    return decl, suit, True


def read_declaration(ruleset: Ruleset, code: int, k: int, t: int, trump: int) -> Reading:
    """The declaration, the named suit and the problem ("" if none) of a joker play."""
    card = code & CARD_BITS
    decl = code >> DECL_SHIFT & 7
    named = code >> SUIT_SHIFT
    problem = ""
    if not ruleset.joker_mask >> card & 1:
        return 0, -1, "declared a joker play with an ordinary card"
    if decl == 0:
        if not ruleset.joker_silent_high:
            problem = "played a joker without saying how"
        decl = HIGH
    elif decl == Declaration.UNKNOWN:
        problem = "played a joker with an unknown declaration"
        decl = HIGH
    elif decl not in ruleset.declarations:
        problem = (
            f"declared the joker {Declaration(decl).name.lower()}, which "
            f"{ruleset.preset} does not allow"
        )
    suit = -1
    if decl == LOW and k == 0:
        problem = problem or "led the joker low"
    elif decl == PLAIN and card >= X1:
        problem = problem or "played a printed joker plain, but it has no face value"
        decl = LOW
    elif decl in (LEAD_HIGHEST, LEAD_LOWEST):
        suit, why = _named_suit(ruleset, decl, named, trump, k, t)
        problem = problem or why
        if suit < 0:
            decl = HIGH
    return decl, suit, problem


def _named_suit(
    ruleset: Ruleset, decl: int, named: int, trump: int, k: int, t: int
) -> tuple[int, str]:
    if k > 0:
        return -1, "only the leader may demand a suit with the joker"
    if named == 0:
        return -1, "demanded with the joker without naming a suit"
    if named == NAMED_TRUMP:
        if ruleset.trump is TrumpMode.ROTATING:
            return -1, "with rotating trumps a demand must name a suit, not trumps"
        if trump < 0:
            return -1, "demanded trumps in a deal without trumps"
        suit = trump
    else:
        suit = named - 1
    if decl == LEAD_HIGHEST:
        if ruleset.lead_highest_suits is DemandSuits.TRUMP and suit != trump:
            return suit, "the joker may demand only trumps"
        if ruleset.lead_highest_suits is DemandSuits.SUIT and named == NAMED_TRUMP:
            return suit, "the joker must demand a suit, not trumps"
    if ruleset.joker_demand_first_trick_only and t > 0:
        return suit, "the joker may demand a suit only in the first trick"
    return suit, ""


def joker_winner(
    ruleset: Ruleset,
    plays: list[int],
    decls: list[int],
    highs: list[int],
    led: int,
    trump: int,
    twins: bool = False,
) -> int:
    """The place of the play that takes a trick with a joker in it (RULES §4, §5, §10.3).

    ``highs`` are the places of the plays declared ``high`` or ``lead_highest``, which the
    general trick loop notes as it reads the declarations. With ``twins`` (the 104-card
    deck) the face cards are ranked under ``identical_cards`` (``twins.best_face``).
    """
    if (
        highs
        and highs[0] == 0
        and decls[0] == LEAD_HIGHEST
        and ruleset.demand_to_highest_trump
        and 0 <= trump != led
        and any(
            not decls[k] and (plays[k] & CARD_BITS) // 13 == trump for k in range(1, len(plays))
        )
    ):
        highs = highs[1:]
    if highs:
        return highs[-1] if ruleset.later_joker_wins else highs[0]
    rule = ruleset.identical_cards if twins else IdenticalCards.FIRST_WINS
    best = best_face(plays, decls, TRICK_RANKS[led][trump], rule)
    if best < 0 and led < 0:
        first = next((k for k, d in enumerate(decls) if not d), -1)
        if first >= 0:
            ranks = TRICK_RANKS[(plays[first] & CARD_BITS) // 13][trump]
            best = best_face(plays, decls, ranks, rule)
    return max(best, 0)


_JOKER_PLAYS: dict[tuple[int, int, type, bool], JokerPlay] = {}


def joker_play(seat: int, declaration: int, won: bool) -> JokerPlay:
    """A joker play of the report, shared: it is immutable, and the few there can be recur in
    every game (making a frozen dataclass costs more than looking it up)."""
    key = (seat, declaration, type(declaration), won)  # the type: an int or a Declaration
    play = _JOKER_PLAYS.get(key)
    if play is None:
        play = _JOKER_PLAYS[key] = JokerPlay(seat, declaration, won)
    return play
