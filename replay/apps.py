from django.apps import AppConfig


class ReplayConfig(AppConfig):
    """Adapts the pure engine (``replay.engine``) to the database; the only app that knows both."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "replay"
    verbose_name = "Replay"
