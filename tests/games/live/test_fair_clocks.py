"""Fair clocks (docs/live-tables.md): the time bank a slow move draws on, the pause every seated
player asks for, and claiming the seat of a player who let the clock play their turns; with
their refusals. The clock runs out here by moving the deadline into the past, as the expiry
task finds it (test_fair_clock_tasks.py has the real worker)."""

import datetime

import pytest
from django.db.models import F
from django.test import Client as DjangoClient
from django.urls import reverse
from django.utils import timezone

from games.engines import get_engine
from games.live import expiry, services
from games.models import Seat, Table, TableMove
from leagues.models import Game
from tests.factories import StaffMembershipFactory, UserFactory
from tests.games.conftest import client_for
from tests.games.live.test_fixture_tables import (
    expire_now,
    fixture_players,
    league_fixture,
    start_and_join,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("moves_unthrottled")]


def korova_for_two(*, bots: int = 0, **clocks) -> tuple[Table, list]:
    """A Корова table of two people (and `bots` bots), dealt, with the clocks given."""
    users = [UserFactory.create() for _ in range(2)]
    table = services.table_create(
        game="korova",
        players=2 + bots,
        options={"turn_seconds": 30, **clocks},
        bots=list(range(2, 2 + bots)),
        by=users[0],
    )
    services.table_join(table_id=table.pk, by=users[1])
    table.refresh_from_db()
    return table, users


def run_out(table: Table, *, seconds_ago: float = 0.001) -> None:
    """The open turn's clock ran out `seconds_ago`."""
    Table.objects.filter(pk=table.pk).update(
        deadline=timezone.now() - datetime.timedelta(seconds=seconds_ago)
    )


def time_passes(table: Table, seconds: float) -> None:
    """`seconds` go by: the deadline and the start of the banks' charge move back by as much."""
    past = datetime.timedelta(seconds=seconds)
    Table.objects.filter(pk=table.pk).update(
        deadline=F("deadline") - past, bank_since=F("bank_since") - past
    )


def first_card(table: Table, seat: int) -> int:
    eng = get_engine("korova")
    stored = Table.objects.get(pk=table.pk).state
    assert stored is not None, "a dealt table"
    return eng.view(eng.load(stored), seat)["hand"][0]


def bank_of(table: Table, seat: int) -> float:
    return Seat.objects.get(table=table, seat=seat).bank_seconds


# ---- The time bank -------------------------------------------------------------------------


def test_a_table_and_a_season_carry_the_time_bank_and_the_claim_count_beside_the_clock():
    table, _ = korova_for_two(time_bank_seconds=45, claim_after_timeouts=2)
    assert table.options["time_bank_seconds"] == 45 and table.options["claim_after_timeouts"] == 2
    assert [seat.bank_seconds for seat in table.seats.all()] == [45, 45]
    fixture = league_fixture(
        Game.CONQUIAN, rule_options={"turn_seconds": 40, "time_bank_seconds": 90}
    )
    players = fixture_players(fixture)
    tables = start_and_join(fixture, {p.pk: client_for(p.user) for p in players})
    assert tables[0]["turn_seconds"] == 40 and tables[0]["time_bank_seconds"] == 90
    assert tables[0]["claim_after_timeouts"] == 3  # the default: the hold's three time-outs
    assert {seat["bank"] for seat in tables[0]["seats"]} == {90.0}


def test_a_bank_out_of_bounds_is_refused_naming_the_option():
    user = UserFactory()
    answer = client_for(user).post(
        "/api/tables/",
        {"game": "korova", "players": 2, "options": {"time_bank_seconds": -1}, "bots": [1]},
        format="json",
    )
    assert answer.status_code == 400
    assert "time bank" in answer.json()["options.time_bank_seconds"][0]
    assert not Table.objects.exists()


def test_when_the_turns_clock_runs_out_a_seat_with_a_bank_draws_on_it_instead_of_timing_out():
    table, users = korova_for_two(time_bank_seconds=20)
    run_out(table, seconds_ago=0.001)
    assert services.table_turn_expire(table_id=table.pk, turn=1)
    table.refresh_from_db()
    assert table.turn == 1 and not TableMove.objects.filter(table=table).exists()
    assert table.bank_since is not None
    left = (table.deadline - timezone.now()).total_seconds()
    assert 19 < left <= 20  # the deadline is when the smallest bank runs out
    seen = client_for(users[0]).get(f"/api/tables/{table.pk}/").json()
    assert seen["bank_running"] is True and seen["turn"] == 1


