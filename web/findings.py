"""A finding in the reader's language, written from its code and fields (docs/format.md).

The engine's ``message`` is English and meant for logs and the API; a page says the same from
the finding's code, player, expected and actual values, through a catalogue of translatable
sentences. Values are shown as players know them: a play as its card (``web.cards``), a seat
as its player's name, a suit as its symbol. A code the catalogue does not know (a request's
finding) keeps its message.

Each game has its catalogue and its places (``Places``): the trick-taking game's are here,
the rummy's in ``web.rummy.findings``, the poker's in ``web.poker.findings``; a report's
findings of any game are written by ``findings_written``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from verification.selectors import Claim
from web.cards import hand_html, play_html, trump_html
from web.words import KINDS


class Worded(Protocol):
    """What a finding of any game is written from: its code, its seat and values."""

    code: str
    severity: str
    seat: int | None
    player: str | None
    message: str
    expected: Any
    actual: Any
    path: str | None


class FindingLike(Worded, Protocol):
    """A stored finding (``verification.models.Finding``) or one of a report that was not stored."""

    deal: int | None
    trick: int | None
    play: int | None


#: How a field is shown: a play (``7S+``), cards (a list), a suit letter or None, a seat.
Kind = Callable[[Any, Sequence[str]], SafeString]


def value_html(value: Any, players: Sequence[str]) -> SafeString:
    if isinstance(value, bool) or value is None:
        return format_html("{}", value)
    if isinstance(value, int | float):
        return format_html("{}", number_format(value))
    if isinstance(value, list):
        return format_html_join(", ", "{}", ((value_html(v, players),) for v in value))
    if isinstance(value, dict):
        return format_html_join(
            ", ", "{}: {}", ((k, value_html(v, players)) for k, v in value.items())
        )
    return format_html("{}", value)


def seat_html(value: Any, players: Sequence[str]) -> SafeString:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(players):
        return format_html("<strong>{}</strong>", players[value])
    return value_html(value, players)


def _play(value: Any, players: Sequence[str]) -> SafeString:
    return play_html(value) if isinstance(value, str) else value_html(value, players)


def _line(value: Any, players: Sequence[str]) -> SafeString:
    """A line of play from a trick's start, a flat list of plays: trick by trick."""
    if not isinstance(value, list) or not players:
        return value_html(value, players)
    n = len(players)
    tricks = (value[k : k + n] for k in range(0, len(value), n))
    return format_html_join(
        ", ",
        "{}",
        ((format_html_join(" ", "{}", ((_play(p, players),) for p in t)),) for t in tricks),
    )


def cards_html(value: Any, players: Sequence[str]) -> SafeString:
    return hand_html(value) if isinstance(value, list) else _play(value, players)


def _suit(value: Any, players: Sequence[str]) -> SafeString:
    return trump_html(value)


def _schedule(value: Any, players: Sequence[str]) -> SafeString:
    """What a deal of the schedule is: its cards and kind (``{"cards": 5, "kind": ...}``),
    or the kinds allowed (a list)."""
    if isinstance(value, dict) and set(value) == {"cards", "kind"}:
        kind = KINDS.get(str(value["kind"]), value["kind"])
        cards = conditional_escape(_("cards: {cards}")).replace(
            "{cards}", value_html(value["cards"], players)
        )
        return format_html("{}, {}", mark_safe(cards), kind)
    if isinstance(value, list):
        return format_html_join(", ", "{}", ((KINDS.get(str(v), v),) for v in value))
    return format_html("{}", KINDS.get(str(value), value))


@dataclass(frozen=True, slots=True)
class Sentence:
    text: Promise
    expected: Kind = value_html
    actual: Kind = value_html
    #: Said instead when the finding has no actual value (a card that is missing).
    absent: Promise | None = None
    #: Said instead when it has no expected value (cards at a showdown no one knows).
    unknown: Promise | None = None
    #: Said instead when it is at no seat (the casino dealer's hand).
    unseated: Promise | None = None


#: A code → how it is said; one per game (``CATALOGUE``, ``web.rummy.findings``,
#: ``web.poker.findings``), since the games share codes that say different things.
Catalogue = dict[str, Sentence]

#: What every game's record says alike: sentences the other games' catalogues share.
RECORD: Catalogue = {
    "record.json": Sentence(gettext_lazy("The record is not JSON, or not a JSON object.")),
    "record.schema": Sentence(
        gettext_lazy("A required field is missing, or a field has the wrong type or value.")
    ),
    "record.ruleset": Sentence(
        gettext_lazy(
            "The ruleset cannot be read: an unknown ruleset or preset, an unknown option, "
            "or a bad value."
        )
    ),
}

