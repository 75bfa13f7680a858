"""The replay of a game as a page steps through it: the table at every moment of every deal.

The server builds one timeline of the game from its sheet (``verification.selectors``: each
trick's plays at their seats, its winner, the findings where they happen) and the dealt
hands of the record; a page shows one moment of it (``moment``), and ``web/replay.js`` steps
through the same timeline in the browser without asking the server again. A moment is
(deal, trick, play) as players count and as ``GET /api/games/{id}/replay/`` takes them:
without ``play`` the trick is complete, without ``trick`` the deal is. Trick 1 play 0 is a
deal's start, the hands as dealt.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from django.utils.formats import number_format
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from replay.cards import CARD_BITS, CARD_CODES, PLAY_CODES, card_name
from verification.models import Finding
from verification.selectors import DealView, Sheet
from web import steps
from web.cards import card_html, hand_order, play_html, trump_html
from web.findings import finding_text, severity_text
from web.words import KINDS


def shown(value: Any) -> str:
    """A bid or a score as the reader's locale writes numbers; nothing for None."""
    if value is None:
        return ""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)  # no thousands separators: scores are read as they are written
    if isinstance(value, float):
        return number_format(value)
    return str(value)


def _note(finding: Finding, players: Sequence[str]) -> dict[str, str]:
    return {
        "severity": finding.severity,
        "label": severity_text(finding.severity),
        "html": str(finding_text(finding, players)),
    }


@functools.lru_cache(maxsize=4096)
def _card_of(play: str) -> str | None:
    """The card a play takes from its seat's hand, canonically (``TD``), if it is readable."""
    code = PLAY_CODES.get(play.strip().upper())
    return None if code is None else card_name(code & CARD_BITS)


def _dealt(claimed: Any, deal: DealView, n: int) -> list[list[str]]:
    """The hands as dealt, as players hold them (``hand_order``): the record's, else each
    seat's cards as it played them."""
    hands = claimed.get("hands") if isinstance(claimed, dict) else None
    if isinstance(hands, list) and len(hands) == n and all(isinstance(h, list) for h in hands):
        return [hand_order(_canonical(c) for c in hand) for hand in hands]
    played: list[list[str]] = [[] for _ in range(n)]
    for trick in deal.tricks:
        for play in trick.plays:
            card = _card_of(play.play)
            if card is not None:
                played[play.seat].append(card)
    return [hand_order(hand) for hand in played]


def _trump_card(claimed: Any) -> str | None:
    """The card turned up for trump, as written on a page, if the record names one."""
    card = claimed.get("trump_card") if isinstance(claimed, dict) else None
    return str(card_html(card)) if isinstance(card, str) and card.strip() else None


def _canonical(card: Any) -> str:
    """A dealt card's canonical code (``TD`` for ``10♦``); what is no card, as written."""
    if not isinstance(card, str):
        return str(card)
    return _CANONICAL.get(card) or _CANONICAL.get(card.strip().upper()) or card


_CANONICAL = {spelling: card_name(card) for spelling, card in CARD_CODES.items()}


