"""The admin's small forms: deciding a dispute, choosing the target of a player merge, and
a stored ruleset the engine checks.

They only collect input; ``games.services`` does the work and refuses what it must.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django import forms
from django.db.models import QuerySet

from games.models import DisputeStatus, Player, StoredRuleset
from games.services import ruleset_findings

DECISIONS = [
    (DisputeStatus.UPHELD, "upheld: the record is wrong as the dispute says; the game stays out"),
    (DisputeStatus.REJECTED, "rejected: the record stands"),
    (DisputeStatus.CORRECTED, "corrected: the final totals below replace the recomputed ones"),
]


class DisputeDecisionForm(forms.Form):
    """A decision with a note; for ``corrected``, the final total of every seat.

    ``players`` names the seats. Without them (disputes of several games decided at once)
    there are no total fields and ``corrected`` is refused. ``recomputed`` (the replay's
    totals) pre-fills the totals, so that a reviewer changes only the seats that are wrong;
    left as they are, they go with any decision.
    """

    decision = forms.ChoiceField(choices=DECISIONS, widget=forms.RadioSelect)
    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}), required=False, max_length=5000
    )

    def __init__(
        self,
        *args: Any,
        players: Sequence[str] = (),
        recomputed: Sequence[Any] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        self.recomputed = (
            [_decimal(v) for v in recomputed] if len(recomputed) == len(players) else []
        )
        for seat, name in enumerate(self.players):
            self.fields[f"total_{seat}"] = forms.DecimalField(
                label=f"{name} (seat {seat})",
                required=False,
                max_digits=14,
                decimal_places=4,
                initial=self.recomputed[seat] if self.recomputed else None,
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        totals = [data.get(f"total_{seat}") for seat in range(len(self.players))]
        if data.get("decision") == DisputeStatus.CORRECTED:
            if not self.players:
                raise forms.ValidationError(
                    "corrected needs the final total of every seat: decide one game at a time"
                )
            for seat, total in enumerate(totals):
                if total is None:
                    self.add_error(f"total_{seat}", "a corrected decision needs every final total")
        elif any(
            total is not None and (not self.recomputed or total != self.recomputed[seat])
            for seat, total in enumerate(totals)
        ):
            raise forms.ValidationError("final totals go with the decision corrected")
        return data

    def corrected_scores(self) -> list[Decimal] | None:
        if self.cleaned_data["decision"] != DisputeStatus.CORRECTED:
            return None
        return [self.cleaned_data[f"total_{seat}"] for seat in range(len(self.players))]

    def total_fields(self) -> list[forms.BoundField]:
        return [self[f"total_{seat}"] for seat in range(len(self.players))]


def _decimal(value: Any) -> Decimal | None:
    try:
        return None if value is None else Decimal(str(value))
    except ArithmeticError:
        return None


class PlayerChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        games = getattr(obj, "games", None)
        return str(obj.name) if games is None else f"{obj.name} ({games} games)"


class PlayerMergeForm(forms.Form):
    """Which of the selected players the others are merged into."""

    target = PlayerChoiceField(
        queryset=Player.objects.none(), widget=forms.RadioSelect, empty_label=None
    )

    def __init__(self, *args: Any, players: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["target"]
        assert isinstance(field, PlayerChoiceField)
        field.queryset = players


class StoredRulesetForm(forms.ModelForm):
    """The engine checks the preset and options, as for ``POST /api/rulesets/``."""

    class Meta:
        model = StoredRuleset
        fields = ("name", "preset", "options")

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or {}
        if "preset" in data and "options" in data:
            for finding in ruleset_findings(preset=data["preset"], options=data["options"]):
                where = finding["path"] or "/"
                self.add_error(None, f"{where}: {finding['message']}")
        return data
