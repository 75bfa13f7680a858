"""The tricks (RULES §4, §5, §10.1–10.4; FORMAT ``play.*``): legality of every play, the
winner of every trick, the tricks each seat takes.

Two loops replay a trick. Most tricks hold face cards only (no joker, no declaration):
``run`` replays those itself, in a loop shaped like the shared ceiling loop, the lead taken
before the loop so that the loop over the followers needs no "is this the lead?" test, no
joker test and no lead demand. One set test (``plain.issuperset``) sends a trick with
anything else to ``joker_trick``, the general loop, and so does every trick of the
104-card deck (``Table.plain_codes``). The general loop and ``jokers.joker_winner`` take the
winner from ``table.TRICK_RANKS``; the fast loop keeps the same rule as two inline
comparisons, which cost it fewer instructions than a lookup, and a test holds the two loops
to the same reports (``tests/engine/test_trick_loops.py``). Both report a play off the led
suit through ``not_followed``, testing first inline with one cheap comparison, so the
common legal play costs no call.
"""

from __future__ import annotations

from typing import Final

from ..cards import CARD_BITS
from ..findings import Code, Severity, pointer
from .context import DealContext, count, suit_name
from .jokers import HIGHS, LEAD_HIGHEST, LEAD_LOWEST, PLAIN, declaration, joker_play, joker_winner
from .rulesets import IdenticalCards
from .table import BITS, NEXT_SUIT, SUIT_OF, TRICK_RANKS
from .twins import best_face

_FIRST_WINS: Final = IdenticalCards.FIRST_WINS  #: read once (a descriptor call in 3.11)


def run(
    ctx: DealContext, leader: int, singles: list[int], doubles: list[int], checks: bool
) -> list[int]:
    """Replay the deal's tricks from ``leader``, taking each play off its seat's hand; the
    tricks each seat takes. ``checks`` off is the silent pass that only finds the winners
    (``hands.masks_from_plays``)."""
    game = ctx.game
    deal = ctx.deal
    n = game.n
    obliging = game.obliging
    trump_obliging = game.trump_obliging
    plain = game.plain_codes
    turns = game.turns
    bits = BITS
    suits = SUIT_OF
    rotating = game.rotating
    trump = ctx.trump
    winners = ctx.result.trick_winners
    trick_trump = trump
    trump_mask = trump_obliging[trump] if trump >= 0 else 0
    taken = [0] * n
    tricks = deal.tricks or []
    if checks and len(tricks) != deal.cards and deal.claim is None:  # a claim takes the rest
        ctx.find(
            Code.PLAY_COUNT,
            f"{count(len(tricks), 'trick')} played, not {deal.cards}",
            expected=deal.cards,
            actual=len(tricks),
            path=pointer("deals", deal.index, "tricks"),
        )
    stated = deal.leaders
    following = game.following
    for t, plays in enumerate(tricks):
        places = following
        if len(plays) != n:
            if checks:
                leader = _check_trick(ctx, t, plays, leader, singles)
            if len(plays) > n:
                plays = plays[:n]
            elif not plays:
                continue
            else:
                places = range(1, len(plays))
        elif stated is not None and checks and stated[t] is not None and stated[t] != leader:
            leader = _check_trick(ctx, t, plays, leader, singles)
        order = turns[leader]  # the seat of each play
        if not plain.issuperset(plays):
            leader = order[joker_trick(ctx, t, plays, leader, singles, doubles, checks)]
        else:
            code = plays[0]  # a plain play code is its card
            bit = bits[code]
            hand = singles[leader]
            rest = hand ^ bit
            if rest < hand:  # the bit was set: held (no ``&`` to make a new int)
                singles[leader] = rest
            elif checks:
                ctx.play_finding(Code.PLAY_NOT_HELD, "does not hold", t, 0, leader, code)
            led = suits[code]
            if rotating:
                trick_trump = NEXT_SUIT[led]
                trump_mask = trump_obliging[trick_trump]
            obliged = obliging[led] | trump_mask
            best_card = code
            best_trump = led == trick_trump
            for k in places:
                code = plays[k]
                seat = order[k]
                bit = bits[code]
                hand = singles[seat]
                rest = hand ^ bit
                if rest < hand:
                    singles[seat] = hand = rest
                else:
                    if checks:
                        ctx.play_finding(Code.PLAY_NOT_HELD, "does not hold", t, k, seat, code)
                    hand = 0  # a card not held is not checked for following
                suit = suits[code]
                if suit == led:  # a trump lead is best so far, and trumps only beat it
                    if code > best_card and (suit == trick_trump or not best_trump):
                        leader, best_card = seat, code
                    continue
                if suit == trick_trump and (not best_trump or code > best_card):
                    leader, best_card, best_trump = seat, code, True
                if checks and hand & obliged:
                    not_followed(ctx, t, k, seat, code, hand, led, trick_trump)
        taken[leader] += 1  # the winner leads the next trick
        winners.append(leader)
    return taken


