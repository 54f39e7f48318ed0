"""The Django admin's permission matrix, the generate action, and the forms' refusals."""

import datetime

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from games.models import Table
from leagues.models import Cup, Fixture, Team, TeamMember
from scoring.models import PointsAdjustment, ResultVersion, VenueScreen
from tests.admin_pages import change_url
from tests.factories import (
    EntryFactory,
    FixtureFactory,
    PlayerFactory,
    StaffMembershipFactory,
    TeamFactory,
    UserFactory,
    VenueFactory,
)

pytestmark = pytest.mark.django_db


def fixture_form(fixture, *, venue=True, **changes):
    """The fixture change form as the browser posts it, with `changes` applied."""
    starts_at = timezone.localtime(changes.pop("starts_at", fixture.starts_at))
    data = {
        "starts_at_0": starts_at.date().isoformat(),
        "starts_at_1": starts_at.strftime("%H:%M:%S"),
        "status": fixture.status,
        "reason": "",
    }
    if venue is True:
        data["venue"] = fixture.venue_id
    elif venue:
        data["venue"] = venue
    data.update(changes)
    return data


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


def a_table(fixture=None) -> Table:
    """A live table (a fixture's when given), as the admin lists it."""
    return Table.objects.create(
        game="korova", players=4, options={"turn_seconds": 30}, seed=1234, fixture=fixture,
        number=1 if fixture else None,
    )  # fmt: skip


TABLES = "/admin/games/table/"


# Superuser


def test_superuser_opens_every_changelist_add_page_and_change_page(client, superuser):
    fixture = FixtureFactory()
    EntryFactory(season=fixture.season, team=fixture.home_team)
    StaffMembershipFactory(venue=fixture.venue)
    make_version(fixture)
    VenueScreen.objects.create(venue=fixture.venue, token="t" * 40)
    Cup.objects.create(season=fixture.season, name="Knockout Cup", slug="knockout")
    PointsAdjustment.objects.create(
        season=fixture.season,
        team=fixture.home_team,
        points=-1,
        reason="Late",
        on=datetime.date(2026, 9, 8),
    )
    a_table(fixture)
    client.force_login(superuser)
    opened = []
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label not in {"games", "leagues", "scoring"}:
            continue
        info = model._meta.app_label, model._meta.model_name
        assert client.get(reverse("admin:{}_{}_changelist".format(*info))).status_code == 200
        if model_admin.has_add_permission(type("R", (), {"user": superuser})()):
            assert client.get(reverse("admin:{}_{}_add".format(*info))).status_code == 200
        obj = model.objects.first()
        assert client.get(change_url(obj)).status_code == 200, model
        opened.append(model._meta.model_name)
    assert sorted(opened) == [
        "cup",
        "division",
        "entry",
        "fixture",
        "league",
        "player",
        "pointsadjustment",
        "resultversion",
        "season",
        "table",
        "team",
        "venue",
        "venuescreen",
    ]


def test_superuser_postpones_then_voids_a_fixture_through_the_services(client, superuser):
    fixture = FixtureFactory()
    client.force_login(superuser)
    response = client.post(
        change_url(fixture), fixture_form(fixture, status="postponed", reason="Flood")
    )
    assert response.status_code == 302
    fixture.refresh_from_db()
    assert (fixture.status, fixture.postponed_reason) == ("postponed", "Flood")
    client.post(change_url(fixture), fixture_form(fixture, status="void", reason="Withdrew"))
    fixture.refresh_from_db()
    assert fixture.status == "void"
    reasons = list(fixture.history.values_list("history_change_reason", "history_user"))
    assert reasons[:2] == [("Withdrew", superuser.pk), ("Postponed: Flood", superuser.pk)]


def test_superuser_moves_a_fixture_to_another_venue(client, superuser):
    fixture = FixtureFactory()
    neutral = VenueFactory(name="The Plough")
    client.force_login(superuser)
    client.post(change_url(fixture), fixture_form(fixture, venue=neutral.pk))
    fixture.refresh_from_db()
    assert fixture.venue == neutral


def test_the_fixture_form_refuses_marking_played_by_hand(client, superuser):
    fixture = FixtureFactory()
    client.force_login(superuser)
    response = client.post(change_url(fixture), fixture_form(fixture, status="played"))
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["status"]
    fixture.refresh_from_db()
    assert fixture.status == "scheduled"


# Pub staff


def test_venue_staff_see_only_fixtures_at_their_venue(client, crown_staff, crown_fixture):
    FixtureFactory(home_team=TeamFactory(home_venue=VenueFactory(name="The Anchor")))
    client.force_login(crown_staff.user)
    response = client.get(reverse("admin:leagues_fixture_changelist"))
    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == [crown_fixture]
    assert client.get(change_url(crown_fixture)).status_code == 200


