from django.apps import AppConfig


class UploadsConfig(AppConfig):
    """Files of many records: stored as they arrive, split into items, verified in batches."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "uploads"
    verbose_name = "Uploads"
