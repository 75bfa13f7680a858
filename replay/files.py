"""Uploaded files → their records (docs/format.md: one record, an array, JSON Lines, a zip).

A line or member that is not JSON gets its own ``record.json`` finding and the others are
unaffected. JSON Lines can also be split without reading the records (``split_file``): each
line is then a ``Line``, a place in the file that is decoded when it is verified. That is
what lets the service accept a 40 MB upload in a fraction of a second and leave the parsing
to its workers, which parse each record anyway.

Lines are separated by ``\\n`` alone, as JSON Lines defines them, with an optional ``\\r``
before it: a record may hold U+2028 or a form feed inside a string, and those do not end it.
A line of nothing but JSON whitespace is skipped, and its number still counts.

A caller may bound a split (``Bounds``): the records it yields and the bytes a zip unpacks to,
counted as its members inflate, never taken from the sizes the archive claims (a few
kilobytes can claim anything). Past a bound the split stops and raises ``TooLarge``: a file
too large to split is refused whole, not read in part.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, AnyStr, NoReturn

from .findings import Code, Finding

BOM = "\ufeff"
JSON_SPACE = " \t\r"
NOT_UTF8 = "not UTF-8 text"


def _not_json(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")


#: Python's reader takes ``NaN``, ``Infinity`` and ``-Infinity``, which JSON has no place for.
_DECODER = json.JSONDecoder(parse_constant=_not_json)


def record_json(text: str) -> Any:
    """The JSON value of a record's text, read as RFC 8259 reads JSON.

    A byte order mark at the very start is skipped (a text that goes on being read as JSON
    Lines, or is exported as one, must not hold one further in); ``NaN`` and ``Infinity``
    are not JSON (they would later fail every JSON writer, PostgreSQL's and the API's).
    Raises ``ValueError`` (``json.JSONDecodeError`` where the text says where) or
    ``RecursionError``, as ``json.loads`` does.
    """
    return _DECODER.decode(text.removeprefix(BOM))


#: Bytes of a zip member inflated at a time, each counted before the next is read.
INFLATE_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class Excess:
    """What a file or record holds past a limit: ``what`` ("records", "unpacked bytes",
    "deals", "plays"), where (a JSON Pointer into the record, "" for a file), and the counts:
    ``actual`` is as far as the count went before it stopped."""

    what: str
    path: str
    limit: int
    actual: int

    @property
    def message(self) -> str:
        return f"more {self.what} than the {self.limit} accepted"


class TooLarge(Exception):
    """A split went past one of its ``Bounds``: the caller's limit, not a defect of the file."""

    def __init__(self, excess: Excess) -> None:
        super().__init__(excess.message)
        self.excess = excess


@dataclass(frozen=True, slots=True)
class Bounds:
    """The most a split takes: records (documents and lines), and bytes unpacked from a zip."""

    records: int | None = None
    unpacked: int | None = None


@dataclass(slots=True)
class _Budget:
    """What is left of a split's ``Bounds`` as it goes."""

    bounds: Bounds
    records: int = 0
    unpacked: int = 0

    def take_records(self, count: int) -> None:
        self.records += count
        limit = self.bounds.records
        if limit is not None and self.records > limit:
            raise TooLarge(Excess("records", "", limit, self.records))

    def take_bytes(self, count: int) -> None:
        self.unpacked += count
        limit = self.bounds.unpacked
        if limit is not None and self.unpacked > limit:
            raise TooLarge(Excess("unpacked bytes", "", limit, self.unpacked))


@dataclass(frozen=True, slots=True)
class Document:
    """One record of an uploaded file: its place in the file, its text and its JSON."""

    label: str  #: "line 3", "item 2", "games/a.json line 4": where it came from
    text: str
    value: Any
    error: Finding | None = None


@dataclass(frozen=True, slots=True)
class Line:
    """A line of a JSON Lines file, not read yet: ``data[start:end]`` of the file split."""

    label: str
    start: int
    end: int

    def read(
        self, data: bytes | str, offset: int = 0, loads: Callable[[str], Any] = record_json
    ) -> Document:
        """The line as a document, from the file or from a piece of it starting at
        ``offset``; bytes that are not UTF-8 make it ``record.json``. ``loads`` as in
        ``line_document``."""
        raw = data[self.start - offset : self.end - offset]
        if isinstance(raw, str):
            return line_document(self.label, raw, loads)
        text, utf8 = _decoded(raw)
        if not utf8:
            return _bad(self.label, text, NOT_UTF8)
        return line_document(self.label, text, loads)


