"""The admin's actions: re-verify games, merge players, decide disputes; and stored rulesets
checked by the engine when staff add one."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.test import Client

from games.models import Dispute, Game, GameSeat, Player, PlayerAlias, StoredRuleset
from games.services import dispute_open
from tests.service.conftest import store_game, text_of
from uploads.models import UploadItem
from uploads.services import upload_create, upload_split
from uploads.tasks import WORKERS
from verification.models import Report

pytestmark = pytest.mark.django_db


def act(web: Client, changelist: str, action: str, ids: list[int], **form: Any) -> Any:
    return web.post(changelist, {"action": action, "_selected_action": ids, **form})


@pytest.mark.parametrize("changelist", ["/admin/games/game/", "/admin/games/gametoreview/"])
def test_the_reverify_action_replays_the_selected_games_with_the_current_engine(
    admin_web: Client, user: Any, illegal_record: Any, changelist: str
) -> None:
    game_id = store_game(illegal_record, user)
    # As if an older engine had judged it otherwise (still flagged, so it stays in the queue).
    Game.objects.filter(pk=game_id).update(verdict="mismatch")
    Report.objects.filter(game_id=game_id).update(verdict="mismatch", engine_version="0.9.0")

    response = act(admin_web, changelist, "reverify", [game_id])

    assert response.status_code == 302
    assert Game.objects.get(pk=game_id).verdict == "illegal"
    current = Report.objects.get(game_id=game_id, current=True)
    assert (current.verdict, current.engine_version) != ("mismatch", "0.9.0")
    messages = [str(m) for m in admin_web.get(changelist).context["messages"]]
    assert messages == ["Re-verified 1 games with engine 1.0.0: 1 verdicts changed."]


def test_the_reverify_action_is_offered_only_to_staff_who_may_change_games(
    django_user_model: Any, admin_web: Client, user: Any, illegal_record: Any
) -> None:
    from django.contrib.auth.models import Permission

    game_id = store_game(illegal_record, user)
    viewer = django_user_model.objects.create_user(username="vera", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_game"))
    web = Client()
    web.force_login(viewer)

    form = web.get("/admin/games/game/").context["action_form"]
    offered = [] if form is None else [name for name, _ in form.fields["action"].choices]
    assert "reverify" not in offered
    Game.objects.filter(pk=game_id).update(verdict="mismatch")
    refused = act(web, "/admin/games/game/", "reverify", [game_id])
    assert refused.status_code == 200  # Django answers an action not offered with the list
    assert Game.objects.get(pk=game_id).verdict == "mismatch"

    choices = admin_web.get("/admin/games/game/").context["action_form"].fields["action"].choices
    labels = dict(choices)
    assert labels["reverify"] == "Re-verify the selected games with the current engine"


def test_the_merge_action_asks_for_the_target_then_moves_the_seats(
    admin_web: Client, user: Any, record: Any
) -> None:
    second = record(1)
    second["players"] = ["Anya", "Dmitri", "Elena", "Fyodor"]
    store_game(record(0), user)
    store_game(second, user)
    anna, anya = Player.objects.get(key="anna"), Player.objects.get(key="anya")

    page = act(admin_web, "/admin/games/player/", "merge", [anna.pk, anya.pk])
    assert page.status_code == 200
    assert b'name="target"' in page.content

    done = act(
        admin_web, "/admin/games/player/", "merge", [anna.pk, anya.pk], apply="1", target=anna.pk
    )

    assert done.status_code == 302
    assert not GameSeat.objects.filter(player=anya).exists()
    assert set(GameSeat.objects.filter(player=anna).values_list("name", flat=True)) == {
        "Anna",
        "Anya",
    }
    anya.refresh_from_db()
    assert anya.merged_into == anna
    assert PlayerAlias.objects.get(key="anya").player == anna


def test_merging_players_who_sat_at_one_table_is_refused_with_a_message(
    admin_web: Client, user: Any, record: Any
) -> None:
    store_game(record(0), user)
    anna, boris = Player.objects.get(key="anna"), Player.objects.get(key="boris")
    response = act(
        admin_web, "/admin/games/player/", "merge", [anna.pk, boris.pk], apply="1", target=anna.pk
    )
    assert response.status_code == 302
    messages = [str(m) for m in admin_web.get("/admin/games/player/").context["messages"]]
    assert any("one table" in m for m in messages)
    assert GameSeat.objects.filter(player=boris).count() == 1


def test_the_decide_action_decides_the_selected_disputes_with_one_note(
    admin_web: Client, reviewer: Any, user: Any, record: Any
) -> None:
    game = Game.objects.get(pk=store_game(record(), user))
    first = dispute_open(game=game, by=user, reason="deal 1")
    second = dispute_open(game=game, by=user, reason="deal 2")
    ids = [first.pk, second.pk]

    page = act(admin_web, "/admin/games/dispute/", "decide", ids)
    assert page.status_code == 200
    assert b'name="total_3"' in page.content  # one game: totals can be corrected

    done = act(
        admin_web, "/admin/games/dispute/", "decide", ids, apply="1", decision="upheld", note="yes"
    )

    assert done.status_code == 302
    decided = Dispute.objects.filter(pk__in=ids)
    assert {(d.status, d.note, d.decided_by) for d in decided} == {("upheld", "yes", reviewer)}
    assert Game.objects.get(pk=game.pk).status == "flagged"


def test_the_admin_refuses_a_stored_ruleset_the_engine_refuses(admin_web: Client) -> None:
    form = {"name": "club", "preset": "classic", "options": '{"no_such_option": 1}'}
    response = admin_web.post("/admin/games/storedruleset/add/", form)
    assert response.status_code == 200
    assert "no_such_option" in response.content.decode()
    assert not StoredRuleset.objects.exists()
    form["options"] = '{"pass_made": 50}'
    assert admin_web.post("/admin/games/storedruleset/add/", form).status_code == 302
    assert StoredRuleset.objects.get(name="club").created_by is not None


def test_people_who_are_not_staff_cannot_run_admin_actions(
    client: Client, user: Any, record: Any
) -> None:
    store_game(record(0), user)
    client.force_login(user)
    anna = Player.objects.get(key="anna")
    response = act(client, "/admin/games/player/", "merge", [anna.pk])
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def test_an_upload_item_page_shows_its_record_read_from_the_file(
    admin_web: Client, reviewer: Any, record: Any
) -> None:
    lines = [text_of(record(0)), "not json at all"]
    upload = upload_create(
        uploaded_by=reviewer,
        data="\n".join(lines).encode(),
        filename="g.jsonl",
        visibility="public",
        workers=WORKERS,
    )
    upload_split(upload_id=upload.pk, workers=WORKERS)
    items = UploadItem.objects.filter(upload=upload).order_by("index")
    for item, line in zip(items, lines, strict=True):
        page = admin_web.get(f"/admin/uploads/uploaditem/{item.pk}/change/")
        assert page.status_code == 200
        assert html.escape(line[:60]) in page.content.decode()


def test_a_report_page_shows_the_stored_report_indented(
    admin_web: Client, user: Any, record: Any
) -> None:
    game_id = store_game(record(0), user)
    report = Report.objects.get(game_id=game_id)
    page = admin_web.get(f"/admin/replay/report/{report.pk}/change/").content.decode()
    assert "<pre>{\n  &quot;verdict&quot;: &quot;verified&quot;," in page
    assert report.data.startswith('{"verdict":"verified",')  # stored compact
