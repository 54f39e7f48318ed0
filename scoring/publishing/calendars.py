"""iCalendar feeds of fixtures (the `icalendar` package): per team, per venue, per season.

A calendar app subscribed to a feed fetches it again now and then; what keeps it from
duplicating events is the UID, which is the fixture's own and never changes
(`fixture-<id>@<CALENDAR_UID_DOMAIN>`), and what makes it take a change is SEQUENCE, the
number of times the fixture has been changed (its django-simple-history rows, less the
first). Times carry the site's time zone (TZID and a VTIMEZONE), so a fixture at 19:30 in
London stays at 19:30 London time through the clock change.

Each event reads in its season's language (Season.language), whoever subscribes: the summary
and description are rendered under that language, and the cached body's key carries it. The
feed's own name is in the language of whoever asked for it (a season's feed: the season's).

A postponed fixture keeps its date until it is rearranged: it shows as TENTATIVE, titled
"Postponed: …" with the reason; rearranged, the same UID moves to the new date. A void fixture
is CANCELLED, so calendars strike it out rather than keep a stale event.
"""

import datetime
import hashlib
import zoneinfo
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Max, QuerySet
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from icalendar import Calendar, Event

from leagues.models import Cup, Fixture, Season, Team, Venue
from scoring.cups.draw import shown_round_name

# How long a fixture is shown as lasting: a league evening's games.
FIXTURE_LENGTH = datetime.timedelta(hours=3)
# How often calendar apps are asked to fetch the feed again.
REFRESH_INTERVAL = datetime.timedelta(hours=6)
FEED_CACHE_SECONDS = 24 * 60 * 60

_STATUS: dict[str, str] = {
    Fixture.Status.SCHEDULED: "CONFIRMED",
    Fixture.Status.PLAYED: "CONFIRMED",
    Fixture.Status.POSTPONED: "TENTATIVE",
    Fixture.Status.VOID: "CANCELLED",
}


@dataclass(frozen=True)
class FeedFixture:
    """What an event shows of a fixture (plain values: a feed may hold a thousand)."""

    pk: int
    round: int
    starts_at: datetime.datetime
    status: str
    postponed_reason: str
    home: str
    away: str
    venue: str
    address: str
    season: str
    league: str
    changes: int  # changes since it was created: the event's SEQUENCE
    changed_at: datetime.datetime
    cup: str = ""  # a cup tie's cup ("Knockout Cup") and round ("Semi-finals"), else ""
    cup_round: str = ""
    language: str = settings.LANGUAGE_CODE  # the season's: the event's words are in it


@dataclass(frozen=True)
class Feed:
    name: str
    fixtures: list[FeedFixture]


def fixture_uid(fixture_id: int) -> str:
    return f"fixture-{fixture_id}@{settings.CALENDAR_UID_DOMAIN}"


_FIELDS = (
    "pk",
    "round",
    "starts_at",
    "status",
    "postponed_reason",
    "home_team__name",
    "away_team__name",
    "venue__name",
    "venue__address",
    "season__name",
    "season__league__name",
    "cup_tie__round__cup__name",
    "cup_tie__round__name",
    "season__language",
)


def _fixtures(queryset: QuerySet[Fixture]) -> list[FeedFixture]:
    rows = list(queryset.order_by("starts_at", "pk").values_list(*_FIELDS))
    changes = {
        row["id"]: (row["count"], row["last"])
        for row in Fixture.history.filter(id__in=[row[0] for row in rows])
        .values("id")
        .annotate(count=Count("history_id"), last=Max("history_date"))
    }
    fixtures = []
    for row in rows:
        pk, number, starts_at, status, reason, home, away, venue, address, season, league = row[:11]
        cup, cup_round, language = row[11:]
        count, last = changes.get(pk, (1, None))
        fixtures.append(
            FeedFixture(
                pk=pk,
                round=number,
                starts_at=starts_at,
                status=status,
                postponed_reason=reason,
                home=home,
                away=away,
                venue=venue,
                address=address,
                season=f"{league} {season}",
                league=league,
                changes=max(count - 1, 0),
                changed_at=last or starts_at,
                cup=cup or "",
                cup_round=cup_round or "",
                language=language or settings.LANGUAGE_CODE,
            )
        )
    return fixtures


def team_feed(*, team: Team) -> Feed:
    fixtures = Fixture.objects.filter(home_team=team) | Fixture.objects.filter(away_team=team)
    return Feed(name=_("%(team)s fixtures") % {"team": team.name}, fixtures=_fixtures(fixtures))


