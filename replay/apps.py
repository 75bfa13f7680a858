from django.apps import AppConfig


class ReplayConfig(AppConfig):
    """Adapts the pure engine (``replay.engine``) to the database: reports, findings and the
    rows derived from them."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "replay"
    verbose_name = "Replay"