#: The trick-taking game's; read in the reader's language each time a finding is written out.
CATALOGUE: Catalogue = {
    **RECORD,
    "record.players": Sentence(
        gettext_lazy("The number of players is outside the ruleset's range, or a name is repeated.")
    ),
    "record.card": Sentence(gettext_lazy("A card or play cannot be read: %(actual)s.")),
    "game.incomplete": Sentence(gettext_lazy("%(actual)s of %(expected)s deals were played.")),
    "game.extra_deal": Sentence(
        gettext_lazy("The game has %(expected)s deals; this record has %(actual)s.")
    ),
    "deal.schedule": Sentence(
        gettext_lazy("The deal is not what the schedule requires: %(expected)s, not %(actual)s."),
        expected=_schedule,
        actual=_schedule,
    ),
    "deal.dealer": Sentence(
        gettext_lazy("The dealer should be %(expected)s, not %(actual)s."),
        expected=seat_html,
        actual=seat_html,
    ),
    "deal.cards": Sentence(
        gettext_lazy("The wrong number of cards is dealt: %(actual)s, not %(expected)s.")
    ),
    "deal.unknown_card": Sentence(
        gettext_lazy("%(actual)s is not in this ruleset's deck."), actual=cards_html
    ),
    "deal.duplicate_card": Sentence(
        gettext_lazy("A card is dealt %(actual)s times; the deck holds it %(expected)s times.")
    ),
    "deal.trump": Sentence(
        gettext_lazy("The trump should be %(expected)s, not %(actual)s."),
        expected=_suit,
        actual=_suit,
    ),
    "deal.trump_card": Sentence(
        gettext_lazy("The trump card %(actual)s is missing or in the wrong place."),
        actual=cards_html,
        absent=gettext_lazy("The trump card is missing."),
    ),
    "bid.missing": Sentence(gettext_lazy("%(player)s has no bid.")),
    "bid.unexpected": Sentence(gettext_lazy("This kind of deal has no bids.")),
    "bid.range": Sentence(
        gettext_lazy("%(player)s bid %(actual)s: a bid is from 0 to the cards dealt.")
    ),
    "bid.hook": Sentence(
        gettext_lazy(
            "%(player)s, bidding last, bid %(actual)s and made the bids add up to the cards dealt."
        )
    ),
    "bid.three_passes": Sentence(gettext_lazy("%(player)s passed a third time in a row.")),
    "bid.dark": Sentence(
        gettext_lazy("%(player)s bid blind where that is not allowed, or passed blind.")
    ),
    "bid.auction": Sentence(
        gettext_lazy("The calls, bids or declarer do not agree with the auction.")
    ),
    "play.count": Sentence(
        gettext_lazy("The wrong number of tricks or plays: %(actual)s, not %(expected)s.")
    ),
    "play.leader": Sentence(
        gettext_lazy("%(actual)s led the trick, but %(expected)s should have."),
        expected=seat_html,
        actual=seat_html,
    ),
    "play.not_held": Sentence(
        gettext_lazy("%(player)s played %(actual)s without holding it."), actual=_play
    ),
    "play.revoke": Sentence(
        gettext_lazy("%(player)s played %(actual)s and did not follow suit, though able to."),
        actual=_play,
    ),
    "play.must_trump": Sentence(
        gettext_lazy("%(player)s played %(actual)s: with none of the suit led, a trump was due."),
        actual=_play,
    ),
    "play.joker": Sentence(
        gettext_lazy(
            "%(player)s played %(actual)s: the joker's declaration is missing, unknown "
            "or not allowed."
        ),
        actual=_play,
    ),
    "play.joker_demand": Sentence(
        gettext_lazy("%(player)s played %(actual)s, not the highest card the joker demanded."),
        actual=_play,
    ),
    "play.hands": Sentence(
        gettext_lazy("%(player)s was dealt cards never played: %(actual)s."), actual=cards_html
    ),
    "claim.beaten": Sentence(
        gettext_lazy(
            "%(player)s claimed the last %(expected)s tricks, but the others could take one: "
            "%(actual)s."
        ),
        actual=_line,
    ),
    "claim.unchecked": Sentence(
        gettext_lazy(
            "The claim of %(player)s was not checked: the hands are not known, a trick before "
            "it is short, or the search would take too long."
        )
    ),
    "import.source": Sentence(gettext_lazy("The file cannot be read in the format chosen.")),
    "import.value": Sentence(gettext_lazy("A value of the file has no counterpart in a record.")),
    "import.unmapped": Sentence(
        gettext_lazy("Part of the file cannot be carried into the record, and is left out.")
    ),
    "result.taken": Sentence(
        gettext_lazy("%(player)s took %(expected)s tricks; the sheet says %(actual)s.")
    ),
    "result.sum": Sentence(
        gettext_lazy("The tricks taken add up to %(actual)s, not %(expected)s.")
    ),
    "result.score": Sentence(
        gettext_lazy("%(player)s scored %(expected)s in this deal; the sheet says %(actual)s.")
    ),
    "result.running": Sentence(
        gettext_lazy("The running total of %(player)s is %(expected)s; the sheet says %(actual)s.")
    ),
    "result.total": Sentence(
        gettext_lazy("The final total of %(player)s is %(expected)s; the sheet says %(actual)s.")
    ),
}

SEVERITIES: dict[str, Promise] = {
    "error": pgettext_lazy("severity", "error"),
    "warning": pgettext_lazy("severity", "warning"),
    "mismatch": pgettext_lazy("severity", "mismatch"),
    "penalty": pgettext_lazy("severity", "penalty"),
}


