"""The turn clock (games/live/turns.py) through the services: a new turn's deadline is
`turn_seconds` after the move or time-out that opened it, whenever the old deadline was."""

import datetime
import json

import pytest
from django.utils import timezone

from games.engines import get_engine
from games.live import services
from games.models import Table, TableMove
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

TURN_SECONDS = 30


@pytest.fixture
def conquian_table():
    """A started Conquian single: every move or time-out closes its turn and opens the next."""
    first, second = UserFactory(), UserFactory()
    table = services.table_create(
        game="conquian", players=2, options={"turn_seconds": TURN_SECONDS}, bots=[], by=first
    )
    services.table_join(table_id=table.pk, by=second)
    table.refresh_from_db()
    return table


def test_after_a_move_at_t_the_next_deadline_is_t_plus_turn_seconds(conquian_table):
    table = conquian_table
    eng = get_engine("conquian")
    state = eng.load(table.state)
    (seat,) = eng.to_act(state)
    mover = table.seats.get(seat=seat).user
    services.table_move(table_id=table.pk, turn=1, move=eng.legal_moves(state, seat)[0], by=mover)

    table.refresh_from_db()
    move = TableMove.objects.get(table=table)  # `at`: when the move arrived, the service's t
    assert table.turn == 2
    assert table.deadline == move.at + datetime.timedelta(seconds=TURN_SECONDS)


def test_a_turn_expired_long_after_its_deadline_gives_the_next_a_full_turn_from_now(
    conquian_table,
):
    table = conquian_table
    # The expiry ran five turns' lengths late (a worker away, the sweep behind).
    late = datetime.timedelta(seconds=5 * TURN_SECONDS)
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - late)

    assert services.table_turn_expire(table_id=table.pk, turn=1)
    expired_at = TableMove.objects.get(table=table, timeout=True).at

    table.refresh_from_db()
    assert table.turn == 2 and table.status == Table.Status.PLAYING
    assert table.deadline == expired_at + datetime.timedelta(seconds=TURN_SECONDS)
    assert table.deadline > timezone.now()


def test_a_new_turns_tasks_ask_for_no_result(
    broker_without_worker, django_capture_on_commit_callbacks
):
    """Nobody waits for a clock's or a bot's result: sent without asking for one, the web
    process neither subscribes to the result's channel nor is a result kept for it."""
    with django_capture_on_commit_callbacks(execute=True):
        services.table_create(
            game="korova", players=4, options={"turn_seconds": TURN_SECONDS}, bots=[1, 2, 3],
            by=UserFactory(),
        )  # fmt: skip
    headers = [
        json.loads(sent)["headers"] for sent in broker_without_worker.lrange("celery", 0, -1)
    ]
    assert sorted(header["task"] for header in headers) == ["games.expire_turn", "games.play_bots"]
    assert all(header["ignore_result"] is True for header in headers)
