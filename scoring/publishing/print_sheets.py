"""Printable pages for the pub: a fixture's score sheet, a venue's fixture list, a season table.

The reads behind them and the QR code. A score sheet shows the fixture, who sits at which
table (the game's kind plans the tables: `kind.fixture_table_plans`), the game's own empty
grid (the template `scoring/<game>/print_sheet.html`) and a QR code (segno, SVG) that opens
the fixture's result entry on a phone. Everything is plain HTML with a print stylesheet:
no script is needed to print.
"""

from dataclasses import dataclass

import segno
from django.template.loader import select_template
from django.utils.safestring import SafeString, mark_safe

from games.engines import get_engine
from games.engines.options import resolve_options
from leagues.models import Fixture, Player, Season, Venue
from scoring.kinds import get_kind
from scoring.results.lineup_selectors import fixture_lineup, fixture_squads


@dataclass(frozen=True)
class SeatedTable:
    number: int
    sides: list[list[Player]]  # the players of each side, home side first


@dataclass(frozen=True)
class FixtureSheet:
    fixture: Fixture
    home: list[Player]  # position 1, then 2
    away: list[Player]
    tables: list[SeatedTable]
    rule_options: dict  # the season's options with the engine's defaults filled in
    template: str  # the game's own blank grid; a plain notes box for a game without one
    reserves: dict[str, list[str]]  # "home" / "away": the names of the team's reserves


def fixture_sheet(*, fixture_id: int) -> FixtureSheet:
    """Everything a fixture's printed score sheet shows. Raises Fixture.DoesNotExist."""
    fixture = Fixture.objects.select_related(
        "season__league", "home_team", "away_team", "venue"
    ).get(pk=fixture_id)
    lineup = fixture_lineup(fixture=fixture)
    home, away = lineup.home, lineup.away
    by_id = {player.pk: player for player in home + away}
    game = fixture.season.game
    plans = get_kind(game).fixture_table_plans(
        fixture_format=fixture.season.fixture_format,
        home_player_ids=[p.pk for p in home],
        away_player_ids=[p.pk for p in away],
    )
    squads = fixture_squads(fixture=fixture)
    regulars = {"home": {p.pk for p in home}, "away": {p.pk for p in away}}
    return FixtureSheet(
        reserves={
            side: [name for pk, name in squads[side].items() if pk not in regulars[side]]
            for side in ("home", "away")
        },
        fixture=fixture,
        home=home,
        away=away,
        tables=[
            SeatedTable(
                number=plan.number,
                sides=[[by_id[pid] for pid in side if pid in by_id] for side in plan.sides],
            )
            for plan in plans
        ],
        rule_options=resolve_options(get_engine(game).options, fixture.season.rule_options),
        template=select_template(
            [f"scoring/{game}/print_sheet.html", "scoring/print/_notes_box.html"]
        ).template.name,
    )


def qr_svg(url: str) -> SafeString:
    """A QR code of `url` as inline SVG with its quiet zone; its size is set by the stylesheet
    (the view box scales it)."""
    code = segno.make(url, error="m", micro=False)
    return mark_safe(code.svg_inline(border=4, dark="#000", light="#fff", omitsize=True))


def venue_season_fixtures(*, season: Season, venue: Venue) -> list[Fixture]:
    """The season's fixtures at the venue, in date order, with teams and players."""
    return list(
        season.fixtures.filter(venue=venue)
        .select_related("home_team", "away_team")
        .prefetch_related("home_team__members__player", "away_team__members__player")
        .order_by("starts_at", "round", "pk")
    )


def venue_seasons(*, venue: Venue) -> list[Season]:
    """The seasons with fixtures at the venue (each has a printable fixture list there),
    newest first, with their leagues."""
    return list(
        Season.objects.filter(fixtures__venue=venue)
        .distinct()
        .select_related("league")
        .order_by("-starts_on", "league__name", "pk")
    )


def season_venues(*, season: Season) -> list[Venue]:
    """The venues where the season has fixtures, by name."""
    return list(Venue.objects.filter(fixtures__season=season).distinct().order_by("name"))
