from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Games and their records as uploaded, the players named in them, rulesets and disputes."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"
