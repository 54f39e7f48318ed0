"""Live play in Russian and Finnish: the lobby's counts with their plural forms, a table's
turn line and log entries as whole sentences, and the refusals of the pages and of the API."""

import json

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from rest_framework.test import APIClient

from config.game_words import refusal_text
from games.engines import IllegalMove, get_engine
from games.live import services
from games.models import Table
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def users():
    return [UserFactory(username=f"p{n}", first_name=f"Player{n}") for n in range(4)]


def speaking(user, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def conquian_for_two(users) -> Table:
    table = services.table_create(game="conquian", players=2, options={}, bots=[], by=users[0])
    services.table_join(table_id=table.pk, by=users[1])
    table.refresh_from_db()
    return table


def play_one(table: Table, users) -> int:
    """The seat to act plays its first legal move; returns that seat."""
    eng = get_engine("conquian")
    assert table.state is not None
    state = eng.load(table.state)
    (seat,) = eng.to_act(state)
    player = table.seats.get(seat=seat).user
    assert player is not None, "both seats are people's"
    services.table_move(
        table_id=table.pk, turn=table.turn, move=eng.legal_moves(state, seat)[0], by=player
    )
    table.refresh_from_db()
    return seat


@pytest.mark.parametrize(
    ("language", "free", "clock"),
    [("ru", "свободно 3 места", "30 с на ход"), ("fi", "3 paikkaa vapaana", "30 s vuoro")],
)
def test_the_lobby_counts_in_the_page_language(users, language, free, clock):
    services.table_create(
        game="korova", players=5, options={"turn_seconds": 30}, bots=[4], by=users[0]
    )
    html = speaking(users[1], language).get(reverse("table-lobby")).content.decode()
    assert f'<html lang="{language}"' in html
    open_tables = html.split('id="open-tables"')[1].split("</ul>")[0]
    assert free in open_tables and clock in open_tables


@pytest.mark.parametrize(
    ("language", "mine", "theirs", "turn_line"),
    [
        ("ru", "<strong>Вы</strong> ", "<strong>Player{seat}</strong>: ", "Ваш ход."),
        ("fi", "<strong>Sinä</strong> ", "<strong>Player{seat}</strong> ", "Sinun vuorosi."),
    ],
)
def test_a_table_tells_its_moves_in_whole_sentences(users, language, mine, theirs, turn_line):
    table = conquian_for_two(users)
    seat = play_one(table, users)
    by_seat = {s.seat: s.user for s in table.seats.all()}
    url = reverse("table-detail", args=[table.pk])
    own = speaking(by_seat[seat], language).get(url).content.decode()
    other = speaking(by_seat[1 - seat], language).get(url).content.decode()
    assert mine in own.split('id="recent-title"')[1]
    assert theirs.format(seat=seat) in other.split('id="recent-title"')[1]
    eng = get_engine("conquian")
    (to_act,) = eng.to_act(eng.load(table.state))
    page = own if to_act == seat else other
    assert f'<p class="turn-line" role="status">{turn_line}</p>' in page


def test_a_stale_move_is_refused_in_the_page_language_and_in_the_api(users):
    table = conquian_for_two(users)
    eng = get_engine("conquian")
    state = eng.load(table.state)
    (seat,) = eng.to_act(state)
    mover = table.seats.get(seat=seat).user
    move = eng.legal_moves(state, seat)[0]
    page = speaking(mover, "fi").post(
        reverse("table-move", args=[table.pk]),
        {"turn": table.turn + 5, "move": json.dumps(move)},
        **HTMX,
    )
    assert page.status_code == 409
    assert "Peli eteni ennen kuin siirtosi ehti perille" in page.content.decode()

    api = APIClient(HTTP_ACCEPT_LANGUAGE="ru")
    api.force_authenticate(mover)
    refused = api.post(
        f"/api/tables/{table.pk}/moves/", {"turn": table.turn + 5, "move": move}, format="json"
    )
    assert refused.status_code == 409
    assert refused.json()["detail"].startswith(f"Этот ход относится к ходу {table.turn + 5}")
    latecomer = APIClient(HTTP_ACCEPT_LANGUAGE="ru")
    latecomer.force_authenticate(users[2])
    full = latecomer.post(f"/api/tables/{table.pk}/join/", format="json")
    assert full.status_code == 409
    assert "нет свободных мест" in full.json()["detail"]


@pytest.mark.parametrize("language", ["ru", "fi"])
def test_an_engine_refusal_reaches_the_page_in_its_language(users, language):
    """The engine says what is wrong in English with its parts; the page says it in the
    player's language (config/game_words.py), and the table is as it was."""
    table = conquian_for_two(users)
    eng = get_engine("conquian")
    state = eng.load(table.state)
    (seat,) = eng.to_act(state)
    mover = table.seats.get(seat=seat).user
    move = {"meld": "nonsense"}
    with pytest.raises(IllegalMove) as refusal:
        eng.apply(state, seat, move)
    with translation.override(language):
        said = refusal_text(refusal.value)
    assert said != str(refusal.value)

    page = speaking(mover, language).post(
        reverse("table-move", args=[table.pk]),
        {"turn": table.turn, "move": json.dumps(move)},
        **HTMX,
    )

    assert page.status_code == 400
    assert escape(said) in page.content.decode()
    assert str(refusal.value) not in page.content.decode()
    assert Table.objects.get(pk=table.pk).turn == table.turn
