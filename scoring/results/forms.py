"""Result-entry forms: the fixed fields of a sheet page, and a sheet's changes in words.

The grids themselves are each game's (scoring/results/grids/<game>.py); the check every change
of a grid goes through is scoring.results.preview.
"""

import uuid

from django import forms
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.kinds import get_kind
from scoring.results.services import SUBMISSION_KEY_MAX_LENGTH, SUBMISSION_KEY_PATTERN


def new_submission_key() -> str:
    """A fresh key for each time the form is drawn: the sheet sent from it is saved once, however
    often it is sent (a double tap, an offline page sending its kept sheet again)."""
    return uuid.uuid4().hex


class EntryForm(forms.Form):
    """What every sheet page carries besides the grid."""

    based_on_version = forms.IntegerField(
        min_value=0,
        widget=forms.HiddenInput,
        error_messages={
            "required": gettext_lazy(
                "This form lost track of the version it was loaded from: "
                "reload the page (your entries are shown below, copy them if needed)."
            ),
            "invalid": gettext_lazy("This form's version marker is damaged: reload the page."),
            "min_value": gettext_lazy("This form's version marker is damaged: reload the page."),
        },
    )
    note = forms.CharField(
        max_length=250,
        required=False,
        label=gettext_lazy("Note (optional)"),
        help_text=gettext_lazy("Why a correction was needed, or anything odd about the match."),
        error_messages={"max_length": gettext_lazy("Keep the note to %(limit_value)d characters.")},
    )
    before_fixture_day = forms.BooleanField(
        required=False,
        label=gettext_lazy(
            "Record it before the fixture's day (league admin: a match played early)"
        ),
    )
    # Blank (a form from before the key existed) is allowed: every save is then a new one.
    submission_key = forms.CharField(
        required=False,
        initial=new_submission_key,
        max_length=SUBMISSION_KEY_MAX_LENGTH,
        widget=forms.HiddenInput,
        validators=[RegexValidator(SUBMISSION_KEY_PATTERN)],
        error_messages={
            "invalid": _("This form's submission marker is damaged: reload the page."),
            "max_length": _("This form's submission marker is damaged: reload the page."),
        },
    )


class WalkoverForm(forms.Form):
    """Award a walkover: the team that turned up, and why (optional)."""

    team = forms.ChoiceField(
        label=_("The team that turned up"),
        widget=forms.RadioSelect,
        choices=[],
        error_messages={"required": _("Choose the team that turned up.")},
    )
    note = forms.CharField(
        max_length=250,
        required=False,
        label=_("Note (optional)"),
        error_messages={"max_length": _("Keep the note to %(limit_value)d characters.")},
    )

    def __init__(self, *args, fixture, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].choices = [
            ("home", fixture.home_team.name),
            ("away", fixture.away_team.name),
        ]


LINEUP_PLACES = (("home", 0), ("home", 1), ("away", 0), ("away", 1))


def lineup_field_name(side: str, index: int) -> str:
    """The input that carries a lineup place: "home_1" … "away_2"."""
    return f"{side}_{index + 1}"


def lineup_from_data(data) -> dict[str, list[object]] | None:
    """The lineup a page sent ({"home": [id, id], "away": [id, id]}; an id that is not a
    whole number kept as sent, for the check to refuse), or None when it sent none."""
    if not any(lineup_field_name(side, index) in data for side, index in LINEUP_PLACES):
        return None
    lineup: dict[str, list[object]] = {"home": [], "away": []}
    for side, index in LINEUP_PLACES:
        value = str(data.get(lineup_field_name(side, index), "")).strip()
        lineup[side].append(int(value) if value.isdigit() and value.isascii() else value)
    return lineup


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