def split_documents(
    data: bytes | str, filename: str = "", bounds: Bounds = Bounds()
) -> list[Document]:
    """A file as uploaded → its records, each decoded; ``TooLarge`` past ``bounds``."""
    return _read(data, split_file(data, filename, bounds))


def split_file(
    data: bytes | str, filename: str = "", bounds: Bounds = Bounds()
) -> list[Document | Line]:
    """A file as uploaded → its records, JSON Lines as ``Line`` places in ``data``;
    ``TooLarge`` past ``bounds``."""
    budget = _Budget(bounds)
    if isinstance(data, bytes) and (filename.lower().endswith(".zip") or data[:4] == b"PK\x03\x04"):
        return [*_split_zip(data, budget)]
    return _split_text(data, "", budget)


def line_document(label: str, text: str, loads: Callable[[str], Any] = record_json) -> Document:
    """One record's text (a line of JSON Lines, or a record kept as text), parsed, or with
    its ``record.json`` finding.

    ``loads`` reads the text: ``record_json``, or a faster reader that gives its answers
    (the service's, which is not pure Python).
    """
    try:
        value = loads(text)
    except (ValueError, RecursionError):
        return _bad(label, text, "not JSON")
    if not isinstance(value, dict):
        return _bad(label, text, "not a JSON object")
    return Document(label, text, value)


def _read(data: bytes | str, parts: list[Document | Line]) -> list[Document]:
    return [p.read(data) if isinstance(p, Line) else p for p in parts]


