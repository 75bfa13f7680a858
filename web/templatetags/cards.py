"""Template filters that write cards as players do (``web.cards``):
``{{ "TD"|card }}``, ``{{ "7S+H"|play }}``, ``{{ deal.trump|trump }}``, ``{{ hand|hand }}``."""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.utils.safestring import SafeString

from web import cards

register = template.Library()


@register.filter
def card(value: object) -> SafeString:
    return cards.card_html(value)


@register.filter
def play(value: object) -> SafeString:
    return cards.play_html(value)


@register.filter
def trump(value: object) -> SafeString:
    return cards.trump_html(value)


@register.filter
def hand(value: Iterable[object] | None) -> SafeString:
    return cards.hand_html(value or ())
