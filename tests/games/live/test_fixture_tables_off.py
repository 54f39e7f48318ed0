"""A fixture's tables are on only while the fixture is: scheduled, on its day. Postponing,
voiding or moving it closes its unfinished tables with no result (games.live.fixture_day);
a game begun on the fixture's day still ends after midnight."""

import datetime
import random

import pytest
from django.test import Client as DjangoClient
from django.urls import reverse
from django.utils import timezone

from games.engines import get_engine
from games.live.expiry import overdue_turns_sweep
from games.models import Table
from leagues.models import Fixture, Game
from leagues.schedule_services import reschedule_accept, reschedule_propose
from leagues.services import fixture_status_change
from scoring.models import ResultVersion
from scoring.results.fixture_open import FixtureNotOpen
from scoring.results.services import result_propose, result_submit
from tests.factories import StaffMembershipFactory, UserFactory
from tests.games.conftest import client_for
from tests.games.live.test_fixture_tables import (
    fixture_players,
    join_all,
    league_fixture,
    play_to_the_end,
    start,
    start_and_join,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("moves_unthrottled")]


def today_at(hour: int, minute: int = 0, *, days: int = 0) -> datetime.datetime:
    """Local time today (or `days` from today)."""
    local = timezone.localtime().replace(hour=hour, minute=minute, second=0, microsecond=0)
    return local + datetime.timedelta(days=days)


def korova_playing() -> tuple[Fixture, dict, int]:
    """A Корова fixture whose table every player has joined: the game is on."""
    fixture = league_fixture(Game.KOROVA, rule_options={"end_score": 1})
    clients = {player.pk: client_for(player.user) for player in fixture_players(fixture)}
    table = start_and_join(fixture, clients)[0]
    assert table["status"] == "playing"
    return fixture, clients, table["id"]


def move_of_the_seat_to_act(table_id: int, clients: dict):
    """The seat to act sends a legal move."""
    table = Table.objects.get(pk=table_id)
    eng = get_engine(table.game)
    assert table.state is not None, "the game is on"
    state = eng.load(table.state)
    seat = eng.to_act(state)[0]
    move = eng.legal_moves(state, seat)[0]
    player = table.seats.get(seat=seat).player
    assert player is not None, "a fixture's seat is a player's"
    return clients[player.pk].post(
        f"/api/tables/{table_id}/moves/", {"turn": table.turn, "move": move}, format="json"
    )


def postpone(fixture: Fixture) -> None:
    staff = StaffMembershipFactory.create(venue=fixture.venue).user
    fixture_status_change(fixture_id=fixture.pk, status="postponed", reason="Flooded", by=staff)


def void(fixture: Fixture) -> None:
    admin = UserFactory.create(is_staff=True, is_superuser=True)
    fixture_status_change(fixture_id=fixture.pk, status="void", reason="Withdrawn", by=admin)


def move_to_tomorrow(fixture: Fixture) -> None:
    staff = StaffMembershipFactory.create(venue=fixture.venue).user
    fixture_status_change(
        fixture_id=fixture.pk, status="scheduled", starts_at=today_at(20, days=1), by=staff
    )


def accept_a_new_date(fixture: Fixture) -> None:
    home, _, away, _ = fixture_players(fixture)
    proposal = reschedule_propose(
        fixture_id=fixture.pk, starts_at=today_at(20, days=2), by=home.user
    )
    reschedule_accept(proposal_id=proposal.pk, by=away.user)


