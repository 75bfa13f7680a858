"""API routes for statistics, ratings and leaderboards, mounted under ``/api/``."""

from django.conf import settings
from django.urls import URLPattern, URLResolver, path

from stats.apis import (
    BenchRowApi,
    LeaderboardApi,
    LeaderboardExportApi,
    PlayerDetailApi,
    PlayerListApi,
    PlayerRatingsApi,
    PlayerStatsApi,
    PlayerStatsExportApi,
    PlayerVersusApi,
)

urlpatterns: list[URLPattern | URLResolver] = [
    path("players/", PlayerListApi.as_view(), name="players"),
    path("players/<int:player_id>/", PlayerDetailApi.as_view(), name="player-detail"),
    path("players/<int:player_id>/stats/", PlayerStatsApi.as_view(), name="player-stats"),
    path("players/<int:player_id>/ratings/", PlayerRatingsApi.as_view(), name="player-ratings"),
    path(
        "players/<int:player_id>/versus/<int:opponent_id>/",
        PlayerVersusApi.as_view(),
        name="player-versus",
    ),
    path("leaderboards/<str:ruleset>/", LeaderboardApi.as_view(), name="leaderboard"),
]
for kind in ("csv", "jsonl"):
    urlpatterns += [
        path(
            f"players/<int:player_id>/stats/export.{kind}",
            PlayerStatsExportApi.as_view(),
            {"kind": kind},
            name=f"player-stats-{kind}",
        ),
        path(
            f"leaderboards/<str:ruleset>/export.{kind}",
            LeaderboardExportApi.as_view(),
            {"kind": kind},
            name=f"leaderboard-{kind}",
        ),
    ]

if settings.DEBUG or settings.RASPIS_BENCH:
    # The baseline that bench/stats.py compares the statistics endpoint with.
    urlpatterns.append(path("bench/row/<int:row_id>/", BenchRowApi.as_view(), name="bench-row"))
