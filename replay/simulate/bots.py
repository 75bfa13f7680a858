"""The simulator's players: small bots (OpenSpiel's random playouts, with a little sense).

A bid is the hand's expected tricks, the sum over its cards of a win chance by rank and
trump-ness scaled so that the expected bids of a deal add up to its cards; in play a bot
under its bid tries to take the trick as cheaply as it can and a bot at or over its bid
ducks, always among the legal plays only (``oracle.Rules._options``).
"""

from __future__ import annotations

from ..cards import Deck
from ..tricks.rulesets import DealKind
from .oracle import HIGHS, X1, Call, Deal, Play, Rules, rank_of, suit_of


class Bots(Rules):
    def _estimate(self, hand: list[int], cards: int, blind: bool) -> float:
        """Expected tricks: a win chance per card, scaled so a deal's bids add up to its cards."""
        if blind:
            return cards / self.n + self.rng.gauss(0, 0.5)
        mean = sum(self._chance(c) for c in self.deck) / len(self.deck)
        raw = sum(self._chance(c) for c in hand)
        return raw / (self.n * mean) + self.rng.gauss(0, 0.35)

    def _chance(self, card: int) -> float:
        if card in self.jokers or card >= X1:
            return 0.95
        low = 4 if self.deck_name is Deck.SHORT else 0
        q = (rank_of(card) - low) / (12 - low)
        if self.trump >= 0 and suit_of(card) == self.trump:
            return 0.3 + 0.7 * q * q
        return q**4 * (0.85 if self.trump >= 0 else 1.0)

    def _choose(
        self, deal: Deal, seat: int, taken: list[int], options: list[Play], plays: list[Play]
    ) -> Play:
        """A bot's play: take cheaply when it still needs tricks, else duck."""
        rng = self.rng
        if rng.random() < 0.08:
            return rng.choice(options)
        if deal.kind is DealKind.MISERE:
            want = False
        elif deal.bids is None:
            want = True  # golden, and two_jacks' no-trump deals: every trick counts
        else:
            want = taken[seat] < deal.bids[seat]
        k = len(plays)
        _, trump, _ = self._context(plays)
        rated: list[tuple[Play, bool, int]] = [
            (p, self._winner([*plays, p]) == k, self._cost(p, trump)) for p in options
        ]
        if not plays:  # lead the strongest card to take (a joker now and then), else the weakest
            faces = [x for x in rated if x[0].face]
            pool = faces if want and faces and rng.random() < 0.6 else rated
            highest = want
        elif want:  # take as cheaply as possible (or safely, early in the trick), else dump
            winners = [x for x in rated if x[1]]
            pool = winners or rated
            highest = bool(winners) and k < self.n - 1 and rng.random() < 0.4
        else:  # dump the highest card that does not take (a joker first), else the cheapest
            losers: list[tuple[Play, bool, int]]
            losers = [(p, w, 30 if p.decl == Call.PLAIN else c) for p, w, c in rated if not w]
            pool, highest = losers or rated, bool(losers)
        costs = [x[2] for x in pool]
        target = max(costs) if highest else min(costs)
        return rng.choice([x[0] for x in pool if x[2] == target])

    def _cost(self, play: Play, trump: int) -> int:
        if play.decl in HIGHS:
            return 40
        if play.decl == Call.LEAD_LOWEST:
            return 3
        if play.decl == Call.LOW:
            return 11
        card = play.card
        trumps = 0 <= suit_of(card) in (trump, self.trump)
        return rank_of(card) + (13 if trumps else 0)
