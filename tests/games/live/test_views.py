"""The play pages through the test client: who may do what, polls, refusals, hidden hands."""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.engines import get_engine
from games.engines.cards import card_words
from games.live import services, table_lists
from games.models import Seat, Table, TableMove
from tests.factories import FixtureFactory, StaffMembershipFactory, UserFactory, VenueFactory
from tests.games.live.page_checks import assert_no_other_hands, hands_of
from tests.games.live.playing import finished_conquian

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def users():
    return [UserFactory(username=f"p{n}", first_name=f"Player{n}") for n in range(5)]


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def full_table(users, game="korova", players=4) -> Table:
    table = services.table_create(game=game, players=players, options={}, bots=[], by=users[0])
    for user in users[1:players]:
        services.table_join(table_id=table.pk, by=user)
    table.refresh_from_db()
    return table


def post_move(client, table, move, *, turn=None, htmx=True):
    data = {"turn": table.turn if turn is None else turn, "move": json.dumps(move)}
    return client.post(reverse("table-move", args=[table.pk]), data, **(HTMX if htmx else {}))


def legal(table, seat):
    eng = get_engine(table.game)
    return eng.legal_moves(eng.load(table.state), seat)


def test_the_lobby_lists_open_tables_with_free_seats_and_clock(users):
    services.table_create(
        game="korova", players=4, options={"turn_seconds": 45}, bots=[1], by=users[0]
    )
    response = logged_in(users[1]).get(reverse("table-lobby"))
    assert response.status_code == 200
    open_tables = response.content.decode().split('id="open-tables"')[1].split("</ul>")[0]
    assert (
        "Корова 006" in open_tables
        and "2 seats free" in open_tables
        and "45 s a turn" in open_tables
    )
    assert "Join" in open_tables


def test_anonymous_cannot_start_a_table():
    response = Client().post(
        reverse("table-start"), {"game": "korova", "players": 4, "bots": 3, "turn_seconds": 30}
    )
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Table.objects.exists()


def test_starting_a_table_with_bots_seats_the_starter_and_begins_the_game(users):
    response = logged_in(users[0]).post(
        reverse("table-start"), {"game": "korova", "players": 4, "bots": 3, "turn_seconds": 20}
    )
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "table-detail", args=[table.pk]
    )
    assert table.status == Table.Status.PLAYING and table.turn_seconds == 20
    assert [seat.bot for seat in table.seats.order_by("seat")] == [False, True, True, True]


def test_a_bad_start_form_explains_itself_and_creates_nothing(users):
    client = logged_in(users[0])
    response = client.post(
        reverse("table-start"),
        {"game": "conquian", "players": 5, "bots": 0, "turn_seconds": 30},
        follow=True,
    )
    assert not Table.objects.exists()
    assert "players" in response.content.decode().lower()


def test_joining_takes_the_open_seat(users):
    table = services.table_create(game="conquian", players=2, options={}, bots=[], by=users[0])
    response = logged_in(users[1]).post(reverse("table-join", args=[table.pk]))
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert table.seats.get(seat=1).user == users[1]


def test_a_waiting_table_shows_its_open_seats_and_a_seat_to_take(users):
    table = services.table_create(game="korova", players=4, options={}, bots=[1], by=users[0])
    url = reverse("table-detail", args=[table.pk])
    html = logged_in(users[1]).get(url).content.decode()
    assert "2 seats open" in html and "Take a seat" in html and "Open seat" in html
    assert "Take a seat" not in logged_in(users[0]).get(url).content.decode()


def test_someone_not_seated_cannot_move(users):
    table = full_table(users)
    move = legal(table, 0)[0]
    response = post_move(logged_in(users[4]), table, move)
    assert response.status_code == 403
    assert "no seat" in response.content.decode()
    assert not TableMove.objects.exists()


def test_anonymous_cannot_move(users):
    table = full_table(users)
    response = post_move(Client(), table, legal(table, 0)[0])
    assert response.status_code == 403
    assert not TableMove.objects.exists()


