"""The command line: ``python -m replay verify|simulate`` (and Django's twins).

``verify`` reads ``.json``, ``.jsonl``, ``.zip`` files, folders of them, or ``-`` for
standard input; it prints a readable report per record, or JSON Lines with ``--json``
(one report per record, in input order), ``--problems`` only those not verified; a summary
line and, on a terminal, the progress go to standard error. Exit status: 0 when every
record is ``verified``, 1 otherwise, 2 on a usage error — so scripts can gate on it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TextIO

from .files import Document, Line, split_file
from .findings import Finding, Severity
from .formats import AnyReport, verify
from .poker.findings import PokerFinding
from .poker.report import PokerReport
from .progress import terminal_progress
from .report import Verdict
from .rummy import findings as rummy_findings
from .scores import plain
from .tricks.report import malformed
from .tricks.rulesets import PRESETS

SUFFIXES = (".json", ".jsonl", ".zip")


class Output(Protocol):
    """Where reports go: a text stream, or Django's ``OutputWrapper`` for the commands."""

    def write(self, text: str, /) -> object: ...


class UsageError(Exception):
    """A command-line mistake: reported in one line with exit status 2."""


@dataclass(frozen=True, slots=True)
class Item:
    """A record of the input, where it came from, and how much of the input is read with
    it (0 … 1; None for standard input, whose length is not known)."""

    label: str
    document: Document
    fraction: float | None


def documents(paths: Sequence[str], stdin: TextIO | None = None) -> Iterator[Item]:
    """Every record of the given paths, labelled with where it came from."""
    files: list[Path | None] = []
    for name in paths:
        if name == "-":
            files.append(None)
            continue
        path = Path(name)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.suffix.lower() in SUFFIXES))
        elif path.is_file():
            files.append(path)
        else:
            raise UsageError(f"no such file or folder: {name}")
    sizes = [0 if file is None else file.stat().st_size for file in files]
    total, before = sum(sizes), 0
    known = None not in files and total > 0
    for file, size in zip(files, sizes, strict=True):
        data: bytes | str = (stdin or sys.stdin).read() if file is None else file.read_bytes()
        parts = split_file(data, "" if file is None else file.name)
        for i, part in enumerate(parts):
            document = part.read(data) if isinstance(part, Line) else part
            fraction = (before + size * (i + 1) / len(parts)) / total if known else None
            yield Item("stdin" if file is None else str(file), document, fraction)
        before += size


def report_of(document: Document, stored_rulesets: Mapping[str, Any] | None = None) -> AnyReport:
    if document.error is not None:
        return malformed([document.error], None)
    return verify(document.value, stored_rulesets)


def describe(report: AnyReport, label: str) -> str:
    """A report as a club member reads it: the verdict, the result, then each finding."""
    if isinstance(report, PokerReport):
        return describe_poker(report, label)
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


def describe_poker(report: PokerReport, label: str) -> str:
    ruleset = report.ruleset.preset if report.ruleset else "unknown ruleset"
    lines = [f"{label}: {report.verdict} ({ruleset}, {len(report.hands)} hands)"]
    if report.stacks is not None:
        stacks = ", ".join(f"{p} {s}" for p, s in zip(report.players, report.stacks, strict=True))
        lines.append(f"  stacks: {stacks}")
    lines.extend("  " + describe_finding(f) for f in report.findings)
    return "\n".join(lines)


def describe_finding(finding: Finding | rummy_findings.Finding | PokerFinding) -> str:
    where = []
    if isinstance(finding, PokerFinding):
        for name, number in (
            ("hand", finding.hand),
            ("stage", finding.stage),
            ("action", finding.action),
        ):
            if number is not None:
                where.append(f"{name} {number}")
    else:
        if finding.deal is not None:
            where.append(f"deal {finding.deal}")
        if isinstance(finding, Finding) and finding.trick is not None:
            where.append(f"trick {finding.trick}")
        if isinstance(finding, rummy_findings.Finding) and finding.turn is not None:
            where.append(f"turn {finding.turn}")
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
    *,
    problems: bool = False,
    errors: TextIO | None = None,
) -> int:
    """Verify every record of ``paths``, print the reports; the exit status of docs/format.md.

    ``problems`` prints only the reports of records that are not verified. ``errors`` (the
    standard error by default) gets the progress, when it is a terminal, and the summary.
    """
    err = errors or sys.stderr
    progress = terminal_progress(err, "records", out)
    tally = Tally()
    try:
        for item in documents(paths, stdin):
            report = report_of(item.document, stored_rulesets)
            tally.add(report)
            if not problems or report.verdict is not Verdict.VERIFIED:
                if progress is not None:
                    progress.before_output()
                if as_json:
                    out.write(json.dumps(report.to_dict(), ensure_ascii=False) + "\n")
                else:
                    out.write(describe(report, f"{item.label} {item.document.label}") + "\n")
            if progress is not None:
                progress.step(item.fraction)
    finally:
        if progress is not None:
            progress.close()
    if tally.records == 0:
        raise UsageError("no records found in " + " ".join(paths))
    err.write(tally.summary() + "\n")
    return 0 if tally.all_verified else 1


