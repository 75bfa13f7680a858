"""player_merge: two names of one person become one player, now and for later records."""

from __future__ import annotations

from typing import Any

import pytest

from core.errors import Rejected
from games.models import GameSeat, Player, PlayerAlias
from games.selectors import player_find
from games.services import player_merge
from tests.service.conftest import post_record
from verification.models import SeatDeal

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_names(client_of: Any, user: Any, record: Any) -> tuple[Player, Player]:
    """Game 0 has "Anna"; game 1 the same person as "Anya"."""
    client = client_of(user)
    first, second = record(0), record(1)
    second["players"] = ["Anya", "Dmitri", "Elena", "Fyodor"]
    post_record(client, first)
    post_record(client, second)
    return Player.objects.get(key="anya"), Player.objects.get(key="anna")


def test_merging_moves_every_seat_to_the_target_and_its_seat_deals_with_it(
    two_names: tuple[Player, Player], staff_user: Any
) -> None:
    source, target = two_names
    player_merge(source=source, target=target, by=staff_user)
    assert not GameSeat.objects.filter(player=source).exists()
    # A seat-deal names its game and seat, whose player the seat says: now the target.
    seats = set(GameSeat.objects.filter(player=target).values_list("game_id", "seat"))
    assert len(seats) == 2
    assert seats <= set(SeatDeal.objects.values_list("game_id", "seat"))
    assert GameSeat.objects.filter(player=target).count() == 2
    assert set(GameSeat.objects.filter(player=target).values_list("name", flat=True)) == {
        "Anna",
        "Anya",
    }
    source.refresh_from_db()
    assert source.merged_into == target
    alias = PlayerAlias.objects.get(key="anya")
    assert (alias.player, alias.created_by) == (target, staff_user)


def test_later_records_with_the_alias_resolve_to_the_target(
    two_names: tuple[Player, Player], staff_user: Any, client_of: Any, user: Any, record: Any
) -> None:
    source, target = two_names
    player_merge(source=source, target=target, by=staff_user)
    third = record(2)
    third["players"] = ["ANYA ", "Pyotr", "Raisa", "Semyon"]
    game = post_record(client_of(user), third).json()["game"]
    assert GameSeat.objects.get(game_id=game["id"], seat=0).player == target
    assert player_find(name="anya") == target
    assert client_of(user).get("/api/games/", {"player": "Anya"}).json()["count"] == 3


def test_a_player_cannot_be_merged_into_itself_or_into_a_table_mate(
    two_names: tuple[Player, Player], staff_user: Any
) -> None:
    target = two_names[1]
    with pytest.raises(Rejected):
        player_merge(source=target, target=target, by=staff_user)
    boris = Player.objects.get(key="boris")
    with pytest.raises(Rejected, match="one table"):
        player_merge(source=boris, target=target, by=staff_user)
    assert not PlayerAlias.objects.exists()


def test_a_merged_player_cannot_be_merged_again(
    two_names: tuple[Player, Player], staff_user: Any
) -> None:
    source, target = two_names
    player_merge(source=source, target=target, by=staff_user)
    with pytest.raises(Rejected, match="already merged"):
        player_merge(source=source, target=Player.objects.get(key="dmitri"), by=staff_user)
