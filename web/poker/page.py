"""A poker game's page: its seats and places, verdict, findings at their hand, stage and
action, the table of the hands, and one hand's replay at the moment the address names
(``?hand=3&stage=2&action=4``; ``?hand=3`` is the hand's end, its showdown and pots).

The replay is drawn by the server, one moment a page (``replay.poker.state`` gives
the table); its buttons are links to the moments around it, and ``web/static/web/poker.js``
only lets the keys follow them, as the trick-taking replay's keys do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from games.models import Game
from replay.cards import card_name
from replay.poker.parse import UNSEEN, Act, Action
from replay.poker.state import END, Card, HandMoments, HandState, Moment
from stats.selectors import players_listed
from verification.poker_selectors import PokerGame, poker_game
from web.cards import card_html
from web.findings import Written
from web.poker.findings import category_text
from web.poker.report import PokerView, poker_view
from web.replays import Button, NoMoment, place_params
from web.reports import Standing

#: A moment of the game: hand, stage, action; stage and action None at the hand's end.
Position = tuple[int, int | None, int | None]

#: What a seat did, as the replay's status line and its seats say it.
DONE = {
    Act.FOLD: gettext_lazy("folds"),
    Act.CHECK: gettext_lazy("checks"),
    Act.CALL: gettext_lazy("calls"),
    Act.BET: gettext_lazy("bets %(amount)s"),
    Act.RAISE: gettext_lazy("raises to %(amount)s"),
    Act.EXCHANGE: gettext_lazy("exchanges %(cards)s for %(new)s"),
}


def _cards_html(cards: Sequence[int]) -> SafeString:
    names = ("??" if c == UNSEEN else card_name(c) for c in cards)
    return format_html_join(" ", "{}", ((card_html(name),) for name in names))


def action_html(action: Action) -> SafeString:
    """What a seat did, in words: ``raises to 8``, ``exchanges 9♠ for 5♣``."""
    if action.act is Act.EXCHANGE and not action.cards:
        return format_html("{}", _("exchanges no card"))
    words = conditional_escape(str(DONE.get(action.act, action.act)))
    values = {
        "amount": "" if action.amount is None else action.amount,
        "cards": _cards_html(action.cards),
        "new": _cards_html(action.new),
    }
    # The words are escaped and every value is a number or was built safe.
    return mark_safe(words % values)


def cards_html(cards: Sequence[Card]) -> SafeString:
    """A seat's cards in the order dealt; a face-down one marked, an unseen one ``??``."""
    return format_html_join(
        " ",
        '<span class="{}" title="{}">{}</span>',
        (
            ("up" if c.up else "down", _("face up") if c.up else _("face down"), card_html(c.name))
            for c in cards
        ),
    )


def query(position: Position) -> str:
    """The address of a place: without the action a stage's last moment, without the stage
    the hand's end."""
    hand, stage, action = position
    if stage is None:
        return f"hand={hand}"
    if action is None:
        return f"hand={hand}&stage={stage}"
    return f"hand={hand}&stage={stage}&action={action}"


def moment_params(params: Mapping[str, str]) -> tuple[int | None, int | None, int | None]:
    """``hand``, ``stage`` and ``action`` of an address (``web.replays.place_params``)."""
    needs = (_("a stage needs its hand"), _("an action needs its stage"))
    hand, stage, action = place_params(params, ("hand", "stage", "action"), needs)
    return hand, stage, action


def moment_of(moments: HandMoments, stage: int | None, action: int | None) -> Moment:
    """The moment asked for in this hand (``HandMoments.find``); NoMoment when it has none
    such."""
    state = moments.find(stage, action)
    if state is not None:
        return (state.stage, state.action)
    if action is None or moments.find(stage, None) is None:
        raise NoMoment(
            _("hand %(hand)s has no stage %(stage)s") % {"hand": moments.hand, "stage": stage}
        )
    raise NoMoment(
        _("stage %(stage)s of hand %(hand)s has no action %(action)s")
        % {"stage": stage, "hand": moments.hand, "action": action}
    )