def test_venue_staff_cannot_open_or_change_another_venues_fixture(
    client, crown_staff, anchor_fixture
):
    client.force_login(crown_staff.user)
    assert client.get(change_url(anchor_fixture)).status_code == 403
    response = client.post(
        change_url(anchor_fixture),
        fixture_form(anchor_fixture, venue=False, status="postponed", reason="Mine now"),
    )
    assert response.status_code == 403
    history_url = reverse("admin:leagues_fixture_history", args=[anchor_fixture.pk])
    assert client.get(history_url).status_code == 403
    anchor_fixture.refresh_from_db()
    assert anchor_fixture.status == "scheduled"


def test_venue_staff_postpone_and_reschedule_their_fixture_with_history(
    client, crown_staff, crown_fixture
):
    client.force_login(crown_staff.user)
    response = client.post(
        change_url(crown_fixture),
        fixture_form(crown_fixture, venue=False, status="postponed", reason="Darts final"),
    )
    assert response.status_code == 302
    crown_fixture.refresh_from_db()
    assert crown_fixture.status == "postponed"
    new_time = timezone.localtime(crown_fixture.starts_at).replace(microsecond=0)
    new_time += datetime.timedelta(days=3)
    client.post(
        change_url(crown_fixture),
        fixture_form(crown_fixture, venue=False, status="scheduled", starts_at=new_time),
    )
    crown_fixture.refresh_from_db()
    assert (crown_fixture.status, crown_fixture.starts_at) == ("scheduled", new_time)
    assert set(crown_fixture.history.values_list("history_user", flat=True)) >= {
        crown_staff.user.pk
    }


