"""The admin's review page of a game (/admin/games/game/{id}/review/): findings, claims
against the replay, every trick with its offending plays marked, and deciding disputes."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from games.models import Dispute, Game, GameSeat, StoredRuleset
from games.services import dispute_open
from replay import state_at
from tests.service.conftest import store_game

pytestmark = pytest.mark.django_db


def review(game_id: int) -> str:
    return f"/admin/games/game/{game_id}/review/"


def cell(page: str, element_id: str) -> str:
    """The opening tag and text of the element with this id."""
    found = re.search(rf'<(\w+) id="{element_id}"[^>]*>.*?</\1>', page, re.S)
    assert found, f"no element #{element_id}"
    return found.group(0)


def test_the_page_marks_the_offending_play_with_its_finding(
    admin_web: Client, user: Any, illegal_record: Any
) -> None:
    game_id = store_game(illegal_record, user)
    where = illegal_record["meta"]["corruption"]  # deal, trick, play of the revoke
    deal, trick, play = where["deal"], where["trick"], where["play"]

    response = admin_web.get(review(game_id))

    assert response.status_code == 200
    page = response.content.decode()
    assert "did not follow" in page  # the finding's message, in the findings table
    anchor = f"deal-{deal}-trick-{trick}-play-{play}"
    assert f'href="#{anchor}"' in page
    offending = cell(page, anchor)
    assert 'class="offending"' in offending
    assert "play.revoke" in offending
    player = illegal_record["players"][where["seat"]]
    card = illegal_record["deals"][deal - 1]["tricks"][trick - 1][play - 1]
    assert f"{player}: {card}" in offending
    # The play before it in the trick is shown but not marked.
    assert 'class="offending"' not in cell(page, f"deal-{deal}-trick-{trick}-play-{play - 1}")


def test_each_play_is_shown_at_the_seat_the_replay_gives_it(
    admin_web: Client, user: Any, illegal_record: Any
) -> None:
    game_id = store_game(illegal_record, user)
    page = admin_web.get(review(game_id)).content.decode()
    for deal, trick in ((1, 1), (7, 3), (illegal_record["meta"]["corruption"]["deal"], 5)):
        state, _ = state_at(illegal_record, deal, trick)
        assert state is not None
        for number, play in enumerate(state["trick_so_far"], 1):
            shown = cell(page, f"deal-{deal}-trick-{trick}-play-{number}")
            assert f"{play['player']}: {play['play']}" in shown


def test_a_trick_led_out_of_turn_is_shown_at_the_seats_it_was_counted_from(
    admin_web: Client, user: Any
) -> None:
    golden = Path(__file__).resolve().parents[1] / "golden" / "play_leader_out_of_turn.record.json"
    record = json.loads(golden.read_text(encoding="utf-8"))
    game_id = store_game(record, user)
    page = admin_web.get(review(game_id)).content.decode()
    shown = [cell(page, f"deal-1-trick-2-play-{k}") for k in (1, 2, 3)]
    for html, expected in zip(shown, ("Vera: 8C", "Anna: AS", "Boris: 8H"), strict=True):
        assert expected in html


def test_the_page_shows_a_claimed_score_that_differs_from_the_recomputed_one(
    admin_web: Client, user: Any, mismatch_record: Any
) -> None:
    game_id = store_game(mismatch_record, user)
    where = mismatch_record["meta"]["corruption"]
    claimed = mismatch_record["deals"][where["deal"] - 1]["scores"][where["seat"]]

    page = admin_web.get(review(game_id)).content.decode()

    row = cell(page, f"deal-{where['deal']}")
    marks = re.findall(r'<mark class="differs"[^>]*>(.*?)</mark>', row)
    assert len(marks) == 1
    recomputed, shown_claim = re.fullmatch(r"(\S+) \(claimed (\S+)\)", marks[0]).groups()
    assert shown_claim == str(claimed)
    assert recomputed != shown_claim
    assert "result.score" in page
    assert page.count('<mark class="differs" title=') == 1  # no other claim differs


def test_resolving_a_dispute_records_who_decided_when_and_why_and_changes_the_status(
    admin_web: Client, reviewer: Any, user: Any, record: Any
) -> None:
    game_id = store_game(record(), user)
    game = Game.objects.get(pk=game_id)
    dispute = dispute_open(game=game, by=user, reason="the last deal was not played", deal=2)
    prefix = f"dispute-{dispute.pk}"

    page = admin_web.get(review(game_id)).content.decode()
    assert "the last deal was not played" in page
    assert f'name="{prefix}-note"' in page

    response = admin_web.post(
        review(game_id),
        {
            "action": "decide",
            "dispute": dispute.pk,
            f"{prefix}-decision": "corrected",
            f"{prefix}-note": "Gleb's sheet was miscopied",
            f"{prefix}-total_0": "10",
            f"{prefix}-total_1": "-5",
            f"{prefix}-total_2": "7.5",
            f"{prefix}-total_3": "0",
        },
    )

    assert response.status_code == 302
    dispute.refresh_from_db()
    assert (dispute.status, dispute.note, dispute.decided_by) == (
        "corrected",
        "Gleb's sheet was miscopied",
        reviewer,
    )
    assert dispute.decided_at is not None
    assert dispute.corrected_scores == ["10", "-5", "7.5", "0"]
    assert Game.objects.get(pk=game_id).status == "resolved"
    winner = GameSeat.objects.get(game_id=game_id, winner=True)
    assert (winner.seat, str(winner.total)) == (0, "10.0000")


def test_a_rejected_dispute_returns_the_game_to_the_status_of_its_verdict(
    admin_web: Client, user: Any, illegal_record: Any
) -> None:
    game_id = store_game(illegal_record, user)
    dispute = dispute_open(game=Game.objects.get(pk=game_id), by=user, reason="no revoke there")
    prefix = f"dispute-{dispute.pk}"
    body = {"action": "decide", "dispute": dispute.pk, f"{prefix}-decision": "rejected"}
    assert admin_web.post(review(game_id), {**body, f"{prefix}-note": "it was"}).status_code == 302
    dispute.refresh_from_db()
    assert (dispute.status, dispute.note) == ("rejected", "it was")
    assert Game.objects.get(pk=game_id).status == "flagged"


def test_a_corrected_decision_without_every_total_is_refused_and_changes_nothing(
    admin_web: Client, user: Any, record: Any
) -> None:
    game_id = store_game(record(), user)
    dispute = dispute_open(game=Game.objects.get(pk=game_id), by=user, reason="wrong totals")
    prefix = f"dispute-{dispute.pk}"
    response = admin_web.post(
        review(game_id),
        {"action": "decide", "dispute": dispute.pk, f"{prefix}-decision": "corrected"},
    )
    assert response.status_code == 200
    assert "a corrected decision needs every final total" in response.content.decode()
    assert Dispute.objects.get(pk=dispute.pk).status == "open"
    assert Game.objects.get(pk=game_id).status == "disputed"


def test_the_reverify_button_replays_the_game_with_the_current_engine(
    admin_web: Client, user: Any, illegal_record: Any
) -> None:
    game_id = store_game(illegal_record, user)
    Game.objects.filter(pk=game_id).update(verdict="verified", status="verified")
    response = admin_web.post(review(game_id), {"action": "reverify"}, follow=True)
    assert response.status_code == 200
    assert "Re-verified 1 games" in response.content.decode()
    game = Game.objects.get(pk=game_id)
    assert (game.verdict, game.status) == ("illegal", "flagged")


@pytest.mark.parametrize("who", ["anonymous", "user"])
def test_people_who_are_not_staff_cannot_open_or_post_to_the_page(
    client: Client, user: Any, record: Any, who: str
) -> None:
    game_id = store_game(record(), user)
    dispute = dispute_open(game=Game.objects.get(pk=game_id), by=user, reason="no")
    if who == "user":
        client.force_login(user)
    assert client.get(review(game_id)).status_code == 302
    prefix = f"dispute-{dispute.pk}"
    body = {"action": "decide", "dispute": dispute.pk, f"{prefix}-decision": "rejected"}
    response = client.post(review(game_id), body)
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
    assert Dispute.objects.get(pk=dispute.pk).status == "open"


def test_the_page_of_a_game_that_no_longer_replays_still_opens(
    admin_web: Client, user: Any, record: Any
) -> None:
    StoredRuleset.objects.create(name="club", preset="classic", options={})
    game = record()
    game["ruleset"] = "club"
    game_id = store_game(game, user)
    StoredRuleset.objects.filter(name="club").delete()
    response = admin_web.get(review(game_id))
    assert response.status_code == 200
    assert "cannot be replayed now" in response.content.decode()


def test_every_seats_hand_is_shown_for_each_deal(
    admin_web: Client, user: Any, illegal_record: Any
) -> None:
    game_id = store_game(illegal_record, user)
    page = admin_web.get(review(game_id)).content.decode()
    plays = page[page.index('id="plays-3"') :]
    hands = plays[: plays.index("</table>")]
    assert "Hands as dealt" in hands
    for name, hand in zip(
        illegal_record["players"], illegal_record["deals"][2]["hands"], strict=True
    ):
        assert f'<th scope="row">{name}</th><td>{" ".join(hand)}</td>' in hands


def test_a_deal_without_hands_shows_each_seats_cards_from_its_plays(
    admin_web: Client, user: Any, record: Any
) -> None:
    game = record(0)
    del game["deals"][0]["hands"]
    game_id = store_game(game, user)
    page = admin_web.get(review(game_id)).content.decode()
    plays = page[page.index('id="plays-1"') :]
    assert "Hands, from the plays (the record gives none)" in plays[: plays.index("</table>")]
    state, _ = state_at(game, 1, 1, 0)
    assert state is not None
    leader = state["leader"]
    first_card = game["deals"][0]["tricks"][0][0]
    assert re.search(rf'<th scope="row">{game["players"][leader]}</th><td>{first_card}[ <]', plays)


def test_findings_tricks_and_plays_link_to_the_public_replay_at_their_moment(
    admin_web: Client, user: Any, illegal_record: Any
) -> None:
    game_id = store_game(illegal_record, user)
    where = illegal_record["meta"]["corruption"]
    deal, trick, play = where["deal"], where["trick"], where["play"]
    page = admin_web.get(review(game_id)).content.decode()
    moment = f"/games/{game_id}/?deal={deal}&amp;trick={trick}&amp;play={play}"
    findings = page[page.index('id="findings"') : page.index('id="disputes"')]
    assert f'href="{moment}"' in findings
    assert f'href="{moment}"' in cell(page, f"deal-{deal}-trick-{trick}-play-{play}")
    trick_row = cell(page, f"deal-{deal}-trick-{trick}")
    assert f'href="/games/{game_id}/?deal={deal}&amp;trick={trick}"' in trick_row


def test_the_corrected_totals_are_prefilled_with_the_recomputed_ones(
    admin_web: Client, user: Any, record: Any
) -> None:
    game_id = store_game(record(), user)
    game = Game.objects.get(pk=game_id)
    dispute = dispute_open(game=game, by=user, reason="Anna's total is wrong")
    prefix = f"dispute-{dispute.pk}"
    page = admin_web.get(review(game_id)).content.decode()
    totals = record()["totals"]
    for seat, total in enumerate(totals):
        field = re.search(rf'<input[^>]*name="{prefix}-total_{seat}"[^>]*>', page)
        assert field and f'value="{total}"' in field.group(0), field
    # Left as they are, the pre-filled totals go with a decision that corrects nothing.
    body = {
        "action": "decide",
        "dispute": dispute.pk,
        f"{prefix}-decision": "rejected",
        **{f"{prefix}-total_{seat}": str(total) for seat, total in enumerate(totals)},
    }
    assert admin_web.post(review(game_id), body).status_code == 302
    dispute.refresh_from_db()
    assert (dispute.status, dispute.corrected_scores) == ("rejected", None)


def test_a_changed_total_with_another_decision_than_corrected_is_refused(
    admin_web: Client, user: Any, record: Any
) -> None:
    game_id = store_game(record(), user)
    dispute = dispute_open(game=Game.objects.get(pk=game_id), by=user, reason="wrong")
    prefix = f"dispute-{dispute.pk}"
    totals = record()["totals"]
    body = {
        "action": "decide",
        "dispute": dispute.pk,
        f"{prefix}-decision": "rejected",
        **{f"{prefix}-total_{seat}": str(total) for seat, total in enumerate(totals)},
        f"{prefix}-total_0": str(totals[0] + 10),
    }
    response = admin_web.post(review(game_id), body)
    assert response.status_code == 200
    assert "final totals go with the decision corrected" in response.content.decode()
    dispute.refresh_from_db()
    assert dispute.status == "open"