def steps(moments: HandMoments, moment: Moment) -> list[Button]:
    """The buttons from a moment: an action, a stage, a hand back and forth. Other hands are
    entered at their start (stage 1, action 0) or their end; a hand's moments run from its
    first stage's start through each action to its end."""
    hand, hands = moments.hand, moments.hands
    order = moments.moments
    at = order.index(moment)
    prev_hand_end: Position | None = (hand - 1, None, None) if hand > 1 else None
    next_hand: Position | None = (hand + 1, 1, 0) if hand < hands else None

    def here(m: Moment) -> Position:
        return (hand, m[0], m[1])

    starts = [i for i, m in enumerate(order) if m[1] == 0]
    prev_action = here(order[at - 1]) if at > 0 else prev_hand_end
    next_action = here(order[at + 1]) if at + 1 < len(order) else next_hand
    before = [i for i in starts if i < at]
    after = [i for i in starts if i > at]
    prev_stage = here(order[before[-1]]) if before else prev_hand_end
    if after:
        next_stage: Position | None = here(order[after[0]])
    elif moment != END:
        next_stage = (hand, None, None)
    else:
        next_stage = next_hand
    prev_hand = here(order[0]) if at > 0 else ((hand - 1, 1, 0) if hand > 1 else None)
    next_hand_button = next_hand if next_hand is not None or moment == END else (hand, None, None)
    table = [
        ("prev_hand", "«", _("Previous hand"), "PageUp", prev_hand),
        ("prev_stage", "↑", _("Previous stage"), "ArrowUp", prev_stage),
        ("prev_action", "←", _("Previous action"), "ArrowLeft", prev_action),
        ("next_action", "→", _("Next action"), "ArrowRight", next_action),
        ("next_stage", "↓", _("Next stage"), "ArrowDown", next_stage),
        ("next_hand", "»", _("Next hand"), "PageDown", next_hand_button),
    ]
    return [
        Button(name, symbol, label, keys, None if to is None else query(to))
        for name, symbol, label, keys, to in table
    ]


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    name: str
    roles: str
    cards: SafeString
    bet: int
    paid: int
    stack: int
    last: SafeString
    category: str
    net: int | None
    won: bool
    dealt: bool
    folded: bool
    acting: bool


@dataclass(frozen=True, slots=True)
class PotRow:
    label: str
    amount: int
    winners: str


@dataclass(frozen=True, slots=True)
class Note:
    severity: str
    label: str
    html: SafeString


@dataclass(frozen=True, slots=True)
class HandPanel:
    """One moment of a hand as the page draws it."""

    id: str
    linkable: bool
    query: str
    state: HandState
    status: SafeString
    seats: list[SeatRow]
    buttons: list[Button]
    pots: list[PotRow]
    dealer_cards: SafeString | None
    dealer_line: str
    notes: list[Note]


def _roles(state: HandState, seat: int) -> str:
    s = state.seats[seat]
    roles = []
    if state.dealer == seat:
        roles.append(_("deals"))
    if not s.dealt:
        roles.append(_("sits out"))
    elif s.folded is not None:
        roles.append(_("folded in stage %(stage)s") % {"stage": s.folded})
    elif s.all_in:
        roles.append(_("all in"))
    if s.won:
        roles.append(pgettext("poker seat", "wins"))
    return ", ".join(roles)


def _status(state: HandState, moments: HandMoments, names: Sequence[str]) -> SafeString:
    parts = [
        format_html(
            "{}", _("Hand %(hand)s of %(hands)s") % {"hand": state.hand, "hands": moments.hands}
        )
    ]
    if state.dealer is not None and 0 <= state.dealer < len(names):
        parts.append(format_html("{}", _("dealer %(name)s") % {"name": names[state.dealer]}))
    if state.joker is not None:
        words = conditional_escape(_("the hand's joker: %(card)s"))
        parts.append(mark_safe(words % {"card": card_html(state.joker)}))
    live = [s.seat for s in state.seats if s.dealt and s.folded is None]
    if state.end and not state.casino and len(live) == 1:
        parts.append(
            format_html(
                "{}",
                _("the end: the others folded, %(name)s takes the pot") % {"name": names[live[0]]},
            )
        )
    elif state.end:
        parts.append(format_html("{}", _("the end: the showdown and the pots")))
    else:
        stage = state.stage or 0
        count = sum(1 for m in moments.moments if m[0] == stage) - 1
        if state.action == 0:
            parts.append(
                format_html(
                    "{}",
                    _("stage %(stage)s, before the first of %(count)s actions")
                    % {"stage": stage, "count": count},
                )
            )
        else:
            parts.append(
                format_html(
                    "{}",
                    _("stage %(stage)s, action %(action)s of %(count)s")
                    % {"stage": stage, "action": state.action, "count": count},
                )
            )
        if state.acted is not None and 0 <= state.acted.seat < len(names):
            parts.append(
                format_html(
                    "<strong>{}</strong> {}", names[state.acted.seat], action_html(state.acted)
                )
            )
    return format_html_join(" · ", "{}", ((p,) for p in parts))