def test_a_slow_move_is_taken_from_the_bank_and_the_bank_keeps_what_is_left():
    table, users = korova_for_two(time_bank_seconds=20)
    run_out(table, seconds_ago=5)  # the move comes five seconds after the turn's clock ran out
    services.table_move(table_id=table.pk, turn=1, move={"card": first_card(table, 0)},
                        by=users[0])  # fmt: skip
    # Both seats were drawing on their banks for those five seconds.
    assert 14.5 < bank_of(table, 0) < 15.1 and 14.5 < bank_of(table, 1) < 15.1
    time_passes(table, 2)
    services.table_move(table_id=table.pk, turn=1, move={"card": first_card(table, 1)},
                        by=users[1])  # fmt: skip
    table.refresh_from_db()
    assert table.turn == 2 and table.bank_since is None  # a new turn: its own clock first
    assert 12.5 < bank_of(table, 1) < 13.1 and 14.5 < bank_of(table, 0) < 15.1
    assert not TableMove.objects.filter(table=table, timeout=True).exists()


def test_without_a_bank_the_same_late_move_is_refused_and_the_clock_plays():
    table, users = korova_for_two()
    run_out(table, seconds_ago=5)
    answer = client_for(users[0]).post(
        f"/api/tables/{table.pk}/moves/",
        {"turn": 1, "move": {"card": first_card(table, 0)}},
        format="json",
    )
    assert answer.status_code == 409 and answer.json()["detail"].startswith("Too late")
    assert TableMove.objects.filter(table=table, timeout=True).count() == 2


def test_an_empty_bank_times_the_seat_out_while_a_seat_with_time_left_keeps_picking():
    table, users = korova_for_two(time_bank_seconds=10)
    Seat.objects.filter(table=table, seat=0).update(bank_seconds=0)
    run_out(table)
    services.table_turn_expire(table_id=table.pk, turn=1)
    table.refresh_from_db()
    assert list(TableMove.objects.filter(table=table).values_list("seat", "timeout")) == [(0, True)]
    assert table.turn == 1 and 9 < (table.deadline - timezone.now()).total_seconds() <= 10
    time_passes(table, 10)  # seat 1's bank runs out in turn
    services.table_turn_expire(table_id=table.pk, turn=1)
    table.refresh_from_db()
    assert table.turn == 2 and bank_of(table, 1) == pytest.approx(0, abs=0.1)
    assert TableMove.objects.filter(table=table, turn=1, timeout=True).count() == 2


# ---- The pause -----------------------------------------------------------------------------


def test_the_clock_stops_only_when_every_seated_player_has_asked_for_a_pause():
    table, users = korova_for_two(bots=1)
    ada, bea = (client_for(user) for user in users)
    first = ada.post(f"/api/tables/{table.pk}/pause/")
    assert first.status_code == 200
    body = first.json()
    assert body["paused"] is False and body["deadline"] is not None
    assert [seat["pause_asked"] for seat in body["seats"]] == [True, False, False]
    body = bea.post(f"/api/tables/{table.pk}/pause/").json()  # the bot is not asked
    assert body["paused"] is True and body["deadline"] is None
    assert 20 < body["paused_left"] <= 30  # the turn's 30 s, less the time this test took
    refused = ada.post(
        f"/api/tables/{table.pk}/moves/",
        {"turn": 1, "move": {"card": first_card(table, 0)}},
        format="json",
    )
    assert refused.status_code == 409 and "paused" in refused.json()["detail"]
    assert not TableMove.objects.filter(table=table, seat=0).exists()
    assert expiry.overdue_turns_sweep() == 0


def test_any_player_goes_on_and_the_turn_gets_back_the_time_it_had_left():
    table, users = korova_for_two()
    Table.objects.filter(pk=table.pk).update(
        deadline=timezone.now() + datetime.timedelta(seconds=12)
    )
    for user in users:
        services.table_pause(table_id=table.pk, by=user)
    Table.objects.filter(pk=table.pk).update(
        paused_at=timezone.now() - datetime.timedelta(minutes=10)
    )  # a long round at the bar
    body = client_for(users[1]).post(f"/api/tables/{table.pk}/unpause/").json()
    assert body["paused"] is False and body["paused_left"] is None
    left = (datetime.datetime.fromisoformat(body["deadline"]) - timezone.now()).total_seconds()
    assert 11 < left <= 12
    assert not any(seat["pause_asked"] for seat in body["seats"])
    moved = client_for(users[0]).post(
        f"/api/tables/{table.pk}/moves/",
        {"turn": 1, "move": {"card": first_card(table, 0)}},
        format="json",
    )
    assert moved.status_code == 200


