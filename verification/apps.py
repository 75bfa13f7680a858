from django.apps import AppConfig


class VerificationConfig(AppConfig):
    """Keeps what the engine (``replay``) says of stored records: reports, findings and the
    rows derived from them.

    The label stays ``replay``, the app's name before the engine became a package of its
    own: the label names the database tables, the migration history, the content types and
    the permissions, so keeping it moves no data.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "verification"
    label = "replay"
    verbose_name = "Replay"
