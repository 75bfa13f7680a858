"""JSON on ingest's hot path: each record read, each report written, by orjson.

orjson reads a record, even with the check for long integers below, and writes a report in
a fraction of the standard library's instructions (``bench/ingest.py``). The engine stays
pure Python and keeps the reference reader (``replay.record_json``); here orjson is
used only where it gives the same answer, and the reference reader or writer takes the rest.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from replay import record_json
from replay.files import BOM

#: Every digit as a zero, so that a run of digits is found by ``str.find``, which scans a
#: record far faster than a regular expression.
_ZEROS = str.maketrans("123456789", "000000000")
#: 19 digits: orjson reads an integer past 64 bits as a float.
_LONG = "0" * 19
_JSON_SPACE = " \t\n\r"


def record_loads(text: str) -> Any:
    """``record_json(text)``, read by orjson where it reads the same.

    orjson refuses what the reference reader refuses (``NaN``, ``Infinity``), and more: lone
    surrogate escapes, numbers past a double's range, nesting past 1,024. Those go to the
    reference reader, which accepts the first two and words the errors. Integers past 64 bits
    orjson would read as floats: a record that may hold one goes to the reference reader too.
    """
    if not _may_hold_a_long_integer(text):
        try:
            return orjson.loads(text.removeprefix(BOM))
        except orjson.JSONDecodeError:
            pass
    return record_json(text)


def _may_hold_a_long_integer(text: str) -> bool:
    """Whether a run of 19 digits or more may be a number rather than inside a string.

    A number starts a value: the text, or follows ``[``, ``:`` or ``,`` and JSON spaces. A
    run inside a string (an external id) mostly follows something else, so the fast reader
    keeps it; where the guess is wrong it is only slower.
    """
    digits = text.translate(_ZEROS)
    start = digits.find(_LONG)
    while start >= 0:
        before = start - 1
        if before >= 0 and digits[before] == "-":
            before -= 1
        while before >= 0 and digits[before] in _JSON_SPACE:
            before -= 1
        if before < 0 or digits[before] in "[:,\ufeff":
            return True
        start = digits.find(_LONG, start + len(_LONG))
    return False


def json_text(value: Any) -> str:
    """Compact JSON for a text column: readable UTF-8, or ASCII escapes for lone surrogates.

    orjson refuses what it cannot write, integers past 64 bits (which an illegal record may
    claim) and lone surrogates; the standard library writes those.
    """
    try:
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError:
        pass
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, separators=(",", ":"))
    return text
