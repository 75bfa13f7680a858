"""A paper score sheet typed into a spreadsheet, CSV or ``.xlsx``: docs/importers.md "sheet".

The usual Расписной sheet: one row per deal, and for each player four columns, the bid,
the tricks taken, the deal's score and the running total. Above the header, rows of a key
and a value say what the sheet does not: the ruleset (required: a sheet never shows it),
and optionally the date and the first dealer. The header names each column, in Russian or
in English (``Анна заказ``, ``Anna bid``), or in two rows, the players' names over the
four columns of each (a merged cell) and the column words below. A last row ``итого`` /
``total`` holds the final totals. ``examples/sheet-template.csv`` is the template.

Each worksheet of a workbook is one game; a CSV file is one game.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from replay import Code, Finding

from .base import Imported, Json, SourceError, failed, utf8_text, with_findings

#: Column words (lower case) → the field they name: per player, then per deal.
PLAYER_FIELDS = {
    "bid": "bid", "заказ": "bid", "заявка": "bid",
    "taken": "taken", "tricks": "taken", "взял": "taken", "взятки": "taken", "взято": "taken",
    "score": "score", "очки": "score", "результат": "score",
    "total": "running", "running": "running", "итог": "running", "сумма": "running",
}  # fmt: skip
DEAL_FIELDS = {
    "deal": "deal", "№": "deal", "#": "deal", "раздача": "deal", "кон": "deal",
    "cards": "cards", "карт": "cards", "карты": "cards",
    "kind": "kind", "вид": "kind", "тип": "kind", "игра": "kind",
    "trump": "trump", "козырь": "trump",
    "dealer": "dealer", "сдаёт": "dealer", "сдает": "dealer", "сдающий": "dealer",
}  # fmt: skip
KEYS = {
    "ruleset": "ruleset", "правила": "ruleset", "played_at": "played_at", "date": "played_at",
    "дата": "played_at", "first_dealer": "first_dealer", "первый сдающий": "first_dealer",
}  # fmt: skip
KINDS = {
    "regular": "regular", "обычная": "regular", "": "regular",
    "no_trump": "no_trump", "бескозырка": "no_trump", "бк": "no_trump",
    "dark": "dark", "тёмная": "dark", "темная": "dark",
    "misere": "misere", "мизер": "misere",
    "golden": "golden", "золотая": "golden",
    "forehead": "forehead", "лобовая": "forehead",
}  # fmt: skip
SUITS = {
    "пики": "S", "пик": "S", "трефы": "C", "треф": "C", "крести": "C", "бубны": "D",
    "буби": "D", "бубен": "D", "черви": "H", "червы": "H", "червей": "H",
    "spades": "S", "clubs": "C", "diamonds": "D", "hearts": "H",
}  # fmt: skip
#: How a finding names a player's column, one and many.
WORDS = {
    "taken": ("tricks taken", "tricks taken"),
    "score": ("score", "scores"),
    "running": ("total", "totals"),
}
NO_TRUMP = ("-", "—", "нет", "none", "no trump", "бк")
TOTAL_ROWS = ("итого", "total", "totals")
#: A blind bid is written with a mark after it: ``2т``, ``2*``, ``2d``.
DARK = re.compile(r"^(\d+)\s*[*тtdд]$", re.I)
#: A card as a sheet writes one: a rank, Latin or Cyrillic, then a suit's letter or sign
#: (the Cyrillic suit letters П, К/Т, Б, Ч too); the engine reads it, or says why not.
CARD_LIKE = re.compile(r"^(10|[2-9tjqkaвдкт])\s*[scdh♠♣♦♥♤♧♢♡пктбч]$", re.I)


@dataclass
class Table:
    """A worksheet's rows of cells, each with the place a finding names."""

    label: str
    rows: list[tuple[str, list[Any]]]  #: (the row's place, its cells)
    cell: Callable[[str, int], str] | None = None  #: (row place, column index) → a cell's place

    def where(self, row: str, column: int) -> str:
        return self.cell(row, column) if self.cell else f"{row}, column {column + 1}"


def convert(data: bytes, name: str) -> list[Imported]:
    try:
        tables = list(_xlsx(data, name) if data[:4] == b"PK\x03\x04" else [_csv(data, name)])
    except SourceError as error:
        return [failed(name, error)]
    games = []
    for table in tables:
        try:
            games.append(_game(table))
        except SourceError as error:
            games.append(failed(table.label, error))
    return games


def _csv(data: bytes, name: str) -> Table:
    text = utf8_text(data, name)
    # The separator is the one of ``,`` ``;`` (a Russian Excel's) and tab that the start of
    # the file has most of: a sheet's rows are mostly separators and numbers.
    head = text[:4096]
    delimiter = max(",;\t", key=head.count)
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    rows = []
    try:
        for cells in reader:
            rows.append((f"line {reader.line_num}", cells))
    except csv.Error as exc:
        raise SourceError(Code.IMPORT_SOURCE, f"line {reader.line_num}: not CSV ({exc})") from exc
    return Table(name, rows)