def test_an_illegal_move_shows_the_engines_sentence_next_to_the_hand(users):
    table = full_table(users)
    hand = hands_of(table)["hands"][0]
    missing = next(card for card in range(1, 105) if card not in hand)
    response = post_move(logged_in(users[0]), table, {"card": missing})
    html = response.content.decode()
    assert response.status_code == 400
    error = html.split('id="move-error"')[1].split("</p>")[0]
    assert f"{missing} is not in your hand" in error  # Корова cards are numbers
    assert html.index("data-hand") < html.index('id="move-error"')
    assert not TableMove.objects.exists()


def test_a_move_for_a_past_turn_is_refused_with_409(users):
    table = full_table(users, game="conquian", players=2)
    seat0 = users[0]
    response = post_move(logged_in(seat0), table, legal(table, 0)[0], turn=table.turn + 5)
    assert response.status_code == 409
    assert "moved on" in response.content.decode()
    assert not TableMove.objects.exists()


def test_unreadable_move_is_a_400_not_a_500(users):
    table = full_table(users)
    client = logged_in(users[0])
    url = reverse("table-move", args=[table.pk])
    for data in (
        {"turn": "x", "move": "{}"},
        {"turn": 1, "move": "{nope"},
        {"turn": 1, "move": "[1]"},
        {"turn": 1, "move": "[" * 100_000 + "]" * 100_000},
        {"turn": 1, "move": '{"card": "\\ud800"}'},
        {"turn": 1, "move": '{"card": "\\u0000"}'},
        {"turn": "9" * 5000, "move": "{}"},
    ):
        assert client.post(url, data, **HTMX).status_code == 400
    assert not TableMove.objects.exists()


def test_a_move_without_javascript_redirects_back_to_the_table(users):
    table = full_table(users)
    response = post_move(logged_in(users[0]), table, legal(table, 0)[0], htmx=False)
    assert response.status_code == 302 and response["Location"] == reverse(
        "table-detail", args=[table.pk]
    )
    assert TableMove.objects.count() == 1


def test_a_poll_answers_304_while_nothing_changed_and_the_new_table_after_a_move(users):
    table = full_table(users)
    watcher = logged_in(users[1])
    url = reverse("table-detail", args=[table.pk])
    first = watcher.get(url, **HTMX)
    etag = first["ETag"]
    assert first.status_code == 200 and etag
    unchanged = watcher.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert unchanged.status_code == 304 and unchanged.content == b""
    post_move(logged_in(users[0]), table, legal(table, 0)[0])  # a hidden pick: seat 0 has picked
    changed = watcher.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert "has picked" in changed.content.decode()


