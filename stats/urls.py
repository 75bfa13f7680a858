"""API routes for statistics, ratings and leaderboards, mounted under ``/api/``."""

from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = []
