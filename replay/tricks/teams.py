"""Teams (option ``teams``, docs/rules.md §7 "Teams"): seats whose bids and tricks are added
up and scored as one, as online servers play the team variant of Oh Hell.

The team's deal is scored like one seat's, with the ruleset's own scoring and multipliers
(``scoring.deal_score``), and every seat of the team gets that score: so each seat's score
is computed from its team's bid, taken and blindness, and the ordinary per-seat loop of the
replay does the rest. A fine is the team's (decision 32).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..scores import Number, Score, plain

Teams = tuple[tuple[int, ...], ...]


def is_teams(value: Any) -> bool:
    """The shape of the option: null, or a non-empty list of non-empty lists of seats, no
    seat twice. Whether they are the record's seats is ``teams_problem``'s to say."""
    if value is None:
        return True
    if not isinstance(value, list) or not value:
        return False
    seats = [seat for team in value if isinstance(team, list) and team for seat in team]
    return (
        all(isinstance(team, list) and team for team in value)
        and all(type(seat) is int and seat >= 0 for seat in seats)
        and len(set(seats)) == len(seats)
    )


def teams_problem(teams: Teams, players: int) -> str:
    """Why ``teams`` does not fit a table of ``players`` ("" if it does): every seat must be
    in exactly one team."""
    seats = sorted(seat for team in teams for seat in team)
    if seats != list(range(players)):
        return f"teams must hold each seat 0 to {players - 1} exactly once, not {seats}"
    return ""


@dataclass(frozen=True, slots=True)
class TeamDeal:
    """One team's deal: its summed bid (None without bidding) and taken, and its score."""

    bid: int | None
    taken: int
    score: Score

    def to_dict(self) -> dict[str, Any]:
        return {"bid": self.bid, "taken": self.taken, "score": plain(self.score)}


def team_view(
    teams: Teams,
    bids: list[int] | None,
    blind: list[bool],
    taken: list[int],
    fines: list[Number],
) -> tuple[list[int] | None, list[bool], list[int], list[Number]]:
    """Each seat's bid, blindness, taken and fine as its team's: the sums of the team's
    (a team bids blind only when all of it does), for the seat's score to be the team's."""
    n = len(taken)
    seat_bids: list[int] | None = None if bids is None else [0] * n
    seat_blind = [False] * n
    seat_taken = [0] * n
    seat_fines: list[Number] = [0] * n
    for team in teams:
        bid = None if bids is None else sum(bids[s] for s in team)
        dark = all(blind[s] for s in team)
        took = sum(taken[s] for s in team)
        fine = sum(fines[s] for s in team)
        for seat in team:
            if seat_bids is not None and bid is not None:
                seat_bids[seat] = bid
            seat_blind[seat] = dark
            seat_taken[seat] = took
            seat_fines[seat] = fine
    return seat_bids, seat_blind, seat_taken, seat_fines


def team_deals(
    teams: Teams, bids: list[int] | None, taken: list[int], scores: Sequence[Score]
) -> list[TeamDeal]:
    """The deal of each team, in the order of the option, as the report shows it."""
    return [
        TeamDeal(
            None if bids is None else sum(bids[s] for s in team),
            sum(taken[s] for s in team),
            scores[team[0]],
        )
        for team in teams
    ]


def standings(
    teams: Teams, players: Sequence[str], totals: Sequence[Score]
) -> list[dict[str, Any]]:
    """The teams with their seats, players, total and place (equal totals share a place,
    and the next is skipped: 1, 1, 3), in the order of the option."""
    team_totals = [totals[team[0]] for team in teams]
    return [
        {
            "seats": list(team),
            "players": [players[s] for s in team],
            "total": plain(total),
            "place": 1 + sum(other > total for other in team_totals),
        }
        for team, total in zip(teams, team_totals, strict=True)
    ]
