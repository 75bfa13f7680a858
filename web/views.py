"""The site's pages: verify a record at once, the games list and a game with its replay.

Pages read through the apps' selectors and services, as the API does; who may see a game
is decided there (``games.selectors.game_visible``): a private game is a 404 for others.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from core.errors import Rejected
from core.throttles import page_wait
from games.models import GameSeat
from games.selectors import game_get, game_list, game_record_text, stored_rulesets
from replay import Family, PokerReport, malformed, record_json, split_documents
from replay import verify as engine_verify
from replay.formats import AnyReport
from replay.rummy.report import Report as RummyReport
from stats.selectors import players_listed
from uploads.selectors import upload_game_list
from verification.models import Finding, Report
from web.forms import VERIFY_MAX_RECORDS, GameFilterForm, VerifyForm
from web.poker.page import poker_page
from web.poker.report import PokerView, poker_view
from web.replays import NoMoment, Panel, moment_params, panel
from web.reports import ReportView, moment_or_start, report_view, unsaved_findings
from web.rummy.page import rummy_game_page
from web.rummy.report import RummyView, rummy_view
from web.sheet import sheet_rows

GAMES_PER_PAGE = 50


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "web/home.html", {"form": VerifyForm()})


@dataclass(frozen=True, slots=True)
class Verified:
    """One record of what was posted, as verified: where it was in the file, its report as
    its game's template (``template``) shows it."""

    label: str
    view: ReportView | RummyView | PokerView
    template: str
    panel: Panel | None = None  #: the trick-taking game's replay
    rows: SafeString | None = None  #: the trick-taking game's score sheet


def _verified(label: str, record: Any, report: AnyReport, number: int) -> Verified:
    """A record's report as the verify page shows it, by its game; the trick-taking one with
    its replay, built from the posted record itself."""
    if isinstance(report, RummyReport):
        rummy = rummy_view(record=record, report=report.to_dict(), players=report.players)
        return Verified(label, rummy, "web/rummy/_report.html")
    if isinstance(report, PokerReport):
        poker = poker_view(report=report.to_dict(), players=report.players)
        return Verified(label, poker, "web/poker/_report.html")
    return _trick_verified(label, record, report.to_dict(), number)


def _trick_verified(label: str, record: Any, report: dict[str, Any], number: int) -> Verified:
    view = report_view(record=record, report=report, findings=unsaved_findings(report))
    # The replay opens where the first finding with a moment is.
    first = next((f.position for f in view.findings if f.position), None)
    shown = moment_or_start(view, *(first or (None, None, None)))
    replay_id = f"replay-{number}"
    replay = None if shown is None else panel(view.line, shown, id=replay_id, linkable=False)
    rows = sheet_rows(view.sheet.deals, None if replay is None else replay_id, linkable=False)
    return Verified(label, view, "web/_trick_report.html", replay, rows)


@require_http_methods(["GET", "POST"])
def verify(request: HttpRequest) -> HttpResponse:
    """The report of each record posted, stored nowhere, with its replay built from the
    posted record itself: every moment is in the page, so links to them need no server."""
    if request.method == "GET":
        return redirect("home")
    form = VerifyForm(request.POST, request.FILES)
    if not form.is_valid():
        return render(request, "web/home.html", {"form": form}, status=400)
    upload = form.cleaned_data["file"]
    if upload is not None:
        data: bytes = upload.read()
        filename = upload.name or ""
    else:
        data, filename = form.cleaned_data["record"].encode("utf-8"), ""
    documents = split_documents(data, filename)
    if len(documents) > VERIFY_MAX_RECORDS:
        form.add_error(
            None,
            _("%(count)s records: this page verifies at most %(limit)s at once; upload them.")
            % {"count": len(documents), "limit": VERIFY_MAX_RECORDS},
        )
        return render(request, "web/home.html", {"form": form}, status=400)
    wait = page_wait(request, "verify", len(documents))
    if wait is not None:
        form.add_error(
            None, _("Too many verifications: try again in %(seconds)s seconds.") % {"seconds": wait}
        )
        response = render(request, "web/home.html", {"form": form}, status=429)
        response["Retry-After"] = str(wait)
        return response
    rulesets = stored_rulesets()
    results = []
    for number, document in enumerate(documents, 1):
        if document.error is not None:
            report = malformed([document.error], None).to_dict()
            results.append(_trick_verified(document.label, document.value, report, number))
        else:
            verified = engine_verify(document.value, rulesets)
            results.append(_verified(document.label, document.value, verified, number))
    return render(request, "web/verify.html", {"results": results, "many": len(results) > 1})


@require_GET
def game_list_page(request: HttpRequest) -> HttpResponse:
    """Visible games with the API's filters (``GET /api/games/``, ``upload`` included, so that
    an upload's page links to its flagged games); a bad filter is a 400 that names it."""
    form = GameFilterForm(request.GET)
    filters = request.GET.copy()
    page_number = filters.pop("page", ["1"])[-1]
    errors: list[str] = []
    try:
        games = upload_game_list(user=request.user, filters=filters).order_by("-played_at", "-id")
    except Rejected as rejected:
        errors = [f["message"] for f in rejected.findings]
        games = game_list(user=request.user).none()
    page = Paginator(games, GAMES_PER_PAGE).get_page(page_number)
    keep = filters.urlencode()
    return render(
        request,
        "web/game_list.html",
        {"form": form, "page": page, "errors": errors, "keep": keep},
        status=400 if errors else 200,
    )


@require_GET
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """A game: its players, places, verdict and findings, the score sheet and the replay at
    the moment the address names (``?deal=3&trick=2&play=1``)."""
    game = game_get(user=request.user, game_id=game_id)
    if game is None:
        raise Http404(_("No such game."))
    if game.family == Family.RUMMY:
        return rummy_game_page(request, game)
    if game.family == Family.POKER:
        return poker_page(request, game)
    stored = Report.objects.filter(game=game, current=True).first()
    report: dict[str, Any] = stored.as_dict() if stored is not None else {}
    findings = list(Finding.objects.filter(report=stored).order_by("pk")) if stored else []
    try:
        record = record_json(game_record_text(game=game))
    except (ValueError, RecursionError):
        record = None
    seats = GameSeat.objects.filter(game=game).order_by("seat")
    view = report_view(record=record, report=report, findings=findings, seats=list(seats))
    problem = None
    try:
        shown = moment_or_start(view, *moment_params(request.GET))
    except NoMoment as missing:
        problem = str(missing)
        shown = moment_or_start(view, None, None, None)
    replay = None if shown is None else panel(view.line, shown, id="replay", linkable=True)
    context = {
        "game": game,
        "view": view,
        "listed": players_listed(player_ids=[s.player_id for s in view.standings]),
        "panel": replay,
        "rows": sheet_rows(view.sheet.deals, None if replay is None else replay.id, linkable=True),
        "problem": problem,
    }
    return render(request, "web/game.html", context, status=400 if problem else 200)
