"""The staff's interface to games, players, rulesets, disputes and clubs: one more interface
over the services, like the API, one module per model (each registers its own admin).

Actions (re-verify games, decide disputes, merge players, trust clubs) each call their
service, which refuses what it must; a refusal is shown as a message and changes nothing.
A player's statistics and ratings are added to the player's page by the statistics' own admin
(``stats.admin``), which knows them.
"""

from games.admin import clubs, disputes, games, players, rulesets

__all__ = ["clubs", "disputes", "games", "players", "rulesets"]
