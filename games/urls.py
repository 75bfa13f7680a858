"""API routes for records, disputes and rulesets, mounted under ``/api/``, and the token an
account's username and password obtain."""

from django.urls import URLPattern, URLResolver, path

from games.apis.auth import TokenApi
from games.apis.disputes import DisputeCreateApi, DisputeListApi, DisputeResolveApi
from games.apis.games import (
    GameDetailApi,
    GameExportApi,
    GameRecordApi,
    GameReplayApi,
    GamesApi,
    GameTotalsExportApi,
    VerifyApi,
)
from games.apis.rulesets import RulesetsApi
from games.apis.trust import GameConfirmApi, PlayerLinkApi, PlayerLinkApproveApi, PlayerLinkListApi

urlpatterns: list[URLPattern | URLResolver] = [
    path("auth/token/", TokenApi.as_view(), name="auth-token"),
    path("verify/", VerifyApi.as_view(), name="verify"),
    path("games/", GamesApi.as_view(), name="games"),
    path("games/export.jsonl", GameExportApi.as_view(), name="game-export"),
    *(
        path(
            f"games/totals.{kind}",
            GameTotalsExportApi.as_view(),
            {"kind": kind},
            name=f"game-totals-{kind}",
        )
        for kind in ("csv", "jsonl")
    ),
    path("games/<int:game_id>/", GameDetailApi.as_view(), name="game-detail"),
    path("games/<int:game_id>/record/", GameRecordApi.as_view(), name="game-record"),
    path("games/<int:game_id>/replay/", GameReplayApi.as_view(), name="game-replay"),
    path("games/<int:game_id>/disputes/", DisputeCreateApi.as_view(), name="game-disputes"),
    path("disputes/", DisputeListApi.as_view(), name="disputes"),
    path("disputes/<int:dispute_id>/resolve/", DisputeResolveApi.as_view(), name="dispute-resolve"),
    path("rulesets/", RulesetsApi.as_view(), name="rulesets"),
    path("games/<int:game_id>/confirm/", GameConfirmApi.as_view(), name="game-confirm"),
    path("players/<int:player_id>/link/", PlayerLinkApi.as_view(), name="player-link"),
    path("player-links/", PlayerLinkListApi.as_view(), name="player-links"),
    path(
        "player-links/<int:link_id>/approve/",
        PlayerLinkApproveApi.as_view(),
        name="player-link-approve",
    ),
]
