"""The pub's TV screen: what a venue's board shows, and who may see it.

No login: the screen's address carries the venue's secret token (scoring.models.VenueScreen),
issued by a league admin. A wrong or missing token is a 404, so the address gives nothing away.
The board shows tonight's fixtures at the venue with their status and results as they come in,
and the table of each season playing there tonight (or, on a quiet night, of the seasons with
the venue's next fixtures), and the cup rounds with a tie at the venue this week (the whole
round, the venue's ties marked).

"Tonight" is a pub's evening, not a calendar day: from 06:00 local time to 06:00 the next
morning, so a fixture that runs past midnight stays on the screen.
"""

import datetime
import secrets
from dataclasses import dataclass, field

from django.db.models import Prefetch
from django.utils import timezone

from leagues.models import Division, Fixture, Season, Venue
from leagues.selectors import season_divisions
from scoring.cups.selectors import VenueCupRound, venue_cup_rounds
from scoring.models import ResultVersion, VenueScreen
from scoring.standings.selectors import season_standings
from scoring.standings.table import StandingRow

DAY_STARTS = datetime.time(6, 0)
UPCOMING_SEASONS = 5
# The cup rounds a board shows: those with a tie at the venue from this evening on, this far.
CUP_WEEK = datetime.timedelta(days=7)


def screen_venue(*, venue_slug: str, token: str) -> Venue | None:
    """The venue whose screen `token` opens; None for any wrong slug or token."""
    screen = VenueScreen.objects.select_related("venue").filter(venue__slug=venue_slug).first()
    if screen is None or not secrets.compare_digest(screen.token.encode(), str(token).encode()):
        return None
    return screen.venue


def pub_evening(now: datetime.datetime) -> tuple[datetime.datetime, datetime.datetime]:
    """The evening `now` falls in: 06:00 local time to 06:00 the next day."""
    local = timezone.localtime(now)
    day = local.date() if local.time() >= DAY_STARTS else local.date() - datetime.timedelta(1)
    starts = timezone.make_aware(datetime.datetime.combine(day, DAY_STARTS))
    return starts, starts + datetime.timedelta(days=1)


@dataclass(frozen=True)
class BoardFixture:
    fixture: Fixture
    state: str  # "upcoming", "playing", "result", "postponed", "void"
    result: object  # the current ResultVersion, or None


@dataclass(frozen=True)
class BoardTable:
    season: Season
    rows: list[StandingRow]
    division: Division | None = None  # named on the screen when the season has more than one


@dataclass(frozen=True)
class Board:
    venue: Venue
    evening_starts: datetime.datetime
    fixtures: list[BoardFixture]
    tables: list[BoardTable]
    updated_at: datetime.datetime
    cup_rounds: list[VenueCupRound] = field(default_factory=list)


def venue_board(*, venue: Venue, now: datetime.datetime | None = None) -> Board:
    now = now or timezone.now()
    starts, ends = pub_evening(now)
    tonight = (
        Fixture.objects.filter(venue=venue, starts_at__gte=starts, starts_at__lt=ends)
        .select_related("season__league", "home_team", "away_team", "cup_tie__round__cup")
        .prefetch_related(
            Prefetch(
                "result_versions",
                queryset=ResultVersion.objects.filter(is_current=True).defer("sheet"),
                to_attr="current_results",
            )
        )
        .order_by("starts_at", "pk")
    )
    fixtures = [_board_fixture(fixture, now) for fixture in tonight]
    tables = _tables([f.fixture for f in fixtures]) or _tables(_upcoming_fixtures(venue, now))
    return Board(
        venue=venue,
        evening_starts=starts,
        fixtures=fixtures,
        tables=tables,
        updated_at=now,
        cup_rounds=venue_cup_rounds(venue=venue, starts=starts, ends=starts + CUP_WEEK),
    )


def _tables(fixtures: list[Fixture]) -> list[BoardTable]:
    """The table of each division these fixtures are played in (a fixture without a division,
    a cup tie, shows its season's top division), for the first UPCOMING_SEASONS seasons."""
    wanted: dict[int, tuple[Season, list[int | None]]] = {}
    for fixture in fixtures:
        if fixture.season_id not in wanted and len(wanted) == UPCOMING_SEASONS:
            continue
        season, division_ids = wanted.setdefault(fixture.season_id, (fixture.season, []))
        if fixture.division_id not in division_ids:
            division_ids.append(fixture.division_id)
    tables = []
    for season, division_ids in wanted.values():
        divisions = season_divisions(season=season)
        shown: list[Division | None] = []
        for division_id in division_ids:
            division = next((d for d in divisions if d.pk == division_id), None)
            division = division or (divisions[0] if divisions else None)
            if division not in shown:
                shown.append(division)
        for division in shown:
            rows = season_standings(season=season, division=division)
            tables.append(BoardTable(season, rows, division if len(divisions) > 1 else None))
    return tables


def _board_fixture(fixture: Fixture, now) -> BoardFixture:
    # the current result, prefetched into `current_results` by the board's query
    current = fixture.current_results  # type: ignore[attr-defined]
    result = current[0] if current else None
    if fixture.status == Fixture.Status.VOID:
        state = "void"
    elif result is not None:
        state = "result"
    elif fixture.status == Fixture.Status.POSTPONED:
        state = "postponed"
    else:
        state = "playing" if fixture.starts_at <= now else "upcoming"
    return BoardFixture(fixture=fixture, state=state, result=result)


def _upcoming_fixtures(venue: Venue, now) -> list[Fixture]:
    return list(
        Fixture.objects.filter(venue=venue, starts_at__gte=now)
        .exclude(status=Fixture.Status.VOID)
        .select_related("season__league")
        .order_by("starts_at")[:20]
    )
