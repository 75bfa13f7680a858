"""The command line: ``python -m replay.engine verify|simulate`` (and Django's twins).

``verify`` reads ``.json``, ``.jsonl``, ``.zip`` files, folders of them, or ``-`` for
standard input; it prints a readable report per record, or JSON Lines with ``--json``
(one report per record, in input order). Exit status: 0 when every record is
``verified``, 1 otherwise, 2 on a usage error — so scripts can gate on it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO

from .files import Document, split_documents
from .findings import Finding
from .formats import verify
from .report import Verdict
from .scores import plain
from .tricks.report import Report, malformed

SUFFIXES = (".json", ".jsonl", ".zip")


class Output(Protocol):
    """Where reports go: a text stream, or Django's ``OutputWrapper`` for the commands."""

    def write(self, text: str, /) -> object: ...


class UsageError(Exception):
    """A command-line mistake: reported in one line with exit status 2."""


def documents(paths: Sequence[str], stdin: TextIO | None = None) -> Iterator[tuple[str, Document]]:
    """Every record of the given paths, labelled with where it came from."""
    for name in paths:
        if name == "-":
            yield from (("stdin", d) for d in split_documents((stdin or sys.stdin).read()))
            continue
        path = Path(name)
        if path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.suffix.lower() in SUFFIXES)
        elif path.is_file():
            files = [path]
        else:
            raise UsageError(f"no such file or folder: {name}")
        for file in files:
            yield from ((str(file), d) for d in split_documents(file.read_bytes(), file.name))


def report_of(document: Document, stored_rulesets: Mapping[str, Any] | None = None) -> Report:
    if document.error is not None:
        return malformed([document.error], None)
    return verify(document.value, stored_rulesets)


def describe(report: Report, label: str) -> str:
    """A report as a club member reads it: the verdict, the result, then each finding."""
    players = report.players
    ruleset = report.ruleset.preset if report.ruleset else "unknown ruleset"
    lines = [
        f"{label}: {report.verdict} ({report.audit} audit, {ruleset}, {len(report.deals)} deals)"
    ]
    if report.totals is not None and players:
        totals = ", ".join(f"{p} {plain(t)}" for p, t in zip(players, report.totals, strict=True))
        winners = ", ".join(players[w] for w in report.winners)
        lines.append(f"  totals: {totals}; winner: {winners}")
    lines.extend("  " + describe_finding(f) for f in report.findings)
    return "\n".join(lines)


def describe_finding(finding: Finding) -> str:
    where = []
    if finding.deal is not None:
        where.append(f"deal {finding.deal}")
    if finding.trick is not None:
        where.append(f"trick {finding.trick}")
    if finding.player is not None:
        where.append(finding.player)
    elif finding.seat is not None:
        where.append(f"seat {finding.seat}")
    place = ", ".join(where)
    head = f"{finding.level} {finding.code}"
    return f"{head} — {place}: {finding.message}" if place else f"{head} — {finding.message}"


def run_verify(
    paths: Sequence[str],
    as_json: bool,
    out: Output,
    stored_rulesets: Mapping[str, Any] | None = None,
    stdin: TextIO | None = None,
) -> int:
    """Verify every record of ``paths``, print the reports; the exit status of docs/format.md."""
    status = 0
    count = 0
    for label, document in documents(paths, stdin):
        report = report_of(document, stored_rulesets)
        count += 1
        if report.verdict is not Verdict.VERIFIED:
            status = 1
        if as_json:
            out.write(json.dumps(report.to_dict(), ensure_ascii=False) + "\n")
        else:
            out.write(describe(report, f"{label} {document.label}") + "\n")
    if count == 0:
        raise UsageError("no records found in " + " ".join(paths))
    return status


def run_simulate(args: argparse.Namespace, out: Output) -> int:
    from .simulate import simulate_games

    try:
        ruleset: Any = json.loads(args.ruleset) if args.ruleset.startswith("{") else args.ruleset
        for record in simulate_games(
            ruleset, args.players, args.games, args.seed, corrupt=args.corrupt, sheet=args.sheet
        ):
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    return 0


def add_verify_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help=".json, .jsonl or .zip files, folders of them, or - for stdin",
    )
    parser.add_argument("--json", action="store_true", help="JSON Lines, one report a record")


def add_simulate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ruleset", required=True, help="a preset name or a ruleset object")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--corrupt", default=None, help="inject exactly one defect of a kind")
    parser.add_argument("--sheet", action="store_true", help="drop the tricks: paper sheets")


def main(argv: Sequence[str] | None = None, out: Output | None = None) -> int:
    parser = argparse.ArgumentParser(
        # The installed console script is ``raspis``; from a checkout it is the module.
        prog="raspis" if Path(sys.argv[0]).name == "raspis" else "python -m replay.engine",
        description="Verify or simulate Расписной покер records.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    add_verify_arguments(commands.add_parser("verify", help="verify records"))
    add_simulate_arguments(commands.add_parser("simulate", help="write simulated records"))
    args = parser.parse_args(argv)
    stream = out or sys.stdout
    try:
        if args.command == "verify":
            return run_verify(args.paths, args.json, stream)
        return run_simulate(args, stream)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
