"""Public pages: every page renders for an anonymous visitor with the right numbers, unknown
slugs are 404, queries do not grow with the data, and no staff-only link leaks."""

import datetime
import re
from html import unescape

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from leagues.models import Fixture, Game, Player, Season
from tests.api.conftest import (  # noqa: F401  (the cache fixture is autouse)
    KOROVA_AWAY_WINS,
    KOROVA_HOME_WINS,
    _clear_cache,
    build_world,
    korova_sheet,
)
from tests.factories import (
    EntryFactory,
    FixtureFactory,
    PlayerFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
)
from tests.scoring.standings.test_figures import played

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return build_world()


def text(response) -> str:
    """The page's visible text, whitespace collapsed (for checking what a reader sees)."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r'<span aria-hidden="true">.*?</span>', " ", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def season_url(world, name="season-detail"):
    return reverse(name, args=[world.league.slug, world.season.slug])


def public_urls(world) -> list[str]:
    fixture = world.fixtures[0]
    return [
        reverse("home"),
        reverse("league-detail", args=[world.league.slug]),
        season_url(world),
        season_url(world, "season-fixtures"),
        reverse("team-detail", args=[world.teams[0].slug]),
        reverse("player-detail", args=[world.teams[0].members.first().player.slug]),
        reverse("venue-detail", args=[world.crown.slug]),
        reverse("fixture-detail", args=[fixture.pk]),
        reverse("fixture-detail", args=[world.fixtures[5].pk]),
        reverse("fixture-detail", args=[world.convoy_fixture.pk]),
        reverse("fixture-detail", args=[world.conquian_fixture.pk]),
    ]


def test_every_public_page_renders_for_an_anonymous_visitor(client, world):
    for url in public_urls(world):
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert "<h1" in html, url
        assert "pico.min.css" in html and "roundel.css" in html


def test_no_public_page_links_to_staff_or_admin_pages_for_anonymous_visitors(client, world):
    for url in public_urls(world):
        html = client.get(url).content.decode()
        hrefs = re.findall(r'href="([^"]+)"', html)
        assert not [h for h in hrefs if h.startswith(("/staff", "/admin"))], url
        assert "Enter result" not in html and "Correct result" not in html, url
        assert "crown-staff" not in html and "league-admin" not in html, url


def test_pages_load_only_local_assets(client, world):
    html = client.get(reverse("home")).content.decode()
    sources = re.findall(r'(?:href|src)="([^"]+\.(?:css|js))"', html)
    assert sources and all(source.startswith("/static/") for source in sources)


@pytest.mark.parametrize(
    "name, args",
    [
        ("league-detail", ["no-such-league"]),
        ("season-detail", ["korova-tuesday", "no-such-season"]),
        ("season-detail", ["no-such-league", "autumn-2026"]),
        ("season-fixtures", ["korova-tuesday", "no-such-season"]),
        ("team-detail", ["no-such-team"]),
        ("player-detail", ["no-such-player"]),
        ("venue-detail", ["no-such-venue"]),
        ("fixture-detail", [987654321]),
    ],
)
def test_unknown_slugs_and_ids_are_404(client, world, name, args):
    assert client.get(reverse(name, args=args)).status_code == 404


def test_home_lists_leagues_with_their_current_season(client, world):
    response = client.get(reverse("home"))
    page = text(response)
    assert "Корова Tuesday League" in page
    assert "Convoy League" in page and "Conquian League" in page
    assert season_url(world) in response.content.decode()
    assert "4 teams" in page


def test_season_table_shows_positions_points_and_the_korova_difference(client, world):
    response = client.get(season_url(world))
    cells = [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "|", row)).split("|")
        for row in re.findall(
            r"<tr>(.*?)</tr>", response.content.decode().split("<tbody>")[1], flags=re.S
        )
    ]
    table = [[cell.strip() for cell in row if cell.strip()] for row in cells]
    # position, team, P, W, D, L, for, against, +/−, points, form letters
    assert table[0][:11] == ["1", "Crown Jewels", "2", "2", "0", "0", "90", "200", "+110", "6", "W"]
    assert table[1][:10] == ["2", "Anchor Swans", "2", "2", "0", "0", "125", "216", "+91", "6"]
    assert table[2][:10] == ["3", "Crown Heads", "2", "0", "0", "2", "216", "125", "−91", "0"]
    assert table[3][:10] == ["4", "Anchor Rats", "2", "0", "0", "2", "200", "90", "−110", "0"]
    page = text(response)
    assert "4 of 6 fixtures played" in page
    assert "66 heads" in page  # the end score, from the engine's default


def _phone_hidden(classes: str | None) -> set[str]:
    """The classes by which roundel.css hides a season table's column on a phone."""
    return {c for c in (classes or "").split() if c == "hide-phone" or c.startswith("col-score_")}


