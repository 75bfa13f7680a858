from django.apps import AppConfig


class StatsConfig(AppConfig):
    """Statistics, OpenSkill ratings and leaderboards, derived only from verified games."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "stats"
    verbose_name = "Statistics"
