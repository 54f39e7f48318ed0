"""A season's tables as the web page, the printed sheet and the TV show them, one per division:
the game's own columns (scoring.standings.figures.season_table), cells as read (a difference
with its sign), form letters in the game's words, the league points in the game's words for
the legend, the promotion and relegation zones, and the points adjustments as footnotes."""

from dataclasses import dataclass, field

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from leagues.models import Division, Season
from leagues.selectors import season_divisions
from scoring.kinds import StandingsColumn, get_kind
from scoring.publishing.numbers import signed_number
from scoring.season_rules.rules import season_points_words
from scoring.standings.figures import season_table
from scoring.standings.selectors import Withdrawal, season_withdrawals
from scoring.standings.table import StandingRow

# letter -> (shown, word): the letter a reader of the language knows, and the word it stands for
FORM_WORDS = {
    "W": (pgettext_lazy("form: won", "W"), gettext_lazy("Won")),
    "D": (pgettext_lazy("form: drawn", "D"), gettext_lazy("Drawn")),
    "L": (pgettext_lazy("form: lost", "L"), gettext_lazy("Lost")),
}


@dataclass(frozen=True)
class ShownRow:
    row: StandingRow
    cells: list[tuple[StandingsColumn, str]]  # (column, the cell as shown)
    form: list[tuple[str, str, str]]  # (letter, shown, word), oldest first
    zone_word: str = ""  # "Promotion" / "Relegation", said beside the colour for a screen reader


@dataclass(frozen=True)
class Footnote:
    """Why a team's points are not only its results': one line per adjustment."""

    team: str
    lines: list[str]


@dataclass(frozen=True)
class ShownTable:
    columns: list[StandingsColumn]
    rows: list[ShownRow]
    form_words: list[tuple[str, str]]  # (shown, word) for the legend
    points_words: str  # "win 3, stalemate 1, loss 0"
    walkover_words: str  # what a walkover gets each side, for the legend
    withdrawals: list[Withdrawal]  # the footnotes of the teams that withdrew
    division: Division | None = None
    zones: list[tuple[str, str]] = field(default_factory=list)  # (zone, legend) for the key
    footnotes: list[Footnote] = field(default_factory=list)


ZONE_WORDS = {"promotion": gettext_lazy("Promotion"), "relegation": gettext_lazy("Relegation")}


def season_tables_shown(*, season: Season) -> list[ShownTable]:
    """A table per division of the season, top division first (one for a season of one)."""
    divisions: list[Division | None] = list(season_divisions(season=season)) or [None]
    return [season_table_shown(season=season, division=division) for division in divisions]


def season_table_shown(*, season: Season, division: Division | None = None) -> ShownTable:
    kind = get_kind(season.game)
    form_words = _form_words(kind)
    table = season_table(season=season, division=division)
    rows = [
        ShownRow(
            row=line.row,
            cells=[
                (column, _shown(column, value)) for column, value in zip(table.columns, line.cells)
            ],
            form=[(letter, *form_words[letter]) for letter in line.row.form],
            zone_word=str(ZONE_WORDS.get(line.row.zone or "", "")),
        )
        for line in table.rows
    ]
    return ShownTable(
        columns=table.columns,
        rows=rows,
        form_words=list(form_words.values()),
        points_words=season_points_words(season=season),
        division=table.division,
        zones=_zone_legend(table.rows),
        footnotes=[
            Footnote(
                team=line.row.team.name,
                lines=[_adjustment_words(adjustment) for adjustment in line.row.adjustments],
            )
            for line in table.rows
            if line.row.adjustments
        ],
        walkover_words=_(
            "A walkover (no game played): %(winner)s points to the team that turned up, "
            "%(loser)s to the team that did not"
        )
        % {"winner": season.walkover_points_winner, "loser": season.walkover_points_loser},
        withdrawals=season_withdrawals(season=season, division=table.division),
    )


def _zone_legend(lines) -> list[tuple[str, str]]:
    """What the coloured bands mean, for the zones this table has."""
    counts = {"promotion": 0, "relegation": 0}
    for line in lines:
        if line.row.zone in counts:
            counts[line.row.zone] += 1
    legend = []
    if counts["promotion"]:
        legend.append(
            (
                "promotion",
                ngettext(
                    "Promotion: the top team goes up at the season's end.",
                    "Promotion: the top %(count)d teams go up at the season's end.",
                    counts["promotion"],
                )
                % {"count": counts["promotion"]},
            )
        )
    if counts["relegation"]:
        legend.append(
            (
                "relegation",
                ngettext(
                    "Relegation: the bottom team goes down at the season's end.",
                    "Relegation: the bottom %(count)d teams go down at the season's end.",
                    counts["relegation"],
                )
                % {"count": counts["relegation"]},
            )
        )
    return legend


def _adjustment_words(adjustment) -> str:
    """ "3 points deducted on 2 December 2026: fielded an ineligible player." """
    points = abs(adjustment.points)
    if adjustment.points < 0:
        words = ngettext(
            "%(points)d point deducted on %(on)s: %(reason)s",
            "%(points)d points deducted on %(on)s: %(reason)s",
            points,
        )
    else:
        words = ngettext(
            "%(points)d point added on %(on)s: %(reason)s",
            "%(points)d points added on %(on)s: %(reason)s",
            points,
        )
    return words % {
        "points": points,
        "on": date_format(adjustment.on, pgettext("date format", "j F Y")),
        "reason": adjustment.reason,
    }


def _shown(column, value) -> str:
    """A table cell: a difference with its sign, so that +3 and −3 read apart."""
    return signed_number(value, plus=column.key == "difference")


def _form_words(kind) -> dict[str, tuple[str, str]]:
    """The form's letters as the game's table names them (Convoy's drawn fixture is a
    stalemate, "S"): letter -> (shown, word)."""
    drawn = next((column for column in kind.standings_columns if column.key == "drawn"), None)
    words = {letter: (str(shown), str(word)) for letter, (shown, word) in FORM_WORDS.items()}
    if drawn is not None:
        words["D"] = (str(drawn.label), str(drawn.explanation).split(":")[0])
    return words
