"""The Celery application shared by the web process, the workers and beat.

Settings come from Django's settings under the ``CELERY_`` prefix, so one module configures
both; tasks are found in each installed app's ``tasks.py``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("raspis")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