def _split_zip(data: bytes, budget: _Budget) -> list[Document]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = [i.filename for i in archive.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        return [_bad("archive", "", f"not a readable zip file: {exc}")]
    members = sorted(name for name in names if name.lower().endswith((".json", ".jsonl")))
    if not members:
        # Like an empty file, which is one document that is not JSON: an upload of nothing
        # says so rather than finishing with no record and no word.
        return [_bad("archive", "", "the zip holds no .json or .jsonl file")]
    documents = []
    for name in members:
        try:
            raw = _inflate(archive, name, budget)
        except (zipfile.BadZipFile, OSError, ValueError, RuntimeError, EOFError) as exc:
            budget.take_records(1)
            documents.append(_bad(name, "", f"cannot read {name} from the zip: {exc}"))
            continue
        documents.extend(_read(raw, _split_text(raw, name + " ", budget)))
    return documents


def _inflate(archive: zipfile.ZipFile, name: str, budget: _Budget, *, keep: bool = True) -> bytes:
    """A member's bytes, counted on ``budget`` a chunk at a time as they inflate (none kept
    unless ``keep``)."""
    chunks = []
    with archive.open(name) as member:
        while chunk := member.read(INFLATE_CHUNK):
            budget.take_bytes(len(chunk))
            if keep:
                chunks.append(chunk)
    return b"".join(chunks)


def zip_within(data: bytes, bounds: Bounds) -> None:
    """Raise ``TooLarge`` when the members of the zip ``data`` unpack to more than
    ``bounds.unpacked``, counted as they inflate, never by the sizes the zip states.

    For a zip another reader opens (a spreadsheet is one): it is inflated here once, within
    the bound, before that reader inflates it with none. A zip that cannot be read is left
    to that reader to say so."""
    if bounds.unpacked is None:
        return
    budget = _Budget(bounds)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        for info in archive.infolist():
            if not info.is_dir():
                _inflate(archive, info.filename, budget, keep=False)
    except (zipfile.BadZipFile, OSError, ValueError, RuntimeError, EOFError):
        return


def _split_text(data: bytes | str, prefix: str, budget: _Budget) -> list[Document | Line]:
    """A file or zip member that is not a zip: one JSON value, or JSON Lines.

    JSON is UTF-8 (RFC 8259): a file of one value that is not is refused whole, since its
    records cannot be told apart; in JSON Lines only the lines that are not.
    """
    if _many_values(data):
        return [*_lines(data, prefix, budget)]
    text, utf8 = _decoded(data) if isinstance(data, bytes) else (data, True)
    stripped = text.strip().lstrip(BOM)
    try:
        value = record_json(stripped)
    except (ValueError, RecursionError):
        if "\n" not in stripped:
            budget.take_records(1)
            return [_bad(prefix + "record", text, "not JSON" if utf8 else NOT_UTF8)]
        return [*_lines(data, prefix, budget)]
    budget.take_records(len(value) if isinstance(value, list) and utf8 else 1)
    if not utf8:
        return [_bad(prefix + "record", text, NOT_UTF8)]
    return [*_records(value, text, prefix)]


def _many_values(data: bytes | str) -> bool:
    """Whether ``data`` is surely JSON Lines, not one JSON value, told from two of its lines.

    When the first line that is not blank holds a whole JSON value, the value that the file
    begins with ends there, and anything but whitespace on a later line is past it: the file
    is not one value. This spares a large file's reading as one value, which decodes and
    copies all of it only to fail after its first line.
    """
    ends: tuple[bytes, bytes] | tuple[str, str] | None
    if isinstance(data, bytes):
        ends = _first_and_last(data, b"\n", (JSON_SPACE + "\n").encode(), BOM.encode())
    else:
        ends = _first_and_last(data, "\n", JSON_SPACE + "\n", BOM)
    if ends is None:
        return False
    first, last = (_text(line) for line in ends)
    if first is None or last is None or not last.strip():
        return False
    try:
        record_json(first)
    except (ValueError, RecursionError):
        return False
    return True


def _first_and_last(
    data: AnyStr, newline: AnyStr, space: AnyStr, bom: AnyStr
) -> tuple[AnyStr, AnyStr] | None:
    """The first line that is not blank and the last, when they are two lines."""
    start = len(bom) if data.startswith(bom) else 0
    end = data.find(newline, start)
    while end >= 0 and not data[start:end].strip(space):
        start, end = end + 1, data.find(newline, end + 1)
    if end < 0:
        return None
    stop = len(data)
    begin = data.rfind(newline, end, stop)
    while not data[begin + 1 : stop].strip(space):
        if begin <= end:
            return None
        stop, begin = begin, data.rfind(newline, end, begin)
    return data[start:end], data[begin + 1 : stop]


def _text(part: bytes | str) -> str | None:
    """A line as text; None when it is not UTF-8."""
    if isinstance(part, str):
        return part
    text, utf8 = _decoded(part)
    return text if utf8 else None


def _decoded(data: bytes) -> tuple[str, bool]:
    """``data`` as text, and whether it was UTF-8 (else bad bytes are read as U+FFFD)."""
    try:
        return data.decode("utf-8"), True
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace"), False


def _records(value: Any, text: str, prefix: str) -> list[Document | Line]:
    """The records of a file or member that is one JSON value: an array or a record."""
    if isinstance(value, list):
        return [
            Document(f"{prefix}item {i + 1}", json.dumps(v, ensure_ascii=False), v)
            if isinstance(v, dict)
            else _bad(f"{prefix}item {i + 1}", json.dumps(v), "not a JSON object")
            for i, v in enumerate(value)
        ]
    if not isinstance(value, dict):
        return [_bad(prefix + "record", text, "not a JSON object")]
    return [Document(prefix + "record", text, value)]


def _lines(data: bytes | str, prefix: str, budget: _Budget) -> list[Line]:
    """The lines of ``data`` that hold something, by byte (or character) offsets."""
    if isinstance(data, bytes):
        return _places(data, b"\n", b"\r", JSON_SPACE.encode(), BOM.encode(), prefix, budget)
    return _places(data, "\n", "\r", JSON_SPACE, BOM, prefix, budget)


def _places(
    data: AnyStr,
    newline: AnyStr,
    cr: AnyStr,
    space: AnyStr,
    bom: AnyStr,
    prefix: str,
    budget: _Budget,
) -> list[Line]:
    lines = []
    start = len(bom) if data.startswith(bom) else 0
    number = 1
    while start <= len(data):
        end = data.find(newline, start)
        stop = len(data) if end < 0 else end
        line_end = stop - 1 if data.endswith(cr, start, stop) else stop
        if data[start:line_end].strip(space):
            budget.take_records(1)
            lines.append(Line(f"{prefix}line {number}", start, line_end))
        start, number = stop + 1, number + 1
    return lines


def _bad(label: str, text: str, why: str) -> Document:
    return Document(label, text, None, Finding(Code.RECORD_JSON, f"{label}: {why}", path=""))
