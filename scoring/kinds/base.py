"""What every game kind offers, and the pieces the kinds share.

A kind (scoring/kinds/<game>.py) holds a game's rules for scoring: validation, outcome, the
one-line summary, whether lower is better, the standings columns it adds, a player's own
figures, rule labels, and the sheet a finished live game produces. What a capability shows
of a game (entry grid, rated matches, charts, the API's sheet shape, the demo league) is
that capability's, registered by it (scoring/kinds/registry.py). Everything outside the
kinds looks a kind up (`scoring.kinds.get_kind(game)`) and never branches on a game's name.
docs/scoring.md describes the sheets; docs/architecture.md ("Game kinds") the registry.

Errors: `validate` raises SheetInvalid, which maps the path of a field ("rounds.6",
"singles.0.deals.8", "games.0.convoys.home", "__all__") to one plain sentence that names
teams and players, never "home" or "away". Paths count from 0, as JSON does; messages count
from 1, as people do.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.functional import Promise
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from config.errors import Invalid
from config.values import whole_number
from games.engines import get_engine
from games.engines.options import TABLE_CLOCK_OPTIONS, Option, resolve_options

SIDES = ("home", "away")
Words = str | Promise  # a sentence or a label, maybe translated lazily (a class attribute)
MAX_SHOWN = 40  # characters of a bad value quoted back in a message


class SheetInvalid(Invalid):
    """A sheet the rules do not allow (400). `errors` maps a field path to its sentence (one
    per path, in a list as every refusal's field errors are).

    The API answers `{"sheet": {path: [sentence]}}`: the paths are inside the request's
    "sheet" field, and the sheet-wide problem (NON_FIELD_ERRORS) is "non_field_errors" there.
    """

    def __init__(self, errors: Mapping[str, str]):
        super().__init__(errors=errors)

    def as_json(self) -> dict[str, Any]:
        return {
            "sheet": {
                "non_field_errors" if path == NON_FIELD_ERRORS else path: messages
                for path, messages in self.errors.items()
            }
        }


# --- shapes shared with live tables, standings and pages -----------------------------------


@dataclass(frozen=True)
class TablePlan:
    """One table of a fixture played live: `number` 1..n within the fixture, and the leagues
    Player ids of each side at it, home side first."""

    number: int
    sides: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class FinishedTable:
    """A fixture table whose game ended: the Player id in each engine seat (seat order, after
    the cut) and the engine state at the end (`engine.load(...)`)."""

    number: int
    seat_players: tuple[int, ...]
    state: object


@dataclass(frozen=True)
class MatchOutcome:
    """The outcome of one fixture.

    home_score / away_score: the game's units (convoys / penalty heads / deal points).
    winner: "home", "away" or "draw". home_games / away_games: games (Convoy) or singles
    (Conquian) won; for Корова 1 for the winning team. games: one summary per game or single,
    each with "home", "away" (that game's score) and "winner", plus what the kind adds.
    """

    home_score: int
    away_score: int
    winner: str
    home_games: int = 0
    away_games: int = 0
    games: list[dict] = field(default_factory=list)

    def score_for(self, side: str) -> int:
        return self.home_score if side == "home" else self.away_score

    def games_for(self, side: str) -> int:
        return self.home_games if side == "home" else self.away_games


@dataclass(frozen=True)
class StandingsColumn:
    """A column of a season's table. `key` names a StandingRow attribute ("won", "drawn",
    "score_for", "score_against", "difference") or, with `from_sheet`, a figure the kind
    adds up from each fixture's sheet (`GameKind.fixture_figures`, in StandingRow.figures).
    `label` is the short heading, `explanation` says what it counts (shown on the page)."""

    key: str
    label: "Words"
    explanation: "Words"
    from_sheet: bool = False

    def value(self, row) -> int:
        return row.figures.get(self.key, 0) if self.from_sheet else getattr(row, self.key)


@dataclass(frozen=True)
class PlayerFigure:
    """One of a player's own figures for a player page: "Heads per game" 31.5."""

    key: str
    label: str
    value: Any
    explanation: str = ""


@dataclass(frozen=True)
class PlayerResult:
    """One current result a player appears on: the sheet, the season's rule options, and
    the side ("home" or "away") the player's team had."""

    sheet: dict
    rule_options: dict
    side: str


@dataclass
class SheetContext:
    """What a sheet is checked against: the season's rules and the fixture's people."""

    options: dict | None  # the season's rule options resolved, None if they are not valid
    fixture_format: Mapping
    rosters: dict[str, dict[int, str | None] | None]  # side -> player id -> name (None: any)
    team_names: dict[str, str]  # side -> the team's name
    player_names: dict[int, str]  # anyone named on the sheet, for messages

    def team(self, side: str) -> str:
        return self.team_names[side]

    def player(self, pk, fallback: str) -> str:
        """The player's name, or `fallback` ("Roundheads' first player") when unknown."""
        for roster in self.rosters.values():
            name = roster.get(pk) if roster else None
            if name:
                return name
        return self.player_names.get(pk) or fallback


# --- the kind ----------------------------------------------------------------------------


class GameKind:
    """A game's result sheet and everything derived from it. One instance per game."""

    game: ClassVar[str]  # the engine's name, and the League.game value
    label: ClassVar[str]  # "Convoy"
    lower_is_better: ClassVar[bool] = False  # Корова: fewer heads wins
    unit: ClassVar[str]  # the score's unit: "convoys", "heads", "deal points"
    draw_word: ClassVar[str] = "draw"  # a level fixture in the game's words (Convoy: stalemate)
    # The season's league points in the game's words: "win 3, stalemate 1, loss 0" for Convoy.
    points_words: ClassVar["Words"] = gettext_lazy("win %(win)s, draw %(draw)s, loss %(loss)s")
    score_for_label: ClassVar["Words"]  # "Convoys won": what score_for counts for a team
    score_against_label: ClassVar["Words"]
    needs_lineup: ClassVar[bool] = True  # the sheet names the teams' players 1 and 2
    standings_columns: ClassVar[tuple[StandingsColumn, ...]] = ()
    # Said above the player's figures when they are not the player's own (Convoy: the pair's).
    player_figures_note: ClassVar[str] = ""
    # The season's rule options shown on its page: option name -> (label, unit or "").
    rule_labels: ClassVar[dict[str, tuple["Words", "Words"]]] = {}
    rule_value_words: ClassVar[dict[str, dict[Any, "Words"]]] = {}  # option -> value -> words
    # The fixture format's options (Convoy's best of N), declared like the engine's options so
    # that the admin builds a field for each; check_fixture_format judges the values.
    fixture_format_options: ClassVar[tuple[Option, ...]] = ()

    # --- rules -----------------------------------------------------------------------

    @property
    def engine(self):
        return get_engine(self.game)

    @property
    def season_options(self) -> tuple[Option, ...]:
        """What a season's rules may set: the engine's options and its tables' clocks (the
        turn clock, the time bank, when an away seat may be claimed)."""
        return (*self.engine.options, *TABLE_CLOCK_OPTIONS)

    def options(self, rule_options) -> dict:
        """The season's rule options with the engine's defaults; ValueError if not valid."""
        return resolve_options(self.engine.options, rule_options)

    def check_fixture_format(self, fixture_format) -> dict:
        """The fixture format, checked; ValueError in plain words otherwise."""
        if fixture_format:
            raise ValueError(f"{self.label} has no format options: use {{}}")
        return {}

    def validate(
        self,
        *,
        sheet,
        rule_options: Mapping | None,
        fixture_format: Mapping | None,
        home_players: Mapping[int, str] | Sequence[int] | None = None,
        away_players: Mapping[int, str] | Sequence[int] | None = None,
        home_team: str | None = None,
        away_team: str | None = None,
        player_names: Mapping[int, str] | None = None,
    ) -> dict:
        """The sheet normalised (whole numbers as ints, blank rows at the end dropped), or
        SheetInvalid naming every problem.

        home_players / away_players (player id → name, or just the ids), when given, refuse
        players not in the fixture's teams; home_team / away_team name the teams in messages;
        player_names names anyone else the sheet lists.
        """
        if not isinstance(sheet, Mapping):
            raise SheetInvalid({NON_FIELD_ERRORS: _("The result sheet must be a JSON object.")})
        errors: dict[str, str] = {}
        try:
            options = self.options(rule_options or {})
        except ValueError as error:
            errors[NON_FIELD_ERRORS] = _("The season's rule options are not valid: %(error)s.") % {
                "error": error
            }
            options = None
        context = SheetContext(
            options=options,
            fixture_format=fixture_format or {},
            rosters={"home": roster(home_players), "away": roster(away_players)},
            team_names={
                "home": home_team or _("the home team"),
                "away": away_team or _("the away team"),
            },
            player_names=dict(player_names or {}),
        )
        clean = self.check_sheet(sheet, context, errors)
        if errors:
            raise SheetInvalid(errors)
        return clean

    def check_sheet(self, sheet: Mapping, context: SheetContext, errors: dict) -> dict:
        """The normalised sheet; every problem found added to `errors` (path → sentence)."""
        raise NotImplementedError

    def outcome(self, *, sheet: dict, rule_options: Mapping | None) -> MatchOutcome:
        """The outcome of a validated sheet under the season's rule options."""
        raise NotImplementedError

    def difference(self, score_for: int, score_against: int) -> int:
        """The game's own difference, positive when good."""
        if self.lower_is_better:
            return score_against - score_for
        return score_for - score_against

    # --- words ------------------------------------------------------------------------

    def summary(self, outcome: MatchOutcome, *, home_team: str, away_team: str) -> str:
        """The result in one line, the winner's figure first: "Last Orders win, convoys 3–1"."""
        raise NotImplementedError

    def rule_lines(self, *, rule_options, fixture_format) -> list[tuple[str, str]]:
        """The season's format and rule options as (label, plain words), defaults filled in."""
        try:
            options = self.options(rule_options)
        except ValueError:
            options = dict(rule_options or {})
        lines = []
        for name, (label, unit) in self.rule_labels.items():
            if name in options:
                value = options[name]
                words = self.rule_value_words.get(name, {}).get(value)
                lines.append((str(label), str(words or f"{value}{' ' + unit if unit else ''}")))
        return lines

    def describe_path(self, parts: list[str], *, names: dict, sheet: dict, teams) -> str | None:
        """A sheet path in words ("Round 3, Bob"); None if the kind does not know it."""
        return None

    def describe_value(self, parts: list[str], value, *, names: dict, sheet: dict, teams):
        """A sheet value in words for the history ("won by Bob"); None for the plain value."""
        return None

    def sheet_player_ids(self, sheet) -> set[int]:
        """The ids of the players a sheet names."""
        return set()

    def sheet_lineup(self, sheet: Mapping) -> dict[str, list[int]] | None:
        """Who played for each side, by position (1 then 2), as a validated sheet names them;
        None for a game whose sheet names no players (the lineup is then chosen apart)."""
        return None

    # --- walkovers --------------------------------------------------------------------

    def walkover_scores(self, *, rule_options, fixture_format) -> tuple[int, int]:
        """The score (winner's, loser's) in the game's units written for a walkover when the
        season sets none: the fixture won as its rules would be won with nothing scored
        against (docs/seasons-walkovers-squads.md)."""
        return 1, 0

    # --- standings and player pages ---------------------------------------------------

    @property
    def figure_columns(self) -> list[StandingsColumn]:
        """The columns whose figures come from the sheets rather than the scores."""
        return [column for column in self.standings_columns if column.from_sheet]

    def fixture_figures(self, outcome: MatchOutcome, side: str) -> dict[str, int]:
        """What one fixture adds to the kind's own standings columns for `side`."""
        return {}

    def player_figures(self, *, player_id: int, results: list[PlayerResult]) -> list:
        """The player's own figures (PlayerFigure) over the results they appear on."""
        return []

    # --- live tables ------------------------------------------------------------------

    def fixture_table_plans(
        self, *, fixture_format: dict, home_player_ids: list[int], away_player_ids: list[int]
    ) -> list[TablePlan]:
        raise NotImplementedError

    def sheet_from_final_state(
        self,
        *,
        tables: list[FinishedTable],
        fixture_format: dict,
        rule_options: dict,
        home_player_ids: list[int],
        away_player_ids: list[int],
    ) -> dict | None:
        raise NotImplementedError

    def __repr__(self):
        return f"<{type(self).__name__} {self.game}>"


# The ranks of the two sides of a game by its winner: the winner first, a draw level.
RANKS_BY_WINNER = {"home": (1, 2), "away": (2, 1), "draw": (1, 1)}


# --- helpers for the kinds' checks ---------------------------------------------------------


def roster(players) -> dict[int, str | None] | None:
    """Player id → name (None when only ids are known), or None for "anyone"."""
    if players is None:
        return None
    if isinstance(players, Mapping):
        return {int(pk): (str(name) if name else None) for pk, name in players.items()}
    return {int(pk): None for pk in players}


def join_path(*parts) -> str:
    return ".".join(str(part) for part in parts if part != "")


def blank(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def shown(value) -> str:
    """A value quoted in a message, cut short: a malformed request may send megabytes."""
    text = repr(value)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"


def unknown_keys(data: Mapping, known: tuple, path: str, errors: dict) -> None:
    for key in data:
        if key not in known:
            errors[join_path(path, key)] = _(
                "Unknown field %(key)s: the sheet holds only %(known)s."
            ) % {"key": repr(key), "known": ", ".join(known)}


def player_id(value, path: str, label: str, errors: dict) -> int | None:
    pk = whole_number(value, padded=True)
    if pk is None or pk <= 0:
        errors[path] = _("Choose %(label)s.") % {"label": label}
        return None
    return pk


def check_team(pk: int, side: str, context: SheetContext, path: str, errors: dict) -> None:
    team = context.rosters[side]
    if team is not None and pk not in team:
        name = context.player(pk, _("Player %(pk)s") % {"pk": pk})
        errors[path] = _("%(player)s does not play for %(team)s.") % {
            "player": name,
            "team": context.team(side),
        }


def possessive(name: str) -> str:
    """ "Sixth Cow's", "Last Orders'" in English; the name as it is in a language whose
    sentences are written around a name in the nominative (Russian, Finnish)."""
    if not (get_language() or "en").startswith("en"):
        return name
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def and_list(words: list[str]) -> str:
    if len(words) == 1:
        return words[0]
    return _("%(first)s and %(last)s") % {"first": ", ".join(words[:-1]), "last": words[-1]}


def winner_by(home, away, *, lower_wins: bool = False) -> str:
    if home == away:
        return "draw"
    return "home" if (home < away) == lower_wins else "away"


def other(side: str) -> str:
    return "away" if side == "home" else "home"
