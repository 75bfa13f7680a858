"""Records from elsewhere: other programs' saved games and typed score sheets → ``raspis/1``.

Plain Python over the engine (``replay.engine``), which never imports this package. Each
format is a module with ``convert(data, name)``; docs/importers.md describes the mappings
and their findings.
"""

from __future__ import annotations

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


def convert(source: str, data: bytes, name: str) -> list[Imported]:
    """The games of one file of the format ``source`` (a key of ``FORMATS``)."""
    return FORMATS[source](data, name)


__all__ = ["FORMATS", "SUFFIXES", "Imported", "Importer", "convert"]
