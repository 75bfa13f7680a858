"""The service's values in the reader's language: verdicts, statuses, deal kinds."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

VERDICT_WORDS = {
    "verified": pgettext_lazy("verdict", "verified"),
    "mismatch": pgettext_lazy("verdict", "mismatch"),
    "illegal": pgettext_lazy("verdict", "illegal"),
    "malformed": pgettext_lazy("verdict", "malformed"),
}

VERDICT_HINTS = {
    "verified": _("Every rule kept and every score adds up."),
    "mismatch": _("The play is legal, but some claimed result differs from the replay."),
    "illegal": _("A rule of the game is broken somewhere in the record."),
    "malformed": _("The record cannot be read, so it was not replayed."),
}

STATUSES = {
    "verified": pgettext_lazy("status", "verified"),
    "flagged": pgettext_lazy("status", "flagged"),
    "disputed": pgettext_lazy("status", "disputed"),
    "resolved": pgettext_lazy("status", "resolved"),
}

KINDS = {
    "regular": pgettext_lazy("deal kind", "regular"),
    "no_trump": pgettext_lazy("deal kind", "no trump"),
    "dark": pgettext_lazy("deal kind", "dark"),
    "golden": pgettext_lazy("deal kind", "golden"),
    "misere": pgettext_lazy("deal kind", "misère"),
    "forehead": pgettext_lazy("deal kind", "on the forehead"),
}

#: What became of one record of an upload (``uploads.models.ItemOutcome``).
OUTCOMES = {
    "pending": pgettext_lazy("upload outcome", "waiting"),
    "stored": pgettext_lazy("upload outcome", "stored"),
    "replaced": pgettext_lazy("upload outcome", "replaced an earlier version"),
    "duplicate": pgettext_lazy("upload outcome", "already stored"),
    "rejected": pgettext_lazy("upload outcome", "rejected"),
    "failed": pgettext_lazy("upload outcome", "failed"),
}

#: The game families (``replay.engine.Family``).
FAMILIES = {
    "tricks": pgettext_lazy("game family", "Raspisnoy poker"),
    "rummy": pgettext_lazy("game family", "Joker rummy"),
    "poker": pgettext_lazy("game family", "Joker poker"),
}
