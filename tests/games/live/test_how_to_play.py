"""The how-to-play pages: one a game, in words with pictures, linked from the lobby, the
table pages and the fixture pages."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.live import services
from tests.api.conftest import build_world
from tests.factories import FixtureFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "game, words",
    [
        ("convoy", ["four squares in a straight line", "square of two by two", "roundel",
                    "One-eyed jacks", "Two-eyed jacks", "Jokers", "dead", "three convoys"]),
        ("korova", ["four rows", "at once", "sixth", "choose a row", "heads", "66 heads"]),
        ("conquian", ["ten cards", "open card", "at least two cards from your hand",
                      "force", "eleven cards", "5 points"]),
    ],
)  # fmt: skip
def test_each_game_has_a_how_to_play_page_in_plain_words(client, game, words):
    response = client.get(reverse("how-to-play", args=[game]))
    assert response.status_code == 200
    html = response.content.decode()
    for word in words:
        assert word in html


def test_convoys_board_shows_a_line_a_square_and_a_roundel_convoy(client):
    html = client.get(reverse("how-to-play", args=["convoy"])).content.decode()
    assert 'class="convoy-board"' in html
    assert html.count("locked in a convoy") == 4 + 4 + 3  # the roundel is never locked
    assert "Row 3, column 3: nine of hearts, red circle counter, locked in a convoy." in html
    assert "Row 6, column 7: three of spades, black square counter, locked in a convoy." in html


def test_korovas_picture_shows_the_sixth_card_taking_the_row(client):
    html = client.get(reverse("how-to-play", args=["korova"])).content.decode()
    assert 'aria-label="Row 1, 5 cards"' in html and 'aria-label="Row 1, 1 card"' in html
    assert "<strong>13 heads</strong>" in html  # 1 + 2 + 5 + 2 + 3


def test_conquians_picture_shows_a_meld_with_the_open_card(client):
    html = client.get(reverse("how-to-play", args=["conquian"])).content.decode()
    assert "Open card" in html and 'aria-label="The new meld"' in html
    assert "six of diamonds" in html and "jack of diamonds" in html


def test_an_unknown_game_has_no_page(client):
    assert client.get("/tables/how-to-play/poker/").status_code == 404


def test_the_lobby_links_to_every_games_page(client):
    html = client.get(reverse("table-lobby")).content.decode()
    for game in ("convoy", "korova", "conquian"):
        assert reverse("how-to-play", args=[game]) in html


def test_a_table_page_links_to_its_games_page(client):
    player = UserFactory()
    table = services.table_create(game="korova", players=2, options={}, bots=[1], by=player)
    client.force_login(player)
    html = client.get(reverse("table-detail", args=[table.pk])).content.decode()
    assert reverse("how-to-play", args=["korova"]) in html


def test_the_fixture_pages_link_to_their_games_page():
    fixture = FixtureFactory()
    game = fixture.season.league.game
    client = Client()
    for url in (reverse("fixture-detail", args=[fixture.pk]),
                reverse("fixture-tables", args=[fixture.pk])):  # fmt: skip
        assert reverse("how-to-play", args=[game]) in client.get(url).content.decode()


def test_the_convoy_fixture_page_no_longer_says_rows_of_five(client):
    world = build_world()
    html = client.get(reverse("fixture-detail", args=[world.convoy_fixture.pk])).content.decode()
    assert "Convoys:" in html
    assert "rows of five" not in html


def test_the_lobby_lists_todays_fixtures_with_their_tables_open_and_the_next_fixture_day(client):
    now = timezone.localtime()
    tonight = FixtureFactory(starts_at=now.replace(hour=20, minute=0, second=0, microsecond=0))
    later = FixtureFactory(starts_at=now + datetime.timedelta(days=5))

    html = client.get(reverse("table-lobby")).content.decode()
    assert reverse("fixture-tables", args=[tonight.pk]) in html and "tables open today" in html
    assert reverse("fixture-tables", args=[later.pk]) not in html
    next_day = timezone.localdate(later.starts_at)
    assert f"The next fixtures are on {next_day:%A} {next_day.day} {next_day:%B}" in html


def test_the_fixture_page_says_when_its_tables_open():
    later = FixtureFactory(starts_at=timezone.now() + datetime.timedelta(days=5))
    today = FixtureFactory(starts_at=timezone.now())
    day = timezone.localdate(later.starts_at)

    html = Client().get(reverse("fixture-detail", args=[later.pk])).content.decode()
    assert f"Its live tables open on {day:%A} {day.day} {day:%B}, the fixture's day." in html
    html = Client().get(reverse("fixture-detail", args=[today.pk])).content.decode()
    assert "Its live tables are open: the fixture's day has come." in html
    past = FixtureFactory(starts_at=timezone.now() - datetime.timedelta(days=3))
    html = Client().get(reverse("fixture-detail", args=[past.pk])).content.decode()
    assert "Its live tables are open" not in html
    assert "and on that day only: the venue's staff can move it to a new date." in html