def venue_feed(*, venue: Venue) -> Feed:
    return Feed(
        name=_("Fixtures at %(venue)s") % {"venue": venue.name},
        fixtures=_fixtures(Fixture.objects.filter(venue=venue)),
    )


def season_feed(*, season: Season) -> Feed:
    with translation.override(season.language):
        name = _("%(season)s fixtures") % {"season": season}
    return Feed(name=name, fixtures=_fixtures(season.fixtures.all()))


def cup_feed(*, cup: Cup) -> Feed:
    """A cup's ties, as their fixtures are set (a later round's once both teams are known)."""
    return Feed(
        name=f"{cup.name} ({cup.season})",
        fixtures=_fixtures(Fixture.objects.filter(cup_tie__round__cup=cup)),
    )


def feed_ical(feed: Feed, *, fixture_url: str) -> bytes:
    """The feed as an iCalendar file. `fixture_url` is a fixture page's absolute address with
    "{}" for the fixture's id.

    Building a feed of a thousand fixtures takes icalendar about 0.3 s, and calendar apps
    ask again every few hours whether anything changed: the file is cached under a digest of
    everything it shows, so an unchanged feed costs only the query that reads the fixtures.
    """
    key = "roundel:ical:" + _digest(feed, fixture_url)
    body = cache.get(key)
    if body is None:
        body = _build(feed, fixture_url)
        cache.set(key, body, FEED_CACHE_SECONDS)
    return body


def _digest(feed: Feed, fixture_url: str) -> str:
    # The events' words are in each fixture's season's language (in its repr below), the
    # feed's name in the asker's: both are in the key.
    parts = [feed.name, fixture_url, settings.TIME_ZONE, settings.CALENDAR_UID_DOMAIN]
    parts.append(translation.get_language() or "")
    parts += [repr(fixture) for fixture in feed.fixtures]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _build(feed: Feed, fixture_url: str) -> bytes:
    zone = zoneinfo.ZoneInfo(settings.TIME_ZONE)
    calendar = Calendar()
    calendar.add("prodid", "-//Roundel//Fixtures//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", feed.name)
    calendar.add("x-wr-timezone", settings.TIME_ZONE)
    calendar.add("refresh-interval", REFRESH_INTERVAL, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", REFRESH_INTERVAL)
    for fixture in feed.fixtures:
        calendar.add_component(_event(fixture, zone, fixture_url.format(fixture.pk)))
    calendar.add_missing_timezones()
    return calendar.to_ical()


def _event(fixture: FeedFixture, zone, url: str) -> Event:
    with translation.override(fixture.language):
        return _event_in_language(fixture, zone, url)


def _event_in_language(fixture: FeedFixture, zone, url: str) -> Event:
    starts = fixture.starts_at.astimezone(zone)
    title = pgettext("fixture", "%(home)s v %(away)s") % {
        "home": fixture.home,
        "away": fixture.away,
    }
    event = Event()
    event.add("uid", fixture_uid(fixture.pk))
    event.add("sequence", fixture.changes)
    event.add("dtstamp", fixture.changed_at)
    event.add("last-modified", fixture.changed_at)
    event.add("dtstart", starts)
    event.add("dtend", starts + FIXTURE_LENGTH)
    event.add("status", _STATUS[fixture.status])
    if fixture.status == Fixture.Status.POSTPONED:
        title = _("Postponed: %(fixture)s") % {"fixture": title}
    elif fixture.status == Fixture.Status.VOID:
        title = _("Void: %(fixture)s") % {"fixture": title}
    event.add("summary", f"{title} · {fixture.cup or fixture.league}")
    event.add("location", ", ".join(filter(None, [fixture.venue, fixture.address])))
    event.add("url", url)
    event.add("description", _description(fixture, url))
    return event


def _description(fixture: FeedFixture, url: str) -> str:
    if fixture.cup:
        where = _("%(season)s, %(cup)s, %(round)s.") % {
            "season": fixture.season,
            "cup": fixture.cup,
            "round": shown_round_name(fixture.cup_round),
        }
    else:
        where = _("%(season)s, round %(round)d.") % {
            "season": fixture.season,
            "round": fixture.round,
        }
    lines = [where, _("At %(venue)s.") % {"venue": fixture.venue}]
    if fixture.address:
        lines.append(fixture.address)
    if fixture.status == Fixture.Status.POSTPONED:
        reason = fixture.postponed_reason or _("a new date is to be set")
        lines.append(_("Postponed: %(reason)s.") % {"reason": reason})
    lines.append(url)
    return "\n".join(lines)
