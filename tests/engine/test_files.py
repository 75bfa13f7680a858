"""Splitting uploaded files: JSON Lines by place, the other forms decoded."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from replay import Code, Document, Line, files, record_json, split_documents, split_file

ONE = {"format": "raspis/1", "n": 1}
TWO = {"format": "raspis/1", "n": 2, "name": "Вера\u2028Гл\x0beб"}


def text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def test_json_lines_come_back_as_places_of_the_bytes() -> None:
    data = f"{text(ONE)}\n\n{text(TWO)}\n".encode()
    parts = split_file(data, "games.jsonl")
    assert all(isinstance(p, Line) for p in parts)
    assert [(p.label, data[p.start : p.end]) for p in parts] == [
        ("line 1", text(ONE).encode()),
        ("line 3", text(TWO).encode()),
    ]


def test_a_line_is_read_from_the_file_or_from_a_piece_of_it() -> None:
    data = f"{text(ONE)}\n{text(TWO)}".encode()
    line = split_file(data)[1]
    assert isinstance(line, Line)
    piece = data[line.start - 3 :]
    assert (
        line.read(piece, offset=line.start - 3)
        == line.read(data)
        == Document("line 2", text(TWO), TWO)
    )


def test_only_a_newline_ends_a_line_and_a_carriage_return_before_it_is_not_kept() -> None:
    """U+2028 and a vertical tab inside a string are not line breaks (str.splitlines says so)."""
    for data in (f"{text(ONE)}\r\n{text(TWO)}\r\n", f"{text(ONE)}\r\n{text(TWO)}\r\n".encode()):
        documents = split_documents(data)
        assert [(d.text, d.value) for d in documents] == [(text(ONE), ONE), (text(TWO), TWO)]


def test_a_byte_order_mark_before_json_lines_is_not_part_of_the_first_record() -> None:
    data = "\ufeff" + f"{text(ONE)}\n{text(TWO)}\n"
    for form in (data, data.encode()):
        documents = split_documents(form)
        assert [d.value for d in documents] == [ONE, TWO]
        assert [d.error for d in documents] == [None, None]


def test_lines_of_json_whitespace_are_skipped_and_still_counted() -> None:
    data = f" \t\r\n{text(ONE)}\n   \n{text(TWO)}".encode()
    assert [d.label for d in split_documents(data)] == ["line 2", "line 4"]


def test_a_bad_line_is_its_own_finding_and_the_others_are_read() -> None:
    data = f"{text(ONE)}\nnot json\n[1, 2]\n{text(TWO)}\n".encode()
    documents = split_documents(data)
    assert [d.value for d in documents] == [ONE, None, None, TWO]
    bad = [d.error for d in documents[1:3]]
    assert [(f.code, f.message) for f in bad if f is not None] == [
        (Code.RECORD_JSON, "line 2: not JSON"),
        (Code.RECORD_JSON, "line 3: not a JSON object"),
    ]


def test_bytes_and_text_of_one_file_split_alike() -> None:
    data = f"{text(ONE)}\n\u00e9t\u00e9\n{text(TWO)}\n"
    assert split_documents(data) == split_documents(data.encode())


def test_a_record_and_an_array_are_decoded_documents() -> None:
    assert split_file(json.dumps(ONE, indent=2).encode()) == [
        Document("record", json.dumps(ONE, indent=2), ONE)
    ]
    parts = split_file(text([ONE, TWO]).encode())
    assert [(p.label, p.value) for p in parts if isinstance(p, Document)] == [
        ("item 1", ONE),
        ("item 2", TWO),
    ]


def test_json_lines_inside_a_zip_are_decoded_with_the_member_name() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("club/games.jsonl", f"{text(ONE)}\r\n{text(TWO)}\n")
    parts = split_file(buffer.getvalue(), "games.zip")
    assert [(p.label, p.value) for p in parts if isinstance(p, Document)] == [
        ("club/games.jsonl line 1", ONE),
        ("club/games.jsonl line 2", TWO),
    ]


@pytest.mark.parametrize(
    "members",
    [[], [("notes.txt", "no records")], [("club/", "")], [("games.zip", "PK")]],
    ids=["empty", "only-text", "only-a-folder", "only-a-nested-zip"],
)
def test_a_zip_without_records_is_one_document_that_says_so(members: list[tuple[str, str]]) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members:
            archive.writestr(name, data)
    (document,) = split_documents(buffer.getvalue(), "games.zip")
    assert document.label == "archive"
    assert document.value is None
    assert document.error is not None
    assert document.error.code == Code.RECORD_JSON
    assert document.error.message == "archive: the zip holds no .json or .jsonl file"


def test_nan_and_infinity_are_not_json_numbers() -> None:
    data = '{"format": "raspis/1", "n": NaN}\n{"format": "raspis/1", "n": -Infinity}\n'
    documents = split_documents(data)
    assert [d.value for d in documents] == [None, None]
    assert [d.error.message for d in documents if d.error] == [
        "line 1: not JSON",
        "line 2: not JSON",
    ]


def test_a_byte_order_mark_is_read_only_at_the_very_start_of_a_record() -> None:
    assert record_json('\ufeff {"n": 1} ') == {"n": 1}
    with pytest.raises(ValueError):
        record_json(' \ufeff{"n": 1}')


def test_json_is_utf8_a_line_that_is_not_is_its_own_finding() -> None:
    bad = text(ONE).encode().replace(b'"n"', b'"\xff"')
    data = text(ONE).encode() + b"\n" + bad + b"\n" + text(TWO).encode()
    documents = split_documents(data)
    assert [d.value for d in documents] == [ONE, None, TWO]
    assert documents[1].error is not None
    assert documents[1].error.message == "line 2: not UTF-8 text"


def test_a_file_of_one_value_that_is_not_utf8_is_refused_whole() -> None:
    for value in (ONE, [ONE, TWO]):
        data = json.dumps(value, indent=1).encode().replace(b"raspis/1", b"raspis/\xe9")
        (document,) = split_documents(data)
        assert document.error is not None
        assert document.error.message == "record: not UTF-8 text"


#: Pieces of files: records, values that are not records, text that is not JSON, every kind
#: of blank (JSON's, and the wider whitespace that a whole file is stripped of), byte order
#: marks, a value over several lines, and bytes that are not UTF-8.
PIECES = [
    text(ONE),
    text(TWO),
    json.dumps([ONE, TWO], indent=1),
    json.dumps(ONE, indent=2),
    "12",
    '"a"',
    "[",
    "]",
    "{",
    "not json",
    "NaN",
    "",
    " ",
    "\t",
    "\r",
    "\x0c",
    "\xa0",
    "\u2028",
    "\ufeff",
]


@example([text(ONE), "\xa0"], ["\n"] * 8, True, False)  # blank to Python
@example([text(ONE), "[", text(TWO)], ["\n"] * 8, False, False)
@settings(max_examples=400)
@given(
    st.lists(st.sampled_from(PIECES), max_size=8),
    st.lists(st.sampled_from(["\n", "\r\n", "\n\n", " \n"]), min_size=8, max_size=8),
    st.booleans(),
    st.booleans(),
)
def test_a_file_splits_as_if_first_read_as_one_value(
    pieces: list[str], separators: list[str], as_bytes: bool, broken: bool
) -> None:
    """JSON Lines are recognised from their first and last lines (``_many_values``); every
    file splits as it would when first read whole as one JSON value, which is how the
    others are recognised."""
    data: bytes | str = "".join(p + s for p, s in zip(pieces, separators, strict=False))
    if as_bytes:
        data = data.encode()
        if broken:
            data = data.replace(b"not", b"n\xfft")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(files, "_many_values", lambda data: False)
        whole_first = split_file(data)
    assert split_file(data) == whole_first
