"""Claims of a deal's last tricks beyond the goldens: the table at the end of a claimed
deal, and a claim after plays the replay reports."""

from __future__ import annotations

import json
from typing import Any

from replay import state_at, verify

from .test_golden import GOLDEN


def held() -> dict[str, Any]:
    record: dict[str, Any] = json.loads((GOLDEN / "claim_held.record.json").read_text("utf-8"))
    return record


def test_the_end_of_a_claimed_deal_counts_the_claimed_tricks_and_shows_the_cards_kept() -> None:
    state, findings = state_at(held(), 1)
    assert findings == [] and state is not None
    assert state["taken"] == [3, 0, 0]
    assert state["hands"] == [["7S", "QH"], ["KH", "6C"], ["8C", "9C"]]
    assert state["scores"] == [60, 5, -10]
    beaten = json.loads((GOLDEN / "claim_beaten.record.json").read_text("utf-8"))
    state, _ = state_at(beaten, 1)
    assert state is not None
    assert [f["code"] for f in state["findings"]] == ["claim.beaten"]  # at trick 2, unplayed
    state, _ = state_at(beaten, 1, 1, 2)
    assert state is not None and state["findings"] == []


def test_a_claim_is_checked_on_the_hands_left_and_not_after_a_card_not_held() -> None:
    record = held()
    # Vera revokes with 8C and keeps 8S: still no heart nor trump, the demand still works.
    record["deals"][0]["tricks"] = [["AS", "6S", "8C"]]
    record["deals"][0].pop("taken")
    record["deals"][0].pop("scores")
    out = verify(record).to_dict()
    assert [f["code"] for f in out["findings"]] == ["play.revoke"]
    # Boris revokes with 6C and keeps 6S: the demand still draws his king.
    record["deals"][0]["tricks"] = [["AS", "6C", "8S"]]
    out = verify(record).to_dict()
    assert [f["code"] for f in out["findings"]] == ["play.revoke"]
    record["deals"][0]["tricks"] = [["AS", "6S", "AC"]]  # a card Vera never held
    out = verify(record).to_dict()
    codes = [(f["code"], f["message"]) for f in out["findings"]]
    assert codes == [
        ("play.not_held", "does not hold (AC)"),
        (
            "claim.unchecked",
            "claims the last 2 tricks, not checked: the hands left do not hold one card per trick",
        ),
    ]


def test_a_records_claims_share_a_search_budget() -> None:
    """Six deals of the claim that is past the solver's budget: the first five spend the
    record's budget of five times the claim's, and the sixth is not searched."""
    record = json.loads((GOLDEN / "claim_unchecked_budget.record.json").read_text("utf-8"))
    base = record["deals"][0]
    deals = []
    for k in range(6):  # deal k is led by seat k: the hands and bids turn with the dealer
        deal = dict(base, claim={"seat": k})
        deal["hands"] = base["hands"][-k:] + base["hands"][:-k] if k else base["hands"]
        deal["bids"] = base["bids"][-k:] + base["bids"][:-k] if k else base["bids"]
        deals.append(deal)
    record["deals"] = deals
    out = verify(record).to_dict()
    assert {f["code"] for f in out["findings"]} == {"claim.unchecked"}
    assert [f["message"].split(": ")[1] for f in out["findings"]] == 5 * [
        "the search needs more than 100,000 positions"
    ] + ["the record's claims have used up 500,000 positions"]
