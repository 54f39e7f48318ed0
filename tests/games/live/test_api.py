"""The live-table API at the paths of docs/contracts.md: shapes, status codes, and nothing
changed on refusal."""

import datetime
import re

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Table, TableMove
from leagues.models import Game
from tests.games.conftest import client_for
from tests.games.live.test_fixture_tables import fixture_players, league_fixture

pytestmark = pytest.mark.django_db

ISO_MS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def create(client, **body):
    response = client.post("/api/tables/", {"game": "korova", "players": 4, **body}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def snapshot(table_id):
    table = Table.objects.get(pk=table_id)
    return table.state, table.turn, table.deadline, table.status, TableMove.objects.count()


def test_a_table_has_the_fields_of_the_design(players):
    (ada, client), *_ = players
    table = create(client, options={"turn_seconds": 20}, bots=[1, 2, 3])
    assert set(table) >= {"id", "game", "status", "turn", "deadline", "turn_seconds", "seats",
                          "seat", "to_act", "view", "outcome", "fixture"}  # fmt: skip
    assert table["game"] == "korova" and table["status"] == "playing"
    assert table["turn"] == 1 and table["turn_seconds"] == 20 and table["seat"] == 0
    assert ISO_MS.match(table["deadline"])
    assert table["seats"][0] == {"seat": 0, "name": "Ada", "bot": False, "bank": 0.0, "away": 0,
                                 "pause_asked": False, "claimed_by": None}  # fmt: skip
    assert all(seat["bot"] and "bot" in seat["name"] for seat in table["seats"][1:])
    assert table["to_act"] == [0, 1, 2, 3]
    assert len(table["view"]["hand"]) == 10
    assert table["outcome"] is None and table["fixture"] is None


def test_join_gives_the_next_seat_and_the_last_join_starts_the_game(players):
    (_, ada), (_, bo), (_, cal), _ = players
    table = create(ada, bots=[3])
    assert table["status"] == "waiting" and table["deadline"] is None and table["view"] is None
    joined = bo.post(f"/api/tables/{table['id']}/join/")
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    assert joined.json()["status"] == "waiting"
    assert joined.json()["seats"][2]["name"] is None  # open
    assert not joined.json()["seats"][2]["bot"]
    last = cal.post(f"/api/tables/{table['id']}/join/").json()
    assert last["seat"] == 2 and last["status"] == "playing" and last["turn"] == 1


def test_a_full_table_refuses_another_join_with_409(players):
    (_, ada), (_, bo), *_ = players
    table = create(ada, bots=[1, 2, 3])
    response = bo.post(f"/api/tables/{table['id']}/join/")
    assert response.status_code == 409 and "detail" in response.json()


def test_someone_not_seated_gets_a_spectators_view(players):
    (_, ada), (_, bo), *_ = players
    table = create(ada, bots=[1, 2, 3])
    seen = bo.get(f"/api/tables/{table['id']}/").json()
    assert seen["seat"] is None and "hand" not in seen["view"]
    anonymous = APIClient().get(f"/api/tables/{table['id']}/").json()
    assert anonymous["seat"] is None and "hand" not in anonymous["view"]


def test_a_move_answers_with_the_table_after_it(players):
    (_, ada), *_ = players
    table = create(ada, bots=[1, 2, 3])
    card = table["view"]["hand"][0]
    response = ada.post(
        f"/api/tables/{table['id']}/moves/", {"turn": 1, "move": {"card": card}}, format="json"
    )
    assert response.status_code == 200
    after = response.json()
    assert after["turn"] == 1 and after["to_act"] == [1, 2, 3]
    assert card not in after["view"]["hand"] and after["view"]["my_pick"] == card


def test_the_same_move_posted_twice_is_one_move_and_one_409(players):
    (_, ada), *_ = players
    table = create(ada, bots=[1, 2, 3])
    body = {"turn": 1, "move": {"card": table["view"]["hand"][0]}}
    first = ada.post(f"/api/tables/{table['id']}/moves/", body, format="json")
    second = ada.post(f"/api/tables/{table['id']}/moves/", body, format="json")
    assert (first.status_code, second.status_code) == (200, 409)
    assert second.json()["turn"] == 1 and second.json()["detail"]
    assert TableMove.objects.count() == 1


@pytest.mark.parametrize(
    ("who", "body", "code"),
    [
        ("other", {"turn": 1, "move": {"card": "own"}}, 403),  # holds no seat here
        ("other", {"turn": "one", "move": 5}, 403),  # permission before anything else
        ("seated_not_to_act", {"turn": 1, "move": {"row": 0}}, 403),
        ("ada", {"turn": 1, "move": {"card": 105}}, 400),
        ("ada", {"turn": 1, "move": {"take": "everything"}}, 400),
        ("ada", {"turn": 1, "move": [55]}, 400),
        ("ada", {"turn": 1, "move": 5}, 400),
        ("ada", {"turn": 1, "move": "reject"}, 400),
        ("ada", {"turn": 1, "move": None}, 400),
        ("ada", {"turn": 1}, 400),
        ("ada", {"turn": 2, "move": {"card": "own"}}, 409),
        ("ada", {"turn": 0, "move": {"card": "own"}}, 409),
        ("ada", {"turn": -1, "move": {"card": "own"}}, 409),
        ("ada", {"turn": "one", "move": {"card": "own"}}, 409),
        ("ada", {"turn": "1", "move": {"card": "own"}}, 409),
        ("ada", {"turn": 1.0, "move": {"card": "own"}}, 409),
        ("ada", {"turn": True, "move": {"card": "own"}}, 409),
        ("ada", {"turn": [1], "move": {"card": "own"}}, 409),
        ("ada", {"move": {"card": "own"}}, 409),
        ("ada", [1, {"reject": True}], 409),
        ("anonymous", {"turn": 1, "move": {"card": "own"}}, 401),
    ],
)
def test_move_refusals_change_nothing(players, who, body, code):
    """The three refusals of a move in docs/contracts.md, with their bodies: 403 when you hold
    no seat that is to act, 409 with the current turn when `turn` is anything but it (checked
    first), then 400 with the engine's sentence for whatever `move` holds."""
    (_, ada), (_, bo), (_, cal), _ = players
    table = create(ada, game="conquian", players=2)
    bo.post(f"/api/tables/{table['id']}/join/")
    table = ada.get(f"/api/tables/{table['id']}/").json()
    seat_to_act = table["to_act"][0]
    clients = {"ada": ada if seat_to_act == 0 else bo, "other": cal, "anonymous": APIClient(),
               "seated_not_to_act": bo if seat_to_act == 0 else ada}  # fmt: skip
    client = clients[who]
    if isinstance(body, dict) and isinstance(body.get("move"), dict) and "card" in body["move"]:
        if body["move"]["card"] == "own":
            body = {**body, "move": {"reject": True}}
    before = snapshot(table["id"])
    response = client.post(f"/api/tables/{table['id']}/moves/", body, format="json")
    assert response.status_code == code, response.content
    answer = response.json()
    assert set(answer) == ({"detail", "turn"} if code == 409 else {"detail"}), answer
    assert isinstance(answer["detail"], str) and answer["detail"]
    if code == 409:
        assert answer["turn"] == 1
    assert snapshot(table["id"]) == before


def test_a_move_left_out_is_refused_with_a_sentence_naming_the_field(players):
    (_, ada), *_ = players
    table = create(ada, bots=[1, 2, 3])
    response = ada.post(f"/api/tables/{table['id']}/moves/", {"turn": 1}, format="json")
    assert response.status_code == 400
    assert '"move"' in response.json()["detail"]


def test_an_illegal_move_gets_the_engines_sentence(players):
    (_, ada), *_ = players
    table = create(ada, bots=[1, 2, 3])
    response = ada.post(
        f"/api/tables/{table['id']}/moves/", {"turn": 1, "move": {"card": 105}}, format="json"
    )
    assert response.status_code == 400
    assert set(response.json()) == {"detail"} and len(response.json()["detail"]) > 10


def test_a_move_after_the_deadline_is_409_and_the_turn_expired(players):
    (_, ada), *_ = players
    table = create(ada, bots=[1, 2, 3])
    Table.objects.filter(pk=table["id"]).update(
        deadline=timezone.now() - datetime.timedelta(milliseconds=1)
    )
    response = ada.post(
        f"/api/tables/{table['id']}/moves/",
        {"turn": 1, "move": {"card": table["view"]["hand"][-1]}},
        format="json",
    )
    assert response.status_code == 409 and response.json()["turn"] == 2
    assert TableMove.objects.filter(timeout=True).count() == 4


def test_reading_never_shows_an_overdue_turn_as_open(players):
    (_, ada), *_ = players
    table = create(ada, bots=[1, 2, 3])
    Table.objects.filter(pk=table["id"]).update(deadline=timezone.now())
    seen = ada.get(f"/api/tables/{table['id']}/").json()
    assert seen["turn"] == 2
    assert datetime.datetime.fromisoformat(seen["deadline"]) > timezone.now()


def test_the_log_hides_other_seats_picks_until_they_are_revealed(players):
    (_, ada), (_, bo), (_, cal), (_, dee) = players
    table = create(ada)
    for client in (bo, cal, dee):
        client.post(f"/api/tables/{table['id']}/join/")
    hands = {c: c.get(f"/api/tables/{table['id']}/").json()["view"]["hand"] for c in (ada, bo)}
    for client in (ada, bo):
        body = {"turn": 1, "move": {"card": hands[client][0]}}
        assert (
            client.post(f"/api/tables/{table['id']}/moves/", body, format="json").status_code == 200
        )
    log = ada.get(f"/api/tables/{table['id']}/log/").json()
    assert [(e["seat"], e["move"]) for e in log] == [(0, {"card": hands[ada][0]}), (1, None)]
    assert all(e["timeout"] is False and ISO_MS.match(e["at"]) for e in log)
    spectator = APIClient().get(f"/api/tables/{table['id']}/log/").json()
    assert [e["move"] for e in spectator] == [None, None]
    for client in (cal, dee):
        card = client.get(f"/api/tables/{table['id']}/").json()["view"]["hand"][0]
        body = {"turn": 1, "move": {"card": card}}
        assert (
            client.post(f"/api/tables/{table['id']}/moves/", body, format="json").status_code == 200
        )
    revealed = APIClient().get(f"/api/tables/{table['id']}/log/").json()
    assert all(e["move"] is not None for e in revealed) and len(revealed) == 4


def is_flat(errors: dict) -> bool:
    """{field: [sentence, …]}: the field errors' shape everywhere in the API (docs/api.md)."""
    return all(
        isinstance(problems, list) and problems and all(isinstance(p, str) for p in problems)
        for problems in errors.values()
    )


def test_create_refusals_name_the_field_in_one_flat_shape(players):
    (_, ada), *_ = players
    for body, field in [
        ({"game": "chess", "players": 2}, "game"),
        ({"game": "korova", "players": 4, "options": {"turn_seconds": 1}}, "options.turn_seconds"),
        (
            {"game": "korova", "players": 4, "options": {"turn_seconds": "30"}},
            "options.turn_seconds",
        ),
        ({"game": "korova", "players": 4, "options": {"edition": "x"}}, "options"),
        ({"game": "korova", "players": 4, "options": "fast"}, "options"),
        ({"game": "korova", "players": 4, "bots": [7]}, "bots"),
        ({"game": "korova", "players": 4, "bots": [0]}, "bots"),
        ({"game": "korova", "players": 4, "bots": ["x", None]}, "bots"),
        ({"game": "korova", "players": 4, "bots": 3}, "bots"),
        ({"game": "conquian", "players": 4}, "players"),
        ({"game": "korova"}, "players"),
        ({"game": "korova", "players": "many"}, "players"),
    ]:
        response = ada.post("/api/tables/", body, format="json")
        assert response.status_code == 400 and field in response.json(), (body, response.json())
        assert is_flat(response.json()), (body, response.json())
    assert APIClient().post("/api/tables/", {}, format="json").status_code == 401
    assert not Table.objects.exists()


def test_unknown_tables_are_404(players):
    (_, ada), *_ = players
    for response in [
        ada.get("/api/tables/999/"),
        ada.get("/api/tables/999/log/"),
        ada.post("/api/tables/999/join/"),
        ada.post("/api/tables/999/moves/", {"turn": 1, "move": {}}, format="json"),
    ]:
        assert response.status_code == 404 and response.json()["detail"]


# ---- Floods: throttles and the cap on waiting tables ---------------------------------------


def test_starting_tables_is_throttled_per_user_with_retry_after(players):
    (_, ada), (_, bo), *_ = players
    # Refused requests count too: a flood of bad ones is a flood. The rate is 30 an hour.
    codes = [ada.post("/api/tables/", {"game": "chess"}, format="json").status_code
             for _ in range(30)]  # fmt: skip
    throttled = ada.post("/api/tables/", {"game": "korova", "players": 4}, format="json")
    assert codes == [400] * 30
    assert throttled.status_code == 429 and int(throttled["Retry-After"]) > 0
    assert throttled.json()["detail"]
    assert not Table.objects.exists()
    assert create(bo)["seats"][0]["name"] == "Bo"  # someone else's allowance is their own


def test_moves_are_throttled_per_user_with_retry_after(players):
    (_, ada), (_, bo), *_ = players
    table = create(ada, bots=[1, 2, 3])
    seen = snapshot(table["id"])
    stale = {"turn": 99, "move": {"card": 1}}
    codes = [ada.post(f"/api/tables/{table['id']}/moves/", stale, format="json").status_code
             for _ in range(120)]  # fmt: skip
    throttled = ada.post(f"/api/tables/{table['id']}/moves/", stale, format="json")
    assert codes == [409] * 120  # 120 a minute: two a second for a whole minute
    assert throttled.status_code == 429 and int(throttled["Retry-After"]) > 0
    assert throttled.json()["detail"]
    assert snapshot(table["id"]) == seen
    # Bo is not held back by Ada's moves.
    assert bo.post(f"/api/tables/{table['id']}/moves/", stale, format="json").status_code == 403


def test_a_fourth_waiting_table_is_refused_with_409_and_a_sentence(players):
    (_, ada), (_, bo), *_ = players
    waiting = [create(ada, bots=[1]) for _ in range(3)]
    refused = ada.post("/api/tables/", {"game": "korova", "players": 4}, format="json")
    assert refused.status_code == 409
    assert "3 tables waiting for players" in refused.json()["detail"]
    assert Table.objects.count() == 3
    # A table with bots in every other seat starts at once: it waits for no one.
    assert create(ada, bots=[1, 2, 3])["status"] == "playing"
    # Once a waiting table fills, there is room for another.
    assert bo.post(f"/api/tables/{waiting[0]['id']}/join/").status_code == 200
    cy = players[2][1]
    assert cy.post(f"/api/tables/{waiting[0]['id']}/join/").status_code == 200
    assert create(ada, bots=[1])["status"] == "waiting"


@pytest.mark.parametrize("players_sent", [4.0, "4.0", "٤", "４", True])
def test_players_is_a_whole_number_in_ascii_digits(players, players_sent):
    (_, ada), *_ = players
    response = ada.post("/api/tables/", {"game": "korova", "players": players_sent}, format="json")
    assert response.status_code == 400 and "players" in response.json(), response.json()
    assert not Table.objects.exists()


# ---- Closing a waiting casual table ---------------------------------------------------------


def test_the_creator_closes_a_waiting_table_with_204_and_can_open_a_fourth(players):
    (_, ada), (_, bo), *_ = players
    waiting = [create(ada, bots=[1]) for _ in range(3)]
    assert bo.post(f"/api/tables/{waiting[0]['id']}/join/").status_code == 200
    closed = ada.post(f"/api/tables/{waiting[0]['id']}/cancel/")
    assert closed.status_code == 204 and not closed.content
    assert ada.get(f"/api/tables/{waiting[0]['id']}/").status_code == 404
    assert create(ada, bots=[1])["status"] == "waiting"
    assert Table.objects.count() == 3


def test_someone_else_cannot_close_a_table_and_nothing_changes(players):
    (_, ada), (_, bo), (_, cal), _ = players
    table = create(ada, bots=[1])
    bo.post(f"/api/tables/{table['id']}/join/")
    seen = ada.get(f"/api/tables/{table['id']}/").json()
    for someone_else in (bo, cal):  # seated or not
        refused = someone_else.post(f"/api/tables/{table['id']}/cancel/")
        assert refused.status_code == 403 and refused.json()["detail"]
    assert ada.get(f"/api/tables/{table['id']}/").json() == seen


def test_a_begun_table_cannot_be_closed_409(players):
    (_, ada), *_ = players
    table = create(ada, bots=[1, 2, 3])
    seen = snapshot(table["id"])
    refused = ada.post(f"/api/tables/{table['id']}/cancel/")
    assert refused.status_code == 409 and "begun" in refused.json()["detail"]
    assert snapshot(table["id"]) == seen


def test_a_fixture_table_cannot_be_closed_403():
    fixture = league_fixture(Game.KOROVA)
    starter = fixture_players(fixture)[0].user
    client = client_for(starter)
    (table,) = client.post(f"/api/fixtures/{fixture.pk}/tables/").json()
    refused = client.post(f"/api/tables/{table['id']}/cancel/")
    assert refused.status_code == 403 and "fixture" in refused.json()["detail"]
    assert Table.objects.filter(pk=table["id"], status=Table.Status.WAITING).exists()


def test_closing_needs_a_login_and_a_table(players):
    (_, ada), *_ = players
    table = create(ada, bots=[1])
    assert APIClient().post(f"/api/tables/{table['id']}/cancel/").status_code == 401
    assert ada.post("/api/tables/999/cancel/").status_code == 404
    assert Table.objects.filter(pk=table["id"]).exists()