def _xlsx(data: bytes, name: str) -> Iterator[Table]:
    from openpyxl import load_workbook
    from openpyxl.utils import get_column_letter

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds on a file that is no workbook
        raise SourceError(
            Code.IMPORT_SOURCE, f"{name}: not a readable .xlsx workbook ({exc})"
        ) from exc
    for sheet in book.worksheets:
        rows = [
            (f"{sheet.title}!{n}", list(cells))
            for n, cells in enumerate(sheet.iter_rows(values_only=True), 1)
        ]
        if any(any(c not in (None, "") for c in cells) for _, cells in rows):
            yield Table(
                f"{name} {sheet.title}",
                rows,
                lambda row, column: (
                    f"{row.split('!')[0]}!{get_column_letter(column + 1)}{row.split('!')[1]}"
                ),
            )


def _text(value: Any) -> str:
    return "" if value is None else str(value).strip()


@dataclass(frozen=True, slots=True)
class Column:
    field: str
    player: int | None = None


def _header(table: Table) -> tuple[int, list[Column | None], list[str], Json]:
    """The row index after the header, its columns, the players and the keys above it."""
    keys: Json = {}
    for i, (place, cells) in enumerate(table.rows):
        texts = [_text(c) for c in cells]
        first = texts[0].lower().rstrip(":") if texts else ""
        if first in KEYS and len([t for t in texts if t]) <= 2:
            keys[KEYS[first]] = (texts[1] if len(texts) > 1 else "", table.where(place, 1))
            continue
        columns = _columns(texts, [""] * len(texts))
        if columns is None and i + 1 < len(table.rows):
            below = [_text(c) for c in table.rows[i + 1][1]]
            columns = _columns(below, _carried(texts))
            if columns is not None:
                return i + 2, *columns, keys
        if columns is not None:
            return i + 1, *columns, keys
        if any(texts):
            raise SourceError(
                Code.IMPORT_SOURCE, f"{table.where(place, 0)}: neither a key row nor the header"
            )
    raise SourceError(Code.IMPORT_SOURCE, f"{table.label}: no header row (e.g. 'Anna bid')")


def _carried(names: list[str]) -> list[str]:
    """A merged cell's name over the columns after it (a spreadsheet keeps it in the first)."""
    carried, last = [], ""
    for name in names:
        last = name or last
        carried.append(last)
    return carried


def _columns(texts: list[str], names: list[str]) -> tuple[list[Column | None], list[str]] | None:
    columns: list[Column | None] = []
    players: list[str] = []
    for text, over in zip(texts, names, strict=False):
        word = text.lower()
        if not text:
            columns.append(None)
        elif word in DEAL_FIELDS and not over:
            columns.append(Column(DEAL_FIELDS[word]))
        else:
            player, what = (over, word) if over else _split(text)
            if what not in PLAYER_FIELDS or not player:
                return None
            if player not in players:
                players.append(player)
            columns.append(Column(PLAYER_FIELDS[what], players.index(player)))
    has = {c.field for c in columns if c is not None}
    return (columns, players) if players and "taken" in has else None


def _split(text: str) -> tuple[str, str]:
    """``Anna bid``, ``Anna: bid``, ``Anna.bid``, ``Анна - заказ`` → the name and the word."""
    match = re.fullmatch(r"(.+?)\s*[:.\-_ ]\s*(\S+)", text)
    return (match[1].strip(), match[2].lower()) if match else ("", text.lower())


def _game(table: Table) -> Imported:
    start, columns, players, keys = _header(table)
    findings: list[Finding] = []
    if "ruleset" not in keys or not keys["ruleset"][0]:
        raise SourceError(
            Code.IMPORT_SOURCE,
            f"{table.label}: no ruleset row above the header ('ruleset, classic')",
        )
    ruleset = keys["ruleset"][0]
    if not any(c is not None and c.field == "cards" for c in columns):
        raise SourceError(
            Code.IMPORT_SOURCE,
            f"{table.label}: no cards column ('cards', 'карт'): a record states each deal's cards",
        )
    deals: list[Json] = []
    totals: list[Any] | None = None
    for place, cells in table.rows[start:]:
        values = {i: _text(c) for i, c in enumerate(cells) if i < len(columns)}
        raw = {i: cells[i] for i in values}
        if not any(values.values()):
            continue
        first = next((v for v in values.values() if v), "").lower()
        if first in TOTAL_ROWS:
            totals = _per_player(table, place, columns, raw, "running", players, findings)
            continue
        deals.append(_deal(table, place, columns, raw, players, findings))
    record: Json = {"format": "raspis/1", "ruleset": ruleset, "players": players}
    first_dealer = None
    if "first_dealer" in keys:
        first_dealer = _seat(keys["first_dealer"][0], players, keys["first_dealer"][1], findings)
    elif deals:
        first_dealer = deals[0].get("dealer")  # the first deal's dealer is the first dealer
    if first_dealer is not None:
        record["first_dealer"] = first_dealer
    meta: Json = {"source": "paper sheet"}
    if "played_at" in keys:
        meta["played_at"] = keys["played_at"][0]
    record["meta"] = meta
    record["deals"] = deals
    if totals is not None:
        record["totals"] = totals
    return Imported(table.label, with_findings(record, "sheet", findings), tuple(findings))


