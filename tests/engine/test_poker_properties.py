"""Properties of simulated poker records (replay/poker/simulate.py): a legal record
of any preset and seat count is verified, the club game's chips are conserved and its pots
paid out in full, and every corruption is reported at exactly its place."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from replay import verify
from replay.poker.corruptions import CORRUPTIONS, corrupt
from replay.poker.rulesets import PRESETS
from replay.poker.simulate import simulate_record

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def records(draw: st.DrawFn) -> dict[str, Any]:
    preset = draw(st.sampled_from(sorted(PRESETS)))
    low, high = (2, 8) if preset == "club_stud" else (1, 7)
    ruleset: Any = preset
    if preset == "club_stud" and draw(st.booleans()):
        ruleset = {"preset": preset, "options": {"blinds": [1, 2], "exchange_stages": [3, 5]}}
    players = draw(st.integers(low, high))
    stack = draw(st.sampled_from([12, 40, 100]))
    return simulate_record(
        ruleset, players, draw(st.integers(1, 6)), draw(st.integers(0, 10**6)), stack
    )


@SETTINGS
@given(records())
def test_a_simulated_record_is_verified(record: dict[str, Any]) -> None:
    report = verify(record).to_dict()
    assert report["findings"] == []
    assert report["verdict"] == "verified"
    before = [seat["stack"] for seat in record["seats"]]
    for hand in report["hands"]:
        assert hand["stacks"] == [b + d for b, d in zip(before, hand["net"], strict=True)]
        before = hand["stacks"]
    assert report["stacks"] == before


@SETTINGS
@given(records())
def test_club_chips_are_conserved_and_pots_paid_in_full(record: dict[str, Any]) -> None:
    assume("dealer_cards" not in (record["hands"] or [{}])[0])
    report = verify(record).to_dict()
    total = sum(seat["stack"] for seat in record["seats"])
    for hand in report["hands"]:
        assert sum(hand["net"]) == 0
        assert sum(hand["stacks"]) == total
        assert min(hand["stacks"]) >= 0
        winners = {s for pot in hand["pots"] for s in pot["winners"]}
        # Only pot winners gain, and every chip a seat that won nothing lost is in a pot.
        lost = -sum(n for s, n in enumerate(hand["net"]) if s not in winners)
        assert sum(pot["amount"] for pot in hand["pots"]) >= lost
        assert {s for s, n in enumerate(hand["net"]) if n > 0} <= winners
        for pot in hand["pots"]:
            assert pot["amount"] > 0 and set(pot["winners"]) <= set(pot["eligible"])


@settings(SETTINGS, max_examples=150)
@given(records(), st.sampled_from(sorted(CORRUPTIONS)), st.integers(0, 10**6))
def test_a_corruption_is_found_at_its_place(record: dict[str, Any], code: str, seed: int) -> None:
    changed = corrupt(record, code, random.Random(seed))
    assume(changed is not None)
    assert changed is not None
    place = changed["meta"]["corruption"]
    report = verify(changed)
    located = [(str(f.code), f.hand, f.stage, f.action, f.seat) for f in report.findings]
    assert (code, place["hand"], place["stage"], place["action"], place["seat"]) in located
    assert report.to_dict()["verdict"] != "verified"
