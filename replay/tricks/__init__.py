"""The trick-taking family: Расписной покер and its presets (RULES §1–§10), record format
``raspis/1``.

Split by phase, as OpenSpiel splits its games: the rulesets and the record parser; per
deal the schedule and the hands (``hands``), the trump (``trump``), the bids with the
auction (``bidding``), the tricks (``play``) with the jokers (``jokers``), the scores
(``scoring``) and the claimed values (``claimed``); ``game`` runs a record through them,
and ``state`` reads one moment of a replayed game.
"""