#: The order in which the summary names findings: the gravest first.
GRAVITY = (Severity.ERROR, Severity.MISMATCH, Severity.PENALTY, Severity.WARNING)


class Tally:
    """Counts of verdicts and of findings, for the summary line of ``verify``."""

    def __init__(self) -> None:
        self.verdicts: Counter[Verdict] = Counter()
        self.findings: Counter[tuple[Severity, str]] = Counter()

    @property
    def records(self) -> int:
        return sum(self.verdicts.values())

    @property
    def all_verified(self) -> bool:
        return self.verdicts[Verdict.VERIFIED] == self.records

    def add(self, report: AnyReport) -> None:
        self.verdicts[report.verdict] += 1
        self.findings.update((f.level, f.code) for f in report.findings)

    def summary(self, worst: int = 3) -> str:
        """``12 records: 10 verified, 1 illegal, 1 malformed; worst: play.revoke (error) ×2``."""
        counts = ", ".join(f"{self.verdicts[v]} {v}" for v in Verdict if self.verdicts[v])
        noun = "record" if self.records == 1 else "records"
        text = f"{self.records} {noun}: {counts}"
        ranked = sorted(self.findings.items(), key=lambda e: (GRAVITY.index(e[0][0]), -e[1]))
        if ranked:
            named = ", ".join(f"{code} ({level}) ×{n}" for (level, code), n in ranked[:worst])
            text += f"; worst: {named}"
        return text


def run_simulate(args: argparse.Namespace, out: Output, errors: TextIO | None = None) -> int:
    if args.game == "poker":
        return run_simulate_poker(args, out)
    from .rummy import simulate as rummy
    from .simulate import simulate_games

    simulate = rummy.simulate_games if args.game == "rummy" else simulate_games
    options: dict[str, Any] = {"corrupt": args.corrupt, "sheet": args.sheet}
    if args.claims:
        if args.game == "rummy":
            raise UsageError("--claims: claims are of trick-taking games")
        options["claims"] = True
    progress = terminal_progress(errors or sys.stderr, "games", out)
    try:
        ruleset: Any = json.loads(args.ruleset) if args.ruleset.startswith("{") else args.ruleset
        for record in simulate(ruleset, args.players, args.games, args.seed, **options):
            if progress is not None:
                progress.before_output()
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            if progress is not None:
                progress.step((progress.done + 1) / args.games)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    finally:
        if progress is not None:
            progress.close()
    return 0


def run_simulate_poker(args: argparse.Namespace, out: Output) -> int:
    """``--game poker``: ``--games`` records of ``--hands`` hands each, JSON Lines."""
    import random

    from .poker.corruptions import corrupt
    from .poker.simulate import simulate_record

    ruleset: Any = json.loads(args.ruleset) if args.ruleset.startswith("{") else args.ruleset
    try:
        for i in range(args.games):
            seed = args.seed * 1_000_003 + i
            record: dict[str, Any] | None = simulate_record(ruleset, args.players, args.hands, seed)
            if args.corrupt is not None and record is not None:
                record = corrupt(record, args.corrupt, random.Random(seed))
                if record is None:
                    raise UsageError(f"these records have no place for {args.corrupt}")
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    return 0


VERIFY_EPILOG = """\
Each report goes to standard output; on a terminal, standard error shows the records done,
the rate and the time left, and at the end one summary line: the count of each verdict
(verified, mismatch, illegal, malformed) and the gravest findings.

exit status:
  0  every record is verified
  1  some record is not (or the output was closed early, e.g. by `| head`)
  2  a usage error: no such file or folder, no records found
"""