def test_venue_staff_must_give_a_reason_and_cannot_void_or_move_venue(
    client, crown_staff, crown_fixture
):
    client.force_login(crown_staff.user)
    response = client.post(
        change_url(crown_fixture), fixture_form(crown_fixture, venue=False, status="postponed")
    )
    assert response.status_code == 200
    assert "Give a reason" in str(response.context["adminform"].form.errors["reason"])
    response = client.post(
        change_url(crown_fixture),
        fixture_form(crown_fixture, venue=False, status="void", reason="Because"),
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["status"]
    other = VenueFactory()
    client.post(change_url(crown_fixture), fixture_form(crown_fixture, venue=other.pk))
    crown_fixture.refresh_from_db()
    assert (crown_fixture.status, crown_fixture.venue) == ("scheduled", crown_staff.venue)


def test_venue_staff_cannot_add_delete_or_revert_fixtures(client, crown_staff, crown_fixture):
    client.force_login(crown_staff.user)
    assert client.get(reverse("admin:leagues_fixture_add")).status_code == 403
    delete_url = reverse("admin:leagues_fixture_delete", args=[crown_fixture.pk])
    assert client.post(delete_url, {"post": "yes"}).status_code == 403
    version = crown_fixture.history.first()
    revert_url = reverse(
        "admin:leagues_fixture_simple_history", args=[crown_fixture.pk, version.history_id]
    )
    assert client.post(revert_url, fixture_form(crown_fixture)).status_code == 403
    assert Fixture.objects.filter(pk=crown_fixture.pk).exists()


def test_venue_staff_cannot_see_other_models_unless_granted(client, crown_staff):
    client.force_login(crown_staff.user)
    for name in ("venue", "player", "team", "league", "season"):
        assert client.get(reverse(f"admin:leagues_{name}_changelist")).status_code == 403
    index = client.get(reverse("admin:index"))
    models = [model["object_name"] for app in index.context["app_list"] for model in app["models"]]
    assert sorted(models) == ["Fixture", "ResultVersion"]


def test_venue_staff_have_no_access_to_live_tables(client, crown_staff, crown_fixture):
    table = a_table(crown_fixture)  # even their own venue's fixture's table
    client.force_login(crown_staff.user)
    for url in (TABLES, change_url(table), f"{TABLES}{table.pk}/delete/"):
        assert client.get(url).status_code == 403, url
    assert client.post(change_url(table), {}).status_code == 403
    assert client.post(f"{TABLES}{table.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Table.objects.filter(pk=table.pk).exists()


def test_staff_who_may_only_view_tables_cannot_change_or_delete_one(client):
    viewer = UserFactory(is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_table"))
    table = a_table()
    client.force_login(viewer)
    assert client.get(TABLES).status_code == 200
    assert client.get(change_url(table)).status_code == 200
    assert client.post(change_url(table), {"status": "finished"}).status_code == 403
    assert client.get(f"{TABLES}{table.pk}/delete/").status_code == 403
    assert client.post(f"{TABLES}{table.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.get(f"{TABLES}add/").status_code == 403
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING


def test_staff_status_without_a_venue_sees_no_fixtures(client):
    client.force_login(UserFactory(is_staff=True))
    assert client.get(reverse("admin:leagues_fixture_changelist")).status_code == 403


# Players and visitors


@pytest.mark.parametrize("who", ["player", "anonymous", "venue staff without staff status"])
def test_players_and_visitors_are_sent_to_the_admin_login(client, who, crown_fixture):
    if who == "player":
        client.force_login(PlayerFactory(user=UserFactory()).user)
    elif who != "anonymous":
        client.force_login(StaffMembershipFactory(venue=crown_fixture.venue).user)
    for url in (
        reverse("admin:leagues_fixture_changelist"),
        change_url(crown_fixture),
        reverse("admin:leagues_season_changelist"),
        TABLES,
        change_url(a_table(crown_fixture)),
    ):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("admin:login"))


# Teams


def team_form(players, **fields):
    data = {
        "name": "The Regulars",
        "slug": "the-regulars",
        "home_venue": VenueFactory().pk,
        "members-TOTAL_FORMS": len(players),
        "members-INITIAL_FORMS": 0,
        "members-MIN_NUM_FORMS": 2,
        "members-MAX_NUM_FORMS": 2,
    }
    for index, (player, position) in enumerate(players):
        data[f"members-{index}-player"] = player.pk
        data[f"members-{index}-position"] = position
    data.update(fields)
    return data


@pytest.mark.parametrize("count", [1, 3])
def test_team_inline_refuses_one_or_three_players(client, superuser, count):
    players = [(PlayerFactory(), min(position, 2)) for position in range(1, count + 1)]
    client.force_login(superuser)
    response = client.post(reverse("admin:leagues_team_add"), team_form(players))
    assert response.status_code == 200
    assert response.context["inline_admin_formsets"][0].formset.non_form_errors()
    assert not Team.objects.filter(slug="the-regulars").exists()


def test_team_inline_refuses_two_players_at_the_same_position(client, superuser):
    client.force_login(superuser)
    players = [(PlayerFactory(), 1), (PlayerFactory(), 1)]
    response = client.post(reverse("admin:leagues_team_add"), team_form(players))
    assert response.status_code == 200
    assert not Team.objects.filter(slug="the-regulars").exists()


def test_team_inline_saves_two_players_and_swaps_them(client, superuser):
    first, second = PlayerFactory(), PlayerFactory()
    client.force_login(superuser)
    response = client.post(reverse("admin:leagues_team_add"), team_form([(first, 1), (second, 2)]))
    assert response.status_code == 302
    team = Team.objects.get(slug="the-regulars")
    members = list(TeamMember.objects.filter(team=team).order_by("position"))
    assert [m.player for m in members] == [first, second]
    swap = team_form([(first, 2), (second, 1)], home_venue=team.home_venue_id)
    swap.update({"members-INITIAL_FORMS": 2, "members-0-id": members[0].pk})
    swap.update({"members-1-id": members[1].pk, "members-0-team": team.pk})
    swap["members-1-team"] = team.pk
    assert client.post(change_url(team), swap).status_code == 302
    assert list(team.members.order_by("position").values_list("player", flat=True)) == [
        second.pk,
        first.pk,
    ]


def test_superuser_undoes_a_mistaken_void_by_reverting_to_an_older_version(client, superuser):
    fixture = FixtureFactory()
    before_void = fixture.history.first()
    fixture_form_data = {
        "season": fixture.season_id,
        "round": fixture.round,
        "home_team": fixture.home_team_id,
        "away_team": fixture.away_team_id,
        "venue": fixture.venue_id,
        "starts_at_0": timezone.localtime(fixture.starts_at).date().isoformat(),
        "starts_at_1": timezone.localtime(fixture.starts_at).strftime("%H:%M:%S"),
        "status": "scheduled",
        "stage": "league",
        "postponed_reason": "",
    }
    client.force_login(superuser)
    client.post(change_url(fixture), fixture_form(fixture, status="void", reason="Oops"))
    fixture.refresh_from_db()
    assert fixture.status == "void"
    revert_url = reverse(
        "admin:leagues_fixture_simple_history", args=[fixture.pk, before_void.history_id]
    )
    assert client.get(revert_url).status_code == 200
    assert client.post(revert_url, fixture_form_data).status_code == 302
    fixture.refresh_from_db()
    assert fixture.status == "scheduled"
    assert fixture.history.first().history_user == superuser
