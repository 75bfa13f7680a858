"""The counters read from the stored rows equal those of replaying each record with the engine.

The statistics once replayed every counted record (``stats.contributions`` before it read
``SeatDeal`` rows); ``replayed`` below is that computation, kept here as the reference. The
games are varied on purpose: every preset, jokers of every declaration, the hook, blind and
dark bids, sheets without tricks, plays with and without hands, point values, half points
(classic's specials) and scores past the fourth decimal place (a stored ruleset), and illegal
records a reviewer's resolution makes count.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from contextlib import suppress
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from games.models import Game, GameRecord, GameSeat, GameStatus, StoredRuleset
from games.selectors import stored_rulesets
from replay import parse_record, replay
from replay.simulate import simulate_games
from stats.contributions import SeatResult, scaled, settlement
from stats.services import _facts_build
from verification.models import Finding, SeatDeal
from verification.services.rows import point_value
from verification.services.store import Entry, records_store

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
DECLARATIONS = {0: "high", 1: "high", 2: "low", 3: "plain", 4: "lead_highest", 5: "lead_lowest"}
#: Scores with five decimals, rounded half to even into the columns (10.00005 → 10.0000).
ODD = {"preset": "classic", "options": {"made_per_trick": 10.00005, "pass_made": 5.00015}}


def replayed(
    text: str,
    seats: Sequence[SeatResult],
    findings: Mapping[int, Mapping[str, int]],
    rulesets: Mapping[str, Any],
) -> list[dict[str, int]]:
    """Each seat's counters as the statistics computed them by replaying the record."""
    value = json.loads(text)
    record, _ = parse_record(value, rulesets)
    assert record is not None and len(record.players) == len(seats)
    report = replay(record)
    n = len(seats)
    counters = [Counter[str]() for _ in range(n)]
    for result, deal in zip(report.deals, record.deals, strict=True):
        kind = result.kind
        if deal.hands is not None:
            held: list[int] | None = [
                sum(1 for card in hand if record.ruleset.joker_mask >> card & 1)
                for hand in deal.hands
            ]
        elif result.audit == "sheet":
            held = None
        else:
            held = [0] * n
            for joker in result.jokers:
                held[joker.seat] += 1
        for seat in range(n):
            c = counters[seat]
            score = scaled(result.scores[seat])
            c["deals"] += 1
            c["points"] += score
            c[f"kind:{kind}:deals"] += 1
            c[f"kind:{kind}:points"] += score
            if score > 0:
                c["points_won"] += score
            if result.bids is not None:
                bid, taken, cards = result.bids[seat], result.taken[seat], result.cards
                made = bid == taken
                c["bids"] += 1
                c[f"diff:{bid - taken}"] += 1
                c[f"cards:{cards}:bids"] += 1
                c[f"kind:{kind}:bids"] += 1
                if made:
                    c["exact"] += 1
                    c[f"cards:{cards}:exact"] += 1
                    c[f"kind:{kind}:exact"] += 1
                    c["points_made"] += score
                elif taken > bid:
                    c["over"] += 1
                else:
                    c["under"] += 1
                if bid == 0:
                    c["passes"] += 1
                    c["passes_made"] += made
                if kind != "dark" and result.blind and result.blind[seat]:
                    c["blind"] += 1
                    c["blind_made"] += made
                if record.ruleset.hook and result.last_bidder == seat:
                    c["hook"] += 1
                    c["hook_made"] += made
            if held is not None and held[seat]:
                c["joker_deals"] += 1
                c["jokers"] += held[seat]
        for joker in result.jokers:
            c = counters[joker.seat]
            c[f"joker:{DECLARATIONS.get(joker.declaration, 'other')}"] += 1
            c["joker_wins"] += joker.won
    totals = [s.total for s in seats]
    winners = sum(1 for s in seats if s.winner)
    meta = value.get("meta")
    worth = point_value(meta)
    balances = None if worth is None else settlement(totals, Fraction(Decimal(worth)))
    for s in seats:
        c = counters[s.seat]
        c.update({"games": 1, f"place:{s.place}": 1, "total": scaled(s.total)})
        if s.winner:
            c["wins"] = 1
            c["shared_wins"] = int(winners > 1)
        if balances is not None:
            c.update({"settled": 1, "balance": balances[s.seat]})
        for code, count in findings.get(s.seat, {}).items():
            c[f"finding:{code}"] += count
    return [{k: v for k, v in c.items() if v} for c in counters]