def test_the_column_key_hides_on_a_phone_what_the_table_hides_there(client, world):
    html = client.get(season_url(world)).content.decode()
    head = html.split("<thead>")[1].split("</thead>")[0]
    columns = {
        label.strip(): _phone_hidden(classes)
        for classes, label in re.findall(
            r'<th scope="col"(?: class="([^"]*)")?>(?:<abbr[^>]*>)?([^<]+)', head
        )
    }
    key = html.split('aria-label="What the columns mean">')[1].split("</dl>")[0]
    entries = re.findall(r'<dt(?: class="([^"]*)")?>([^<]+)</dt>\s*<dd(?: class="([^"]*)")?>', key)
    hidden_on_a_phone = {label for label, classes in columns.items() if classes}
    assert hidden_on_a_phone == {"HF", "HA", "Form"}  # Корова's heads for and against, and form
    for term_classes, label, meaning_classes in entries:
        assert _phone_hidden(term_classes) == columns[label], label
        assert _phone_hidden(meaning_classes) == columns[label], label
    css = (settings.BASE_DIR / "static" / "roundel.css").read_text()
    assert "dl.abbreviations .col-score_for, dl.abbreviations .col-score_against" in css


def test_the_printed_season_table_signs_differences_as_the_season_page_does(client, world):
    printed = text(client.get(season_url(world, "season-print-table")))
    assert "+110" in printed and "−110" in printed and "−91" in printed
    assert "-110" not in printed and "-91" not in printed


def test_season_table_reflects_a_new_result_at_once(client, world):
    client.get(season_url(world))  # warm any cache
    world.submit(world.fixtures[4], korova_sheet(world.fixtures[4], KOROVA_HOME_WINS))
    page = text(client.get(season_url(world)))
    assert "5 of 6 fixtures played" in page
    assert re.search(r"1 Anchor Swans 3 3 0 0", page)


def test_season_fixtures_page_groups_fixtures_by_round_with_scores(client, world):
    response = client.get(season_url(world, "season-fixtures"))
    page = text(response)
    for number in (1, 2, 3):
        assert f"Round {number}" in page
    assert "2/2 played" in page and "0/2 played" in page
    assert "45 to 100" in page and "100 to 45" in page
    round3 = page.split("Round 3")[-1]
    assert "Anchor Swans" in round3 and "19:30" in round3


def records(response) -> dict[str, dict[str, str]]:
    """Each record table of a team or player page: game -> {column heading: value}."""
    tables = {}
    html = response.content.decode()
    for table in re.findall(r'<table class="compact record">(.*?)</table>', html, flags=re.S):
        caption = re.search(r"<caption>(.*?)</caption>", table)
        assert caption, table
        game = caption[1]
        heads = re.findall(r"<abbr [^>]*>(.*?)</abbr>", table)
        values = re.findall(r'<td class="num">(.*?)</td>', table)
        tables[game] = dict(zip(heads, values, strict=True))
    return tables


def test_team_page_shows_players_record_per_game_and_results(client, world):
    team = world.teams[0]
    response = client.get(reverse("team-detail", args=[team.slug]))
    page = text(response)
    assert "Alice Archer" in page and "Bob Baker" in page
    assert "The Crown" in page
    shown = records(response)
    # Корова W2, Convoy L1, Conquian L1, each in the game's own columns
    assert shown["Корова 006"] == {
        "P": "2",
        "W": "2",
        "D": "0",
        "L": "0",
        "HF": "90",
        "HA": "200",
        "Diff": "110",
    }
    assert list(shown) == ["Convoy", "Корова 006", "Conquian"]
    assert (shown["Convoy"]["P"], shown["Convoy"]["L"], shown["Convoy"]["S"]) == ("1", "1", "0")
    assert (shown["Conquian"]["P"], shown["Conquian"]["L"]) == ("1", "1")
    assert "Stalemates: fixtures level on games won." in page  # every abbreviation explained
    assert "45–100" in page  # their view of the round 1 score: their heads first


def test_player_page_shows_the_players_own_figures_and_their_teams_record(client, world):
    player = world.teams[1].members.get(position=2).player  # Dan Dyer, Crown Heads
    response = client.get(reverse("player-detail", args=[player.slug]))
    page = text(response)
    assert "Dan Dyer" in page and "Crown Heads" in page
    own = page.split("Dan Dyer's own games")[1].split("Team record per game")[0]
    assert "Корова 006 Games 2" in own and "Heads per game" in own and "Best game" in own
    assert "Conquian" in own and "Convoy" in own
    shown = records(response)
    assert (shown["Корова 006"]["P"], shown["Корова 006"]["L"]) == ("2", "2")
    assert (shown["Convoy"]["P"], shown["Convoy"]["W"]) == ("1", "1")
    assert (shown["Conquian"]["P"], shown["Conquian"]["W"]) == ("1", "1")


