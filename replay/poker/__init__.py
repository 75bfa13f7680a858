"""The joker poker games (docs/poker.md), format ``raspis-poker/1`` (docs/poker-format.md).

``hands`` ranks five cards with jokers; ``rulesets`` holds the presets and options;
``parse`` reads a record; ``casino`` and ``club`` replay one hand of each game on what
``table`` shares; ``game.verify`` replays a record into its ``report``; ``state`` gives the table
of a hand at each of its moments, for a replay to step through. ``simulate`` and
``corruptions`` make records for tests and benchmarks.
"""
