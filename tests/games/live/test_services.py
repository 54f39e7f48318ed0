"""Live-table services on PostgreSQL: seats, the turn rule, clocks and time-outs, replays."""

import datetime
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.errors import Forbidden
from games.engines import FORFEIT, IllegalMove, get_engine
from games.live import expiry, services
from games.live.exceptions import NotYourTurn, TableClosed, TableInvalid, TurnConflict
from games.models import ClockSweep, Seat, Table, TableMove
from leagues.models import Fixture, Game
from scoring.models import ResultVersion
from tests.factories import UserFactory
from tests.games.live.test_fixture_tables import fixture_players, league_fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def users():
    return [UserFactory(username=f"u{n}") for n in range(4)]


def create(by, game="korova", players=4, options=None, bots=()):
    return services.table_create(
        game=game, players=players, options=options or {}, bots=list(bots), by=by
    )


def state_of(table):
    table.refresh_from_db()
    return get_engine(table.game).load(table.state)


def turn_of(table) -> int:
    return Table.objects.values_list("turn", flat=True).get(pk=table.pk)


def make_overdue(table):
    Table.objects.filter(pk=table.pk).update(
        deadline=timezone.now() - datetime.timedelta(milliseconds=1)
    )


def test_creator_sits_in_seat_zero_and_bots_fill_the_listed_seats(users):
    table = create(users[0], bots=[1, 3])
    seats = list(table.seats.order_by("seat"))
    assert [s.user for s in seats] == [users[0], None, None, None]
    assert [s.bot for s in seats] == [False, True, False, True]
    assert all("(bot)" in s.name for s in seats if s.bot)
    assert table.status == Table.Status.WAITING and table.state is None


def test_the_game_starts_when_the_last_open_seat_is_taken(users):
    table = create(users[0], bots=[1])
    services.table_join(table_id=table.pk, by=users[1])
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING
    services.table_join(table_id=table.pk, by=users[2])
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.turn == 1
    assert table.deadline > timezone.now()
    assert [s.user for s in table.seats.order_by("seat")] == [users[0], None, users[1], users[2]]
    with pytest.raises(TableClosed):
        services.table_join(table_id=table.pk, by=users[3])


def test_joining_twice_keeps_one_seat(users):
    table = create(users[0], game="conquian", players=2)
    services.table_join(table_id=table.pk, by=users[0])
    assert table.seats.filter(user=users[0]).count() == 1
    assert table.seats.filter(user=None).count() == 1


@pytest.mark.parametrize("seconds", [2, 3600])
def test_turn_seconds_2_to_3600_whatever_the_engine_allows(users, seconds):
    table = create(users[0], options={"turn_seconds": seconds}, bots=[1, 2, 3])
    assert table.turn_seconds == seconds
    assert table.deadline - timezone.now() <= datetime.timedelta(seconds=seconds)


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        ({"options": {"turn_seconds": 1}}, "options.turn_seconds"),
        ({"options": {"turn_seconds": 3601}}, "options.turn_seconds"),
        ({"options": {"turn_seconds": "30"}}, "options.turn_seconds"),
        ({"options": {"end_score": "lots"}}, "options"),
        ({"options": {"colour": "red"}}, "options"),
        ({"players": 11}, "players"),
        ({"game": "conquian", "players": 3}, "players"),
        ({"game": "chess"}, "game"),
        ({"bots": [0]}, "bots"),
        ({"bots": [1, 1]}, "bots"),
        ({"bots": [4]}, "bots"),
    ],
)
def test_a_bad_table_request_names_the_field_and_writes_nothing(users, request_, field):
    arguments = {"game": "korova", "players": 4, "options": {}, "bots": [], **request_}
    with pytest.raises(TableInvalid) as refused:
        services.table_create(**arguments, by=users[0])
    assert list(refused.value.errors) == [field]
    assert not Table.objects.exists()


def test_a_korova_pick_keeps_the_turn_and_its_deadline_for_the_others(users):
    table = create(users[0], bots=[1, 2, 3])
    deadline = table.deadline
    hand = get_engine("korova").view(state_of(table), 0)["hand"]
    services.table_move(table_id=table.pk, turn=1, move={"card": hand[0]}, by=users[0])
    table.refresh_from_db()
    assert (table.turn, table.deadline) == (1, deadline)
    assert get_engine("korova").to_act(state_of(table)) == [1, 2, 3]