def hand_panel(
    game: PokerGame,
    findings: Sequence[Written],
    moments: HandMoments,
    moment: Moment,
    *,
    id: str,
    linkable: bool,
) -> HandPanel:
    """The moment of a hand, with the findings (written in words) that point at it."""
    state = moments.at(moment)
    assert state is not None  # the moment was read from these moments
    names = game.players
    seats = []
    for s in state.seats:
        seats.append(
            SeatRow(
                s.seat,
                names[s.seat] if s.seat < len(names) else str(s.seat),
                _roles(state, s.seat),
                cards_html(s.cards),
                s.bet,
                s.paid,
                s.stack,
                action_html(s.last) if s.last is not None else SafeString(""),
                category_text(s.category),
                s.net,
                s.won,
                s.dealt,
                s.folded is not None,
                state.acted is not None and state.acted.seat == s.seat,
            )
        )
    pots = []
    for i, pot in enumerate(state.pots or ()):
        label = _("Main pot") if i == 0 else _("Side pot %(number)s") % {"number": i}
        won = ", ".join(names[w] for w in pot.winners if w < len(names))
        pots.append(PotRow(label, pot.amount, won))
    dealer_line = ""
    if state.casino and state.end:
        if state.dealer_rank is None:
            dealer_line = _("the dealer's hand is not known")
        elif state.dealer_qualifies:
            dealer_line = _("%(category)s: the dealer qualifies") % {
                "category": category_text(state.dealer_rank)
            }
        else:
            dealer_line = _("%(category)s: the dealer does not qualify") % {
                "category": category_text(state.dealer_rank)
            }
    notes = [
        Note(w.finding.severity, w.severity, SafeString(w.text))
        for w in findings
        if w.finding.places[0] == moments.hand and moments.find(*w.finding.places[1:]) is state
    ]
    return HandPanel(
        id,
        linkable,
        query((moments.hand, *moment)),
        state,
        _status(state, moments, names),
        seats,
        steps(moments, moment),
        pots,
        None if state.dealer_cards is None else cards_html(state.dealer_cards),
        dealer_line,
        notes,
    )


@dataclass(frozen=True, slots=True)
class Ranked:
    """The seats by the chips won over the hands, as ``web/_standings.html`` lists them."""

    standings: list[Standing]


def _linked(view: PokerView) -> PokerView:
    """The report's view with each finding's address in the replay."""
    findings = [
        w if w.finding.places[0] is None else replace(w, query=query(_position(w)))
        for w in view.findings
    ]
    return replace(view, findings=findings)


def _position(written: Written) -> Position:
    hand, stage, action = written.finding.places
    assert hand is not None
    return (hand, stage, action)


def _start(game: PokerGame, params: Mapping[str, str]) -> tuple[HandMoments, Moment] | None:
    """The hand and moment the address asks for (the first hand's start without one);
    None for a game that replays no hand."""
    hand, stage, action = moment_params(params)
    count = len(game.hands)
    if hand is None:
        if not count:
            return None
        hand, stage, action = 1, 1, 0
    if not 1 <= hand <= count:
        raise NoMoment(_("the game has no hand %(hand)s") % {"hand": hand})
    moments = game.moments(hand)
    if moments is None:
        raise NoMoment(_("hand %(hand)s cannot be replayed") % {"hand": hand})
    return moments, moment_of(moments, stage, action)


def poker_page(request: HttpRequest, game: Game) -> HttpResponse:
    data = poker_game(game=game)
    view = _linked(poker_view(report=data.data, players=data.players))
    problem = None
    try:
        shown = _start(data, request.GET)
    except NoMoment as missing:
        problem = str(missing)
        shown = _start(data, {})
    panel = None
    if shown is not None:
        panel = hand_panel(data, view.findings, *shown, id="replay", linkable=True)
    standings = [
        Standing(s.seat, s.name, int(s.total), None, s.place, s.winner, s.player_id)
        for s in data.seats
    ]
    context: dict[str, Any] = {
        "game": game,
        "data": data,
        "view": view,
        "ranked": Ranked(sorted(standings, key=lambda s: (s.place, s.seat))),
        "listed": players_listed(player_ids=[s.player_id for s in data.seats]),
        "panel": panel,
        "problem": problem,
    }
    return render(request, "web/poker/game.html", context, status=400 if problem else 200)
