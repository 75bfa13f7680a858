"""The only code that knows both the engine and the database: everything the interfaces
(API views, Celery tasks, management commands, the admin) call to verify and store records.
"""

from replay.services.records import (
    game_record_text,
    game_state,
    game_store,
    record_check,
    record_read,
    ruleset_create,
    ruleset_findings,
    ruleset_presets,
)
from replay.services.reverify import ReverifySummary, games_reverify, games_to_reverify
from replay.services.store import Entry, Outcome, records_store, stored_rulesets
from replay.services.upload_files import PART_SIZE, upload_file_read
from replay.services.uploads import (
    UploadReceiver,
    upload_create,
    upload_fail,
    upload_process,
    upload_queue,
    upload_receiving,
    upload_split,
)

__all__ = [
    "PART_SIZE",
    "Entry",
    "Outcome",
    "ReverifySummary",
    "UploadReceiver",
    "game_record_text",
    "game_state",
    "game_store",
    "games_reverify",
    "games_to_reverify",
    "record_check",
    "record_read",
    "records_store",
    "ruleset_create",
    "ruleset_findings",
    "ruleset_presets",
    "stored_rulesets",
    "upload_create",
    "upload_fail",
    "upload_file_read",
    "upload_process",
    "upload_queue",
    "upload_receiving",
    "upload_split",
]
