"""Where a team is put in a season in the admin: the season's teams inline
(scoring/season_rules/entries_admin.py), the Entry admin (squads_admin.py) and the team's
players (leagues/admin/teams.py). A division of another season, or one of a team's two
already playing for another team of the season, is refused beside the field and nothing
changes. Only league admins place teams (leagues.admin.LeagueAdminsOnly): pub staff given
Django's model permissions on seasons, divisions and entries are refused."""

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from leagues.models import Division, Entry, Season, TeamMember
from tests.admin_pages import change_url
from tests.factories import (
    EntryFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    StaffMembershipFactory,
    TeamFactory,
    UserFactory,
)
from tests.scoring.division_builders import two_divisions

from .test_admin import season_change_form, season_form

pytestmark = pytest.mark.django_db
ONE_TEAM_A_SEASON = (
    "already plays for Roundheads this season: a player plays for one team a season."
)


def ada_of(team):
    return TeamMember.objects.get(team=team, position=1).player


@pytest.fixture
def season_with_roundheads():
    season = SeasonFactory()
    roundheads = TeamFactory(name="Roundheads")
    EntryFactory(season=season, team=roundheads, division=season.divisions.get())
    return season, roundheads


# ---- The Entry admin: its division is one of its season's ---------------------------------


def entry_change_form(entry, **fields):
    data = {
        "season": entry.season_id,
        "team": entry.team_id,
        "division": entry.division_id or "",
        "reserves-TOTAL_FORMS": 0,
        "reserves-INITIAL_FORMS": 0,
        "reserves-MIN_NUM_FORMS": 0,
        "reserves-MAX_NUM_FORMS": 1000,
    }
    data.update(fields)
    return data


def test_the_entry_page_offers_only_its_seasons_divisions(client, superuser):
    entry = EntryFactory()
    other = SeasonFactory().divisions.get()
    client.force_login(superuser)
    choices = client.get(change_url(entry)).context["adminform"].form.fields["division"]
    assert list(choices.queryset) == list(entry.season.divisions.all())
    assert other not in choices.queryset


def test_a_division_of_another_season_is_refused_beside_the_field(client, superuser):
    entry = EntryFactory()
    own = entry.season.divisions.get()
    entry.division = own
    entry.save()
    other_season = SeasonFactory()
    client.force_login(superuser)

    # Moving the entry to another season while keeping its (old season's) division.
    answer = client.post(
        change_url(entry), entry_change_form(entry, season=other_season.pk, division=own.pk)
    )

    assert answer.status_code == 200
    errors = answer.context["adminform"].form.errors
    assert errors["division"] == [
        f"{own.name} is a division of another season: choose one of {other_season}'s divisions."
    ]
    entry.refresh_from_db()
    assert (entry.season_id, entry.division_id) == (own.season_id, own.pk)


def test_a_division_of_another_season_is_refused_by_the_model():
    entry = EntryFactory()
    entry.division = SeasonFactory().divisions.get()
    with pytest.raises(Exception) as refused:
        entry.full_clean()
    assert "is a division of another season" in str(refused.value)


def test_the_entry_page_refuses_a_team_whose_player_plays_for_another(
    client, superuser, season_with_roundheads
):
    season, roundheads = season_with_roundheads
    entry = EntryFactory(season=season)
    shared = TeamFactory(members=[ada_of(roundheads), PlayerFactory()])
    client.force_login(superuser)

    answer = client.post(change_url(entry), entry_change_form(entry, team=shared.pk))

    assert answer.status_code == 200
    assert ONE_TEAM_A_SEASON in answer.context["adminform"].form.errors["team"][0]
    entry.refresh_from_db()
    assert entry.team_id != shared.pk


# ---- The season's teams inline -------------------------------------------------------------


def test_entering_a_team_whose_player_plays_for_another_is_refused_beside_the_row(
    client, superuser, season_with_roundheads
):
    season, roundheads = season_with_roundheads
    entry = season.entries.get()
    shared = TeamFactory(members=[ada_of(roundheads), PlayerFactory()])
    client.force_login(superuser)
    data = season_change_form(
        season,
        **{
            "entries-TOTAL_FORMS": 2,
            "entries-INITIAL_FORMS": 1,
            "entries-0-id": entry.pk,
            "entries-0-season": season.pk,
            "entries-0-team": roundheads.pk,
            "entries-0-division": entry.division_id,
            "entries-1-team": shared.pk,
        },
    )

    answer = client.post(change_url(season), data)

    assert answer.status_code == 200
    entries = answer.context["inline_admin_formsets"][1].formset
    assert ONE_TEAM_A_SEASON in entries.forms[1].errors["team"][0]
    assert not entries.forms[0].errors
    assert list(season.entries.values_list("team", flat=True)) == [roundheads.pk]


