"""API routes for records, uploads and disputes, mounted under ``/api/``."""

from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = []
