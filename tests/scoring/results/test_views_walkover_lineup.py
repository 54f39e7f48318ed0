"""Staff pages: "Award a walkover" and who played (a reserve in a player's place), and how the
public pages show them (through the test client)."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import Fixture, Game, WithdrawalRule
from scoring.models import ResultVersion
from scoring.publishing.services import venue_screen_issue
from scoring.results.fixture_day import BeforeFixtureDay
from scoring.results.walkovers import entry_withdraw, result_walkover_award
from tests.factories import StaffMembershipFactory, UserFactory
from tests.scoring.results.staff_sheets import FULL_GAME, entry_url, korova_post
from tests.scoring.squads import make_squads

pytestmark = pytest.mark.django_db
WALKOVER_TITLE = "Walkover: the other team did not turn up"


def walkover_url(fixture):
    return reverse("result-walkover", args=[fixture.pk])


def test_the_entry_page_offers_a_walkover_with_the_choice_of_team(client):
    squads = make_squads()
    client.force_login(squads.staff)

    html = client.get(entry_url(squads.fixture)).content.decode()

    assert "Award a walkover" in html
    assert f'action="{walkover_url(squads.fixture)}"' in html
    for team in squads.teams[:2]:
        assert team.name in html
    assert html.count('name="team"') == 2


def test_staff_award_a_walkover_from_the_page_and_the_fixture_page_says_so(client):
    squads = make_squads()
    client.force_login(squads.staff)

    answer = client.post(walkover_url(squads.fixture), {"team": "away", "note": "Van broke down"})

    assert answer.status_code == 302
    version = ResultVersion.objects.get(fixture=squads.fixture)
    assert (version.walkover, version.note) == ("away", "Van broke down")
    page = client.get(reverse("fixture-detail", args=[squads.fixture.pk])).content.decode()
    assert "Walkover:" in page and "did not turn up" in page
    season = squads.season
    listing = client.get(
        reverse("season-fixtures", args=[season.league.slug, season.slug])
    ).content.decode()
    assert "w/o" in listing


def test_a_walkover_without_a_team_is_refused_beside_the_choice(client):
    squads = make_squads()
    client.force_login(squads.staff)

    answer = client.post(walkover_url(squads.fixture), {"team": ""})

    assert answer.status_code == 400
    assert re.search(
        r'id="walkover-team-error">Choose the team that turned up', answer.content.decode()
    )
    assert not ResultVersion.objects.exists()


def test_a_walkover_for_a_played_fixture_is_refused_on_the_page(client):
    squads = make_squads()
    client.force_login(squads.staff)
    client.post(entry_url(squads.fixture), korova_post(FULL_GAME))

    answer = client.post(walkover_url(squads.fixture), {"team": "home"})

    # The played result stands: the page offers no walkover, and the POST is refused.
    assert answer.status_code == 409
    assert ResultVersion.objects.filter(fixture=squads.fixture).count() == 1


def test_staff_of_another_venue_cannot_award_a_walkover(client):
    squads = make_squads()
    client.force_login(StaffMembershipFactory().user)

    assert client.post(walkover_url(squads.fixture), {"team": "home"}).status_code == 403
    assert not ResultVersion.objects.exists()


def test_staff_choose_a_reserve_in_a_players_place_and_the_sheet_follows(client):
    squads = make_squads(Game.KOROVA)
    reserve = squads.reserve(0, name="Rita Reserve")
    home, away = squads.players(0), squads.players(1)
    client.force_login(squads.staff)
    chosen = {"home_1": reserve.pk, "home_2": home[1], "away_1": away[0], "away_2": away[1]}

    page = client.get(entry_url(squads.fixture), chosen).content.decode()
    assert "Rita Reserve (reserve)" in page
    assert f'<input type="hidden" name="home_1" value="{reserve.pk}">' in page

    answer = client.post(entry_url(squads.fixture), korova_post(FULL_GAME, **chosen))

    assert answer.status_code == 302, answer.content.decode()[:2000]
    version = ResultVersion.objects.get(fixture=squads.fixture)
    assert version.sheet["players"][0] == reserve.pk
    assert version.lineup["substitutes"] == [reserve.pk]
    fixture_page = client.get(reverse("fixture-detail", args=[squads.fixture.pk])).content.decode()
    assert "Rita Reserve" in fixture_page and "reserve</span>" in fixture_page
    player_page = client.get(reverse("player-detail", args=[reserve.slug])).content.decode()
    assert "Played as a reserve" in player_page


def test_a_lineup_from_outside_the_squad_is_refused_with_its_reason(client):
    squads = make_squads(Game.KOROVA)
    squads.reserve(0)
    home, away = squads.players(0), squads.players(1)
    client.force_login(squads.staff)
    chosen = {"home_1": away[0], "home_2": home[1], "away_1": away[0], "away_2": away[1]}

    answer = client.post(entry_url(squads.fixture), korova_post(FULL_GAME, **chosen))

    assert answer.status_code == 400
    assert 'id="lineup-error"' in answer.content.decode()
    assert not ResultVersion.objects.exists()


def test_the_season_page_marks_a_withdrawn_team_with_its_footnote(client):
    squads = make_squads(teams=3, withdrawal_rule=WithdrawalRule.KEEP)
    entry_withdraw(entry_id=squads.entries[2].pk, on=datetime.date(2026, 10, 1), by=None)
    result_walkover_award(fixture_id=squads.fixture.pk, team="home", by=squads.staff)
    season = squads.season

    html = client.get(
        reverse("season-detail", args=[season.league.slug, season.slug])
    ).content.decode()

    assert f'href="#withdrawn-{squads.teams[2].pk}"' in html
    assert "played results stand" in html
    assert "A walkover (no game played): 3 points" in html
    printed = client.get(reverse("season-print-table", args=[season.league.slug, season.slug]))
    assert "(withdrawn)" in printed.content.decode()


def test_the_printed_score_sheet_lists_the_teams_reserves(client):
    squads = make_squads()
    squads.reserve(1, name="Rita Reserve")

    html = client.get(reverse("print-fixture-sheet", args=[squads.fixture.pk])).content.decode()

    assert f"{squads.teams[1].name}: Rita Reserve" in html


def test_the_history_marks_a_walkover_version(client):
    squads = make_squads()
    result_walkover_award(fixture_id=squads.fixture.pk, team="home", by=squads.staff)
    client.force_login(squads.staff)

    html = client.get(reverse("result-history", args=[squads.fixture.pk])).content.decode()

    assert 'class="badge walkover">Walkover</span>' in html


def test_a_walkover_is_marked_on_the_team_page_the_tv_screen_and_the_staff_list(client):
    squads = make_squads()
    Fixture.objects.filter(pk=squads.fixture.pk).update(starts_at=timezone.now())  # tonight
    version = result_walkover_award(fixture_id=squads.fixture.pk, team="away", by=squads.staff)
    score = f"{version.home_score}–{version.away_score}"  # the home team's side
    screen = venue_screen_issue(venue_id=squads.venue.pk)

    team_page = client.get(reverse("team-detail", args=[squads.teams[0].slug])).content.decode()
    board = client.get(reverse("tv-board", args=[squads.venue.slug, screen.token])).content.decode()
    client.force_login(squads.staff)
    staff_list = client.get(reverse("staff-home")).content.decode()

    assert f'{score} <abbr class="walkover" title="{WALKOVER_TITLE}">w/o</abbr>' in team_page
    assert f'<strong class="score">{score}</strong> <small class="walkover">w/o</small>' in board
    assert f"v1 · {score} w/o</span>" in staff_list


def test_staff_are_refused_a_walkover_before_the_fixtures_day(client):
    squads = make_squads()
    Fixture.objects.filter(pk=squads.fixture.pk).update(
        starts_at=timezone.now() + datetime.timedelta(days=3)
    )
    client.force_login(squads.staff)

    answer = client.post(walkover_url(squads.fixture), {"team": "home"})

    assert answer.status_code == 409
    assert "its result can be entered from that day on" in answer.content.decode()
    assert not ResultVersion.objects.exists()


def test_not_even_a_league_admin_awards_a_walkover_before_the_fixtures_day():
    """No override, as a result has: a team cannot fail to turn up before the day."""
    squads = make_squads()
    Fixture.objects.filter(pk=squads.fixture.pk).update(
        starts_at=timezone.now() + datetime.timedelta(days=3)
    )

    with pytest.raises(BeforeFixtureDay):
        result_walkover_award(
            fixture_id=squads.fixture.pk, team="home", by=UserFactory(is_superuser=True)
        )

    assert not ResultVersion.objects.exists()