def test_player_without_a_team_has_a_page_without_records(client, db):
    player = PlayerFactory(name="Solo Sam", slug="solo-sam")
    page = text(client.get(reverse("player-detail", args=[player.slug])))
    assert "Solo Sam" in page and "No results yet." in page


def test_venue_page_shows_teams_based_there_and_upcoming_fixtures_there(client, world):
    soon = timezone.now() + datetime.timedelta(days=3)
    later_elsewhere = FixtureFactory(
        season=world.season,
        round=4,
        home_team=world.teams[3],
        away_team=world.teams[2],
        starts_at=soon,
    )
    upcoming_here = Fixture.objects.filter(pk=world.fixtures[5].pk)
    upcoming_here.update(starts_at=soon)
    response = client.get(reverse("venue-detail", args=[world.crown.slug]))
    page = text(response)
    assert "Crown Jewels" in page and "Crown Heads" in page
    assert "Anchor Rats" not in page.split("Upcoming fixtures here")[0]
    upcoming = page.split("Upcoming fixtures here")[1].split("Recent results here")[0]
    assert "Crown Heads" in upcoming and "Anchor Rats" in upcoming
    html = response.content.decode()
    assert reverse("fixture-detail", args=[world.fixtures[5].pk]) in html
    assert reverse("fixture-detail", args=[later_elsewhere.pk]) not in html


def test_venue_page_links_to_its_printable_fixture_list_for_each_season(client, world):
    other = SeasonFactory(league=world.league, name="Spring", slug="spring")
    FixtureFactory(season=other, home_team=world.teams[0], away_team=world.teams[1])
    for venue in (world.crown, world.anchor):
        html = client.get(reverse("venue-detail", args=[venue.slug])).content.decode()
        printable = re.findall(r'href="(/print/seasons/[^"]+)"', html)
        expected = {
            reverse("season-print-venue", args=[season.league.slug, season.slug, venue.slug])
            for season in Season.objects.filter(fixtures__venue=venue)
        }
        assert expected and set(printable) == expected and len(printable) == len(expected)
        for url in printable:
            assert client.get(url).status_code == 200
    spring = reverse("season-print-venue", args=[world.league.slug, "spring", world.crown.slug])
    assert spring in client.get(reverse("venue-detail", args=[world.crown.slug])).content.decode()


def test_fixture_page_shows_korova_player_totals_and_the_team_totals(client, world):
    fixture = world.fixtures[0]
    page = text(client.get(reverse("fixture-detail", args=[fixture.pk])))
    assert "Crown Jewels v Crown Heads" in page
    assert "The Crown" in page and "Round 1" in page and "Played" in page
    # Alice 18, Bob 27 (home 45); Cara 31, Dan 69 (away 100)
    for name, total in [
        ("Alice Archer", 18),
        ("Bob Baker", 27),
        ("Cara Cole", 31),
        ("Dan Dyer", 69),
    ]:
        assert re.search(rf"{name} (Crown Jewels|Crown Heads) {total}\b", page), name
    assert "Crown Jewels total 45" in page and "Crown Heads total 100" in page
    assert "Crown Jewels won" in page


def test_fixture_page_shows_convoy_games(client, world):
    page = text(client.get(reverse("fixture-detail", args=[world.convoy_fixture.pk])))
    assert re.search(r"1 Crown Heads won 1–3", page)
    assert "Crown Heads won" in page


def test_fixture_page_shows_conquian_singles_with_carried_over_deal_values(client, world):
    page = text(client.get(reverse("fixture-detail", args=[world.conquian_fixture.pk])))
    assert "Single 1: Alice Archer 5 to 1 Cara Cole" in page
    assert "3. Alice Archer · 2 pts" in page  # the drawn second deal doubled the third
    assert "Single 2: Bob Baker 0 to 5 Dan Dyer" in page
    assert "Dan Dyer won" in page


def test_postponed_fixture_shows_its_reason(client, world):
    fixture = world.fixtures[5]
    Fixture.objects.filter(pk=fixture.pk).update(
        status=Fixture.Status.POSTPONED, postponed_reason="Burst pipe in the cellar"
    )
    page = text(client.get(reverse("fixture-detail", args=[fixture.pk])))
    assert "Postponed" in page and "Burst pipe in the cellar" in page
    fixtures_page = text(client.get(season_url(world, "season-fixtures")))
    assert "Burst pipe in the cellar" in fixtures_page