def test_a_move_that_changes_who_acts_opens_a_new_turn_with_a_new_deadline(users):
    table = create(users[0], game="conquian", players=2)
    services.table_join(table_id=table.pk, by=users[1])
    table.refresh_from_db()
    eng = get_engine("conquian")
    first = eng.to_act(state_of(table))[0]
    mover = table.seats.get(seat=first).user
    move = eng.legal_moves(state_of(table), first)[-1]
    services.table_move(table_id=table.pk, turn=1, move=move, by=mover)
    moved = Table.objects.get(pk=table.pk)
    assert moved.turn == 2 and moved.deadline >= table.deadline


def test_refusals_change_nothing(users):
    table = create(users[0], bots=[1, 2])
    services.table_join(table_id=table.pk, by=users[1])
    table.refresh_from_db()
    before = (table.state, table.turn, table.deadline)
    hand = get_engine("korova").view(state_of(table), 0)["hand"]
    with pytest.raises(TurnConflict) as stale:
        services.table_move(table_id=table.pk, turn=7, move={"card": hand[0]}, by=users[0])
    assert stale.value.turn == 1
    with pytest.raises(IllegalMove):
        services.table_move(table_id=table.pk, turn=1, move={"card": 999}, by=users[0])
    with pytest.raises(NotYourTurn):
        services.table_move(table_id=table.pk, turn=1, move={"card": hand[0]}, by=users[3])
    table.refresh_from_db()
    assert (table.state, table.turn, table.deadline) == before
    assert not TableMove.objects.exists()


def test_the_same_seat_acting_twice_in_a_turn_gets_a_conflict(users):
    table = create(users[0], bots=[1, 2, 3])
    hand = get_engine("korova").view(state_of(table), 0)["hand"]
    services.table_move(table_id=table.pk, turn=1, move={"card": hand[0]}, by=users[0])
    with pytest.raises(TurnConflict, match="already acted"):
        services.table_move(table_id=table.pk, turn=1, move={"card": hand[1]}, by=users[0])
    assert TableMove.objects.count() == 1


def test_expiry_times_out_every_seat_still_to_act_and_logs_the_move_it_made(users):
    table = create(users[0], bots=[1, 2, 3])
    eng = get_engine("korova")
    state = state_of(table)
    hand = eng.view(state, 0)["hand"]
    services.table_move(table_id=table.pk, turn=1, move={"card": hand[-1]}, by=users[0])
    lowest = {seat: min(state.hands[seat]) for seat in (1, 2, 3)}
    assert not services.table_turn_expire(table_id=table.pk, turn=1)  # not due yet
    make_overdue(table)
    assert services.table_turn_expire(table_id=table.pk, turn=1)
    log = list(TableMove.objects.order_by("pk").values_list("seat", "move", "timeout"))
    assert log == [(0, {"card": hand[-1]}, False)] + [
        (seat, {"card": lowest[seat]}, True) for seat in (1, 2, 3)
    ]
    table.refresh_from_db()
    assert table.turn == 2
    assert not services.table_turn_expire(table_id=table.pk, turn=1)  # twice: harmless
    assert TableMove.objects.count() == 4


def test_a_time_out_that_plays_nothing_is_logged_as_a_forfeit(users):
    table = create(users[0], game="convoy", players=2, bots=[1])
    make_overdue(table)
    assert services.table_turn_expire(table_id=table.pk, turn=1)
    assert TableMove.objects.get().move == FORFEIT


def test_a_late_move_expires_the_turn_first_and_is_refused(users):
    table = create(users[0], bots=[1, 2, 3])
    hand = get_engine("korova").view(state_of(table), 0)["hand"]
    make_overdue(table)
    with pytest.raises(TurnConflict, match="Too late") as late:
        services.table_move(table_id=table.pk, turn=1, move={"card": hand[-1]}, by=users[0])
    assert late.value.turn == 2
    assert list(TableMove.objects.values_list("timeout", flat=True)) == [True] * 4
    assert TableMove.objects.get(seat=0).move == {"card": hand[0]}


def test_the_sweep_expires_overdue_turns_only(users):
    due, not_due = create(users[0], bots=[1, 2, 3]), create(users[1], bots=[1, 2, 3])
    make_overdue(due)
    assert expiry.overdue_turns_sweep() == 1
    due.refresh_from_db()
    not_due.refresh_from_db()
    assert (due.turn, not_due.turn) == (2, 1)