def test_teams_sharing_no_player_are_entered(client, superuser, season_with_roundheads):
    season, roundheads = season_with_roundheads
    entry = season.entries.get()
    other = TeamFactory()
    client.force_login(superuser)
    data = season_change_form(
        season,
        **{
            "entries-TOTAL_FORMS": 2,
            "entries-INITIAL_FORMS": 1,
            "entries-0-id": entry.pk,
            "entries-0-season": season.pk,
            "entries-0-team": roundheads.pk,
            "entries-0-division": entry.division_id,
            "entries-1-team": other.pk,
        },
    )
    assert client.post(change_url(season), data).status_code == 302
    assert season.entries.count() == 2


def test_a_new_season_with_two_teams_sharing_a_player_is_not_created(client, superuser):
    first = TeamFactory(name="Roundheads")
    second = TeamFactory(members=[ada_of(first), PlayerFactory()])
    client.force_login(superuser)
    data = season_form(
        LeagueFactory(),
        **{"entries-TOTAL_FORMS": 2, "entries-0-team": first.pk, "entries-1-team": second.pk},
    )
    answer = client.post(reverse("admin:leagues_season_add"), data)
    assert answer.status_code == 200
    assert ONE_TEAM_A_SEASON in answer.content.decode()
    assert not Season.objects.filter(slug="autumn-2026").exists()


def test_a_new_season_with_its_divisions_set_up_has_those_only(client, superuser):
    team = TeamFactory()
    client.force_login(superuser)
    data = season_form(
        LeagueFactory(),
        **{
            "divisions-TOTAL_FORMS": 2,
            "divisions-0-name": "Premier",
            "divisions-0-level": 1,
            "divisions-0-promoted": 0,
            "divisions-0-relegated": 1,
            "divisions-1-name": "Division One",
            "divisions-1-level": 2,
            "divisions-1-promoted": 1,
            "divisions-1-relegated": 0,
            "entries-TOTAL_FORMS": 1,
            "entries-0-team": team.pk,
        },
    )
    assert client.post(reverse("admin:leagues_season_add"), data).status_code == 302
    season = Season.objects.get(slug="autumn-2026")
    assert list(season.divisions.values_list("name", "level")) == [
        ("Premier", 1),
        ("Division One", 2),
    ]
    assert Entry.objects.get(season=season).division == Division.objects.get(name="Premier")


# ---- The team's two --------------------------------------------------------------------------


def test_a_team_of_the_season_cannot_take_another_teams_player_in_the_admin(
    client, superuser, season_with_roundheads
):
    season, roundheads = season_with_roundheads
    last_orders = TeamFactory(name="Last Orders")
    EntryFactory(season=season, team=last_orders)
    members = list(TeamMember.objects.filter(team=last_orders).order_by("position"))
    ada = ada_of(roundheads)
    data = {
        "name": last_orders.name,
        "slug": last_orders.slug,
        "home_venue": last_orders.home_venue_id,
        "members-TOTAL_FORMS": 2,
        "members-INITIAL_FORMS": 2,
        "members-MIN_NUM_FORMS": 2,
        "members-MAX_NUM_FORMS": 2,
    }
    for index, member in enumerate(members):
        data[f"members-{index}-id"] = member.pk
        data[f"members-{index}-team"] = last_orders.pk
        data[f"members-{index}-position"] = member.position
        data[f"members-{index}-player"] = member.player_id
    data["members-1-player"] = ada.pk
    client.force_login(superuser)

    answer = client.post(change_url(last_orders), data)

    assert answer.status_code == 200
    rows = answer.context["inline_admin_formsets"][0].formset.forms
    assert ONE_TEAM_A_SEASON in rows[1].errors["player"][0]
    assert [m.player for m in last_orders.members.order_by("position")] == [
        m.player for m in members
    ]


