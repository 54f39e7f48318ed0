"""What is printed and subscribed to reads in the season's language, the TV screen in the venue's,
whatever language the browser asks for; dates with words in each language's grammar."""

import datetime
import zoneinfo

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import ngettext
from icalendar import Calendar

from leagues.models import Fixture, Game
from scoring.publishing.services import venue_screen_issue
from tests.factories import (
    EntryFactory,
    FixtureFactory,
    LeagueFactory,
    SeasonFactory,
    TeamFactory,
    VenueFactory,
)

pytestmark = pytest.mark.django_db
LONDON = zoneinfo.ZoneInfo("Europe/London")
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en-GB,en;q=0.9"}


@pytest.fixture
def finnish_fixture():
    cache.clear()
    venue = VenueFactory(name="Kuparipannu", slug="kuparipannu", address="Aleksanterinkatu 1")
    league = LeagueFactory(name="Helsingin Conquian", game=Game.CONQUIAN)
    season = SeasonFactory(league=league, name="Syksy 2026", language="fi")
    home, away = TeamFactory(name="Kotkat", home_venue=venue), TeamFactory(name="Haukat")
    for team in (home, away):
        EntryFactory(season=season, team=team)
    return FixtureFactory(
        season=season,
        round=3,
        home_team=home,
        away_team=away,
        venue=venue,
        starts_at=datetime.datetime(2026, 12, 2, 19, 30, tzinfo=LONDON),
    )


def _event(response) -> dict:
    (event,) = Calendar.from_ical(response.content).walk("VEVENT")
    return event


def test_a_finnish_seasons_ical_reads_finnish_for_an_english_browser(client, finnish_fixture):
    season = finnish_fixture.season
    url = reverse("calendar-season", args=[season.league.slug, season.slug])
    event = _event(client.get(url, **ENGLISH))
    assert str(event["summary"]) == "Kotkat – Haukat · Helsingin Conquian"
    assert "kierros 3." in str(event["description"])
    assert "Paikka: Kuparipannu." in str(event["description"])
    assert "round" not in str(event["description"])


def test_a_team_feed_gives_each_event_its_seasons_language(client, finnish_fixture):
    finnish_fixture.status = Fixture.Status.POSTPONED
    finnish_fixture.save()
    url = reverse("calendar-team", args=[finnish_fixture.home_team.slug])
    event = _event(client.get(url, HTTP_ACCEPT_LANGUAGE="ru"))
    assert str(event["summary"]).startswith("Siirretty: Kotkat – Haukat")
    assert "Siirretty: uusi päivä sovitaan myöhemmin." in str(event["description"])


def test_the_cached_feed_body_is_kept_per_language(client, finnish_fixture):
    season = finnish_fixture.season
    url = reverse("calendar-season", args=[season.league.slug, season.slug])
    assert "Kotkat – Haukat" in str(_event(client.get(url, **ENGLISH))["summary"])
    season.language = "ru"
    season.save()
    assert "Kotkat — Haukat" in str(_event(client.get(url, **ENGLISH))["summary"])
    season.language = "en-gb"
    season.save()
    assert "Kotkat v Haukat" in str(_event(client.get(url, **ENGLISH))["summary"])


def test_a_finnish_seasons_score_sheet_is_finnish_for_an_english_browser(client, finnish_fixture):
    response = client.get(reverse("print-fixture-sheet", args=[finnish_fixture.pk]), **ENGLISH)
    page = response.content.decode()
    assert response["Content-Language"] == "fi"
    assert '<html lang="fi"' in page
    assert "Pöytäkirja: Kotkat – Haukat" in page
    assert "Joukkueet ja paikat" in page and "Kotijoukkueen allekirjoitus" in page
    assert "Jakojen kirjanpito" in page  # Conquian's own grid, in Finnish too
    assert "keskiviikko 2.12.2026" in page
    assert "Score sheet" not in page and "Teams and seats" not in page


def test_a_finnish_seasons_printed_table_and_fixture_list_are_finnish(client, finnish_fixture):
    season = finnish_fixture.season
    args = [season.league.slug, season.slug]
    table = client.get(reverse("season-print-table", args=args), **ENGLISH).content.decode()
    assert '<html lang="fi"' in table and "Joukkue" in table and "Sarjapisteet:" in table
    venue = finnish_fixture.venue
    listing = client.get(
        reverse("season-print-venue", args=[*args, venue.slug]), **ENGLISH
    ).content.decode()
    assert "Ottelut paikassa Kuparipannu" in listing and "keskiviikko 2.12.2026" in listing


def test_a_russian_venues_tv_screen_is_russian_whoever_opens_it(client):
    venue = VenueFactory(name="Три коровы", slug="tri-korovy", language="ru")
    season = SeasonFactory(league=LeagueFactory(name="Лига Коровы", game=Game.KOROVA))
    home, away = TeamFactory(name="Быки", home_venue=venue), TeamFactory(name="Тёлки")
    for team in (home, away):
        EntryFactory(season=season, team=team)
    FixtureFactory(
        season=season, home_team=home, away_team=away, venue=venue, starts_at=timezone.now()
    )
    screen = venue_screen_issue(venue_id=venue.pk)
    page = client.get(reverse("tv-screen", args=[venue.slug, screen.token]), **ENGLISH)
    text = page.content.decode()
    assert page["Content-Language"] == "ru" and '<html lang="ru"' in text
    assert "Сегодня вечером" in text and "Сейчас играют" in text and "Обновлено" in text
    assert "Не обновлялось с" in text  # the banner tv.js shows when the board goes stale
    assert '<abbr title="Очки">О</abbr>' in text
    assert "Tonight" not in text and "Playing now" not in text
    board = client.get(reverse("tv-board", args=[venue.slug, screen.token]), **ENGLISH)
    assert "Сегодня вечером" in board.content.decode()


def test_a_russian_date_has_the_genitive_month(client, finnish_fixture):
    finnish_fixture.season.language = "ru"
    finnish_fixture.season.save()
    page = client.get(reverse("print-fixture-sheet", args=[finnish_fixture.pk])).content.decode()
    assert "Среда, 2 декабря 2026, 19:30" in page and "2 Декабрь" not in page


@pytest.mark.parametrize(
    ("count", "words"),
    [
        (1, "1 команда"),
        (2, "2 команды"),
        (5, "5 команд"),
        (11, "11 команд"),
        (21, "21 команда"),
        (22, "22 команды"),
    ],
)
def test_russian_team_counts_take_each_plural_form(count, words):
    with translation.override("ru"):
        assert (
            ngettext("%(counter)s team", "%(counter)s teams", count) % {"counter": count} == words
        )


@pytest.mark.parametrize(("count", "words"), [(1, "1 joukkue"), (2, "2 joukkuetta")])
def test_finnish_team_counts_take_each_plural_form(count, words):
    with translation.override("fi"):
        assert (
            ngettext("%(counter)s team", "%(counter)s teams", count) % {"counter": count} == words
        )