def finding_text(
    finding: Worded, players: Sequence[str], catalogue: Catalogue = CATALOGUE
) -> SafeString:
    """The finding as a sentence in the active language, its values shown as players know
    them; where a record's field is at fault, the place in the record follows. ``catalogue``
    is the finding's game's."""
    sentence = catalogue.get(finding.code)
    if sentence is None:
        return format_html("{}", finding.message)
    player = finding.player
    if player is None and finding.seat is not None and 0 <= finding.seat < len(players):
        player = players[finding.seat]
    fields = {
        "player": format_html("<strong>{}</strong>", player or _("a player")),
        "expected": sentence.expected(finding.expected, players),
        "actual": sentence.actual(finding.actual, players),
    }
    said = sentence.text
    if finding.actual is None and sentence.absent:
        said = sentence.absent
    elif finding.expected is None and sentence.unknown:
        said = sentence.unknown
    elif finding.seat is None and sentence.unseated:
        said = sentence.unseated
    text = conditional_escape(str(said)) % fields
    if finding.code.startswith("record.") and finding.path:
        text += " " + conditional_escape(_("At %(path)s in the record.") % {"path": finding.path})
    elif finding.code.startswith("import.") and finding.path:
        text += " " + conditional_escape(_("At %(path)s in the file.") % {"path": finding.path})
    # The sentence is escaped and every value was built safe.
    return mark_safe(text)


def severity_text(severity: str) -> str:
    return str(SEVERITIES.get(severity, severity))


@dataclass(frozen=True, slots=True)
class Places:
    """Where a game's findings are, as its players count: the names of its three places in
    a finding (outermost first) and how a place is said down to each of them."""

    keys: tuple[str, str, str]
    said: tuple[Promise, Promise, Promise]


TRICK_PLACES = Places(
    ("deal", "trick", "play"),
    (
        gettext_lazy("deal %(deal)s"),
        gettext_lazy("deal %(deal)s, trick %(trick)s"),
        gettext_lazy("deal %(deal)s, trick %(trick)s, play %(play)s"),
    ),
)


def place_text(places: Places, values: Sequence[int | None]) -> str:
    """A place in a game (its values in the order of ``places.keys``), down to the last one
    given: "deal 2, turn 17" when there is no action."""
    depth = next((i for i, value in enumerate(values) if value is None), len(values))
    if depth == 0:
        return _("the whole game")
    return str(places.said[depth - 1]) % dict(zip(places.keys[:depth], values, strict=False))


def where_text(finding: FindingLike) -> str:
    """Where in the game a trick-taking finding is, as players count: deal, trick, play."""
    return place_text(TRICK_PLACES, (finding.deal, finding.trick, finding.play))


@dataclass(slots=True)
class Located:
    """A finding of a report's JSON, with its game's places (``Places.keys``) in order
    (not frozen: ``Worded``'s fields are those of a model's row)."""

    code: str
    severity: str
    places: tuple[int | None, ...]
    seat: int | None
    player: str | None
    message: str
    expected: Any
    actual: Any
    path: str | None

    @classmethod
    def of(cls, finding: dict[str, Any], places: Places) -> Located:
        return cls(
            code=str(finding.get("code", "")),
            severity=str(finding.get("severity", "")),
            places=tuple(finding.get(key) for key in places.keys),
            seat=finding.get("seat"),
            player=finding.get("player"),
            message=str(finding.get("message", "")),
            expected=finding.get("expected"),
            actual=finding.get("actual"),
            path=finding.get("path"),
        )


@dataclass(frozen=True, slots=True)
class Written:
    """A finding as a page lists it (``web/_findings.html``): in words, with its place."""

    finding: Located
    text: str
    severity: str
    where: str
    query: str | None = None  #: a moment of a replay; the rummy and the poker have none yet


def findings_written(
    findings: list[dict[str, Any]], places: Places, catalogue: Catalogue, players: Sequence[str]
) -> list[Written]:
    """A report's findings (its JSON) in the reader's language, each at its game's place."""
    written = []
    for raw in findings:
        finding = Located.of(raw, places)
        written.append(
            Written(
                finding,
                str(finding_text(finding, players, catalogue)),
                severity_text(finding.severity),
                place_text(places, finding.places),
            )
        )
    return written


def claim_at(claims: dict[tuple[Any, Any], Any], where: tuple[Any, Any], value: Any) -> Claim:
    """The replay's ``value`` at ``where`` beside what the record claims there, if a finding
    said it differs (``claimed_values``)."""
    if where in claims:
        return Claim(claims[where], value, differs=True)
    return Claim(value, value)


def claimed_values(findings: Sequence[Written], code: str) -> dict[tuple[Any, Any], Any]:
    """What the record claims where a ``code`` finding (a ``result.*``) says the replay
    differs: (first place, seat) → the claimed value, its ``actual``."""
    return {
        (w.finding.places[0], w.finding.seat): w.finding.actual
        for w in findings
        if w.finding.code == code
    }