def test_a_pause_during_a_bank_is_not_drawn_from_the_bank():
    table, users = korova_for_two(time_bank_seconds=20)
    run_out(table)
    services.table_turn_expire(table_id=table.pk, turn=1)
    for user in users:
        services.table_pause(table_id=table.pk, by=user)
    Table.objects.filter(pk=table.pk).update(
        paused_at=timezone.now() - datetime.timedelta(minutes=5),
        bank_since=timezone.now() - datetime.timedelta(minutes=5),
    )
    services.table_unpause(table_id=table.pk, by=users[0])
    services.table_move(table_id=table.pk, turn=1, move={"card": first_card(table, 0)},
                        by=users[0])  # fmt: skip
    assert bank_of(table, 0) > 19


def test_pause_refusals():
    table, users = korova_for_two()
    stranger = client_for(UserFactory())
    for action in ("pause", "unpause"):
        answer = stranger.post(f"/api/tables/{table.pk}/{action}/")
        assert answer.status_code == 403 and "seated" in answer.json()["detail"]
    assert client_for(users[0]).post("/api/tables/999999/pause/").status_code == 404
    waiting = services.table_create(game="korova", players=2, options={}, bots=[], by=UserFactory())
    answer = client_for(waiting.created_by).post(f"/api/tables/{waiting.pk}/pause/")
    assert answer.status_code == 409 and "not being played" in answer.json()["detail"]
    assert not Seat.objects.filter(pause_asked=True).exists()


# ---- Claims --------------------------------------------------------------------------------


def away(table: Table, seat: int, turns: int) -> None:
    """The player in `seat` lets the clock play `turns` more of their turns; the other people
    play a legal move in every turn (the bots' turns are the clock's here: no worker)."""
    eng = get_engine(table.game)
    target = Seat.objects.get(table=table, seat=seat).timeouts_in_a_row + turns
    for _ in range(50):
        if Seat.objects.get(table=table, seat=seat).timeouts_in_a_row >= target:
            return
        table.refresh_from_db()
        assert table.state is not None, "a dealt table"
        state = eng.load(table.state)
        for other in eng.to_act(state):
            user = table.seats.get(seat=other).user
            if other != seat and user is not None:
                move = eng.legal_moves(state, other)[0]
                services.table_move(table_id=table.pk, turn=table.turn, move=move, by=user)
        table.refresh_from_db()
        if table.state is not None and eng.to_act(eng.load(table.state)):
            run_out(table)
            services.table_turn_expire(table_id=table.pk, turn=table.turn)
    raise AssertionError(f"seat {seat} was not timed out {turns} times")


def test_a_seat_away_long_enough_is_claimed_and_a_bot_takes_it_at_a_casual_table():
    table, users = korova_for_two(claim_after_timeouts=2)
    ada = client_for(users[0])
    away(table, seat=1, turns=1)
    early = ada.post(f"/api/tables/{table.pk}/claim/", {"seat": 1}, format="json")
    assert early.status_code == 409
    assert early.json()["detail"] == (
        f"{users[1].get_full_name() or users[1].username} has let the clock play 1 of their "
        "turns in a row: their seat can be claimed after 2."
    )
    away(table, seat=1, turns=1)
    seen = ada.get(f"/api/tables/{table.pk}/").json()
    assert seen["seats"][1]["away"] == 2 and seen["claim_after_timeouts"] == 2
    claimed = ada.post(f"/api/tables/{table.pk}/claim/", {"seat": 1}, format="json")
    assert claimed.status_code == 200, claimed.content
    seat = claimed.json()["seats"][1]
    assert seat["bot"] is True and seat["name"].endswith("(bot)") and seat["away"] == 0
    assert not Seat.objects.filter(table=table, user=users[1]).exists()
    # The player who went can no longer move there: the seat is the bot's.
    gone = client_for(users[1]).get(f"/api/tables/{table.pk}/").json()
    assert gone["seat"] is None


def test_claim_refusals_change_nothing():
    table, users = korova_for_two(bots=1, claim_after_timeouts=1)
    away(table, seat=1, turns=1)
    ada = client_for(users[0])
    stranger = client_for(UserFactory()).post(
        f"/api/tables/{table.pk}/claim/", {"seat": 1}, format="json"
    )
    assert stranger.status_code == 403 and "seated" in stranger.json()["detail"]
    own = ada.post(f"/api/tables/{table.pk}/claim/", {"seat": 0}, format="json")
    assert own.status_code == 409 and own.json()["detail"].startswith("That is your own seat")
    bot = ada.post(f"/api/tables/{table.pk}/claim/", {"seat": 2}, format="json")
    assert bot.status_code == 409 and "is a bot" in bot.json()["detail"]
    for seat in (7, "one", None, 1.5):
        answer = ada.post(f"/api/tables/{table.pk}/claim/", {"seat": seat}, format="json")
        assert answer.status_code == 400 and "seat" in answer.json()
    assert Seat.objects.get(table=table, seat=1).user == users[1]


