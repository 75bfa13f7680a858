"""The Celery application shared by the web process, the workers and beat.

Settings come from Django's settings under the ``CELERY_`` prefix, so one module configures
both; tasks are found in each installed app's ``tasks.py``.
"""

import gc
import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("raspis")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.worker_ready.connect  # a solo worker works in its main process
@signals.worker_process_init.connect  # a prefork worker in its children
def _heap_frozen(**kwargs: object) -> None:
    """Keep what start-up loaded out of the garbage collector's full passes.

    Django, Celery and the apps leave hundreds of thousands of long-lived objects, which each
    full collection walked again: three passes of 40-60 ms in an upload of 2,000 records.
    """
    gc.freeze()
