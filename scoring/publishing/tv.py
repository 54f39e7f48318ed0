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

from leagues.models import Fixture, Season, Venue
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
    seasons = _seasons([f.fixture.season for f in fixtures]) or _upcoming_seasons(venue, now)
    return Board(
        venue=venue,
        evening_starts=starts,
        fixtures=fixtures,
        tables=[BoardTable(season, season_standings(season=season)) for season in seasons],
        updated_at=now,
        cup_rounds=venue_cup_rounds(venue=venue, starts=starts, ends=starts + CUP_WEEK),
    )


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


def _seasons(seasons: list[Season]) -> list[Season]:
    unique: dict[int, Season] = {}
    for season in seasons:
        unique.setdefault(season.pk, season)
    return list(unique.values())


def _upcoming_seasons(venue: Venue, now) -> list[Season]:
    upcoming = (
        Fixture.objects.filter(venue=venue, starts_at__gte=now)
        .exclude(status=Fixture.Status.VOID)
        .select_related("season__league")
        .order_by("starts_at")[:20]
    )
    return _seasons([fixture.season for fixture in upcoming])[:UPCOMING_SEASONS]