@pytest.mark.parametrize("change", [postpone, void, move_to_tomorrow, accept_a_new_date])
def test_a_fixture_postponed_voided_or_moved_closes_its_game_with_no_result(db, change):
    fixture, clients, table_id = korova_playing()
    assert move_of_the_seat_to_act(table_id, clients).status_code == 200
    change(fixture)

    table = Table.objects.get(pk=table_id)
    assert table.status == Table.Status.CLOSED and table.deadline is None
    seen = clients[fixture_players(fixture)[0].pk].get(f"/api/tables/{table_id}/").json()
    assert seen["status"] == "closed" and seen["deadline"] is None and seen["to_act"] == []
    turn = table.turn
    refused = move_of_the_seat_to_act(table_id, clients)
    assert refused.status_code == 409
    assert "closed" in refused.json()["detail"] and refused.json()["turn"] == turn
    joined = clients[fixture_players(fixture)[0].pk].post(f"/api/tables/{table_id}/join/")
    assert joined.status_code == 409 and "closed" in joined.json()["detail"]
    Table.objects.filter(pk=table_id).update(deadline=timezone.now())  # as if a clock ran
    assert overdue_turns_sweep() == 0  # the clock does not play a closed table
    assert Table.objects.get(pk=table_id).turn == turn
    assert not ResultVersion.objects.filter(fixture=fixture).exists()
    page = DjangoClient()
    page.force_login(fixture_players(fixture)[0].user)
    html = page.get(reverse("table-detail", args=[table_id])).content.decode()
    assert 'id="closed"' in html and 'id="move-form"' not in html


def test_a_waiting_table_is_closed_too_and_the_tables_are_set_up_anew_on_the_new_date(db):
    fixture = league_fixture(Game.CONQUIAN)
    home1 = fixture_players(fixture)[0]
    first = [table["id"] for table in start(fixture, client_for(home1.user)).json()]
    postpone(fixture)
    assert set(Table.objects.filter(pk__in=first).values_list("status", flat=True)) == {"closed"}
    assert start(fixture, client_for(home1.user)).status_code == 409  # postponed
    staff = StaffMembershipFactory.create(venue=fixture.venue).user
    fixture_status_change(
        fixture_id=fixture.pk, status="scheduled", starts_at=today_at(23, 30), by=staff
    )  # back on, later today
    again = start(fixture, client_for(home1.user))
    assert again.status_code == 201
    assert [t["status"] for t in again.json()] == ["waiting", "waiting"]
    assert not {t["id"] for t in again.json()} & set(first)
    assert start(fixture, client_for(home1.user)).status_code == 200  # a repeat call


def test_a_move_to_later_the_same_day_keeps_the_game_going(db):
    fixture, clients, table_id = korova_playing()
    staff = StaffMembershipFactory.create(venue=fixture.venue).user
    fixture_status_change(
        fixture_id=fixture.pk, status="scheduled", starts_at=today_at(23, 30), by=staff
    )
    assert Table.objects.get(pk=table_id).status == Table.Status.PLAYING
    assert move_of_the_seat_to_act(table_id, clients).status_code == 200


def test_saying_i_am_here_waits_for_a_scheduled_fixture_on_its_day(db):
    fixture = league_fixture(Game.KOROVA)
    players = fixture_players(fixture)
    table_id = start(fixture, client_for(players[0].user)).json()[0]["id"]
    here = client_for(players[1].user)

    Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.PLAYED)
    played = here.post(f"/api/tables/{table_id}/join/")
    assert played.status_code == 409 and played.json()["detail"] == "This fixture is played."
    Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.SCHEDULED)

    # Set up yesterday, on the fixture's day, and not every player came: the day has passed.
    yesterday = today_at(20, days=-1)
    Fixture.objects.filter(pk=fixture.pk).update(starts_at=yesterday)
    Table.objects.filter(pk=table_id).update(created_at=yesterday, fixture_day=yesterday.date())
    late = here.post(f"/api/tables/{table_id}/join/")
    assert late.status_code == 409 and "its tables open on that day only" in late.json()["detail"]
    assert not Table.objects.get(pk=table_id).seats.filter(joined_at__isnull=False).exists()

    # Moved to tomorrow behind the live tables' back (no save): the join closes the table.
    Fixture.objects.filter(pk=fixture.pk).update(starts_at=today_at(20, days=1))
    Table.objects.filter(pk=table_id).update(fixture_day=timezone.localdate())
    moved = here.post(f"/api/tables/{table_id}/join/")
    assert moved.status_code == 409 and "closed" in moved.json()["detail"]
    assert Table.objects.get(pk=table_id).status == Table.Status.CLOSED


