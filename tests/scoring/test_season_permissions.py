"""Who may make each write of "Seasons as pub leagues run them", in one matrix: every write
against a visitor, a player of the fixture or team concerned, staff of another venue, staff of
the venue concerned, and a league admin. League admins may do all of them; staff of the venue
only award walkovers and enter a drawn cup tie's decider (both are entering a fixture's result,
docs/seasons-walkovers-squads.md and docs/cups.md); players nothing. A refusal changes nothing:
the state the write would change is the same after it.
"""

import datetime
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.core.exceptions import PermissionDenied

from config.errors import Forbidden
from leagues.models import CupTie, Entry, Fixture, Reserve, Season
from leagues.squad_services import reserve_register
from scoring.cups.services import cup_draw, cup_tie_decider_record
from scoring.models import PointsAdjustment, ResultVersion
from scoring.results.walkovers import entry_withdraw, result_walkover_award
from scoring.season_rules.services import (
    playoff_fixtures_create,
    points_adjustment_add,
    season_rollover,
)
from tests.factories import PlayerFactory, StaffMembershipFactory, UserFactory, team_player_user
from tests.scoring.cups.cups import LEVEL_EVERY_ROUND, admin_user, first_round_at, make_cup, play
from tests.scoring.division_builders import two_divisions
from tests.scoring.squads import make_squads

pytestmark = pytest.mark.django_db
ON = datetime.date(2026, 11, 1)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()


@dataclass
class Scene:
    """One write ready to be made: the venue and team it concerns, how to make it as a user,
    and the state it changes."""

    venue: Any
    team: Any
    act: Callable[[Any], Any]
    state: Callable[[], Any]


def cup_draw_scene() -> Scene:
    cup = make_cup(4)
    team = cup.teams.order_by("name").first()

    def act(user):
        cup_draw(cup_id=cup.pk, by=user, first_round_at=first_round_at(), rng=random.Random(1))

    def state():
        cup.refresh_from_db()
        return cup.drawn_at, CupTie.objects.count(), Fixture.objects.count()

    return Scene(team.home_venue, team, act, state)


def playoff_scene() -> Scene:
    world = two_divisions(playoff=True)
    team = world.top_teams[1]

    def act(user):
        playoff_fixtures_create(division_id=world.premier.pk, by=user)

    def state():
        return Fixture.objects.filter(stage=Fixture.Stage.PLAYOFF).count()

    return Scene(team.home_venue, team, act, state)


def reserve_scene() -> Scene:
    squads = make_squads()
    newcomer = PlayerFactory()

    def act(user):
        reserve_register(entry_id=squads.entries[0].pk, player_id=newcomer.pk, by=user)

    def state():
        return list(Reserve.objects.values_list("entry_id", "player_id"))

    return Scene(squads.venue, squads.teams[0], act, state)


def withdrawal_scene() -> Scene:
    squads = make_squads()

    def act(user):
        entry_withdraw(entry_id=squads.entries[1].pk, on=ON, by=user)

    def state():
        return (
            list(Entry.objects.order_by("pk").values_list("withdrawn_on", flat=True)),
            list(Fixture.objects.order_by("pk").values_list("status", flat=True)),
            ResultVersion.objects.count(),
        )

    return Scene(squads.venue, squads.teams[1], act, state)


def decider_scene() -> Scene:
    cup = make_cup(2)
    cup_draw(cup_id=cup.pk, by=None, first_round_at=first_round_at(), rng=random.Random(2))
    tie = CupTie.objects.get(round__cup=cup, fixture__isnull=False)
    fixture = tie.fixture
    assert fixture is not None
    play(fixture, LEVEL_EVERY_ROUND, by=admin_user())

    def act(user):
        cup_tie_decider_record(tie_id=tie.pk, side="home", note="One more game", by=user)

    def state():
        tie.refresh_from_db()
        return tie.decider, tie.decider_note, tie.winner_id

    return Scene(fixture.venue, tie.home, act, state)


def adjustment_scene() -> Scene:
    world = two_divisions(played=False)
    team = world.top_teams[0]

    def act(user):
        points_adjustment_add(
            season_id=world.season.pk, team_id=team.pk, points=-2, reason="Late", on=ON, by=user
        )

    def state():
        return PointsAdjustment.objects.count()

    return Scene(team.home_venue, team, act, state)


def rollover_scene() -> Scene:
    world = two_divisions()
    team = world.top_teams[0]

    def act(user):
        season_rollover(
            season_id=world.season.pk, name="2027", slug="s-2027", starts_on=ON, by=user
        )

    def state():
        world.season.refresh_from_db()
        return Season.objects.count(), world.season.next_season_id

    return Scene(team.home_venue, team, act, state)


def walkover_scene() -> Scene:
    squads = make_squads()

    def act(user):
        result_walkover_award(fixture_id=squads.fixture.pk, team="home", by=user)

    def state():
        return list(ResultVersion.objects.values_list("pk", flat=True))

    return Scene(squads.venue, squads.teams[1], act, state)


WRITES = {
    "cup draw": cup_draw_scene,
    "play-off creation": playoff_scene,
    "reserve registration": reserve_scene,
    "team withdrawal": withdrawal_scene,
    "drawn-tie decider": decider_scene,
    "points adjustment": adjustment_scene,
    "rollover": rollover_scene,
    "walkover": walkover_scene,
}
# Staff of the venue concerned may make these (entering a fixture's result); nobody else
# but a league admin may make any.
VENUE_STAFF_MAY = {"walkover", "drawn-tie decider"}
ROLES = ["visitor", "player", "staff of another venue", "staff of the venue", "league admin"]


def user_as(role: str, scene: Scene):
    if role == "visitor":
        return AnonymousUser()
    if role == "player":
        return team_player_user(scene.team)
    if role == "staff of another venue":
        return StaffMembershipFactory(user__is_staff=True).user
    if role == "staff of the venue":
        return StaffMembershipFactory(user__is_staff=True, venue=scene.venue).user
    return UserFactory(is_staff=True, is_superuser=True)


def allowed(write: str, role: str) -> bool:
    return role == "league admin" or (role == "staff of the venue" and write in VENUE_STAFF_MAY)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("write", list(WRITES))
def test_who_may_make_each_write_and_a_refusal_changes_nothing(write, role):
    scene = WRITES[write]()
    user = user_as(role, scene)
    before = scene.state()

    if allowed(write, role):
        scene.act(user)
        assert scene.state() != before, f"{role} made the {write}, which changed nothing"
    else:
        with pytest.raises((Forbidden, PermissionDenied)):
            scene.act(user)
        assert scene.state() == before
