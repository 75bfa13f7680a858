"""Typed score sheets → raspis/1: the template, a two-row header, a workbook, findings."""

from __future__ import annotations

import io
from pathlib import Path

from openpyxl import Workbook

from importers import sheet
from replay import verify

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"


def test_the_template_imports_to_a_record_that_verifies() -> None:
    path = ROOT / "examples" / "sheet-template.csv"
    [game] = sheet.convert(path.read_bytes(), path.name)
    assert game.findings == ()
    record = game.record
    assert record is not None
    assert record["ruleset"] == "classic"
    assert record["players"] == ["Анна", "Борис", "Вера", "Глеб"]
    assert record["first_dealer"] == 0
    assert record["meta"]["played_at"] == "2026-11-20"
    assert record["deals"][1] == {
        "cards": 2,
        "kind": "regular",
        "trump_card": "JS",
        "dealer": 1,
        "bids": [0, 0, 1, 0],
        "taken": [1, 0, 1, 0],
        "scores": [1, 5, 10, 5],
        "running": [-9, 15, 15, 10],
    }
    assert record["totals"] == [-7, 20, 20, 20]
    report = verify(record)
    assert report.verdict == "verified", report.findings
    assert [f.code for f in report.findings] == ["game.incomplete"]


def test_a_two_row_header_and_what_cannot_be_read() -> None:
    name = "sheet-two-row-header.csv"
    [game] = sheet.convert((FIXTURES / name).read_bytes(), name)
    record = game.record
    assert record is not None
    assert record["players"] == ["Anna", "Boris", "Vera"]
    assert record["first_dealer"] == 0
    first, second, third = record["deals"]
    assert first["trump"] == "H"
    assert second["trump_card"] == "JS"
    assert second["bids"] == [1, None, 0]
    assert third["trump"] is None
    assert [f.message for f in game.findings] == [
        "line 8, column 4: 'x' is not a whole number",
        "line 8, column 6: no score for Anna: the row's scores are left out",
    ]
    assert {f.code for f in game.findings} == {"import.value"}
    assert "scores" not in third and "running" not in third
    assert record["meta"]["import"]["findings"][0]["code"] == "import.value"


def workbook(rows_of: dict[str, list[list[object]]]) -> bytes:
    book = Workbook()
    for empty in list(book.worksheets):
        book.remove(empty)
    for title, rows in rows_of.items():
        worksheet = book.create_sheet(title)
        for row in rows:
            worksheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


HEADER: list[object] = ["deal", "cards", "trump", "Anna bid", "Anna taken",
                        "Boris bid", "Boris taken", "Vera bid", "Vera taken"]  # fmt: skip


def test_each_worksheet_of_a_workbook_is_a_game_located_by_cell() -> None:
    data = workbook(
        {
            "Game 1": [["ruleset", "classic"], HEADER, [1, 1, "9D", 1, 0, 1, 1, 0, 0]],
            "Game 2": [["ruleset", "classic"], HEADER, [1, 1, "9D", 1, "one", 1, 1, 0, 0]],
        }
    )
    first, second = sheet.convert(data, "club.xlsx")
    assert first.label == "club.xlsx Game 1"
    assert first.record is not None and first.findings == ()
    assert first.record["deals"] == [
        {"cards": 1, "trump_card": "9D", "bids": [1, 1, 0], "taken": [0, 1, 0]}
    ]
    assert verify(first.record).verdict == "verified"
    assert [f.message for f in second.findings] == ["Game 2!E3: 'one' is not a whole number"]


def test_a_sheet_without_its_ruleset_gives_no_record() -> None:
    [game] = sheet.convert(b"Anna bid,Anna taken\n1,1\n", "bare.csv")
    assert game.record is None
    assert game.findings[0].code == "import.source"


def test_a_file_that_is_no_sheet_gives_a_finding() -> None:
    [game] = sheet.convert(b"PK\x03\x04 not really a zip", "broken.xlsx")
    assert game.record is None
    assert game.findings[0].code == "import.source"
    [game] = sheet.convert(b"\xff\xfe bad", "latin.csv")
    assert game.findings[0].code == "import.source"


def test_a_workbook_with_merged_names_over_the_columns_of_each_player() -> None:
    book = Workbook()
    worksheet = book.active
    assert worksheet is not None
    worksheet.append(["правила", "classic"])
    worksheet.append(["", "", "Анна", None, "Борис", None, "Вера", None])
    worksheet.append(["карт", "сдаёт", "заказ", "взял", "заказ", "взял", "заказ", "взял"])
    worksheet.append([1, "Вера", 1, 1, 0, 0, 1, 0])
    for first in ("C2:D2", "E2:F2", "G2:H2"):
        worksheet.merge_cells(first)
    buffer = io.BytesIO()
    book.save(buffer)
    [game] = sheet.convert(buffer.getvalue(), "merged.xlsx")
    assert game.findings == ()
    record = game.record
    assert record is not None
    assert record["players"] == ["Анна", "Борис", "Вера"]
    assert record["first_dealer"] == 2  # the first deal's dealer
    assert record["deals"] == [{"cards": 1, "dealer": 2, "bids": [1, 0, 1], "taken": [1, 0, 0]}]


def test_a_trump_cell_holds_a_card_a_suit_or_no_trump() -> None:
    rows = ["ruleset,classic", "cards,trump,Anna bid,Anna taken"]
    cells = ["9D", "10♥", "ТП", "черви", "крести", "H", "♠", "-", "нет", "бк", "two"]
    rows += [f"1,{cell},0,0" for cell in cells]
    [game] = sheet.convert("\n".join(rows).encode(), "trumps.csv")
    record = game.record
    assert record is not None
    read = [{k: v for k, v in d.items() if k.startswith("trump")} for d in record["deals"]]
    assert read == [
        {"trump_card": "9D"},
        {"trump_card": "10♥"},
        {"trump_card": "ТП"},
        {"trump": "H"},
        {"trump": "C"},
        {"trump": "H"},
        {"trump": "♠"},
        {"trump": None},
        {"trump": None},
        {"trump": None},
        {},
    ]
    assert [f.message for f in game.findings] == ["line 13, column 2: no trump or trump card 'two'"]
