"""The cup's admin page: league admins only; "Make the draw" and its refusals."""

import pytest
from django.contrib.auth.models import Permission

from leagues.models import Cup, CupTie
from tests.admin_pages import change_url
from tests.factories import StaffMembershipFactory, TeamFactory, UserFactory

from .cups import admin_user, make_cup

pytestmark = pytest.mark.django_db


def cup_form(cup, **fields):
    data = {
        "season": cup.season_id,
        "name": cup.name,
        "slug": cup.slug,
        "seeding": cup.seeding,
        "teams": [team.pk for team in cup.teams.all()],
        "first_round_at_0": "2026-10-06",
        "first_round_at_1": "19:30:00",
        "weeks_between": "2",
        "rounds-TOTAL_FORMS": 0,
        "rounds-INITIAL_FORMS": 0,
        "rounds-MIN_NUM_FORMS": 0,
        "rounds-MAX_NUM_FORMS": 1000,
    }
    data.update(fields)
    return data


def test_make_the_draw_from_the_cups_page(client):
    cup = make_cup(4)
    client.force_login(admin_user())
    page = client.get(change_url(cup)).content.decode()
    assert 'name="_make_draw"' in page
    response = client.post(change_url(cup), cup_form(cup, _make_draw="1"), follow=True)
    assert "Knockout Cup drawn: 2 rounds" in response.content.decode()
    dates = [r.starts_at.date().isoformat() for r in cup.rounds.order_by("number")]
    assert dates == ["2026-10-06", "2026-10-20"]
    assert CupTie.objects.filter(round__cup=cup, fixture__isnull=False).count() == 2
    assert 'name="_make_draw"' not in client.get(change_url(cup)).content.decode()


def test_a_draw_with_one_team_says_why_and_changes_nothing(client):
    cup = make_cup(1)
    client.force_login(admin_user())
    response = client.post(change_url(cup), cup_form(cup, _make_draw="1"), follow=True)
    assert "not drawn. A cup needs at least two teams" in response.content.decode()
    cup.refresh_from_db()
    assert cup.drawn_at is None and not cup.rounds.exists()


def test_a_team_outside_the_season_is_named_and_nothing_is_drawn(client):
    cup = make_cup(3)
    stranger = TeamFactory(name="Strangers")
    client.force_login(admin_user())
    form = cup_form(cup, _make_draw="1")
    form["teams"] = [*form["teams"], stranger.pk]
    response = client.post(change_url(cup), form, follow=True)
    assert "Strangers not entered in" in response.content.decode()
    assert not cup.rounds.exists()


def test_the_list_action_refuses_a_second_draw(client):
    cup = make_cup(2)
    client.force_login(admin_user())
    client.post(change_url(cup), cup_form(cup, _make_draw="1"))
    response = client.post(
        "/admin/leagues/cup/",
        {"action": "make_the_draw", "_selected_action": [cup.pk]},
        follow=True,
    )
    assert "a cup is drawn once" in response.content.decode()
    assert CupTie.objects.filter(round__cup=cup).count() == 1


def test_the_action_without_dates_asks_for_the_first_date(client):
    cup = make_cup(2)
    client.force_login(admin_user())
    response = client.post(
        "/admin/leagues/cup/",
        {"action": "make_the_draw", "_selected_action": [cup.pk]},
        follow=True,
    )
    assert "Give the first round" in response.content.decode()
    assert Cup.objects.get(pk=cup.pk).drawn_at is None


def test_only_league_admins_see_cups_in_the_admin(client):
    cup = make_cup(2)
    staff = StaffMembershipFactory(user=UserFactory(is_staff=True)).user
    staff.user_permissions.add(*Permission.objects.filter(codename__endswith="_cup"))
    client.force_login(staff)
    assert client.get(change_url(cup)).status_code == 403
    assert client.get("/admin/leagues/cup/").status_code == 403