# ---- Who may place teams: league admins only, whatever model permissions ------------------


ACTIONS = ("view", "add", "change", "delete")


def with_permissions(user, *codenames):
    user.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    return user


def venue_staff_with_every_model_permission(world):
    """Pub staff given every Django permission on seasons, divisions and entries."""
    staff = StaffMembershipFactory(
        user=UserFactory(is_staff=True), venue=world.top_teams[0].home_venue
    ).user
    return with_permissions(
        staff,
        *(f"{action}_{model}" for action in ACTIONS for model in ("season", "division", "entry")),
    )


def moving_top_a_down(world):
    """The season's page as posted with Top A's row put in Division One."""
    entry = Entry.objects.get(season=world.season, team=world.top_teams[0])
    return season_change_form(
        world.season,
        **{
            "entries-TOTAL_FORMS": 1,
            "entries-INITIAL_FORMS": 1,
            "entries-0-id": entry.pk,
            "entries-0-season": world.season.pk,
            "entries-0-team": entry.team_id,
            "entries-0-division": world.second.pk,
        },
    )


def division_of_top_a(world):
    return Entry.objects.get(season=world.season, team=world.top_teams[0]).division


def test_staff_with_entry_permissions_cannot_open_or_change_an_entry(client):
    world = two_divisions(played=False)
    entry = Entry.objects.get(season=world.season, team=world.top_teams[0])
    client.force_login(venue_staff_with_every_model_permission(world))

    assert client.get(reverse("admin:leagues_entry_changelist")).status_code == 403
    assert client.get(change_url(entry)).status_code == 403
    assert client.get(reverse("admin:leagues_entry_add")).status_code == 403
    moved = client.post(change_url(entry), entry_change_form(entry, division=world.second.pk))

    assert moved.status_code == 403
    assert division_of_top_a(world) == world.premier


def test_staff_with_division_permissions_cannot_open_or_change_a_division(client):
    world = two_divisions(played=False)
    client.force_login(venue_staff_with_every_model_permission(world))

    assert client.get(reverse("admin:leagues_division_changelist")).status_code == 403
    assert client.get(change_url(world.premier)).status_code == 403
    renamed = client.post(
        change_url(world.premier),
        {"season": world.season.pk, "name": "Renamed", "level": 1, "promoted": 0, "relegated": 1},
    )

    assert renamed.status_code == 403
    world.premier.refresh_from_db()
    assert world.premier.name == "Premier"


def test_staff_who_may_change_seasons_see_no_divisions_or_entries_on_the_season(client):
    world = two_divisions(played=False)
    client.force_login(venue_staff_with_every_model_permission(world))

    page = client.get(change_url(world.season))
    data = moving_top_a_down(world)
    data.update(
        {
            "divisions-TOTAL_FORMS": 1,
            "divisions-0-name": "Division Two",
            "divisions-0-level": 3,
            "divisions-0-promoted": 1,
            "divisions-0-relegated": 0,
        }
    )
    saved = client.post(change_url(world.season), data)

    # The rest of the season is theirs to change (can_set_season_rules).
    assert (page.status_code, saved.status_code) == (200, 302)
    assert page.context["inline_admin_formsets"] == []
    assert division_of_top_a(world) == world.premier
    assert list(world.season.divisions.values_list("name", flat=True)) == [
        "Premier",
        "Division One",
    ]


def test_a_league_admin_moves_a_team_between_divisions_without_entry_permissions(client):
    world = two_divisions(played=False)
    league_admin = with_permissions(
        UserFactory(is_staff=True), "add_fixture", "delete_fixture", "change_season"
    )
    entry = Entry.objects.get(season=world.season, team=world.top_teams[0])
    client.force_login(league_admin)

    page = client.get(change_url(world.season))
    assert [inline.formset.prefix for inline in page.context["inline_admin_formsets"]] == [
        "divisions",
        "entries",
    ]
    assert client.post(change_url(world.season), moving_top_a_down(world)).status_code == 302
    assert division_of_top_a(world) == world.second

    assert client.get(change_url(entry)).status_code == 200
    moved = client.post(change_url(entry), entry_change_form(entry, division=world.premier.pk))
    assert moved.status_code == 302
    assert division_of_top_a(world) == world.premier
