"""The admin of result versions (scoring/admin.py): read-only for everyone, scoped to the
venues a member of staff serves, each listed with its league and game."""

import re

import pytest
from django.urls import reverse

from scoring.models import ResultVersion
from scoring.results.services import result_submit
from scoring.results.walkovers import result_walkover_award
from tests.admin_pages import change_url
from tests.factories import (
    FixtureFactory,
    LeagueFactory,
    SeasonFactory,
)
from tests.scoring.squads import korova_sheet, make_squads

pytestmark = pytest.mark.django_db


def make_version(fixture, number=1, sheet=None, **fields):
    return ResultVersion.objects.create(
        fixture=fixture,
        number=number,
        sheet=sheet or {"rounds": [[1, 2, 3, 4]]},
        home_score=fields.pop("home_score", 3),
        away_score=fields.pop("away_score", 7),
        winner=fields.pop("winner", "home"),
        is_current=fields.pop("is_current", True),
        **fields,
    )


def test_result_versions_list_their_league_and_game(client, superuser):
    league = LeagueFactory(name="Корова Pub League", game="korova")
    make_version(FixtureFactory(season=SeasonFactory(league=league, name="Autumn")))
    client.force_login(superuser)
    response = client.get(reverse("admin:scoring_resultversion_changelist"))
    page = response.content.decode()
    assert "Корова Pub League · Autumn" in page and "Корова 006" in page
    filtered = client.get(
        reverse("admin:scoring_resultversion_changelist"),
        {"fixture__season__league__game__exact": "convoy"},
    )
    assert list(filtered.context["cl"].result_list) == []


def test_result_versions_are_read_only_for_everyone(client, superuser, crown_fixture):
    version = make_version(crown_fixture)
    client.force_login(superuser)
    assert client.get(change_url(version)).status_code == 200
    assert client.post(change_url(version), {"note": "edited"}).status_code == 403
    delete_url = reverse("admin:scoring_resultversion_delete", args=[version.pk])
    assert client.post(delete_url, {"post": "yes"}).status_code == 403
    assert client.get(reverse("admin:scoring_resultversion_add")).status_code == 403
    version.refresh_from_db()
    assert version.note == ""


def test_result_version_page_shows_who_when_and_what_changed(client, superuser, crown_fixture):
    make_version(crown_fixture, 1, {"rounds": [[1, 2, 3, 4]]}, is_current=False)
    second = make_version(crown_fixture, 2, {"rounds": [[1, 9, 3, 4]]}, created_by=superuser)
    client.force_login(superuser)
    page = client.get(change_url(second)).content.decode()
    assert "rounds.0.1" in page
    assert "league-admin" in page


def test_fixture_page_links_to_its_result_versions(client, superuser, crown_fixture):
    make_version(crown_fixture)
    make_version(FixtureFactory())
    client.force_login(superuser)
    page = client.get(change_url(crown_fixture)).content.decode()
    url = (
        f"{reverse('admin:scoring_resultversion_changelist')}?fixture__id__exact={crown_fixture.pk}"
    )
    assert url in page
    response = client.get(url)
    assert [v.fixture for v in response.context["cl"].result_list] == [crown_fixture]


def test_venue_staff_see_only_result_versions_at_their_venue(
    client, crown_staff, crown_fixture, anchor_fixture
):
    mine = make_version(crown_fixture)
    theirs = make_version(anchor_fixture)
    client.force_login(crown_staff.user)
    response = client.get(reverse("admin:scoring_resultversion_changelist"))
    assert list(response.context["cl"].result_list) == [mine]
    assert client.get(change_url(mine)).status_code == 200
    assert client.get(change_url(theirs)).status_code == 403


def test_result_version_page_names_the_players_it_was_saved_with(client, superuser, crown_fixture):
    home = [m.player for m in crown_fixture.home_team.members.order_by("position")]
    away = [m.player for m in crown_fixture.away_team.members.order_by("position")]
    version = make_version(
        crown_fixture, lineup={"home": [p.pk for p in home], "away": [p.pk for p in away]}
    )
    client.force_login(superuser)
    page = client.get(change_url(version)).content.decode()
    assert f"{home[0].name}, {home[1].name}; {away[0].name}, {away[1].name}" in page


def test_a_version_page_marks_a_reserve_who_played_and_a_walkover(client, superuser):
    squads = make_squads()
    reserve = squads.reserve(0, name="Rita Reserve")
    sheet = korova_sheet([reserve.pk, squads.players(0)[1]], squads.players(1))
    played = result_submit(
        fixture_id=squads.fixture.pk, sheet=sheet, based_on_version=0, by=squads.staff
    )
    other = squads.fixture_between(1, 0, round=2)
    walkover = result_walkover_award(fixture_id=other.pk, team="away", by=squads.staff)
    client.force_login(superuser)

    assert "Rita Reserve (reserve)" in client.get(change_url(played)).content.decode()
    page = client.get(change_url(walkover)).content.decode()
    assert re.search(r"field-walkover.*?<div class=\"readonly\">Away</div>", page, re.S)
