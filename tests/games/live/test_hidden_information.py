"""Hidden information over whole random games played through the API.

Every seat is a player with their own token. After each move, every seat reads the table and
one reads the log; each answer must be exactly what the engine lets that seat see: no key
named deck, seed or hands anywhere, one "hand" and it is the reader's own, other seats'
picks in the open turn shown as null. Conquian's cards are all different, so there the other
hand's card codes must not appear anywhere in the answer's text. Nothing the server logs may
carry a hand, the deck or the seed either. The table's admin page, read by a superuser, shows
the log as a spectator sees it (checked while a move is hidden, and at the end).
"""

import html
import json
import logging
import random
import re

import pytest
from rest_framework.test import APIClient

from games.engines import get_engine
from games.models import Table
from tests.admin_pages import change_url
from tests.factories import UserFactory
from tests.games.conftest import client_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("moves_unthrottled")]

SECRET_KEYS = {"deck", "seed", "hands"}
GAMES = [
    ("korova", 4, {"end_score": 15}),
    ("conquian", 2, {"target": 1}),
    ("convoy", 4, {}),
]


def keys_in(value) -> list[str]:
    found, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found += list(item)
            stack += list(item.values())
        elif isinstance(item, list):
            stack += item
    return found


def check_answer(body: dict, *, eng, state, seat: int, game: str) -> None:
    keys = keys_in(body)
    assert not SECRET_KEYS & set(keys), SECRET_KEYS & set(keys)
    assert keys.count("hand") == 1
    assert body["seat"] == seat
    assert body["view"] == eng.view(state, seat)
    if game == "conquian":  # each card exists once: another hand's card must not show at all
        text = json.dumps(body)
        other = eng.view(state, 1 - seat)["hand"]
        assert not [card for card in other if f'"{card}"' in text]


def check_log(log: list[dict], *, table: Table, seat: int) -> None:
    for entry in log:
        assert set(entry) == {"turn", "seat", "move", "timeout", "at"}
        hidden = (
            table.status == Table.Status.PLAYING
            and entry["turn"] == table.turn
            and entry["seat"] != seat
        )
        assert (entry["move"] is None) == hidden, (entry, table.turn, seat)


def check_admin_page(admin, *, table: Table, spectator_log: list[dict]) -> None:
    answer = admin.get(change_url(table))
    assert answer.status_code == 200
    page = answer.content.decode()
    assert str(table.seed) not in page and "hands" not in page
    shown = re.findall(r'<td class="field-\w*move">\s*<p>(.*?)</p>', page)
    assert [html.unescape(move) for move in shown] == [
        "hidden while its turn is open" if entry["move"] is None else json.dumps(entry["move"])
        for entry in spectator_log
    ]


def choose(moves: list[dict], rng: random.Random) -> dict:
    melds = [move for move in moves if "meld" in move]  # Conquian: meld to finish deals
    return rng.choice(melds or moves)


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_no_seat_ever_sees_another_seats_hand(game, players, options, caplog, client, superuser):
    admin = client  # the admin's pages are read by a superuser's session of their own
    caplog.set_level(logging.DEBUG)
    rng = random.Random(f"{game}-hidden")
    users = [UserFactory() for _ in range(players)]
    clients = [client_for(user) for user in users]
    created = (
        clients[0]
        .post("/api/tables/", {"game": game, "players": players, "options": options}, format="json")
        .json()
    )
    table_id = created["id"]
    for joining in clients[1:]:
        assert joining.post(f"/api/tables/{table_id}/join/").status_code == 200
    by_seat = {
        seat.seat: clients[users.index(seat.user)]
        for seat in Table.objects.get(pk=table_id).seats.all()
    }
    admin.force_login(superuser)
    spectator = APIClient()
    eng = get_engine(game)
    moves = 0
    while True:
        table = Table.objects.get(pk=table_id)
        state = eng.load(table.state)
        for seat, player in by_seat.items():
            check_answer(
                player.get(f"/api/tables/{table_id}/").json(),
                eng=eng, state=state, seat=seat, game=game,
            )  # fmt: skip
        reader = moves % players
        check_log(by_seat[reader].get(f"/api/tables/{table_id}/log/").json(), table=table,
                  seat=reader)  # fmt: skip
        spectator_log = spectator.get(f"/api/tables/{table_id}/log/").json()
        check_log(spectator_log, table=table, seat=None)
        if eng.is_over(state) or any(entry["move"] is None for entry in spectator_log):
            check_admin_page(admin, table=table, spectator_log=spectator_log)
        if eng.is_over(state):
            break
        seat = eng.to_act(state)[0]
        move = choose(eng.legal_moves(state, seat), rng)
        answer = by_seat[seat].post(
            f"/api/tables/{table_id}/moves/", {"turn": table.turn, "move": move}, format="json"
        )
        assert answer.status_code == 200, answer.content
        after = Table.objects.get(pk=table_id)
        check_answer(answer.json(), eng=eng, state=eng.load(after.state), seat=seat, game=game)
        moves += 1
    final_log = by_seat[0].get(f"/api/tables/{table_id}/log/").json()
    assert len(final_log) == moves and all(entry["move"] is not None for entry in final_log)
    assert by_seat[0].get(f"/api/tables/{table_id}/").json()["outcome"]["winners"] is not None
    logged = " ".join(record.getMessage() for record in caplog.records).lower()
    assert not [word for word in SECRET_KEYS | {"hand"} if f'"{word}"' in logged]
