"""Result-entry forms: the fixed fields of a sheet page, and a sheet's changes in words.

The grids themselves are each game's (scoring/results/grids/<game>.py); the check every change
of a grid goes through is scoring.results.preview.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.kinds import get_kind


class EntryForm(forms.Form):
    """What every sheet page carries besides the grid."""

    based_on_version = forms.IntegerField(
        min_value=0,
        widget=forms.HiddenInput,
        error_messages={
            "required": "This form lost track of the version it was loaded from: "
            "reload the page (your entries are shown below, copy them if needed).",
            "invalid": "This form's version marker is damaged: reload the page.",
            "min_value": "This form's version marker is damaged: reload the page.",
        },
    )
    note = forms.CharField(
        max_length=250,
        required=False,
        label="Note (optional)",
        help_text="Why a correction was needed, or anything odd about the match.",
        error_messages={"max_length": "Keep the note to %(limit_value)d characters."},
    )
    before_fixture_day = forms.BooleanField(
        required=False,
        label="Record it before the fixture's day (league admin: a match played early)",
    )


class AnswerForm(forms.Form):
    """The fixture page's answer to an awaiting result: confirm it, or dispute it with a reason
    (the service says when the reason is missing)."""

    answer = forms.ChoiceField(choices=[("confirm", _("Confirm")), ("dispute", _("Dispute"))])
    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    reason = forms.CharField(
        max_length=250,
        required=False,
        label=_("Why you dispute it"),
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class DecideForm(forms.Form):
    """Staff's choice of the version that stands, for the fixture's current `version`."""

    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    choose = forms.IntegerField(min_value=1)


# --- what changed, in words ----------------------------------------------------------------


def describe_path(game: str, path: str, *, names: dict, sheet, teams=None) -> str:
    """A sheet path in words ("rounds.2.1" → "Round 3, Bob"); the path itself if unknown."""
    sheet = sheet if isinstance(sheet, dict) else {}
    try:
        label = get_kind(game).describe_path(path.split("."), names=names, sheet=sheet, teams=teams)
    except (ValueError, IndexError):
        label = None
    return label or path


def describe_value(game: str, path: str, value, *, names: dict, sheet, teams=None) -> str:
    """A sheet value in words, for the history and the conflict page."""
    if value is None:
        return "—"
    sheet = sheet if isinstance(sheet, dict) else {}
    try:
        words = get_kind(game).describe_value(
            path.split("."), value, names=names, sheet=sheet, teams=teams
        )
    except (ValueError, IndexError, TypeError):
        words = None
    if words is not None:
        return words
    if isinstance(value, list):
        return ", ".join("" if item is None else str(item) for item in value) or "—"
    if isinstance(value, dict):
        return ", ".join(f"{key} {item}" for key, item in value.items())
    return str(value)


def readable_changes(
    game: str, changes: list, *, before: dict | None, after: dict | None, names: dict, teams
) -> list[dict]:
    """scoring.results.sheets.sheet_changes in words: label, old value, new value."""
    return [
        {
            "path": path,
            "label": describe_path(game, path, names=names, sheet=after or before, teams=teams),
            "before": describe_value(
                game, path, old, names=names, sheet=before or after, teams=teams
            ),
            "after": describe_value(
                game, path, new, names=names, sheet=after or before, teams=teams
            ),
        }
        for path, old, new in changes
    ]