def test_the_sweep_records_when_it_ran(users):
    assert expiry.overdue_turns_sweep() == 0
    before = timezone.now()
    expiry.overdue_turns_sweep()
    assert ClockSweep.objects.get().ran_at >= before


def test_an_expiry_takes_the_other_turns_due_by_then_in_the_same_transaction(users):
    tables = [create(user, bots=[1, 2, 3]) for user in users]
    not_due = tables.pop()
    for table in tables:
        make_overdue(table)
    assert expiry.due_turns_expire(table_id=tables[1].pk, turn=1)
    assert [turn_of(table) for table in tables] == [2, 2, 2]
    assert turn_of(not_due) == 1
    assert not expiry.due_turns_expire(table_id=tables[0].pk, turn=1)  # its task, later
    assert not expiry.due_turns_expire(table_id=not_due.pk, turn=1)  # not due yet
    assert TableMove.objects.filter(timeout=True).count() == 3 * 4


def test_the_sweep_expires_more_turns_than_one_batch_holds(users, monkeypatch):
    monkeypatch.setattr(expiry, "EXPIRY_BATCH", 2)
    tables = [create(user, bots=[1, 2, 3]) for user in users]
    for table in tables[:3]:
        make_overdue(table)
    assert expiry.overdue_turns_sweep() == 3
    assert [turn_of(table) for table in tables] == [2, 2, 2, 1]


def test_a_table_that_cannot_be_expired_leaves_the_others_clocks_running(users, caplog):
    broken, sound = create(users[0], bots=[1, 2, 3]), create(users[1], bots=[1, 2, 3])
    Table.objects.filter(pk=broken.pk).update(state={"not": "a game"})
    make_overdue(broken)
    make_overdue(sound)
    assert expiry.overdue_turns_sweep() == 1
    assert (turn_of(broken), turn_of(sound)) == (1, 2)
    assert f"could not expire table {broken.pk} turn 1" in caplog.text


def test_a_fixture_table_the_clock_finishes_in_a_batch_writes_the_fixtures_result(users):
    fixture = league_fixture(Game.KOROVA, rule_options={"end_score": 1})
    (table,), _ = services.fixture_tables_start(
        fixture_id=fixture.pk, by=fixture_players(fixture)[0].user
    )
    for player in fixture_players(fixture):
        services.table_join(table_id=table.pk, by=player.user)
    users_by_seat = {seat.seat: seat.user for seat in table.seats.all()}
    eng = get_engine(Game.KOROVA)
    casual = create(users[0], bots=[1, 2, 3])
    while (playing := Table.objects.get(pk=table.pk)).status == Table.Status.PLAYING:
        # Every turn with several seats to act, one that moved itself last turn leaves its
        # move to the clock: the clock ends the game, and no seat is away long enough for the
        # table to be held. A turn of one seat (a row to take) is played by that seat.
        to_act = eng.to_act(eng.load(playing.state))
        away = {seat.seat: seat.timeouts_in_a_row for seat in playing.seats.all()}
        late = min(to_act, key=lambda seat: (away[seat], seat)) if len(to_act) > 1 else None
        for seat in to_act:
            if seat != late:
                state = eng.load(Table.objects.get(pk=table.pk).state)
                services.table_move(
                    table_id=table.pk,
                    turn=playing.turn,
                    move=eng.legal_moves(state, seat)[0],
                    by=users_by_seat[seat],
                )
        if late is None:
            continue
        make_overdue(table)
        make_overdue(casual)
        assert expiry.overdue_turns_sweep() == 2  # the two in one transaction
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED
    assert ResultVersion.objects.get(fixture=fixture).source == ResultVersion.Source.LIVE


@pytest.mark.parametrize(("game", "players"), [("korova", 4), ("conquian", 2), ("convoy", 4)])
def test_seed_options_and_log_replay_the_game_exactly(users, game, players):
    """What the replay page relies on: the log (time-outs included) rebuilds the state."""
    table = create(users[0], game=game, players=players, bots=range(1, players))
    eng = get_engine(game)
    for step in range(40):
        state = state_of(table)
        if eng.is_over(state):
            break
        if step % 3 == 0:
            make_overdue(table)
            services.table_turn_expire(table_id=table.pk, turn=table.turn)
            continue
        seat = eng.to_act(state)[0]
        if seat == 0:
            move = eng.legal_moves(state, seat)[-1]
            services.table_move(table_id=table.pk, turn=table.turn, move=move, by=users[0])
        else:
            services.table_bots_move(
                table_id=table.pk, turn=table.turn, seats=[seat], rng=random.Random(step)
            )
    table.refresh_from_db()
    options = {k: v for k, v in table.options.items() if k != "turn_seconds"}
    replay = eng.new_game(players=players, seed=table.seed, options=options)
    for entry in TableMove.objects.filter(table=table).order_by("pk"):
        if entry.timeout:
            replay = eng.timeout(replay, entry.seat)
        else:
            replay = eng.apply(replay, entry.seat, entry.move)
    assert eng.dump(replay) == table.state
    assert TableMove.objects.filter(timeout=True).exists()