def test_a_move_at_a_table_whose_fixture_was_postponed_unseen_closes_it(db):
    fixture, clients, table_id = korova_playing()
    Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.POSTPONED)  # no save
    refused = move_of_the_seat_to_act(table_id, clients)
    assert refused.status_code == 409 and "closed" in refused.json()["detail"]
    assert Table.objects.get(pk=table_id).status == Table.Status.CLOSED  # kept, not rolled back


def test_a_game_begun_on_the_fixtures_day_ends_after_midnight_with_its_result(db):
    fixture, clients, table_id = korova_playing()
    # Midnight passes: the fixture and its table were yesterday's evening.
    evening = today_at(20, days=-1)
    Fixture.objects.filter(pk=fixture.pk).update(starts_at=evening)
    Table.objects.filter(pk=table_id).update(
        created_at=today_at(23, 50, days=-1), fixture_day=evening.date()
    )
    Fixture.objects.get(pk=fixture.pk).save()  # any save of the fixture leaves the game on
    play_to_the_end(table_id, clients, random.Random(2), lose_one_turn=False)
    version = ResultVersion.objects.get(fixture=fixture)
    assert version.source == ResultVersion.Source.LIVE
    assert Fixture.objects.get(pk=fixture.pk).status == Fixture.Status.PLAYED


def test_convoys_next_game_is_set_up_and_joined_after_midnight(db):
    fixture = league_fixture(Game.CONVOY, fixture_format={"games": 3})
    clients = {player.pk: client_for(player.user) for player in fixture_players(fixture)}
    first = start_and_join(fixture, clients)[0]["id"]
    evening = today_at(20, days=-1)  # game 1 began last night; midnight has passed
    Fixture.objects.filter(pk=fixture.pk).update(starts_at=evening)
    Table.objects.filter(pk=first).update(fixture_day=evening.date())
    play_to_the_end(first, clients, random.Random(3), lose_one_turn=False)
    second = Table.objects.get(fixture=fixture, number=2)
    assert second.status == Table.Status.WAITING and second.fixture_day == evening.date()
    assert join_all(second.pk, clients)["status"] == "playing"  # the fixture is under way
    assert move_of_the_seat_to_act(second.pk, clients).status_code == 200


def test_a_live_result_for_a_postponed_fixture_is_not_taken(db):
    fixture = league_fixture(Game.KOROVA, rule_options={"end_score": 1})
    players = [player.pk for player in fixture_players(fixture)]
    postpone(fixture)
    live = {
        "fixture_id": fixture.pk,
        "sheet": {"players": players, "rounds": [[5, 5, 5, 20]]},
        "based_on_version": 0,
        "source": ResultVersion.Source.LIVE,
    }
    with pytest.raises(FixtureNotOpen, match="postponed"):
        result_submit(**live, by=None)
    with pytest.raises(FixtureNotOpen, match="postponed"):
        result_propose(**live)
    assert not ResultVersion.objects.filter(fixture=fixture).exists()


@pytest.mark.parametrize("body", [{"options": {"turn_seconds": 2}}, {"options": "fast"}])
def test_options_are_refused_only_to_someone_who_may_start_the_tables(db, body):
    fixture = league_fixture(Game.KOROVA)
    stranger = client_for(UserFactory())
    refused = start(fixture, stranger, body)
    assert refused.status_code == 403 and "detail" in refused.json()
    missing = stranger.post("/api/fixtures/99999/tables/", body, format="json")
    assert missing.status_code == 404
    player = start(fixture, client_for(fixture_players(fixture)[0].user), body)
    assert player.status_code == 400 and list(player.json()) == ["options"]
    assert not Table.objects.exists()
