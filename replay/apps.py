from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class ReplayConfig(AppConfig):
    """Adapts the pure engine (``replay.engine``) to the database: reports, findings and the
    rows derived from them."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "replay"
    verbose_name = "Replay"

    def ready(self) -> None:
        from games.signals import players_merged

        players_merged.connect(seat_deals_repoint, dispatch_uid="replay.players_merged")


def seat_deals_repoint(sender: object, source_id: int, target_id: int, **kwargs: Any) -> None:
    """A merged player's seat-deals are the target's, in the merge's transaction."""
    from replay.models import SeatDeal

    SeatDeal.objects.filter(player_id=source_id).update(player_id=target_id)