def joker_trick(
    ctx: DealContext,
    t: int,
    plays: list[int],
    leader: int,
    singles: list[int],
    doubles: list[int],
    checks: bool,
) -> int:
    """One trick with a joker or a declaration in it (RULES §4, §5, §10.1–10.4), or of the
    104-card deck; the place in the trick of the play that takes it.

    A joker not played plain leaves the winner to ``joker_winner``; a lead demand obliges
    the followers.
    """
    game = ctx.game
    jokers = game.ruleset.joker_mask
    obliging = game.obliging
    trump_obliging = game.trump_obliging
    rotating = game.rotating
    twins = game.copies > 1
    #: A rule other than ``first_wins`` for two identical cards (``twins.best_face``), and
    #: whether a card met its twin as the best so far: only then does the rule matter.
    twin_rule = game.ruleset.identical_cards if twins else _FIRST_WINS
    met_twin = False
    bits = BITS
    suits = SUIT_OF
    order = game.turns[leader]
    trump = ctx.trump
    led = -1
    trick_trump = trump
    trump_mask = trump_obliging[trump] if trump >= 0 else 0
    follow = 0
    demand = False
    decls: list[int] | None = None  # set when a joker is not played plain
    highs: list[int] = []  #: the places of the plays declared to take the trick
    trick_jokers: list[tuple[int, int, int]] | None = None
    ranks = TRICK_RANKS[-1][-1]  # nothing ranks after a joker lead: ``joker_winner`` decides
    best = 0
    best_rank = -1
    for k, code in enumerate(plays):
        seat = order[k]
        card = code & CARD_BITS
        bit = bits[card]
        hand = singles[seat]
        rest = hand ^ bit
        if rest > hand:  # the bit was not set (see ``run``)
            if checks:
                ctx.play_finding(Code.PLAY_NOT_HELD, "does not hold", t, k, seat, code)
            held = False
        else:
            held = checks
            if twins and doubles[seat] & bit:
                doubles[seat] ^= bit
            else:
                singles[seat] = hand = rest
        if bit & jokers or code > CARD_BITS:
            decl, named, fine = declaration(ctx, t, k, seat, code, held)
            held = held and fine
            if bit & jokers:
                trick_jokers = trick_jokers or []
                trick_jokers.append((k, seat, decl))
            if decl != PLAIN and decl:
                decls = decls or [0] * len(plays)
                decls[k] = decl
                if decl in HIGHS:
                    highs.append(k)
                if k == 0:
                    if decl in (LEAD_HIGHEST, LEAD_LOWEST):
                        led = named
                        follow = obliging[led]
                        demand = decl == LEAD_HIGHEST
                        if rotating:
                            trick_trump = NEXT_SUIT[led]
                            trump_mask = trump_obliging[trick_trump]
                    else:  # led without a suit: nobody must follow or trump (§10.1)
                        trump_mask = 0
                continue
        suit = suits[card]
        if k == 0:
            led = suit
            follow = obliging[led]
            if rotating:
                trick_trump = NEXT_SUIT[led]
                trump_mask = trump_obliging[trick_trump]
            ranks = TRICK_RANKS[led][trick_trump]
            best_rank = ranks[card]
        else:
            rank = ranks[card]
            if rank > best_rank:
                best, best_rank = k, rank
            elif rank == best_rank and twin_rule is not _FIRST_WINS and rank >= 0:
                met_twin = True
            if held and suit != led:
                if hand & (follow | trump_mask):
                    not_followed(ctx, t, k, seat, code, hand, led, trick_trump)
            elif held and demand and hand & follow & ~((bit << 1) - 1):
                ctx.play_finding(
                    Code.PLAY_JOKER_DEMAND,
                    f"did not play the highest {suit_name(led)}",
                    t,
                    k,
                    seat,
                    code,
                )
    if decls is not None:
        best = joker_winner(game.ruleset, plays, decls, highs, led, trick_trump, twins)
    elif met_twin:
        best = max(best_face(plays, None, ranks, twin_rule), 0)  # all cancelled: the leader
    if trick_jokers:
        joker_plays = ctx.result.jokers
        for k, joker_seat, decl in trick_jokers:
            joker_plays.append(joker_play(joker_seat, decl, k == best))
    return best


