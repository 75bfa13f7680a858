"""The reads behind the player and head-to-head pages: recent games with the rating's change,
frequent opponents, and the games two players shared."""

from __future__ import annotations

from typing import Any

import pytest

from stats import selectors

from .conftest import GAME_1, player_id, record, won_by

pytestmark = pytest.mark.django_db


def ratings_of(name: str) -> list[dict[str, Any]]:
    pk = player_id(name)
    rows = selectors.player_rating_rows(player_id=pk)
    return selectors.player_ratings_data(player_id=pk, ratings=rows)


def test_recent_games_are_latest_first_with_place_total_and_rating_change(store: Any) -> None:
    march, may, april = store(
        [
            won_by("Anna", "Boris", "Vera", "2025-03-01T20:00:00Z"),
            won_by("Boris", "Anna", "Vera", "2025-05-01T20:00:00Z"),
            won_by("Vera", "Anna", "Boris", "2025-04-01T20:00:00Z"),
        ]
    )
    history = ratings_of("Anna")
    recent = selectors.player_recent_games(player_id=player_id("Anna"), history=history, limit=2)
    assert [g["game"] for g in recent] == [may, april]
    (classic,) = history
    ordinals = {h["game"]: h["ordinal"] for h in classic["history"]}
    assert recent[0]["change"] == pytest.approx(ordinals[may] - ordinals[april])
    # Anna was second in both (won_by: winner 10, second 0, third −8), at tables of three.
    assert [(g["place"], g["total"], g["players"], g["winner"]) for g in recent] == [
        (2, 0, 3, False),
        (2, 0, 3, False),
    ]
    first = selectors.player_recent_games(player_id=player_id("Anna"), history=history)[-1]
    assert (first["game"], first["change"], first["place"], first["winner"]) == (
        march,
        None,
        1,
        True,
    )


def test_opponents_are_the_players_met_most_often(store: Any) -> None:
    store(
        [
            won_by("Anna", "Boris", "Vera", "2025-03-01T20:00:00Z"),
            won_by("Anna", "Boris", "Gleb", "2025-03-02T20:00:00Z"),
            won_by("Boris", "Anna", "Gleb", "2025-03-03T20:00:00Z"),
        ]
    )
    opponents = selectors.player_opponents(player_id=player_id("Anna"), limit=2)
    assert [(o["name"], o["games"]) for o in opponents] == [("Boris", 3), ("Gleb", 2)]
    assert (opponents[0]["ahead"], opponents[0]["behind"], opponents[0]["ties"]) == (2, 1, 0)
    (of_gleb,) = selectors.player_opponents(player_id=player_id("Gleb"), limit=1)
    assert of_gleb["id"] in {player_id("Anna"), player_id("Boris")}
    assert of_gleb["behind"] == 2


def test_versus_games_are_the_shared_tables_latest_first(store: Any) -> None:
    first, _, second = store(
        [
            won_by("Anna", "Boris", "Vera", "2025-03-01T20:00:00Z"),
            record(GAME_1, players=["Gleb", "Daria", "Anna"]),
            won_by("Boris", "Anna", "Gleb", "2025-03-03T20:00:00Z"),
        ]
    )
    games = selectors.versus_games(a=player_id("Anna"), b=player_id("Boris"))
    assert [g["game"] for g in games] == [second, first]
    assert games[0]["player"] == {"total": 0, "place": 2}
    assert games[0]["opponent"] == {"total": 10, "place": 1}
    assert selectors.versus_games(a=player_id("Vera"), b=player_id("Daria")) == []