def test_the_page_reads_without_javascript(users):
    table = full_table(users, game="conquian", players=2)
    response = logged_in(users[0]).get(reverse("table-detail", args=[table.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Your hand" in html and "Time left" in html
    # with the script, changes come through the table's event stream
    assert f'data-events="{reverse("table-events", args=[table.pk])}"' in html
    assert 'hx-trigger="table-changed"' in html


@pytest.mark.parametrize(("game", "players"), [("korova", 4), ("conquian", 2), ("convoy", 4)])
def test_a_seats_page_holds_no_card_of_another_hand(users, game, players):
    table = full_table(users, game=game, players=players)
    hands = hands_of(table)
    for seat in range(players):
        html = logged_in(users[seat]).get(reverse("table-detail", args=[table.pk])).content.decode()
        assert_no_other_hands(html, game=game, hands=hands, seat=seat)
    spectator = logged_in(users[4]).get(reverse("table-detail", args=[table.pk])).content.decode()
    assert_no_other_hands(spectator, game=game, hands=hands, seat=None)
    assert "Your hand" not in spectator


def test_the_replay_waits_for_the_end_of_the_game(users):
    table = full_table(users, game="conquian", players=2)
    assert Client().get(reverse("table-replay", args=[table.pk])).status_code == 404


def test_a_finished_game_replays_step_by_step_with_every_hand(users):
    table = finished_conquian(users)
    steps = TableMove.objects.filter(table=table).count()
    url = reverse("table-replay", args=[table.pk])
    start = Client().get(url).content.decode()
    assert "Every hand" in start and "before the first move" in start
    middle = Client().get(url, {"step": 1}).content.decode()
    assert f"Move 1 of {steps}" in middle
    end = Client().get(url, {"step": 10_000}, **HTMX).content.decode()
    assert f"Move {steps} of {steps}" in end and "<html" not in end


def test_the_fixture_page_links_to_its_live_tables(users):
    fixture = FixtureFactory()
    html = Client().get(reverse("fixture-detail", args=[fixture.pk])).content.decode()
    assert reverse("fixture-tables", args=[fixture.pk]) in html
    tables_page = Client().get(reverse("fixture-tables", args=[fixture.pk]))
    assert tables_page.status_code == 200
    assert "start-fixture-tables" not in tables_page.content.decode()


def test_the_fixture_tables_page_offers_the_start_to_its_players_and_staff_only(users):
    fixture = FixtureFactory()
    player = fixture.home_team.players.first()
    player.user = users[0]
    player.save()
    staff = StaffMembershipFactory(venue=fixture.venue).user
    url = reverse("fixture-tables", args=[fixture.pk])
    for user, offered in ((users[0], True), (staff, True), (users[1], False)):
        html = logged_in(user).get(url).content.decode()
        assert ("start-fixture-tables" in html) is offered, user
    assert "start-fixture-tables" not in Client().get(url).content.decode()


def test_someone_else_cannot_start_a_fixtures_tables(users):
    fixture = FixtureFactory()
    response = logged_in(users[1]).post(reverse("fixture-tables", args=[fixture.pk]), follow=True)
    assert "venue or its players can start" in response.content.decode()
    assert not Table.objects.exists()


def test_the_lobby_shows_games_in_progress_by_venue(users):
    fixture = FixtureFactory(venue=VenueFactory(name="The Plough"))
    table = Table.objects.create(
        game="korova", players=4, options={"turn_seconds": 30}, seed=1, fixture=fixture,
        number=1, status=Table.Status.PLAYING,
    )  # fmt: skip
    Seat.objects.bulk_create(Seat(table=table, seat=n, name=f"Player {n}") for n in range(4))
    casual = full_table(users)
    html = Client().get(reverse("table-lobby")).content.decode()
    playing = html.split('id="playing-title"')[1]
    assert playing.index("The Plough") < playing.index(f"Table {table.pk}")
    assert playing.index("Casual tables") < playing.index(f"Table {casual.pk}")
    assert "Watch" in playing


def test_the_lobby_does_not_say_no_game_is_on_while_your_own_game_is(users):
    table = full_table(users)
    assert table.status == Table.Status.PLAYING
    playing = logged_in(users[0]).get(reverse("table-lobby")).content.decode()
    playing = playing.split('id="playing-title"')[1]
    assert "No game is being played just now" not in playing
    assert "No one else's game is being played just now" in playing
    # to someone sitting at no table, the same game is one to watch
    elsewhere = logged_in(users[4]).get(reverse("table-lobby")).content.decode()
    assert f"Table {table.pk}" in elsewhere.split('id="playing-title"')[1]


def test_the_lobby_says_no_game_is_on_when_none_is(users):
    html = logged_in(users[0]).get(reverse("table-lobby")).content.decode()
    assert "No game is being played just now." in html.split('id="playing-title"')[1]


def test_conquian_tells_the_viewer_of_his_own_moves_as_you_and_others_by_name(users):
    table = full_table(users, game="conquian", players=2)
    eng = get_engine("conquian")
    (seat,) = eng.to_act(eng.load(table.state))
    other = 1 - seat
    url = reverse("table-detail", args=[table.pk])
    mine = logged_in(users[seat]).get(url).content.decode()
    theirs = logged_in(users[other]).get(url).content.decode()
    mine_line = mine.split('class="open-card-area"')[1].split("</p>")[0]
    theirs_line = theirs.split('class="open-card-area"')[1].split("</p>")[0]
    assert re.search(r"You (have|are|were|must) ", mine_line) and f"Player{seat}" not in mine_line
    assert re.search(rf"Player{seat} (has|is|was|must) ", theirs_line) and "You" not in theirs_line

    services.table_move(
        table_id=table.pk, turn=table.turn, move=legal(table, seat)[-1], by=users[seat]
    )
    mine = logged_in(users[seat]).get(url).content.decode()
    theirs = logged_in(users[other]).get(url).content.decode()
    assert "<strong>You</strong>" in mine.split('id="recent-title"')[1]
    assert f"<strong>Player{seat}</strong>" in theirs.split('id="recent-title"')[1]


def test_the_replay_address_names_the_step_it_shows(users):
    table = finished_conquian(users)
    steps = TableMove.objects.filter(table=table).count()
    url = reverse("table-replay", args=[table.pk])
    assert Client().get(url, {"step": 2}, **HTMX)["HX-Push-Url"] == f"{url}?step=2"
    assert Client().get(url, {"step": 10_000}, **HTMX)["HX-Push-Url"] == f"{url}?step={steps}"


def test_an_illegal_convoy_move_names_the_card_in_words(users):
    table = full_table(users, game="convoy", players=2)
    eng = get_engine("convoy")
    state = eng.load(table.state)
    (seat,) = eng.to_act(state)
    missing = next(code for code in ("2C", "3C", "4C") if code not in state["hands"][seat])
    response = post_move(logged_in(users[seat]), table, {"card": missing, "square": [1, 1]})
    error = response.content.decode().split('id="move-error"')[1].split("</p>")[0]
    assert response.status_code == 400
    assert f"the {card_words(missing)} is not in your hand" in error


# ---- Floods and odd digits -----------------------------------------------------------------


def start_form(**fields):
    return {"game": "korova", "players": 4, "bots": 1, "turn_seconds": 30, **fields}


def notices(response) -> str:
    return " ".join(re.findall(r'<p class="notice[^"]*" role="status">([^<]*)</p>',
                               response.content.decode()))  # fmt: skip


def test_the_start_form_shares_the_apis_allowance_and_says_when_to_come_back(users):
    client = logged_in(users[0])
    for _ in range(30):  # the API's rate, 30 an hour, counts the form's posts too
        client.post(reverse("table-start"), start_form(game="chess"))
    response = client.post(reverse("table-start"), start_form(), follow=True)
    assert response.status_code == 200
    assert "try again in" in notices(response)
    assert not Table.objects.exists()
    api = APIClient()
    api.force_authenticate(users[0])
    assert api.post("/api/tables/", {"game": "korova", "players": 4}).status_code == 429


def test_a_fourth_waiting_table_from_the_form_is_refused_with_a_message(users):
    client = logged_in(users[0])
    for _ in range(3):
        client.post(reverse("table-start"), start_form())
    response = client.post(reverse("table-start"), start_form(), follow=True)
    assert "3 tables waiting for players" in notices(response)
    assert Table.objects.count() == 3


def test_the_move_form_is_throttled_with_the_reason_in_the_table(users):
    table = full_table(users)
    client = logged_in(users[0])
    for _ in range(120):
        post_move(client, table, {"card": 1}, turn=99)
    response = post_move(client, table, legal(table, 0)[0])
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    error = response.content.decode().split('id="move-error"')[1].split("</p>")[0]
    assert "try again in" in error
    assert not TableMove.objects.exists()


@pytest.mark.parametrize("turn", ["١", "１", "1.0"])
def test_a_turn_in_other_digits_is_refused_and_changes_nothing(users, turn):
    table = full_table(users, game="conquian", players=2)
    assert table.turn == 1
    response = post_move(logged_in(users[0]), table, legal(table, 0)[0], turn=turn)
    assert response.status_code == 400
    assert "could not be read" in response.content.decode()
    assert not TableMove.objects.exists()
    table.refresh_from_db()
    assert table.turn == 1


def test_the_start_form_refuses_numbers_in_other_digits(users):
    response = logged_in(users[0]).post(
        reverse("table-start"), start_form(players="٤", bots="３"), follow=True
    )
    assert "whole seconds" in notices(response)
    assert not Table.objects.exists()


def test_one_user_with_three_open_tables_cannot_hide_another_users_table(users, monkeypatch):
    # A small lobby, so that three tables would fill it if newest came first.
    monkeypatch.setattr(table_lists, "LOBBY_SIZE", 3)
    theirs = services.table_create(game="korova", players=4, options={}, bots=[], by=users[1])
    flood = [services.table_create(game="korova", players=4, options={}, bots=[], by=users[0])
             for _ in range(3)]  # fmt: skip
    html = logged_in(users[2]).get(reverse("table-lobby")).content.decode()
    open_tables = html.split('id="open-tables"')[1].split("</ul>")[0]
    shown = [int(n) for n in re.findall(r"Table (\d+)</a>", open_tables)]
    # Each creator's newest first, then the flood's older tables.
    assert shown == [flood[2].pk, theirs.pk, flood[1].pk]


# ---- Closing a waiting casual table ---------------------------------------------------------


def test_the_creator_closes_a_waiting_table_from_its_page_back_to_the_lobby(users):
    table = services.table_create(game="korova", players=4, options={}, bots=[1], by=users[0])
    client = logged_in(users[0])
    page = client.get(reverse("table-detail", args=[table.pk])).content.decode()
    assert "Close this table" in page
    assert f'action="{reverse("table-cancel", args=[table.pk])}"' in page
    response = client.post(reverse("table-cancel", args=[table.pk]), follow=True)
    assert response.redirect_chain == [(reverse("table-lobby"), 302)]
    assert f"Table {table.pk} is closed." in notices(response)
    assert not Table.objects.exists()


def test_the_lobby_offers_to_close_only_your_own_waiting_tables(users):
    waiting = services.table_create(game="korova", players=4, options={}, bots=[1], by=users[0])
    playing = services.table_create(game="korova", players=4, options={}, bots=[1, 2, 3],
                                    by=users[0])  # fmt: skip
    cancel_url = reverse("table-cancel", args=[waiting.pk])
    assert cancel_url in logged_in(users[0]).get(reverse("table-lobby")).content.decode()
    assert reverse("table-cancel", args=[playing.pk]) not in (
        logged_in(users[0]).get(reverse("table-lobby")).content.decode()
    )
    assert cancel_url not in logged_in(users[1]).get(reverse("table-lobby")).content.decode()


def test_no_one_else_is_offered_the_close_and_their_post_changes_nothing(users):
    table = services.table_create(game="korova", players=4, options={}, bots=[1], by=users[0])
    services.table_join(table_id=table.pk, by=users[1])
    client = logged_in(users[1])
    assert (
        "Close this table"
        not in client.get(reverse("table-detail", args=[table.pk])).content.decode()
    )
    response = client.post(reverse("table-cancel", args=[table.pk]), follow=True)
    assert response.redirect_chain == [(reverse("table-detail", args=[table.pk]), 302)]
    assert "Only the player who opened this table may close it." in notices(response)
    assert table.seats.filter(user=users[1]).exists()


def test_a_begun_table_offers_no_close_and_refuses_one(users):
    table = full_table(users, game="conquian", players=2)
    client = logged_in(users[0])
    assert (
        "Close this table"
        not in client.get(reverse("table-detail", args=[table.pk])).content.decode()
    )
    response = client.post(reverse("table-cancel", args=[table.pk]), follow=True)
    assert "begun or ended" in notices(response)
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_closing_needs_a_login_csrf_and_a_post(users):
    table = services.table_create(game="korova", players=4, options={}, bots=[1], by=users[0])
    url = reverse("table-cancel", args=[table.pk])
    anonymous = Client().post(url)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(users[0])
    assert forged.post(url).status_code == 403
    assert logged_in(users[0]).get(url).status_code == 405
    assert logged_in(users[0]).post(reverse("table-cancel", args=[999])).status_code == 404
    assert Table.objects.filter(pk=table.pk).exists()
