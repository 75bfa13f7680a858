"""Cards on a page as players write them (web.cards, the ``cards`` template filters)."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from web.cards import card_html, hand_order, play_html, trump_html


def _render(source: str, **context: object) -> str:
    return Template("{% load cards %}" + source).render(Context(context))


@pytest.mark.parametrize(
    ("language", "code", "written", "colour"),
    [
        ("en", "TD", "10♦", "red"),
        ("en", "10♦", "10♦", "red"),
        ("en", "KS", "K♠", "black"),
        ("ru", "KS", "К♠", "black"),
        ("ru", "qh", "Д♥", "red"),
        ("ru", "Т♣", "Т♣", "black"),
        ("en", "Т♣", "A♣", "black"),
        ("ru", "JC", "В♣", "black"),
    ],
)
def test_a_card_is_its_rank_then_its_suit_coloured(
    language: str, code: str, written: str, colour: str
) -> None:
    with translation.override(language):
        assert (
            _render("{{ code|card }}", code=code) == f'<span class="card {colour}">{written}</span>'
        )


def test_a_jokers_play_says_its_declaration_in_words() -> None:
    with translation.override("en"):
        assert "Joker" in play_html("X1+") and "high" in play_html("X1+")
        demand = play_html("7S+H")
        assert demand.startswith('<span class="card black">7♠</span>')
        assert "joker, the highest" in demand and '<span class="suit red">♥</span>' in demand
        assert "as the lowest trump" in play_html("X2-*")
    with translation.override("ru"):
        assert "Джокер" in play_html("X1-") and "младший" in play_html("X1-")
        assert "джокер, по старшим" in play_html("7S+D")


def test_what_is_no_card_is_written_as_it_stands_escaped() -> None:
    assert card_html("<b>") == '<span class="card unknown">&lt;b&gt;</span>'
    assert play_html("ZZ+") == '<span class="card unknown">ZZ+</span>'


def test_no_trump_is_said_in_words() -> None:
    with translation.override("ru"):
        assert trump_html(None) == '<span class="no-trump">без козыря</span>'
        assert trump_html("H") == '<span class="suit red">♥</span>'


def test_a_hand_is_held_jokers_first_then_by_suit_the_highest_first() -> None:
    assert hand_order(["2S", "AH", "X1", "KS", "TD", "junk", "9C"]) == [
        "X1",
        "KS",
        "2S",
        "9C",
        "TD",
        "AH",
        "junk",
    ]
