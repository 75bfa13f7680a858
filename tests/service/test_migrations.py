"""The migration history is the deployed databases' history: a database made by the earlier
migrations must migrate forward with its data intact.

The verification app (``verification/``) keeps the label ``replay`` it had before the engine
took that package name: the label names its tables, its migrations, its content types and
its permissions, so a deployed database needs no step to follow the move.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.recorder import MigrationRecorder

from tests.service.conftest import store_game
from verification.models import Finding, Report


def test_the_verification_app_keeps_its_label_and_tables() -> None:
    config = apps.get_app_config("replay")
    assert config.name == "verification"
    for model in config.get_models():
        assert model._meta.db_table.startswith("replay_"), model


@pytest.mark.django_db
def test_the_models_and_the_migrations_agree() -> None:
    out = io.StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_a_database_of_the_earlier_migrations_migrates_forward_with_its_data(
    record: Callable[..., Any], mismatch_record: Any, user: Any
) -> None:
    """Back to the migrations before the families (games 0004, replay 0002), with games
    stored; then forward again: the games, their reports and their findings are all there."""
    store_game(record(0), user)
    store_game(mismatch_record, user)
    reports = list(Report.objects.values_list("pk", "game_id", "verdict").order_by("pk"))
    findings = Finding.objects.count()
    assert reports
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    try:
        call_command("migrate", "replay", "0002", verbosity=0)
        call_command("migrate", "games", "0004", verbosity=0)
        applied = MigrationRecorder(connection).applied_migrations()
        assert ("games", "0005_families") not in applied
    finally:
        call_command("migrate", verbosity=0)
    applied = MigrationRecorder(connection).applied_migrations()
    assert all(leaf in applied for leaf in leaves)
    assert list(Report.objects.values_list("pk", "game_id", "verdict").order_by("pk")) == reports
    assert Finding.objects.count() == findings
