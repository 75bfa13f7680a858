"""Deal scores: the tables of RULES §7 and §8, as pure functions of one seat's deal.

Scores are exact: ints where they can be, ``Fraction`` where a multiplier such as 3/2
makes them so (7.5 is a score). Order of operations follows RULES §10.5–10.6: the base
score, then ``all_in_double``, then the deal kind's multiplier, then a blind bid's.
"""

from __future__ import annotations

from ..scores import Number
from .rulesets import DealKind, Ruleset, Scoring

#: Georgian poker (seed 004, RULES §10.12): made b > 0 scores 50 b + 50, a made pass 50,
#: any miss 10 per trick taken; no multipliers.
GEORGIAN_PER_BID = 50
GEORGIAN_MADE_BONUS = 50
GEORGIAN_PASS = 50
GEORGIAN_MISS_PER_TRICK = 10


def deal_score(
    ruleset: Ruleset, kind: DealKind, cards: int, bid: int | None, blind: bool, taken: int
) -> Number:
    """The score of one seat for one deal; ``bid`` is None in deals without bidding."""
    if kind is DealKind.GOLDEN:
        return ruleset.golden_per_trick * taken * ruleset.kind_multipliers[kind]
    if kind is DealKind.MISERE:
        score = ruleset.misere_per_trick * taken * ruleset.kind_multipliers[kind]
        return score + ruleset.misere_clean_bonus if taken == 0 else score
    if bid is None:  # two_jacks' no-trump deals: no bids, golden_per_trick, no multiplier
        return ruleset.golden_per_trick * taken
    if ruleset.scoring is Scoring.GEORGIAN:
        return _georgian(bid, taken)
    if ruleset.scoring is Scoring.OH_HELL:
        return _oh_hell(ruleset, bid, taken)
    if ruleset.scoring is Scoring.FORMULA:
        score = _formula(ruleset, cards, bid, taken)
    else:
        score = _standard(ruleset, kind, cards, bid, taken)
    score = score * ruleset.kind_multipliers[kind]
    if blind and kind is not DealKind.DARK:
        score = score * ruleset.dark_multiplier
    return score


def _standard(ruleset: Ruleset, kind: DealKind, cards: int, bid: int, taken: int) -> Number:
    forehead = kind is DealKind.FOREHEAD
    if taken > bid:
        return ruleset.over_per_trick * taken
    if bid == 0:
        return ruleset.pass_made
    if taken == bid:
        per = ruleset.forehead_made_per_trick if forehead else ruleset.made_per_trick
        score = per * bid
    else:
        per = ruleset.forehead_under_per_missing if forehead else ruleset.under_per_missing
        score = per * (bid - taken)
    if ruleset.all_in_double and bid == cards > 1:
        score *= 2
    return score


def _formula(ruleset: Ruleset, cards: int, bid: int, taken: int) -> Number:
    """The ruleset's own table (``scoring: formula``): one formula for an exact bid, one for a
    miss; ``all_in_double`` does not apply (the formula may read ``cards`` itself)."""
    formula = ruleset.formula_made if taken == bid else ruleset.formula_missed
    assert formula is not None, "a formula ruleset has both (rulesets._formula_findings)"
    return formula(bid, taken, cards)


def _georgian(bid: int, taken: int) -> int:
    if taken != bid:
        return GEORGIAN_MISS_PER_TRICK * taken
    return GEORGIAN_PASS if bid == 0 else GEORGIAN_PER_BID * bid + GEORGIAN_MADE_BONUS


def _oh_hell(ruleset: Ruleset, bid: int, taken: int) -> Number:
    if taken == bid:
        return ruleset.points_per_trick * taken + ruleset.exact_bonus
    if ruleset.off_bid_penalty:
        return -ruleset.points_per_trick * abs(taken - bid)
    return ruleset.points_per_trick * taken