def simulate_epilog() -> str:
    from .poker.corruptions import CORRUPTIONS as POKER_CORRUPTIONS
    from .poker.rulesets import PRESETS as POKER_PRESETS
    from .rummy.corrupt import CORRUPTIONS as RUMMY_CORRUPTIONS
    from .rummy.rulesets import PRESETS as RUMMY_PRESETS
    from .simulate import CORRUPTIONS

    return "\n".join(
        [
            "presets (--ruleset):",
            *_wrapped(", ".join(PRESETS)),
            "  with --game poker: " + ", ".join(POKER_PRESETS),
            '  or a ruleset object, e.g. \'{"preset": "classic", "options": {"deck": "52"}}\'',
            "",
            "corruption modes (--corrupt), each one located defect in meta.corruption:",
            *_wrapped(", ".join(CORRUPTIONS)),
            "  with --game poker, the finding codes: " + ", ".join(POKER_CORRUPTIONS),
            "",
            "with --game rummy: presets "
            + ", ".join(RUMMY_PRESETS)
            + "; corruption modes, named by the finding they make:",
            *_wrapped(", ".join(RUMMY_CORRUPTIONS)),
            "",
            "exit status:",
            "  0  the records were written",
            "  2  a usage error: an unknown preset or corruption, a bad ruleset, a player count"
            " out of range",
        ]
    )


def _wrapped(text: str) -> list[str]:
    return textwrap.wrap(text, width=88, initial_indent="  ", subsequent_indent="  ")


def add_verify_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help=".json, .jsonl or .zip files, folders of them, or - for stdin",
    )
    parser.add_argument("--json", action="store_true", help="JSON Lines, one report a record")
    parser.add_argument(
        "--problems", action="store_true", help="print only the records that are not verified"
    )


def add_simulate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game",
        choices=("tricks", "rummy", "poker"),
        default="tricks",
        help="the game family",
    )
    parser.add_argument(
        "--ruleset", required=True, help="a preset name or a ruleset object (below)"
    )
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--corrupt", default=None, metavar="MODE", help="inject exactly one defect of a kind"
    )
    parser.add_argument("--sheet", action="store_true", help="drop the tricks: paper sheets")
    parser.add_argument(
        "--claims",
        action="store_true",
        help="the seat to lead claims the last tricks when it takes them all (a claim)",
    )
    parser.add_argument("--hands", type=int, default=10, help="poker: hands per record")


@dataclass(frozen=True, slots=True)
class Command:
    """A command of the command line. The engine has ``verify`` and ``simulate``; a program
    built on it adds its own (``importers.cli`` adds ``import``) without the engine knowing."""

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, Output], int]
    epilog: Callable[[], str] = str


VERIFY = Command(
    "verify",
    "verify records",
    add_verify_arguments,
    lambda args, out: run_verify(args.paths, args.json, out, problems=args.problems),
    lambda: VERIFY_EPILOG,
)
SIMULATE = Command(
    "simulate", "write simulated records", add_simulate_arguments, run_simulate, simulate_epilog
)
COMMANDS = (VERIFY, SIMULATE)


def build_parser(
    commands: Sequence[Command] = COMMANDS, module: str = "replay"
) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        # The installed console script is ``raspis``; from a checkout it is the module.
        prog="raspis" if Path(sys.argv[0]).name == "raspis" else f"python -m {module}",
        description="Verify, simulate or import Расписной покер records.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True)
    for command in commands:
        sub = subparsers.add_parser(
            command.name,
            help=command.help,
            description=command.help[:1].upper() + command.help[1:] + ".",
            epilog=command.epilog(),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        command.add_arguments(sub)
    return parser


def main(
    argv: Sequence[str] | None = None,
    out: Output | None = None,
    commands: Sequence[Command] = COMMANDS,
    module: str = "replay",
) -> int:
    args = build_parser(commands, module).parse_args(argv)
    stream = out or sys.stdout
    command = next(c for c in commands if c.name == args.command)
    try:
        return command.run(args, stream)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader has gone (``| head``): say nothing, and keep Python from failing again
        # when it flushes standard output at exit.
        if out is None:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
