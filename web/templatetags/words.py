"""Filters for the service's values in the reader's language (``web.words``)."""

from __future__ import annotations

from django import template

from web import words

register = template.Library()


@register.filter
def verdict(value: str) -> str:
    return str(words.VERDICT_WORDS.get(value, value))


@register.filter
def verdict_hint(value: str) -> str:
    return str(words.VERDICT_HINTS.get(value, ""))


@register.filter
def status(value: str) -> str:
    return str(words.STATUSES.get(value, value))


@register.filter
def outcome(value: str) -> str:
    return str(words.OUTCOMES.get(value, value))


@register.filter
def family(value: str) -> str:
    return str(words.FAMILIES.get(value, value))
