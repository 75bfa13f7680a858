"""The forms of the pages: a record to verify, and the filters of the games list."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.models import FAMILIES, VERDICTS, GameStatus
from web.words import FAMILIES as FAMILY_WORDS
from web.words import STATUSES, VERDICT_WORDS

#: A page verifies in the request, so it takes what one request can do quickly; more records
#: go through an upload, which the workers verify.
VERIFY_MAX_BYTES = 2 * 1024 * 1024
VERIFY_MAX_RECORDS = 50


class VerifyForm(forms.Form):
    record = forms.CharField(
        label=_("Record"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=_("Paste a record (JSON), an array of records or JSON Lines."),
    )
    file = forms.FileField(
        label=_("or a file"),
        required=False,
        help_text=_(".json, .jsonl or .zip; nothing is stored."),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,.jsonl,.zip,application/json"}),
    )

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        upload = data.get("file")
        if upload is not None and upload.size > VERIFY_MAX_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(limit)s MB: upload it instead."),
                params={"limit": VERIFY_MAX_BYTES // (1024 * 1024)},
            )
        text = data.get("record") or ""
        if len(text.encode("utf-8")) > VERIFY_MAX_BYTES:
            raise forms.ValidationError(
                _("The text is larger than %(limit)s MB: upload it instead."),
                params={"limit": VERIFY_MAX_BYTES // (1024 * 1024)},
            )
        if upload is None and not text.strip():
            raise forms.ValidationError(_("Paste a record or choose a file."))
        return data


def _choices(pairs: list[tuple[str, str]], labels: Mapping[str, str | Promise]) -> list[Any]:
    return [("", _("any")), *((value, labels.get(value, value)) for value, _label in pairs)]


class GameFilterForm(forms.Form):
    """The filters of ``GET /api/games/`` as a form: the list checks them (GameFilter); this
    only writes the fields in the reader's language."""

    player = forms.CharField(label=_("Player"), required=False)
    family = forms.ChoiceField(label=_("Game"), required=False)
    ruleset = forms.CharField(label=_("Ruleset"), required=False)
    verdict = forms.ChoiceField(label=_("Verdict"), required=False)
    status = forms.ChoiceField(label=_("Status"), required=False)
    played_from = forms.DateField(
        label=_("Played from"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    played_to = forms.DateField(
        label=_("Played to"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        family, verdict, status = (self.fields[n] for n in ("family", "verdict", "status"))
        assert isinstance(family, forms.ChoiceField)
        assert isinstance(verdict, forms.ChoiceField) and isinstance(status, forms.ChoiceField)
        family.choices = _choices(FAMILIES, FAMILY_WORDS)
        verdict.choices = _choices(VERDICTS, VERDICT_WORDS)
        status.choices = _choices(list(GameStatus.choices), STATUSES)