def not_followed(
    ctx: DealContext, t: int, k: int, seat: int, code: int, hand: int, led: int, trick_trump: int
) -> None:
    """A play off the led suit by a seat that held the led suit or a trump (RULES §4).
    (``trump_obliging[-1]``, no trump, obliges nobody.)

    Both trick loops call it only then, so the common void-and-trumpless play costs no
    call; revoke comes before must-trump, as docs/format.md orders one finding per play.
    """
    game = ctx.game
    if hand & game.obliging[led]:
        _offence(ctx, Code.PLAY_REVOKE, f"did not follow {suit_name(led)}", t, k, seat, code)
    elif SUIT_OF[code & CARD_BITS] != trick_trump and hand & game.trump_obliging[trick_trump]:
        _offence(ctx, Code.PLAY_MUST_TRUMP, "did not play a trump", t, k, seat, code)


def _offence(
    ctx: DealContext, code: Code, message: str, t: int, k: int, seat: int, play: int
) -> None:
    """A revoke or a missed trump: an error, or a fine under ``revoke_penalty`` (§10.9)."""
    penalty = ctx.game.ruleset.revoke_penalty
    severity = None
    if penalty is not None:
        ctx.fines[seat] += penalty if penalty >= 0 else -penalty
        severity = Severity.PENALTY
    ctx.play_finding(code, message, t, k, seat, play, severity)


def _check_trick(
    ctx: DealContext, t: int, plays: list[int], leader: int, singles: list[int]
) -> int:
    """The stated leader and the size of one trick (``play.leader``, ``play.count``); the
    seat the trick's plays are counted from.

    That is the leader the rules give, except where the dealt hands are known and the plays
    are all held only when counted from the stated leader (RULES §10.11): then the trick was
    led out of turn, and counting it from the rules' leader would turn one slip into a
    ``play.not_held`` at every play. The seats a short trick lacks are noted for
    ``hands.check_leftovers``: their cards left in hand are the ``play.count`` already found.
    """
    game = ctx.game
    deal = ctx.deal
    stated = deal.leaders[t] if deal.leaders is not None else None
    if stated is not None and stated != leader:
        ctx.find(
            Code.PLAY_LEADER,
            f"leads trick {t + 1}, but {game.players[leader]} should",
            trick=t + 1,
            seat=stated,
            expected=leader,
            actual=stated,
            path=pointer("deals", deal.index, "tricks", t, "leader"),
        )
        if (
            deal.written_hands is not None
            and _all_held(game.turns[stated], plays, singles)
            and not _all_held(game.turns[leader], plays, singles)
        ):
            result = ctx.result
            if result.counted_from is None:
                result.counted_from = {}
            result.counted_from[t] = leader = stated
    if len(plays) != game.n:
        ctx.find(
            Code.PLAY_COUNT,
            f"trick {t + 1} has {count(len(plays), 'play')}, not {game.n}",
            trick=t + 1,
            expected=game.n,
            actual=len(plays),
            path=pointer("deals", deal.index, "tricks", t),
        )
        missed = ctx.missed
        if missed is None:
            missed = ctx.missed = [0] * game.n
        order = game.turns[leader]
        for k in range(len(plays), game.n):
            missed[order[k]] += 1
    return leader


def _all_held(order: tuple[int, ...], plays: list[int], singles: list[int]) -> bool:
    """Whether each play's card is in the hand of its seat when the trick is led by
    ``order[0]`` (a longer trick: its first plays, one per seat)."""
    return all(
        singles[seat] >> (code & CARD_BITS) & 1 for seat, code in zip(order, plays, strict=False)
    )