def timeline(sheet: Sheet) -> dict[str, Any]:
    """The whole game for the page and its script: every deal's hands, bids, tricks with
    their plays, winners and findings, and the running totals, in the reader's language
    (cards and sentences written as HTML). A play is ``[seat, play, card]``, with its
    findings' notes as a fourth item when it has any; a trick has ``notes`` only when it
    has findings of its own: a page holds a thousand plays."""
    players = sheet.players
    n = len(players)
    claimed_deals = sheet.record.get("deals")
    if not isinstance(claimed_deals, list):
        claimed_deals = []
    faces: dict[str, str] = {}
    deals = []
    before = ["0"] * n
    for index, deal in enumerate(sheet.deals):
        claimed = claimed_deals[index] if index < len(claimed_deals) else {}
        hands = _dealt(claimed, deal, n)
        for hand in hands:
            for card in hand:
                if card not in faces:
                    faces[card] = str(card_html(card))
        tricks = []
        for trick in deal.tricks:
            plays = []
            for play in trick.plays:
                key = "play:" + play.play
                if key not in faces:
                    faces[key] = str(play_html(play.play))
                item: list[Any] = [play.seat, play.play, _card_of(play.play)]
                if play.findings:
                    item.append([_note(f, players) for f in play.findings])
                plays.append(item)
            entry: dict[str, Any] = {"leader": trick.leader, "winner": trick.winner, "plays": plays}
            if trick.findings:
                entry["notes"] = [_note(f, players) for f in trick.findings]
            tricks.append(entry)
        after = [shown(s.running.recomputed) for s in deal.seats]
        deals.append(
            {
                "number": deal.number,
                "cards": deal.cards,
                "kind": deal.kind,
                "kind_words": str(KINDS.get(deal.kind, deal.kind)),
                "dealer": deal.dealer.recomputed,
                "trump": str(trump_html(deal.trump)),
                "trump_card": _trump_card(claimed),
                "bids": [shown(s.bid) for s in deal.seats],
                "taken": [shown(s.taken.recomputed) for s in deal.seats],
                "scores": [shown(s.score.recomputed) for s in deal.seats],
                "before": before,
                "after": after,
                "hands": hands,
                "tricks": tricks,
                "notes": [_note(f, players) for f in deal.notes],
            }
        )
        before = after
    return {"players": players, "faces": faces, "deals": deals}


class NoMoment(ValueError):
    """The address asks for a moment the game does not have; the message says which."""


@dataclass(frozen=True, slots=True)
class Moment:
    """One moment of the table, ready for the template."""

    deal: int
    trick: int | None  #: None in a deal audited from the sheet, which has no tricks
    play: int | None
    data: Mapping[str, Any]  #: the deal in the timeline
    seats: list[dict[str, Any]]  #: per seat: name, hand, bid, taken, running
    table: list[dict[str, Any]]  #: the plays of the trick so far
    notes: list[dict[str, str]]  #: findings at or before this moment of the trick
    complete: bool  #: every play of the trick is on the table
    done: bool  #: the deal is over: its scores count
    winner: int | None


def place_params(
    query: Mapping[str, str], names: Sequence[str], needs: Sequence[str]
) -> list[int | None]:
    """The places ``names`` of an address (a game's, outermost first), each a number or
    absent. A value that is no number is NoMoment, and so is a place given without the one
    before it: ``needs[i]`` says that ``names[i + 1]`` lacks ``names[i]``."""
    values: list[int | None] = []
    for name in names:
        text = query.get(name)
        if text is None or text == "":
            values.append(None)
            continue
        try:
            values.append(int(text))
        except ValueError:
            raise NoMoment(
                _("%(name)s must be a number, not “%(value)s”") % {"name": name, "value": text}
            ) from None
    for outer, inner, words in zip(values, values[1:], needs, strict=False):
        if inner is not None and outer is None:
            raise NoMoment(words)
    return values


def moment_params(query: Mapping[str, str]) -> tuple[int | None, int | None, int | None]:
    """``deal``, ``trick`` and ``play`` of an address (``place_params``)."""
    needs = (_("a trick needs its deal"), _("a play needs its trick"))
    deal, trick, play = place_params(query, ("deal", "trick", "play"), needs)
    return deal, trick, play


def moment(
    line: Mapping[str, Any], deal: int | None, trick: int | None, play: int | None
) -> Moment:
    """The table after ``play`` plays of ``trick`` of ``deal``; no deal is the first deal's
    start."""
    deals = line["deals"]
    if not deals:
        raise NoMoment(_("the game has no deals"))
    if deal is None:
        deal, trick, play = 1, 1, 0
    if not 1 <= deal <= len(deals):
        raise NoMoment(
            _("deal %(deal)s does not exist: the game has deals 1 to %(last)s")
            % {"deal": deal, "last": len(deals)}
        )
    data = deals[deal - 1]
    tricks = data["tricks"]
    if not tricks:
        trick = play = None
    else:
        if trick is None:
            trick = len(tricks)
        if not 1 <= trick <= len(tricks):
            raise NoMoment(
                _("trick %(trick)s does not exist in deal %(deal)s: it has tricks 1 to %(last)s")
                % {"trick": trick, "deal": deal, "last": len(tricks)}
            )
        count = len(tricks[trick - 1]["plays"])
        if play is not None and not 0 <= play <= count:
            raise NoMoment(
                _("play %(play)s does not exist in trick %(trick)s: it has plays 0 to %(last)s")
                % {"play": play, "trick": trick, "last": count}
            )
        if play is None:
            play = count
    return _table(line, deal, trick, play)