# ---- Closing a waiting casual table ---------------------------------------------------------


def test_the_creator_closes_a_waiting_table_and_may_open_another_in_its_place(users, settings):
    waiting = [create(users[0], bots=[1]) for _ in range(settings.GAMES_OPEN_TABLES_PER_USER)]
    services.table_join(table_id=waiting[0].pk, by=users[1])  # a joined player loses the seat
    services.table_cancel(table_id=waiting[0].pk, by=users[0])
    assert not Table.objects.filter(pk=waiting[0].pk).exists()
    assert not Seat.objects.filter(table_id=waiting[0].pk).exists()
    assert create(users[0], bots=[1]).status == Table.Status.WAITING


def test_closing_locks_the_table_row_before_reading_it(users):
    table = create(users[0], bots=[1])
    with CaptureQueriesContext(connection) as queries:
        services.table_cancel(table_id=table.pk, by=users[0])
    first_read = next(q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("SELECT"))
    assert '"games_table"' in first_read
    if connection.vendor == "postgresql":  # SQLite locks the database at BEGIN instead
        assert "FOR UPDATE" in first_read


def test_only_the_creator_may_close_a_table_and_a_refusal_changes_nothing(users):
    table = create(users[0], bots=[1])
    services.table_join(table_id=table.pk, by=users[1])
    for someone_else in users[1:3]:  # seated or not
        with pytest.raises(Forbidden):
            services.table_cancel(table_id=table.pk, by=someone_else)
    assert table.seats.filter(user=users[1]).exists()


def test_a_table_whose_game_has_begun_cannot_be_closed(users):
    table = create(users[0], game="conquian", players=2)
    services.table_join(table_id=table.pk, by=users[1])
    with pytest.raises(TableClosed):
        services.table_cancel(table_id=table.pk, by=users[0])
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_a_fixture_table_cannot_be_closed_even_by_who_set_it_up():
    fixture = league_fixture(Game.KOROVA)
    starter = fixture_players(fixture)[0].user
    (table,), _ = services.fixture_tables_start(fixture_id=fixture.pk, by=starter)
    assert table.status == Table.Status.WAITING and table.created_by == starter
    with pytest.raises(Forbidden):
        services.table_cancel(table_id=table.pk, by=starter)
    assert Table.objects.filter(pk=table.pk).exists()


def test_closing_a_table_that_is_gone_raises_does_not_exist(users):
    with pytest.raises(Table.DoesNotExist):
        services.table_cancel(table_id=999, by=users[0])


# ---- Practice bots ---------------------------------------------------------------------------


def test_the_bots_of_a_korova_table_pick_together_and_leave_a_persons_seat_alone(users):
    table = create(users[0], bots=[1, 2, 3])
    moved = services.table_bots_move(
        table_id=table.pk, turn=1, seats=[0, 1, 2, 3], rng=random.Random(1)
    )
    assert moved == [1, 2, 3]
    assert sorted(TableMove.objects.filter(table=table).values_list("seat", flat=True)) == [1, 2, 3]
    assert turn_of(table) == 1  # seat 0 is a person's, still to pick
    assert eng_to_act(table) == [0]


def test_bots_leave_a_turn_that_moved_on_or_a_held_table_alone(users):
    table = create(users[0], bots=[1, 2, 3])
    assert (
        services.table_bots_move(table_id=table.pk, turn=2, seats=[1, 2, 3], rng=random.Random())
        == []
    )
    Table.objects.filter(pk=table.pk).update(held=True)
    assert (
        services.table_bots_move(table_id=table.pk, turn=1, seats=[1, 2, 3], rng=random.Random())
        == []
    )
    assert not TableMove.objects.filter(table=table).exists()


def eng_to_act(table) -> list[int]:
    return list(get_engine(table.game).to_act(state_of(table)))
