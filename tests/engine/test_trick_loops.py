"""The two trick loops of ``tricks/play.py`` agree (RULES §4, §5).

The fast loop replays the tricks of face cards only and leaves every other trick to the
general loop, which can replay any trick. Sent through the general loop, every trick of a
simulated corpus (every preset and player count, clean and with each corruption) must give
the report the fast loop gives, down to each trick's winner and each joker play.
"""

from __future__ import annotations

from typing import Any

import pytest

from replay import PRESETS, Report, parse_record, preset_ruleset, replay
from replay.simulate import CORRUPTIONS, simulate_game
from replay.tricks.table import table_for

CASES = [
    (preset, players)
    for preset in PRESETS
    for players in range(preset_ruleset(preset).min_players, preset_ruleset(preset).max_players + 1)
]


def _everything(report: Report) -> tuple[Any, ...]:
    """What a report holds, the parts the report's JSON leaves out included."""
    return (
        report.to_dict(),
        report.findings,
        [(d.trick_winners, d.jokers, d.jokers_held, d.scores, d.running) for d in report.deals],
    )


def _corpus(preset: str, players: int) -> list[dict[str, Any]]:
    records = []
    for seed, corrupt in enumerate([None, *CORRUPTIONS]):
        try:
            records.append(simulate_game(preset, players, seed, corrupt=corrupt))
        except ValueError:  # a corruption this ruleset cannot have
            continue
    return records


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_the_general_trick_loop_reports_what_the_fast_loop_does(preset: str, players: int) -> None:
    for record in _corpus(preset, players):
        parsed, findings = parse_record(record)
        assert parsed is not None, findings
        fast = replay(parsed)
        general = replay(parsed, fast_loop=False)
        assert _everything(general) == _everything(fast), record["meta"]


def test_the_corpus_sends_tricks_through_the_fast_loop() -> None:
    """Without face-card tricks the comparison above would compare the general loop with
    itself: the corpus has them, and its revokes, missed trumps and cards not held."""
    record = simulate_game("classic", 4, 0, corrupt="revoke")
    parsed, _ = parse_record(record)
    assert parsed is not None
    plain = table_for(preset_ruleset("classic"), 4).plain_codes
    tricks = [t for deal in parsed.deals for t in deal.tricks or []]
    assert sum(plain.issuperset(t) for t in tricks) > len(tricks) // 2
    assert "play.revoke" in [f.code for f in replay(parsed).findings]