def _deal(
    table: Table,
    place: str,
    columns: list[Column | None],
    raw: dict[int, Any],
    players: list[str],
    findings: list[Finding],
) -> Json:
    deal: Json = {}
    for i, column in enumerate(columns):
        if column is None or column.player is not None or i not in raw:
            continue
        text, where = _text(raw[i]), table.where(place, i)
        if column.field == "cards":
            deal["cards"] = _integer(raw[i], where, findings)
        elif column.field == "kind":
            if text.lower() not in KINDS:
                findings.append(Finding(Code.IMPORT_VALUE, f"{where}: no deal kind {text!r}"))
            else:
                deal["kind"] = KINDS[text.lower()]
        elif column.field == "trump" and text:
            _trump(deal, text, where, findings)
        elif column.field == "dealer" and text:
            deal["dealer"] = _seat(text, players, where, findings)
    bids = _bids(table, place, columns, raw, len(players), findings)
    if bids is not None:
        deal["bids"] = bids
    for name, key in (("taken", "taken"), ("score", "scores"), ("running", "running")):
        values = _per_player(table, place, columns, raw, name, players, findings)
        if values is not None:
            deal[key] = values
    return deal


def _trump(deal: Json, text: str, where: str, findings: list[Finding]) -> None:
    lower = text.lower()
    if lower in NO_TRUMP:
        deal["trump"] = None
    elif lower in SUITS:
        deal["trump"] = SUITS[lower]
    elif CARD_LIKE.match(text):
        deal["trump_card"] = text
    elif len(text) == 1:
        deal["trump"] = text  # a suit letter or sign: the engine reads (or refuses) it
    else:
        findings.append(Finding(Code.IMPORT_VALUE, f"{where}: no trump or trump card {text!r}"))


def _seat(text: str, players: list[str], where: str, findings: list[Finding]) -> int | None:
    if text in players:
        return players.index(text)
    if text.isdigit() and int(text) < len(players):
        return int(text)
    findings.append(Finding(Code.IMPORT_VALUE, f"{where}: no player {text!r}"))
    return None


def _cells(columns: list[Column | None], name: str, count: int) -> list[int | None]:
    found: list[int | None] = [None] * count
    for i, column in enumerate(columns):
        if column is not None and column.field == name and column.player is not None:
            found[column.player] = i
    return found


def _bids(
    table: Table,
    place: str,
    columns: list[Column | None],
    raw: dict[int, Any],
    count: int,
    findings: list[Finding],
) -> list[Any] | None:
    """The bids: an empty cell is ``null`` (``bid.missing`` at that seat); a deal without
    any bid (misère, golden) has none."""
    cells = _cells(columns, "bid", count)
    if all(c is None or _text(raw.get(c)) == "" for c in cells):
        return None
    bids: list[Any] = []
    for i in cells:
        text = "" if i is None else _text(raw.get(i))
        dark = DARK.match(text)
        if i is None or not text:
            bids.append(None)
        elif dark:
            bids.append({"bid": int(dark[1]), "dark": True})
        else:
            bids.append(_integer(raw.get(i), table.where(place, i), findings))
    return bids


def _per_player(
    table: Table,
    place: str,
    columns: list[Column | None],
    raw: dict[int, Any],
    name: str,
    players: list[str],
    findings: list[Finding],
) -> list[Any] | None:
    """The row's numbers of one kind, one per player; None when the row has none. A row
    that has some but not all is a finding: a record cannot hold part of such a list."""
    cells = _cells(columns, name, len(players))
    texts = [None if c is None else _text(raw.get(c)) for c in cells]
    if not any(texts):
        return None
    seat = next((seat for seat, text in enumerate(texts) if not text), None)
    if seat is not None:
        cell = cells[seat]
        where = place if cell is None else table.where(place, cell)
        findings.append(
            Finding(
                Code.IMPORT_VALUE,
                f"{where}: no {WORDS[name][0]} for {players[seat]}: the row's"
                f" {WORDS[name][1]} are left out",
                seat=seat,
                player=players[seat],
            )
        )
        return None
    read = [
        _number(raw.get(c), table.where(place, c), findings, integer=name == "taken")
        for c in cells
        if c is not None
    ]
    return None if any(v is None for v in read) else read


def _integer(value: Any, where: str, findings: list[Finding]) -> int | None:
    number = _number(value, where, findings, integer=True)
    return number if isinstance(number, int) else None


def _number(value: Any, where: str, findings: list[Finding], *, integer: bool) -> Any:
    """A cell's number: a spreadsheet's own, or a text with a decimal point or comma."""
    if isinstance(value, bool):
        value = str(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) or (isinstance(value, float) and not integer):
        return value
    text = _text(value).replace(",", ".").replace("−", "-")
    try:
        return int(text)
    except ValueError:
        pass
    if not integer:
        try:
            number = float(text)
        except ValueError:
            pass
        else:
            return int(number) if number.is_integer() else number
    kind = "whole number" if integer else "number"
    findings.append(Finding(Code.IMPORT_VALUE, f"{where}: {_text(value)!r} is not a {kind}"))
    return None
