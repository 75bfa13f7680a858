"""What the admin's own pages share: the links to a game's review and public replay, and the
intermediate page of an action that asks for a form before it acts."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse

from games.models import GameSeat


def review_url(game_id: int, anchor: str = "") -> str:
    return reverse("admin:games_game_review", args=[game_id]) + (f"#{anchor}" if anchor else "")


def replay_url(game_id: int) -> str:
    """The public replay of a game, where ``?deal=D&trick=T&play=P`` opens one moment."""
    return reverse("game-page", args=[game_id])


def seat_names(game_id: int) -> list[str]:
    return list(
        GameSeat.objects.filter(game_id=game_id).order_by("seat").values_list("name", flat=True)
    )


def action_page(
    modeladmin: admin.ModelAdmin,
    request: HttpRequest,
    queryset: QuerySet[Any],
    title: str,
    template: str,
    **context: Any,
) -> TemplateResponse:
    """The intermediate page of an action that asks for a form before it acts.

    It posts the selection back with the action's name, so ``apply`` returns to the action.
    """
    return TemplateResponse(
        request,
        template,
        {
            **modeladmin.admin_site.each_context(request),
            "title": title,
            "opts": modeladmin.model._meta,
            "selected": queryset.values_list("pk", flat=True),
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            **context,
        },
    )
