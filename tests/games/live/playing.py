"""Games played to their end through the move service, for tests that need a finished table."""

from games.engines import get_engine
from games.live import services
from games.models import Table


def play_to_the_end(table: Table, users) -> Table:
    """The seat to act plays its last legal move until the game is over; `users[seat]` sits in
    each seat."""
    eng = get_engine(table.game)
    while True:
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            return table
        assert table.state is not None, "a started table has a state"
        state = eng.load(table.state)
        seat = eng.to_act(state)[0]
        move = eng.legal_moves(state, seat)[-1]
        services.table_move(table_id=table.pk, turn=table.turn, move=move, by=users[seat])


def finished_conquian(users) -> Table:
    """A one-deal Conquian match of users[0] against users[1], played to the end."""
    table = services.table_create(
        game="conquian", players=2, options={"target": 1}, bots=[], by=users[0]
    )
    services.table_join(table_id=table.pk, by=users[1])
    return play_to_the_end(table, users)
