"""What the statistics need beyond the report, so that they read rows instead of replaying.

Seat-deals gain the jokers each seat was dealt (which only the dealt hands tell), whether
the seat was the last bidder under the hook, and the lead_highest joker plays apart from
the lead_lowest ones; games gain ``meta.point_value``. For the games stored before, they
are filled by replaying each current record with the engine, as ``manage.py reverify``
does; the scores are written again as well, rounded the way the statistics round them
(``rows.score_units``). Rows are matched by deal and seat: a game whose replay gives none of
its rows (a record malformed under a changed stored ruleset) keeps the defaults.
"""

from django.db import migrations, models

from core.bulk import bulk_set
from replay.engine import Verdict, verify
from replay.services.json_codec import record_loads
from replay.services.rows import SEAT_DEAL_FIELDS, point_value, seat_deal_rows

CHUNK = 200
FILLED = ("score", "joker_lead_highest", "jokers_held", "hook")


def seat_deals_fill(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    GameRecord = apps.get_model("games", "GameRecord")
    SeatDeal = apps.get_model("games", "SeatDeal")
    StoredRuleset = apps.get_model("games", "StoredRuleset")
    rulesets = {
        name: {"preset": preset, "options": options}
        for name, preset, options in StoredRuleset.objects.values_list("name", "preset", "options")
    }
    number, seat = SEAT_DEAL_FIELDS.index("number"), SEAT_DEAL_FIELDS.index("seat")
    places = [SEAT_DEAL_FIELDS.index(name) for name in FILLED]
    ids = list(
        GameRecord.objects.filter(current=True)
        .order_by("game_id")
        .values_list("game_id", flat=True)
    )
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        row_ids = {
            (game_id, n, s): pk
            for pk, game_id, n, s in SeatDeal.objects.filter(game_id__in=chunk).values_list(
                "pk", "game_id", "number", "seat"
            )
        }
        games, seat_deals = [], []
        for game_id, text in GameRecord.objects.filter(game_id__in=chunk, current=True).values_list(
            "game_id", "text"
        ):
            try:
                value = record_loads(text)
            except (ValueError, RecursionError):
                continue
            report = verify(value, rulesets)
            if report.verdict is Verdict.MALFORMED or report.ruleset is None:
                continue
            games.append((game_id, point_value(value.get("meta"))))
            rows = seat_deal_rows(
                game_id,
                report.deals,
                [0] * len(report.players),
                trusted=report.verdict is Verdict.VERIFIED,
                hook=report.ruleset.hook,
            )
            for row in rows:
                pk = row_ids.get((game_id, row[number], row[seat]))
                if pk is not None:
                    seat_deals.append((pk, *(row[i] for i in places)))
        bulk_set(Game, ("point_value",), games)
        bulk_set(SeatDeal, FILLED, seat_deals)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_upload_parts_and_item_places"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="point_value",
            field=models.TextField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="seatdeal",
            name="hook",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="seatdeal",
            name="joker_lead_highest",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="seatdeal",
            name="jokers_held",
            field=models.PositiveIntegerField(null=True),
        ),
        migrations.RunPython(seat_deals_fill, migrations.RunPython.noop),
    ]
