"""A season's table as the web page and the printed sheet show it: the game's own columns
(scoring.standings.figures.season_table), cells as read (a difference with its sign), form letters
in the game's words, and the league points in the game's words for the legend."""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from leagues.models import Season
from scoring.kinds import StandingsColumn, get_kind
from scoring.publishing.numbers import signed_number
from scoring.season_rules.rules import season_points_words
from scoring.standings.figures import season_table
from scoring.standings.selectors import Withdrawal, season_withdrawals
from scoring.standings.table import StandingRow

FORM_WORDS = {"W": "Won", "D": "Drawn", "L": "Lost"}


@dataclass(frozen=True)
class ShownRow:
    row: StandingRow
    cells: list[tuple[StandingsColumn, str]]  # (column, the cell as shown)
    form: list[tuple[str, str, str]]  # (letter, shown, word), oldest first


@dataclass(frozen=True)
class ShownTable:
    columns: list[StandingsColumn]
    rows: list[ShownRow]
    form_words: list[tuple[str, str]]  # (shown, word) for the legend
    points_words: str  # "win 3, stalemate 1, loss 0"
    walkover_words: str  # what a walkover gets each side, for the legend
    withdrawals: list[Withdrawal]  # the footnotes of the teams that withdrew


def season_table_shown(*, season: Season) -> ShownTable:
    kind = get_kind(season.game)
    form_words = _form_words(kind)
    table = season_table(season=season)
    rows = [
        ShownRow(
            row=line.row,
            cells=[
                (column, _shown(column, value)) for column, value in zip(table.columns, line.cells)
            ],
            form=[(letter, *form_words[letter]) for letter in line.row.form],
        )
        for line in table.rows
    ]
    return ShownTable(
        columns=table.columns,
        rows=rows,
        form_words=list(form_words.values()),
        points_words=season_points_words(season=season),
        walkover_words=_(
            "A walkover (no game played): %(winner)s points to the team that turned up, "
            "%(loser)s to the team that did not"
        )
        % {"winner": season.walkover_points_winner, "loser": season.walkover_points_loser},
        withdrawals=season_withdrawals(season=season),
    )


def _shown(column, value) -> str:
    """A table cell: a difference with its sign, so that +3 and −3 read apart."""
    return signed_number(value, plus=column.key == "difference")


def _form_words(kind) -> dict[str, tuple[str, str]]:
    """The form's letters as the game's table names them (Convoy's drawn fixture is a
    stalemate, "S"): letter -> (shown, word)."""
    drawn = next((column for column in kind.standings_columns if column.key == "drawn"), None)
    words = {letter: (letter, word) for letter, word in FORM_WORDS.items()}
    if drawn is not None:
        words["D"] = (drawn.label, drawn.explanation.split(":")[0])
    return words
