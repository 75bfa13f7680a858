"""The page of a rummy game (docs/rummy.md): players and places, the lowest total first, the
verdict, the findings in words at their deal, turn and action, the score sheet, and the
table turn by turn.

A moment is (deal, turn) as players count, turn 0 being the deal as dealt
(``?deal=2&turn=17``); without ``turn`` the deal is over. The page is written by the server
at each moment: its buttons are links, and ``web/rummy.js`` only gives them their keys.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import Game, GameSeat
from replay import NoSuchMoment
from replay.rummy.state import TableMeld, TurnState
from stats.selectors import players_listed
from verification.models import Finding, Report
from verification.rummy_selectors import RummySheet, rummy_sheet, rummy_state, stored_record
from web.cards import card_html, hand_order
from web.findings import Catalogue, finding_text, place_text, severity_text
from web.replays import Button, NoMoment, place_params, shown
from web.reports import Standing, stored_standings
from web.rummy.findings import RUMMY_PLACES, rummy_catalogue
from web.words import VERDICT_HINTS as VERDICT_WORDS_HINTS

Position = tuple[int, int]  #: deal, turn (0: as dealt)


def rummy_card_html(code: str) -> SafeString:
    """A card of a rummy table: as the trick-taking pages write it, and a joker with the card
    it stands for in a run (``X=QC``: the joker, then ``=Q♣``)."""
    joker, _sign, stands = code.partition("=")
    if joker.strip().upper() != "X":
        return card_html(code)
    face = card_html("X1")
    if not stands:
        return face
    return format_html('{}<span class="stands">={}</span>', face, card_html(stands))


def cards_html(cards: Sequence[str]) -> SafeString:
    return format_html_join(" ", "{}", ((rummy_card_html(c),) for c in cards))


def where_text(finding: Finding) -> str:
    """Where in the game a finding is, as players count: deal, turn, action."""
    return place_text(RUMMY_PLACES, (finding.deal, finding.trick, finding.play))


@dataclass(frozen=True, slots=True)
class FindingItem:
    finding: Finding
    text: SafeString
    severity: str
    where: str
    query: str | None  #: the moment it points at


#: The verdicts' hints where the trick-taking words (bids, plays) do not fit the rummy.
VERDICT_HINTS = {
    "mismatch": gettext_lazy(
        "The turns are legal, but some claimed result differs from the replay."
    ),
    "illegal": gettext_lazy("A rule is broken somewhere in the turns."),
}


@dataclass(frozen=True, slots=True)
class RummyGame:
    verdict: str
    ruleset: str
    sheet: RummySheet
    standings: list[Standing]
    findings: list[FindingItem]
    catalogue: Catalogue  #: the sentences of its findings (``rummy_catalogue``)

    @property
    def players(self) -> list[str]:
        return self.sheet.players

    @property
    def verdict_hint(self) -> str:
        hint = VERDICT_HINTS.get(self.verdict) or VERDICT_WORDS_HINTS.get(self.verdict)
        return "" if hint is None else str(hint)


def _turns(sheet: RummySheet, deal: int) -> int:
    return sheet.deals[deal - 1].turns


def query(position: Position | None) -> str | None:
    """The address of a moment; None where there is none."""
    return None if position is None else f"deal={position[0]}&turn={position[1]}"


def steps(sheet: RummySheet, position: Position) -> dict[str, Position | None]:
    """The moment each button leads to, None where there is none."""
    deal, turn = position
    last = len(sheet.deals)

    def start(d: int) -> Position | None:
        return (d, 0) if 1 <= d <= last else None

    def end(d: int) -> Position | None:
        return (d, _turns(sheet, d)) if 1 <= d <= last else None

    turns = _turns(sheet, deal)
    next_deal = start(deal + 1)
    if next_deal is None and turn < turns:
        next_deal = end(deal)  # the last deal: to its end
    return {
        "prev_deal": start(deal - 1) if turn == 0 else start(deal),
        "prev_turn": (deal, turn - 1) if turn > 0 else end(deal - 1),
        "next_turn": (deal, turn + 1) if turn < turns else start(deal + 1),
        "next_deal": next_deal,
    }


@dataclass(frozen=True, slots=True)
class SeatAtTable:
    seat: int
    name: str
    roles: str
    next: bool  #: the seat that plays the turn shown
    hand: SafeString
    count: int
    opened: bool
    running: str


@dataclass(frozen=True, slots=True)
class MeldAtTable:
    number: int
    owner: str
    cards: SafeString
    kind: str


@dataclass(frozen=True, slots=True)
class Table:
    """One moment of the replay, ready for the template."""

    id: str
    deal: int
    turn: int
    status: SafeString
    buttons: list[Button]
    seats: list[SeatAtTable]
    melds: list[MeldAtTable]
    pile_top: SafeString | None
    pile: int
    stock: int
    sheet_only: bool  #: the deal is audited from the sheet: no turns to show
    notes: list[dict[str, Any]]  #: the findings of the turn shown

    #: Moments have addresses of their own (``web/_findings.html`` links to them).
    linkable = True

    @property
    def query(self) -> str | None:
        return query((self.deal, self.turn))


def moment_params(params: Mapping[str, str]) -> tuple[int | None, int | None]:
    """``deal`` and ``turn`` of an address (``web.replays.place_params``)."""
    deal, turn = place_params(params, ("deal", "turn"), (_("a turn needs its deal"),))
    return deal, turn


def _no_moment(missing: NoSuchMoment, sheet: RummySheet) -> NoMoment:
    if missing.name == "deal":
        return NoMoment(
            _("deal %(deal)s does not exist: the game has deals 1 to %(last)s")
            % {"deal": missing.actual, "last": len(sheet.deals)}
        )
    return NoMoment(
        _("turn %(turn)s does not exist in this deal: it has turns 0 to %(last)s")
        % {"turn": missing.actual, "last": missing.expected.partition("…")[2]}
    )


def _kind(kind: str | None) -> str:
    if kind == "run":
        return _("run")
    if kind == "set":
        return _("set")
    return _("no valid meld")


def _status(sheet: RummySheet, state: TurnState) -> SafeString:
    """The replay's status line: the deal, its dealer, the turn shown, who played it and
    how: the draw and the discard (written as cards)."""
    players = sheet.players
    deal = sheet.deals[state.deal - 1]
    parts = [
        _("Deal %(deal)s of %(deals)s") % {"deal": state.deal, "deals": len(sheet.deals)},
        _("dealer %(name)s") % {"name": deal.dealer_player},
    ]
    if not deal.turns:
        parts.append(_("scored from the sheet: the record has no turns"))
    elif state.turn == 0:
        parts.append(_("as dealt, before turn 1"))
    else:
        name = players[state.seat] if state.seat is not None else "?"
        parts.append(
            _("turn %(turn)s of %(turns)s: %(name)s")
            % {"turn": state.turn, "turns": state.turns, "name": name}
        )
        if state.draw == "stock":
            parts.append(_("drew from the stock"))
        elif state.draw == "discard":
            parts.append(_("took the pile's top"))
    written = [conditional_escape(part) for part in parts]
    if state.turn and state.discard:
        said = conditional_escape(_("discarded %(cards)s"))
        written.append(mark_safe(said.replace("%(cards)s", cards_html(state.discard))))
    if state.out is not None and state.turn == state.turns and deal.turns:
        written.append(conditional_escape(_("%(name)s went out") % {"name": players[state.out]}))
    elif not state.replayed:
        written.append(conditional_escape(_("a turn after the going out: nothing moves")))
    # Every part is escaped, the cards written safe by web.cards.
    return mark_safe(" · ".join(written))


def _notes(
    findings: list[Finding], state: TurnState, players: list[str], catalogue: Catalogue
) -> list[dict[str, Any]]:
    here = [f for f in findings if f.deal == state.deal and f.trick == state.turn]
    if state.turn == state.turns:  # the deal's end: its findings of no turn too
        here += [f for f in findings if f.deal == state.deal and f.trick is None]
    return [
        {
            "severity": f.severity,
            "label": severity_text(f.severity),
            "where": where_text(f),
            "html": finding_text(f, players, catalogue),
        }
        for f in here
    ]


def table(
    sheet: RummySheet,
    state: TurnState,
    findings: list[Finding],
    catalogue: Catalogue,
    *,
    id: str = "replay",
) -> Table:
    players = sheet.players
    deal = sheet.deals[state.deal - 1]
    to = steps(sheet, (state.deal, state.turn))
    buttons = [
        Button(name, symbol, label, keys, query(to[name]))
        for name, symbol, label, keys in (
            ("prev_deal", "«", _("Previous deal"), "PageUp"),
            ("prev_turn", "←", _("Previous turn"), "ArrowLeft"),
            ("next_turn", "→", _("Next turn"), "ArrowRight"),
            ("next_deal", "»", _("Next deal"), "PageDown"),
        )
    ]
    over = state.turn == state.turns
    before = sheet.deals[state.deal - 2].seats if state.deal > 1 else None
    seats = []
    for seat, name in enumerate(players):
        roles = []
        if seat == state.dealer:
            roles.append(_("deals"))
        if seat == state.out:
            roles.append(_("went out"))
        elif state.opened and state.opened[seat]:
            roles.append(_("open"))
        hand = hand_order(state.hands[seat]) if state.hands else []  # jokers last
        if over:
            running = deal.seats[seat].running.recomputed
        else:
            running = before[seat].running.recomputed if before else 0
        seats.append(
            SeatAtTable(
                seat,
                name,
                ", ".join(str(r) for r in roles),
                seat == state.seat,
                cards_html(hand),
                len(hand),
                bool(state.opened and state.opened[seat]),
                shown(running),
            )
        )
    melds = [
        MeldAtTable(m.number, _owner(m, players), cards_html(m.cards), _kind(m.kind))
        for m in state.melds
    ]
    return Table(
        id=id,
        deal=state.deal,
        turn=state.turn,
        status=_status(sheet, state),
        buttons=buttons,
        seats=seats,
        melds=melds,
        pile_top=None if state.pile_top is None else rummy_card_html(state.pile_top),
        pile=state.pile,
        stock=state.stock,
        sheet_only=not deal.turns,
        notes=_notes(findings, state, players, catalogue),
    )


def _owner(meld: TableMeld, players: list[str]) -> str:
    return players[meld.owner] if 0 <= meld.owner < len(players) else str(meld.owner)


def rummy_game_view(game: Game, record: Any) -> tuple[RummyGame, list[Finding]]:
    stored = Report.objects.filter(game=game, current=True).first()
    report: dict[str, Any] = stored.as_dict() if stored is not None else {}
    findings = list(Finding.objects.filter(report=stored).order_by("pk")) if stored else []
    sheet = rummy_sheet(record=record, data=report, findings=findings)
    catalogue = rummy_catalogue(report.get("ruleset"))
    seats = list(GameSeat.objects.filter(game=game).order_by("seat"))
    items = []
    for f in findings:
        at: Position | None = None
        if f.deal is not None and 1 <= f.deal <= len(sheet.deals):
            turns = _turns(sheet, f.deal)
            at = (f.deal, f.trick if f.trick is not None and f.trick <= turns else turns)
        items.append(
            FindingItem(
                f,
                finding_text(f, sheet.players, catalogue),
                severity_text(f.severity),
                where_text(f),
                query(at),
            )
        )
    ruleset = report.get("ruleset") or {}
    view = RummyGame(
        verdict=str(report.get("verdict", "")),
        ruleset=str(ruleset.get("preset", "")) if isinstance(ruleset, dict) else "",
        sheet=sheet,
        standings=stored_standings(sheet.totals, seats),
        findings=items,
        catalogue=catalogue,
    )
    return view, findings


def rummy_game_page(request: HttpRequest, game: Game) -> HttpResponse:
    """``/games/<id>/`` of a rummy game, at the moment the address names."""
    record = stored_record(game=game)
    view, findings = rummy_game_view(game, record)
    problem = None
    panel = None
    if view.sheet.deals:
        try:
            deal, turn = moment_params(request.GET)
            try:
                state = rummy_state(record=record, deal=deal or 1, turn=turn if deal else 0)
            except NoSuchMoment as missing:
                raise _no_moment(missing, view.sheet) from None
        except NoMoment as bad:
            problem = str(bad)
            state = rummy_state(record=record, deal=1, turn=0)
        if state is not None:
            panel = table(view.sheet, state, findings, view.catalogue)
    context = {
        "game": game,
        "view": view,
        "panel": panel,
        "problem": problem,
        "linkable": True,
        "listed": players_listed(player_ids=[s.player_id for s in view.standings]),
    }
    return render(request, "web/rummy/game.html", context, status=400 if problem else 200)
