"""Finding finished games: the lobby's "Your finished games" and "Finished lately", and a
player's finished live tables on their page, each with a link to its replay."""

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from games.engines import get_engine
from games.live import services, table_lists
from games.models import Table
from tests.factories import PlayerFactory, UserFactory
from tests.games.live.playing import finished_conquian

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def users():
    return [UserFactory(username=f"f{n}", first_name=f"Finn{n}") for n in range(4)]


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def result_of(table: Table, seat: int) -> str:
    eng = get_engine(table.game)
    assert table.state is not None
    outcome = eng.outcome(eng.load(table.state))
    return "drawn" if outcome["draw"] else "won" if seat in outcome["winners"] else "lost"


def section(html: str, section_id: str) -> str:
    """The markup of the page's <section id=…>."""
    found = re.search(rf'<section[^>]*id="{section_id}".*?</section>', html, re.S)
    assert found, f"no section {section_id}"
    return found.group(0)


def test_a_users_finished_tables_come_newest_first_with_their_result(users):
    first = finished_conquian(users[:2])
    second = finished_conquian([users[2], users[0]])
    services.table_create(game="conquian", players=2, options={}, bots=[], by=users[0])

    rows = table_lists.finished_tables_of_user(user=users[0])

    assert [row["id"] for row in rows] == [second.pk, first.pk]  # the waiting one is not there
    assert rows[0]["seat"] == 1 and rows[0]["others"] == ["Finn2"]
    assert rows[0]["result"] == result_of(second, 1)
    assert rows[1]["seat"] == 0 and rows[1]["result"] == result_of(first, 0)


def test_someone_not_logged_in_has_no_finished_tables_of_their_own(users):
    finished_conquian(users[:2])
    assert table_lists.finished_tables_of_user(user=AnonymousUser()) == []


def test_finished_lately_lists_others_tables_without_a_result_for_the_viewer(users):
    mine = finished_conquian(users[:2])
    theirs = finished_conquian(users[2:4])

    rows = table_lists.finished_tables_recent(user=users[0])

    assert [row["id"] for row in rows] == [theirs.pk]  # their own is under "Your finished games"
    assert rows[0]["result"] is None and rows[0]["names"] == ["Finn2", "Finn3"]
    everyone = table_lists.finished_tables_recent(user=AnonymousUser())
    assert [row["id"] for row in everyone] == [theirs.pk, mine.pk]


def test_the_lists_keep_to_their_limit(users, monkeypatch):
    monkeypatch.setattr(table_lists, "FINISHED_LIST_SIZE", 2)
    tables = [finished_conquian(users[:2]) for _ in range(3)]
    assert [row["id"] for row in table_lists.finished_tables_of_user(user=users[0])] == [
        tables[2].pk,
        tables[1].pk,
    ]


def test_the_lobby_shows_your_finished_games_with_replay_links(users):
    table = finished_conquian(users[:2])
    html = logged_in(users[0]).get(reverse("table-lobby")).content.decode()
    mine = section(html, "finished-mine")
    assert reverse("table-replay", args=[table.pk]) in mine
    assert f"You {'drew' if result_of(table, 0) == 'drawn' else result_of(table, 0)}" in mine
    assert "Finn1" in mine
    assert "No game has finished yet." in section(html, "finished-recent")


def test_the_lobby_says_when_there_is_no_finished_game(users):
    html = logged_in(users[0]).get(reverse("table-lobby")).content.decode()
    assert "You have not finished a game yet" in section(html, "finished-mine")
    assert "No game has finished yet." in section(html, "finished-recent")
    anonymous = Client().get(reverse("table-lobby")).content.decode()
    assert 'id="finished-mine"' not in anonymous


def test_the_lobby_shows_anyones_finished_games_to_everyone(users):
    table = finished_conquian(users[:2])
    html = Client().get(reverse("table-lobby")).content.decode()
    recent = section(html, "finished-recent")
    assert reverse("table-replay", args=[table.pk]) in recent
    assert "Finn0, Finn1" in recent


def test_a_game_still_being_played_is_not_among_the_finished(users):
    table = services.table_create(game="conquian", players=2, options={}, bots=[], by=users[0])
    services.table_join(table_id=table.pk, by=users[1])
    html = logged_in(users[0]).get(reverse("table-lobby")).content.decode()
    assert reverse("table-replay", args=[table.pk]) not in html
    assert table_lists.finished_tables_recent(user=AnonymousUser()) == []


def test_a_players_page_lists_the_finished_tables_their_user_sat_at(users):
    player = PlayerFactory(name="Finn0", user=users[0])
    table = finished_conquian(users[:2])
    someone_elses = finished_conquian(users[2:4])

    html = Client().get(reverse("player-detail", args=[player.slug])).content.decode()

    listed = section(html, "player-finished-tables")
    assert reverse("table-replay", args=[table.pk]) in listed
    assert reverse("table-replay", args=[someone_elses.pk]) not in listed
    result = result_of(table, 0)
    assert f"Finn0 {'drew' if result == 'drawn' else result}" in listed


def test_a_players_page_without_finished_tables_says_so():
    player = PlayerFactory(name="Nell")
    html = Client().get(reverse("player-detail", args=[player.slug])).content.decode()
    assert "Nell has not finished a live table yet." in html


def test_a_players_fixture_seat_counts_as_theirs_without_a_user(users):
    player = PlayerFactory(name="Ona")
    table = finished_conquian(users[:2])
    table.seats.filter(seat=1).update(player=player, user=None, name="Ona")

    rows = table_lists.finished_tables_of_player(player=player)

    assert [(row["id"], row["seat"]) for row in rows] == [(table.pk, 1)]
    assert rows[0]["result"] == result_of(table, 1)


def test_the_replays_play_button_waits_for_its_script_and_the_steps_are_links(users):
    table = finished_conquian(users[:2])
    html = Client().get(reverse("table-replay", args=[table.pk])).content.decode()
    assert re.search(r'<button type="button" id="replay-play"[^>]* hidden>', html)
    assert re.search(r'<script src="[^"]*games/replay\.js" defer></script>', html)
    assert "<script>" not in html  # no inline script: the site's CSP refuses it
    assert f'href="{reverse("table-replay", args=[table.pk])}?step=1"' in html
