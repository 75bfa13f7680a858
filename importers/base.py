"""What every importer gives: records of ``raspis/1``, each with the findings of its import.

An importer maps what the source says and nothing more. What it cannot map is a finding
(``import.source``, ``import.value``, ``import.unmapped``) located in the source file: a
JSON Pointer for a JSON file (``path``), a line or a cell for a text or a spreadsheet (at
the start of the message). The findings of a record that could be made travel with it in
``meta.import.findings``; a file that gives no record gives its findings alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from replay import Code, Document, Finding

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Imported:
    """One game read from a source file: its record (None when none could be made), and
    the findings of the import."""

    label: str  #: where it came from: the file, and the worksheet of a workbook
    record: Json | None
    findings: tuple[Finding, ...] = ()

    def document(self) -> Document:
        """The game as a document of an upload: its record, or its first finding."""
        if self.record is None:
            return Document(self.label, "", None, self.findings[0])
        return Document(self.label, json.dumps(self.record, ensure_ascii=False), self.record)


class SourceError(Exception):
    """Raised inside an importer where the source cannot give a record at all; the importer
    turns it into the file's finding (``failed``)."""

    def __init__(self, code: Code, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.finding = Finding(code, message, path=path)


def failed(label: str, error: SourceError) -> Imported:
    return Imported(label, None, (error.finding,))


def with_findings(record: Json, source: str, findings: list[Finding]) -> Json:
    """``record`` with its import noted in ``meta.import``: the format read and, when there
    are any, the findings (in the report's finding shape)."""
    note: Json = {"from": source}
    if findings:
        note["findings"] = [f.to_dict() for f in findings]
    record.setdefault("meta", {})["import"] = note
    return record


#: An importer: a file's bytes and name → the games it holds.
Importer = Callable[[bytes, str], list[Imported]]


def pointer(*parts: str | int) -> str:
    """A JSON Pointer (RFC 6901) to ``parts``."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def utf8_text(data: bytes, label: str) -> str:
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise SourceError(
            Code.IMPORT_SOURCE, f"{label}: not UTF-8 text (byte {exc.start})"
        ) from exc
