"""The admin's form for a season: its rules as fields built from the game's engine options
(labels, choices and ranges), the fixture format's options from the game's kind, league
points, and the tie-breakers as an ordered list of choices. No JSON to type.

The form only gathers values: scoring.season_rules.rules.season_rules_check judges them, and its
refusals are shown next to the field at fault. A blank option follows the engine's default.
"""

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.text import slugify
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from leagues.models import Season
from scoring.kinds import get_kind
from scoring.season_rules.rules import MAX_POINTS, POINTS_FIELDS, SeasonRules, season_rules_check
from scoring.standings.tiebreakers import TIE_BREAKER_CHOICES, TIE_BREAKERS

# Match night's clocks (docs/match-night.md): a week is long enough to answer a result, and
# half a year to play a postponed fixture; either beyond that is a typing slip.
MAX_CONFIRMATION_HOURS = 168
MAX_POSTPONED_WITHIN_DAYS = 180
MATCH_NIGHT_FIELDS = ["confirmation_hours", "postponed_within_days"]
OPTION_PREFIX = "option_"
FORMAT_PREFIX = "format_"
TIE_BREAKER_FIELDS = [f"tie_breaker_{place}" for place in range(1, len(TIE_BREAKERS) + 1)]
_BOOLEAN_WORDS = {True: _("yes"), False: _("no")}
LOCKED_HELP = _("The season has results, checked against these rules: they stay as they are.")
# The labels of the options a game's kind does not name (its rule_labels name those shown on
# the season's page too): the engines' own options and the tables' clocks.
_OPTION_LABELS = {
    "hand_size": (_("Cards in a hand"), ""),
    "dead_card_exchange": (_("Dead card exchange"), ""),
    "tactical": (_("Tactical variant (only cards 1 to 10 × players + 4)"), ""),
    "forcing": (_("Forcing"), ""),
    "turn_seconds": (_("Seconds a turn"), pgettext_lazy("unit", "s")),
    "time_bank_seconds": (_("Time bank (seconds a game)"), pgettext_lazy("unit", "s")),
    "claim_after_timeouts": (_("Turns played by the clock before a seat may be claimed"), ""),
}


def _words(kind, name: str, value) -> str:
    if isinstance(value, bool):
        return str(_BOOLEAN_WORDS[value])
    return str(kind.rule_value_words.get(name, {}).get(value, value))


def _option_field(kind, option, *, stored) -> forms.Field:
    """A form field for one of the engine's (or the fixture format's) options."""
    label, unit = kind.rule_labels.get(option.name) or _OPTION_LABELS.get(
        option.name, (option.name.replace("_", " ").capitalize(), "")
    )
    words = _words(kind, option.name, option.default)
    if unit and option.kind is int:
        default = gettext("Blank: the default, %(value)s %(unit)s.") % {
            "value": words,
            "unit": unit,
        }
    else:
        default = gettext("Blank: the default, %(value)s.") % {"value": words}
    initial = "" if stored is None else stored
    blank_choice = ("", gettext("Default (%(value)s)") % {"value": words})
    if option.kind is bool:
        choices = [blank_choice, ("true", gettext("Yes")), ("false", gettext("No"))]
        initial = "" if stored is None else ("true" if stored else "false")
        return forms.ChoiceField(label=label, choices=choices, required=False, initial=initial)
    if option.choices:
        choices = [blank_choice]
        choices += [(value, _words(kind, option.name, value)) for value in option.choices]
        return forms.ChoiceField(label=label, choices=choices, required=False, initial=initial)
    if option.kind is int:
        allowed = _allowed(option.minimum, option.maximum)
        attrs = {"min": option.minimum, "max": option.maximum}
        return forms.IntegerField(
            label=label,
            required=False,
            initial=initial,
            help_text=f"{default} {allowed}" if allowed else default,
            widget=forms.NumberInput(attrs={k: v for k, v in attrs.items() if v is not None}),
        )
    return forms.CharField(label=label, required=False, initial=initial, help_text=default)