def test_at_a_fixture_table_a_claim_goes_to_the_venues_staff():
    fixture = league_fixture(Game.CONQUIAN, rule_options={"claim_after_timeouts": 2})
    players = fixture_players(fixture)
    clients = {player.pk: client_for(player.user) for player in players}
    table_id = start_and_join(fixture, clients)[0]["id"]
    table = Table.objects.get(pk=table_id)
    eng = get_engine(Game.CONQUIAN)
    seats = {seat.seat: seat for seat in table.seats.all()}
    for _ in range(40):  # seat 1 has gone home; seat 0 plays on
        table.refresh_from_db()
        if table.held:
            break
        assert table.state is not None, "a dealt table"
        state = eng.load(table.state)
        if eng.to_act(state)[0] == 0:
            services.table_move(table_id=table_id, turn=table.turn,
                                move=eng.legal_moves(state, 0)[0], by=seats[0].user)  # fmt: skip
        else:
            expire_now(table_id)
    assert table.held and Seat.objects.get(table=table, seat=1).timeouts_in_a_row == 2
    present = clients[seats[0].player_id]
    claimed = present.post(f"/api/tables/{table_id}/claim/", {"seat": 1}, format="json")
    assert claimed.status_code == 200
    body = claimed.json()
    assert body["held"] is True and body["seats"][1]["claimed_by"] == seats[0].name
    assert body["seats"][1]["bot"] is False  # no bot plays a fixture: staff decide
    assert present.post(f"/api/tables/{table_id}/resume/").status_code == 403
    staff_user = StaffMembershipFactory(venue=fixture.venue).user
    staff_page = DjangoClient()
    staff_page.force_login(staff_user)
    claim_line = f"Seat 2 ({seats[1].name}) claimed by {seats[0].name}."
    assert claim_line in staff_page.get(reverse("staff-home")).content.decode()
    assert (
        claim_line in staff_page.get(reverse("fixture-tables", args=[fixture.pk])).content.decode()
    )
    table_page = staff_page.get(reverse("table-detail", args=[table_id])).content.decode()
    assert (
        "Resume the game" in table_page and reverse("result-entry", args=[fixture.pk]) in table_page
    )
    staff = client_for(staff_user)
    resumed = staff.post(f"/api/tables/{table_id}/resume/").json()
    assert resumed["held"] is False and resumed["seats"][1]["claimed_by"] is None
    assert resumed["deadline"] is not None


# ---- The page ------------------------------------------------------------------------------


def test_the_table_page_shows_the_bank_asks_for_a_pause_and_offers_the_claim_without_script():
    table, users = korova_for_two(time_bank_seconds=60, claim_after_timeouts=1)
    pages = []
    for user in users:
        page = DjangoClient()
        page.force_login(user)
        pages.append(page)
    url = reverse("table-detail", args=[table.pk])
    html = pages[0].get(url).content.decode()
    assert "Your time bank" in html and "60 s" in html and "Ask for a pause" in html
    assert pages[0].post(reverse("table-pause", args=[table.pk]))["Location"] == url
    html = pages[1].get(url).content.decode()
    assert "Asked for a pause: " in html and "The clock stops when every player has" in html
    pages[1].post(reverse("table-pause", args=[table.pk]))
    html = pages[1].get(url).content.decode()
    assert "Paused for a round at the bar" in html and 'id="move-form"' not in html
    pages[1].post(reverse("table-unpause", args=[table.pk]))
    assert 'id="move-form"' in pages[1].get(url).content.decode()

    Seat.objects.filter(table=table).update(bank_seconds=0)  # the banks are spent
    away(table, seat=1, turns=1)
    html = pages[0].get(url).content.decode()
    assert "Claim the seat and a bot plays it from now on." in html
    assert "Claim the seat" not in pages[1].get(url).content.decode()  # not their own
    refused = pages[0].post(reverse("table-claim", args=[table.pk]), {"seat": "0"}, follow=True)
    assert "That is your own seat" in refused.content.decode()
    pages[0].post(reverse("table-claim", args=[table.pk]), {"seat": "1"})
    assert Seat.objects.get(table=table, seat=1).bot
