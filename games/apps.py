from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Records as uploaded, the players named in them, uploads and disputes."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"
