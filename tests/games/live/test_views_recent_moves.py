"""A table page's recent moves: the page reads the few log entries it shows, not a long
game's whole log, and shows them as the viewer may see them."""

import re

import pytest
from django.urls import reverse

from games.engines import get_engine
from tests.factories import UserFactory
from tests.games.live.test_views import HTMX, full_table, legal, logged_in, post_move

pytestmark = pytest.mark.django_db


@pytest.fixture
def users():
    return [UserFactory(username=f"p{n}", first_name=f"Player{n}") for n in range(5)]


def test_recent_moves_are_the_newest_six_newest_first_after_a_fetch_and_a_move(users):
    """A long game's page lists its last six moves (the page reads those, not the whole log),
    the same whether it answered a move or was fetched."""
    table = full_table(users, players=2)
    clients = [logged_in(users[0]), logged_in(users[1])]
    eng = get_engine("korova")
    while True:  # at least eight moves, then Ada's pick opens a turn Bea cannot see yet
        table.refresh_from_db()
        seat, turn = eng.to_act(eng.load(table.state))[0], table.turn
        move = legal(table, seat)[-1]
        answer = post_move(clients[seat], table, move).content.decode()
        table.refresh_from_db()
        if seat == 0 and "card" in move and table.turn == turn and table.moves.count() >= 9:
            break
    fetched = clients[1].get(reverse("table-detail", args=[table.pk]), **HTMX).content.decode()
    newest_six = list(table.moves.order_by("-pk").values_list("turn", "seat", "move")[:6])

    def recent(html: str) -> list[tuple[str, str]]:
        section = html.split('id="recent-title"')[1]
        return re.findall(
            r"<strong>(\w+)</strong> (played \d+|took row \d|put a card down)", section
        )

    def said(viewer: int) -> list[tuple[str, str]]:
        return [
            (
                "You" if seat == viewer else f"Player{seat}",
                "put a card down" if seat != viewer and turn == table.turn
                else f"took row {move['row'] + 1}" if "row" in move
                else f"played {move['card']}",
            )
            for turn, seat, move in newest_six
        ]  # fmt: skip

    assert len(recent(answer)) == 6
    assert recent(answer) == said(0)
    assert recent(fetched) == said(1)
    assert recent(fetched)[0] == ("Player0", "put a card down")