def _table(line: Mapping[str, Any], deal: int, trick: int | None, play: int | None) -> Moment:
    data = line["deals"][deal - 1]
    tricks = data["tricks"]
    players = line["players"]
    faces = line["faces"]
    n = len(players)
    gone: list[list[str]] = [[] for _ in range(n)]
    taken = [0] * n
    table: list[dict[str, Any]] = []
    notes: list[dict[str, str]] = []
    complete = done = False
    winner = None
    if trick is None:
        done = True
    else:
        for t, entry in enumerate(tricks[:trick], 1):
            plays = entry["plays"]
            last = t == trick
            count = len(plays) if not last or play is None else play
            for seat, play_text, card, *play_notes in plays[:count]:
                if card is not None:
                    gone[seat].append(card)
                if last:
                    offending = bool(play_notes)
                    html = faces["play:" + play_text]
                    table.append({"seat": seat, "html": html, "offending": offending})
                    notes.extend(play_notes[0] if play_notes else ())
            if count == len(plays):
                if entry["winner"] is not None:
                    taken[entry["winner"]] += 1
                if last:
                    complete = True
                    winner = entry["winner"]
                    notes.extend(entry.get("notes", ()))
        done = complete and trick == len(tricks)
    words = replay_words()
    leader = tricks[trick - 1]["leader"] if trick is not None else None
    next_seat = _next_seat(tricks, trick, play)
    seats = []
    for seat, name in enumerate(players):
        roles = [
            words[role]
            for role, holds in (
                ("deals", seat == data["dealer"]),
                ("leads", seat == leader),
                ("next", seat == next_seat),
                ("takes", complete and seat == winner),
            )
            if holds
        ]
        hand = list(data["hands"][seat])
        for card in gone[seat]:
            if card in hand:
                hand.remove(card)
        seats.append(
            {
                "seat": seat,
                "name": name,
                "roles": ", ".join(roles),
                "next": seat == next_seat,
                # Every dealt card has its face, written safe by web.cards.
                "hand": mark_safe(
                    " ".join(faces.get(c) or str(conditional_escape(c)) for c in hand)
                ),
                "cards": hand,  #: canonical codes, as players hold them
                "count": len(hand),
                "bid": data["bids"][seat],
                "taken": data["taken"][seat] if trick is None else shown(taken[seat]),
                "running": (data["after"] if done else data["before"])[seat],
                "score": data["scores"][seat] if done else "",
            }
        )
    return Moment(deal, trick, play, data, seats, table, notes, complete, done, winner)


def _next_seat(tricks: list[dict[str, Any]], trick: int | None, play: int | None) -> int | None:
    """The seat whose play comes next in the trick on the table; None once it is complete."""
    if trick is None or play is None:
        return None
    plays = tricks[trick - 1]["plays"]
    return plays[play][0] if play < len(plays) else None


def replay_words() -> dict[str, str]:
    """The words of the replay's status line and roles, in the active language, for the
    server and for ``replay.js`` alike; ``{name}`` marks a value."""
    return {
        "deal": _("Deal {deal} of {deals}"),
        "cards": _("cards: {cards}"),
        "trump": _("trump {trump}"),
        "dealer": _("dealer {name}"),
        "start": _("before the first play"),
        "play": _("trick {trick} of {tricks}, play {play} of {plays}"),
        "won": _("trick {trick} of {tricks} taken by {name}"),
        "over": _("the deal is over"),
        "sheet": _("scored from the sheet: the record has no plays"),
        "deals": _("deals"),
        "leads": _("leads"),
        "turned": _("{card} turned up"),
        "next": _("to play"),
        "takes": _("takes"),
    }


def _fill(template: str, **values: str) -> str:
    """A word template with its values: the template escaped, the values already HTML."""
    text = str(conditional_escape(template))
    for name, value in values.items():
        text = text.replace("{" + name + "}", value)
    return text