OTHER_FAMILIES = ("raspis-rummy/1", "raspis-poker/1")


def records() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    paths = [
        *sorted((ROOT / "examples").glob("*.json")),
        *sorted((ROOT / "tests" / "golden").glob("*.record.json")),
    ]
    for path in paths:
        value = json.loads(path.read_text(encoding="utf-8"))
        # The trick-taking family's counters: the other families' have tests of their own.
        if isinstance(value, dict) and value.get("format") not in OTHER_FAMILIES:
            out.append(value)
    presets = [("classic", 4), ("detsky", 3), ("joker54", 5), ("two_jacks", 3)]
    presets += [("podkidnoy", 4), ("rotating", 4), ("georgian", 4), ("oh_hell", 5)]
    for seed, (preset, players) in enumerate(presets):
        out.extend(simulate_games(preset, players, 2, seed))
        out.extend(simulate_games(preset, players, 1, seed, sheet=True))
        for corrupt in ("revoke", "hook", "dark_pass", "wrong_score", "duplicate_card"):
            with suppress(ValueError):  # not a defect this preset can have
                out.extend(simulate_games(preset, players, 1, seed, corrupt=corrupt))
    stored = list(simulate_games(ODD, 4, 2, 99))
    for value in stored:
        value["ruleset"] = "odd"
    out.extend([*stored, *simulate_games(ODD, 4, 1, 98)])
    for i, value in enumerate(out):
        worth = ["0.5", 2, 1e-5, None][i % 4]
        if worth is not None and isinstance(value.get("meta", {}), dict):
            value["meta"] = {**value.get("meta", {}), "point_value": worth}
    return out


def test_counters_from_the_rows_are_those_of_the_replay() -> None:
    StoredRuleset.objects.create(name="odd", preset="classic", options=ODD["options"])
    entries = []
    for value in records():
        try:
            text = json.dumps(value, allow_nan=False)
        except ValueError:
            continue
        entries.append(Entry(text, value))
    outcomes = records_store(entries=entries, uploaded_by=None, visibility="public")
    ids = sorted({o.game_id for o in outcomes if o.game_id is not None})
    # Every game counts: a reviewer's resolution makes an illegal record count as well.
    Game.objects.filter(pk__in=ids).update(status=GameStatus.RESOLVED)
    games = Game.objects.filter(pk__in=ids)
    assert {"illegal", "mismatch", "verified"} <= set(games.values_list("verdict", flat=True))
    assert {"full", "sheet"} <= set(games.values_list("audit", flat=True))
    rows = SeatDeal.objects.filter(game_id__in=ids)
    assert rows.filter(jokers_held__gt=0).exists() and rows.filter(jokers_held=None).exists()
    assert rows.filter(hook=True).exists() and rows.filter(joker_lead_highest__gt=0).exists()
    assert rows.filter(dark=True).exclude(kind="dark").exists()
    scores = set(rows.values_list("score", flat=True))
    assert any(s % 1 == Decimal("0.5") for s in scores)
    assert any(s * 1000 % 1 for s in scores)  # four places

    built = _facts_build(ids)
    rulesets = stored_rulesets()
    texts = dict(
        GameRecord.objects.filter(game_id__in=ids, current=True).values_list("game_id", "text")
    )
    findings: dict[int, dict[int, dict[str, int]]] = {}
    for game_id, seat, code in Finding.objects.filter(
        report__current=True, seat__isnull=False
    ).values_list("game_id", "seat", "code"):
        at = findings.setdefault(game_id, {}).setdefault(seat, {})
        at[code] = at.get(code, 0) + 1
    compared = 0
    for game_id in ids:
        seats = [
            SeatResult(*s)
            for s in GameSeat.objects.filter(game_id=game_id)
            .order_by("seat")
            .values_list("seat", "player_id", "total", "place", "winner")
        ]
        if not seats or len({s.player_id for s in seats}) != len(seats):
            assert game_id not in built
            continue
        expected = replayed(texts[game_id], seats, findings.get(game_id, {}), rulesets)
        assert [f.counters for f in built[game_id][1]] == expected, game_id
        compared += 1
    assert compared > 100
