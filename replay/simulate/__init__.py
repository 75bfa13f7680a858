"""Simulated games: complete random legal games of every preset (RULES §8), optionally with
exactly one defect, for property tests, benchmarks and examples.

The simulator is an independent oracle for the verifier: it decides on its own which plays
are legal (RULES §4, §5, §10.1–10.4), who wins each trick and which bids are allowed
(RULES §3, §10.7, §10.8, §10.10), sharing with the replay only the ruleset tables and the
scoring functions (``tricks.scoring.deal_score``). A game it calls legal that the verifier
rejects is a bug in one of the two.

The players are small bots (OpenSpiel's random playouts, with a little sense): a bid is the
hand's expected tricks, the sum over its cards of a win chance by rank and trump-ness scaled
so that the expected bids of a deal add up to its cards; in play a bot under its bid tries to
take the trick as cheaply as it can and a bot at or over its bid ducks, always among the
legal plays only.

Free schedules (RULES §8): podkidnoy plays its suggested schedule, ``1 … 9`` regular then one
each of ``dark``, ``no_trump``, ``golden``, ``misere`` with 9 cards (never more than the deck
allows); oh_hell plays ``M`` down to 1 and back up to ``M``.

Decisions where RULES leaves room, taken as the replay takes them:

- ``lead_highest_suits: suit`` names a suit other than the deal's trump (the replay also
  accepts the trump suit by letter); ``trump`` is written ``*``, or as the trump's letter.
- A joker played ``plain`` is never used to answer a ``lead_highest`` demand (whether the
  face card of a joker is "the highest" of its suit is not settled by RULES §5).
- A ``lead_lowest`` joker is not ``high`` for ``later_joker_wins`` (RULES §10.3 speaks of the
  demanding joker; the replay counts only ``lead_highest``, the demand that takes).

Corruptions (``CORRUPTIONS``) inject exactly one defect at a random, deterministic place and
say where in ``meta["corruption"]``. Defects in the play are made *while* playing: the
offending seat plays the bad card and the deal goes on legally from the resulting hands (the
replay also applies an illegal play as recorded and goes on), so hands, later plays and every
claim stay consistent and the defect is the record's only error. A defect in the bidding
(hook, three passes, blind pass) is likewise a bid the bots then play to.

- ``revoke``: a seat holding the led suit plays a card of another suit (never a joker). Under
  ``revoke_penalty`` (georgian) the finding is a ``penalty`` and the claimed score carries
  the fine. (A swap with a later card of the same seat would change who wins the trick, and
  with it who leads next and which seat every later play belongs to.)
- ``must_trump``: a seat void in the led suit that holds a trump plays a third suit.
- ``card_played_twice``: a seat plays again a card it played earlier in the deal. The card it
  did not play stays in its hand and is played later; the replay does not report the
  offender's leftover card (``play.hands``), so ``play.not_held`` is the only finding.
- ``joker_demand``: the leader leads a joker ``lead_highest`` naming a suit of which a later
  seat holds two ranks, and that seat plays a lower one.
- ``hook``: the last bidder bids what makes the sum equal ``cards`` (never a banned pass).
- ``three_passes``: from a chosen deal on, one seat passes whenever it may; when two passes
  forbid the third, it passes anyway (never where that pass would also break the hook).
- ``dark_pass``: a seat that is not the hooked last bidder bids ``{"bid": 0, "dark": true}``.
- ``duplicate_card``: a seat gets another copy of a card that seats before it hold, in place
  of one of its own cards (not the trump card); the replay counts copies in seat order.
- ``wrong_schedule``: one deal is dealt with other ``cards`` than the schedule's (a free
  schedule: a kind outside ``kinds_allowed``) and played out legally so.
- ``wrong_score``, ``wrong_total``, ``wrong_dealer``: one claim of the finished record is
  changed; running totals and totals stay as computed from the true scores.
- ``bad_claim``: in one of a deal's last three tricks, the seat to lead claims the rest
  though the others could take a trick from it (``claim.beaten`` at that trick and seat).

Claims (``claims=True``): in a deal's last three tricks, the seat to lead claims the rest
(``"claim": {"seat": S}``, the remaining tricks are its own) when it can take every
remaining trick against every defence. Both are decided by trying every legal play of every
seat (``oracle.Rules._takes_all``), with none of the solver's shortcuts: the solver's answer
(``tricks/solver.py``) must be the same.

The package: ``oracle`` holds the rules as the simulator decides them, ``bots`` the
players, ``corruptions`` the defects, ``writer`` the record's forms, and ``game`` the game
that plays them together, with ``simulate_game`` and ``simulate_games``.
"""

from __future__ import annotations

from .corruptions import CORRUPTION_CODES, CORRUPTIONS
from .game import simulate_game, simulate_games

__all__ = ["CORRUPTIONS", "CORRUPTION_CODES", "simulate_game", "simulate_games"]