def test_enter_result_link_shows_only_to_staff_of_the_venue_admins_and_its_players(client, world):
    fixture = world.fixtures[5]  # Crown Heads v Anchor Rats at The Crown, no result yet
    url = reverse("fixture-detail", args=[fixture.pk])
    entry = reverse("result-entry", args=[fixture.pk])
    for user in (world.crown_staff, world.admin):
        client.force_login(user)
        html = client.get(url).content.decode()
        assert f'href="{entry}"' in html and "Enter result" in html
    fixture_player = UserFactory(username="player-user")
    Player.objects.filter(pk=world.teams[1].members.first().player_id).update(user=fixture_player)
    client.force_login(fixture_player)
    html = client.get(url).content.decode()
    assert f'href="{entry}"' in html and "Enter the result" in html
    other_player = UserFactory(username="other-player")
    Player.objects.filter(pk=world.teams[0].members.first().player_id).update(user=other_player)
    for user in (world.anchor_staff, other_player):
        client.force_login(user)
        html = client.get(url).content.decode()
        assert entry not in html and "Enter result" not in html


def test_staff_see_correct_and_history_links_on_a_played_fixture(client, world):
    fixture = world.fixtures[0]
    client.force_login(world.crown_staff)
    html = client.get(reverse("fixture-detail", args=[fixture.pk])).content.decode()
    assert "Correct result" in html
    assert reverse("result-history", args=[fixture.pk]) in html


def count_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def add_teams_and_fixtures(world, count: int) -> None:
    teams = [TeamFactory(home_venue=world.anchor) for _ in range(count)]
    for team in teams:
        EntryFactory(season=world.season, team=team)
    for index, team in enumerate(teams):
        fixture = FixtureFactory.create(
            season=world.season,
            round=4 + index,
            home_team=team,
            away_team=teams[(index + 1) % count],
        )
        world.submit(fixture, korova_sheet(fixture, KOROVA_AWAY_WINS))


@pytest.mark.parametrize(
    "page",
    ["home", "season-detail", "season-fixtures", "team-detail", "venue-detail", "player-detail"],
)
def test_public_pages_cost_the_same_queries_whatever_the_amount_of_data(client, world, page):
    def url():
        return {
            "home": reverse("home"),
            "season-detail": season_url(world),
            "season-fixtures": season_url(world, "season-fixtures"),
            "team-detail": reverse("team-detail", args=[world.teams[0].slug]),
            "venue-detail": reverse("venue-detail", args=[world.anchor.slug]),
            "player-detail": reverse(
                "player-detail", args=[world.teams[0].members.first().player.slug]
            ),
        }[page]

    before = count_queries(client, url())
    add_teams_and_fixtures(world, 6)
    for fixture in world.fixtures[4:]:
        world.submit(fixture, korova_sheet(fixture, KOROVA_HOME_WINS))
    after = count_queries(client, url())
    assert after == before
    # The season page reads its divisions, and for each division's table its points
    # adjustments and withdrawals; and the results it does not count yet (match night).
    assert before <= (18 if page == "season-detail" else 12)


def test_fixture_page_costs_a_fixed_number_of_queries(client, world):
    assert count_queries(client, reverse("fixture-detail", args=[world.fixtures[0].pk])) <= 8


def test_a_season_without_teams_or_fixtures_renders(client, world):
    season = SeasonFactory(league=world.league, name="Spring 2027", slug="spring-2027")
    page = text(client.get(reverse("season-detail", args=[world.league.slug, season.slug])))
    assert "No teams have entered this season yet." in page
    page = text(client.get(reverse("season-fixtures", args=[world.league.slug, season.slug])))
    assert "No fixtures yet" in page


def test_a_void_fixture_shows_void_and_no_result(client, world):
    fixture = world.fixtures[1]  # played, then voided by an admin
    Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.VOID)
    page = text(client.get(reverse("fixture-detail", args=[fixture.pk])))
    assert "Void" in page
    assert "Result version" not in page and "Anchor Swans won" not in page
    round1 = text(client.get(season_url(world, "season-fixtures"))).split("Round 2")[0]
    assert "100 to 45" not in round1 and "Void" in round1


def test_a_convoy_tables_legend_gives_points_for_a_stalemate_not_a_draw(client):
    fixture, _ = played(
        Game.CONVOY,
        lambda ids: {"games": [{"winner": "stalemate", "convoys": {"home": 2, "away": 2}}]},
    )
    season = fixture.season
    page = text(client.get(reverse("season-detail", args=[season.league.slug, season.slug])))
    assert "League points: win 3, stalemate 1, loss 0." in page
    assert "Points win 3, stalemate 1, loss 0" in page
    assert "draw" not in page.lower()


def test_a_players_convoy_figures_say_they_are_the_pairs(client, world):
    player = world.teams[1].members.get(position=2).player
    page = unescape(text(client.get(reverse("player-detail", args=[player.slug]))))
    own = page.split("Dan Dyer's own games")[1].split("Team record per game")[0]
    note = "Convoy results are recorded per pair, not per player: these are the pair's games."
    assert own.count(note) == 1  # only Convoy's figures are the pair's
    assert own.index("Convoy") == own.index(note) - len("Convoy ")  # right under its heading
