"""The ``raspis`` command: the engine's ``verify`` and ``simulate`` with ``import`` added.

``raspis import --from FORMAT FILE...`` writes the records of the files as JSON Lines to
standard output, ready for ``raspis verify -`` or an upload; each finding of the import goes
to standard error, located in its file. Exit status: 0 when every file imported without a
finding, 1 otherwise, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from replay.cli import COMMANDS, Command, Output, UsageError, describe_finding
from replay.cli import main as engine_main

from . import FORMATS, convert

IMPORT_EPILOG = """\
formats (--from):
  ohw        saved games of the OhHellWeb server (.ohw, JSON)
  openspiel  OpenSpiel's oh_hell: SerializeGameAndState text, or a playthrough transcript
  sheet      a score sheet typed into a spreadsheet: .csv or .xlsx (examples/sheet-template.csv)

A record keeps its import's findings in meta.import.findings. docs/importers.md has the
mappings.

exit status:
  0  every file gave its records without a finding
  1  some import finding (a part of a file that no record can hold, or a file not read)
  2  a usage error: no such file, an unknown format
"""


def add_import_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--from",
        dest="source",
        required=True,
        choices=sorted(FORMATS),
        metavar="FORMAT",
        help="the format of the files: " + ", ".join(sorted(FORMATS)) + " (below)",
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="files of that format")


def run_import(args: argparse.Namespace, out: Output, errors: Output | None = None) -> int:
    err = errors or sys.stderr
    status = 0
    for name in args.files:
        path = Path(name)
        if not path.is_file():
            raise UsageError(f"no such file: {name}")
        for game in convert(args.source, path.read_bytes(), name):
            for finding in game.findings:
                err.write(f"{game.label}: {describe_finding(finding)}\n")
                status = 1
            if game.record is not None:
                out.write(json.dumps(game.record, ensure_ascii=False) + "\n")
    return status


IMPORT = Command(
    "import",
    "write records of other programs' files as raspis/1 JSON Lines",
    add_import_arguments,
    run_import,
    lambda: IMPORT_EPILOG,
)


def main(argv: Sequence[str] | None = None, out: Output | None = None) -> int:
    return engine_main(argv, out, (*COMMANDS, IMPORT), module="importers")