def status_html(line: Mapping[str, Any], shown: Moment) -> str:
    """The replay's status line: the deal, its cards, kind, trump and dealer, and where in
    the play the table is (``replay.js`` writes the same line from the same words)."""
    words = replay_words()
    data = shown.data
    players = line["players"]
    parts = [
        _fill(words["deal"], deal=str(shown.deal), deals=str(len(line["deals"]))),
        _fill(words["cards"], cards=str(data["cards"])),
        str(conditional_escape(data["kind_words"])),
        _fill(words["trump"], trump=data["trump"]),
        *([_fill(words["turned"], card=data["trump_card"])] if data["trump_card"] else []),
        _fill(words["dealer"], name=str(conditional_escape(players[data["dealer"]]))),
    ]
    tricks = data["tricks"]
    if shown.trick is None or shown.play is None:
        parts.append(str(conditional_escape(words["sheet"])))
    elif shown.trick == 1 and shown.play == 0:
        parts.append(str(conditional_escape(words["start"])))
    elif shown.complete and shown.winner is not None:
        name = str(conditional_escape(players[shown.winner]))
        parts.append(
            _fill(words["won"], trick=str(shown.trick), tricks=str(len(tricks)), name=name)
        )
    else:
        count = len(tricks[shown.trick - 1]["plays"])
        parts.append(
            _fill(
                words["play"],
                trick=str(shown.trick),
                tricks=str(len(tricks)),
                play=str(shown.play),
                plays=str(count),
            )
        )
    if shown.done and shown.trick is not None:
        parts.append(str(conditional_escape(words["over"])))
    return " · ".join(parts)


@dataclass(frozen=True, slots=True)
class Button:
    name: str
    symbol: str
    label: str
    keys: str  #: as ``aria-keyshortcuts`` writes them
    query: str | None  #: the moment it leads to; None where the game ends

    @property
    def title(self) -> str:
        return f"{self.label} ({self.keys.replace('Arrow', '')})"


@dataclass(frozen=True, slots=True)
class Panel:
    """The replay on a page: the moment shown, its buttons, and the timeline for the script."""

    id: str
    moment: Moment
    status: str
    buttons: list[Button]
    line: Mapping[str, Any]
    words: dict[str, str]
    linkable: bool  #: moments have addresses of their own (a stored game's page)

    @property
    def query(self) -> str:
        """The address of the moment shown."""
        shown = self.moment
        return steps.query(self.line, (shown.deal, shown.trick, shown.play))

    @property
    def data_script(self) -> SafeString:
        return json_script(self.line, f"{self.id}-data")

    @property
    def words_script(self) -> SafeString:
        return json_script(self.words, f"{self.id}-words")


def json_script(value: Any, element_id: str) -> SafeString:
    """``value`` as JSON in a ``<script type="application/json">``, as Django's
    ``json_script`` writes it, but compact and by orjson: a game's timeline is 100 KB."""
    # What could close the script element is escaped as JSON allows (\\u003C).
    data = orjson.dumps(value)
    for char, escaped in ((b"<", b"\\u003C"), (b">", b"\\u003E"), (b"&", b"\\u0026")):
        data = data.replace(char, escaped)
    text = data.decode("utf-8")
    return format_html(
        '<script id="{}" type="application/json">{}</script>', element_id, mark_safe(text)
    )


def panel(line: Mapping[str, Any], shown: Moment, *, id: str, linkable: bool) -> Panel:
    to = steps.steps(line, (shown.deal, shown.trick, shown.play))
    labels = (
        ("prev_deal", "«", _("Previous deal"), "PageUp"),
        ("prev_trick", "↑", _("Previous trick"), "ArrowUp"),
        ("prev_play", "←", _("Previous play"), "ArrowLeft"),
        ("next_play", "→", _("Next play"), "ArrowRight"),
        ("next_trick", "↓", _("Next trick"), "ArrowDown"),
        ("next_deal", "»", _("Next deal"), "PageDown"),
    )
    buttons = []
    for name, symbol, label, keys in labels:
        target = to[name]
        query = None if target is None else steps.query(line, target)
        buttons.append(Button(name, symbol, label, keys, query))
    return Panel(id, shown, status_html(line, shown), buttons, line, replay_words(), linkable)
