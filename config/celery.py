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
    full collection would walk again, several times in every large upload.
    """
    gc.freeze()


def sending_prepared() -> None:
    """Load now what the first task sent from this process would load.

    The web process queues an upload's batches as their items commit. The first upload
    after a restart imported the task modules, bound every task and imported the broker's
    transport and the result backend (kombu, redis-py): about a tenth of a second by which
    a worker started its first batch later. Nothing connects here: the transport connects
    on first use, so a broker that is down does not stop the web process from starting.
    """
    app.loader.import_default_modules()  # every app's tasks.py
    app.tasks  # noqa: B018 - finalizes the app: binds every task
    app.producer_pool  # noqa: B018 - imports the broker's transport
    app.backend  # noqa: B018 - imports the result backend