def _allowed(minimum, maximum) -> str:
    """The option's range in words ("From 1 to 1000."), or "" without one."""
    if minimum is not None and maximum is not None:
        return gettext("From %(minimum)s to %(maximum)s.") % {
            "minimum": minimum,
            "maximum": maximum,
        }
    if minimum is not None:
        return gettext("At least %(minimum)s.") % {"minimum": minimum}
    if maximum is not None:
        return gettext("At most %(maximum)s.") % {"maximum": maximum}
    return ""


def _value(option, raw):
    """The option's value from the cleaned field, or None when left blank (the default)."""
    if raw in (None, ""):
        return None
    if option.kind is bool:
        return raw == "true"
    return raw


class SeasonForm(forms.ModelForm):
    """A season's name and dates (saved as they are) and its rules (checked and saved by
    scoring.season_rules.rules). `game` is set by the admin: the season's game, or the league's
    chosen on the add page; without it the game's options are left at their defaults."""

    game: str | None = None
    game_rules_locked = False  # set by the admin once the season has results

    points_win = forms.IntegerField(label=_("Points for a win"), initial=3)
    points_draw = forms.IntegerField(label=_("Points for a draw"), initial=1)
    points_loss = forms.IntegerField(label=_("Points for a loss"), initial=0)
    # Left out of a post (an older form, a script), each stays as it is.
    confirmation_hours = forms.IntegerField(
        label=_("Hours to confirm a result"),
        min_value=1,
        max_value=MAX_CONFIRMATION_HOURS,
        required=False,
    )
    postponed_within_days = forms.IntegerField(
        label=_("Days to play a postponed fixture"),
        min_value=1,
        max_value=MAX_POSTPONED_WITHIN_DAYS,
        required=False,
    )

    class Meta:
        model = Season
        fields = ["league", "name", "slug", "starts_on", "language", *MATCH_NIGHT_FIELDS]
        help_texts = {"language": _("The printed sheets and the calendar (iCal) read in it.")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        season = self.instance
        for name in POINTS_FIELDS:
            self.fields[name].widget.attrs.update(min=0, max=MAX_POINTS)
            if season.pk:
                self.fields[name].initial = getattr(season, name)
        self.fields["confirmation_hours"].help_text = " ".join(
            [
                gettext(
                    "A result a player enters counts once the other team confirms it, or when "
                    "this many hours pass without a dispute."
                ),
                _allowed(1, MAX_CONFIRMATION_HOURS),
            ]
        )
        self.fields["postponed_within_days"].help_text = " ".join(
            [
                gettext(
                    "A postponed fixture is to be played within this many days of its date "
                    "(its “play by” day, set when it is first postponed)."
                ),
                _allowed(1, MAX_POSTPONED_WITHIN_DAYS),
            ]
        )
        chain = list(season.tie_breakers or []) if season.pk else []
        for place, name in enumerate(TIE_BREAKER_FIELDS):
            self.fields[name] = forms.ChoiceField(
                label=_("Then by") if place else _("Order the table by"),
                choices=[("", "—")] + TIE_BREAKER_CHOICES,
                required=place == 0,
                initial=chain[place] if place < len(chain) else "",
            )
        explained = [
            gettext("%(name)s: %(description)s")
            % {"name": cls.name, "description": cls.description}
            for cls in TIE_BREAKERS.values()
        ]
        self.fields[TIE_BREAKER_FIELDS[0]].help_text = " ".join(
            [gettext("Teams level on one are ordered by the next."), *explained]
        )
        # Left out of a post (an older form, a script), the language stays as it is.
        self.fields["language"].required = False
        if season.pk:
            self.fields["league"].disabled = True  # a season's game does not change
        if self.game:
            self._add_game_fields(season, game=self.game)

    def clean_language(self) -> str:
        return self.cleaned_data.get("language") or self.instance.language or settings.LANGUAGE_CODE

    def clean_confirmation_hours(self) -> int:
        return self._kept_if_left_out("confirmation_hours")

    def clean_postponed_within_days(self) -> int:
        return self._kept_if_left_out("postponed_within_days")

    def _kept_if_left_out(self, name: str) -> int:
        value = self.cleaned_data.get(name)
        if value is None:
            return getattr(self.instance, name)  # a new season's is the model's default
        return value

    def _add_game_fields(self, season: Season, *, game: str) -> None:
        kind = get_kind(game)
        # A row edited outside the admin may hold anything: show only what reads as options.
        stored = season.rule_options if isinstance(season.rule_options, dict) else {}
        stored_format = season.fixture_format if isinstance(season.fixture_format, dict) else {}
        for option in kind.season_options:
            self.fields[OPTION_PREFIX + option.name] = _option_field(
                kind, option, stored=stored.get(option.name)
            )
        for option in kind.fixture_format_options:
            self.fields[FORMAT_PREFIX + option.name] = _option_field(
                kind, option, stored=stored_format.get(option.name)
            )
        if self.game_rules_locked:
            for name in self.game_field_names():
                self.fields[name].disabled = True
                self.fields[name].help_text = LOCKED_HELP

    def game_field_names(self) -> list[str]:
        return [name for name in self.fields if name.startswith((OPTION_PREFIX, FORMAT_PREFIX))]

    def clean(self):
        data = super().clean()
        league = data.get("league")
        if league is None:
            return data
        kind = get_kind(league.game)
        options = {o.name: o for o in kind.season_options}
        formats = {o.name: o for o in kind.fixture_format_options}
        rule_options = self._given(data, OPTION_PREFIX, options)
        fixture_format = self._given(data, FORMAT_PREFIX, formats)
        try:
            self.season_rules: SeasonRules = season_rules_check(
                game=league.game,
                rule_options=rule_options,
                fixture_format=fixture_format,
                points_win=data.get("points_win"),
                points_draw=data.get("points_draw"),
                points_loss=data.get("points_loss"),
                tie_breakers=[data[name] for name in TIE_BREAKER_FIELDS if data.get(name)],
            )
        except ValidationError as error:
            for key, messages in error.message_dict.items():
                field = self._field_for(key)
                if field is None or field not in self.errors:  # one message per field
                    self.add_error(field, messages)
        return data

    def _given(self, data: dict, prefix: str, declared: dict) -> dict:
        given = {}
        for name, option in declared.items():
            value = _value(option, data.get(prefix + name))
            if value is not None:
                given[name] = value
        return given

    def _repeated_tie_breaker(self) -> str | None:
        """The first tie-breaker field repeating one chosen above it."""
        seen = set()
        for name in TIE_BREAKER_FIELDS:
            value = self.cleaned_data.get(name)
            if value and value in seen:
                return name
            seen.add(value)
        return None

    def _field_for(self, key: str) -> str | None:
        """The form field showing a season_rules_check error keyed `key`."""
        name: str | None
        if key.startswith("rule_options."):
            name = OPTION_PREFIX + key.removeprefix("rule_options.")
        elif key == "fixture_format":
            name = next((n for n in self.fields if n.startswith(FORMAT_PREFIX)), None)
        elif key == "tie_breakers":
            name = self._repeated_tie_breaker() or TIE_BREAKER_FIELDS[0]
        else:
            name = key
        return name if name in self.fields else None


class RolloverForm(forms.Form):
    """The next season's name, address and first day: the rest comes from the season."""

    name = forms.CharField(label=_("Next season's name"), max_length=120)
    slug = forms.SlugField(label=_("Its slug (address)"), max_length=120)
    starts_on = forms.DateField(
        label=_("It starts on"), widget=forms.DateInput(attrs={"type": "date"})
    )

    @staticmethod
    def initial_for(season) -> dict:
        """A year on: "2026" becomes "2027" where the name has the year, else "… (next)"."""
        starts_on = season.starts_on.replace(year=season.starts_on.year + 1)
        year, next_year = str(season.starts_on.year), str(starts_on.year)
        name = season.name.replace(year, next_year) if year in season.name else ""
        name = name or str(_("%(name)s (next)") % {"name": season.name})
        return {"name": name, "slug": slugify(name), "starts_on": starts_on}
