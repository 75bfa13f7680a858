"""WSGI entry point, served by gunicorn in production (``gunicorn config.wsgi``)."""

import os

from django.core.wsgi import get_wsgi_application

from config.celery import sending_prepared

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()
sending_prepared()
