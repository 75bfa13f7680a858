"""Records from elsewhere: other programs' saved games and typed score sheets → ``raspis/1``.

Plain Python over the engine (``replay``), which never imports this package. Each
format is a module with ``convert(data, name)``; docs/importers.md describes the mappings
and their findings.
"""

from __future__ import annotations

from replay import Bounds, zip_within

from . import ohw, openspiel, sheet
from .base import Imported, Importer

#: The formats by the name ``raspis import --from`` and the upload's ``from`` take.
FORMATS: dict[str, Importer] = {
    "ohw": ohw.convert,
    "openspiel": openspiel.convert,
    "sheet": sheet.convert,
}

#: The file names each format is uploaded as.
SUFFIXES: dict[str, tuple[str, ...]] = {
    "ohw": (".ohw", ".json"),
    "openspiel": (".txt",),
    "sheet": (".csv", ".xlsx"),
}


def convert(source: str, data: bytes, name: str, bounds: Bounds | None = None) -> list[Imported]:
    """The games of one file of the format ``source`` (a key of ``FORMATS``).

    A file that is a zip (an ``.xlsx`` workbook) unpacks within ``bounds.unpacked`` or raises
    ``TooLarge``, as a zip of records does (``replay.split_file``): the importers'
    readers inflate what a zip says it holds."""
    if bounds is not None and data[:4] == b"PK\x03\x04":
        zip_within(data, bounds)
    return FORMATS[source](data, name)


__all__ = ["FORMATS", "SUFFIXES", "Imported", "Importer", "convert"]
