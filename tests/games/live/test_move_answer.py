"""A move's answer through the page's form: the ETag it carries labels the very table it
draws, even when the table moved on between the move's commit and the answer."""

import json
import re
from html import unescape

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.live import polls, selectors, services
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def shown_turn(html: str) -> int:
    return int(re.search(r'data-turn="(\d+)"', html)[1])  # type: ignore[index]


def shown_etag(html: str) -> str:
    return unescape(re.search(r'data-etag="([^"]+)"', html)[1])  # type: ignore[index]


def test_an_answer_after_the_other_seat_moved_on_draws_the_table_its_etag_names(monkeypatch):
    ada = UserFactory(username="ada", first_name="Ada")
    bea = UserFactory(username="bea", first_name="Bea")
    table = services.table_create(
        game="korova", players=2, options={"turn_seconds": 600}, bots=[], by=ada
    )
    services.table_join(table_id=table.pk, by=bea)
    first_move = services.table_move

    def bea_picks_at_once(*, table_id, turn, move, by):
        """Ada's pick commits, then Bea's (as a bot's could) before Ada's answer is drawn."""
        moved = first_move(table_id=table_id, turn=turn, move=move, by=by)
        (bea_move, *_) = selectors.table_moves_for_viewer(table_id=table_id, user=bea)
        first_move(table_id=table_id, turn=turn, move=bea_move, by=bea)
        return moved  # the table as Ada's move left it: turn 1, Bea still to pick

    monkeypatch.setattr(services, "table_move", bea_picks_at_once)
    client = logged_in(ada)
    (ada_move, *_) = selectors.table_moves_for_viewer(table_id=table.pk, user=ada)
    answer = client.post(
        reverse("table-move", args=[table.pk]),
        {"turn": 1, "move": json.dumps(ada_move)},
        **HTMX,
    )

    assert answer.status_code == 200
    html = answer.content.decode()
    # Both picks are in: the turn revealed, and the answer shows turn 2 ...
    assert shown_turn(html) == 2
    # ... under the ETag of the table now, which a fetch then confirms unchanged.
    viewer = client.cookies[settings.SESSION_COOKIE_NAME].value
    etag = polls.table_etag(table_id=table.pk, viewer=viewer)
    assert shown_etag(html) == etag
    fetched = client.get(reverse("table-detail", args=[table.pk]), HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert fetched.status_code == 304


def test_an_answer_draws_the_table_the_move_left_when_nothing_came_after_it():
    ada = UserFactory(username="ada", first_name="Ada")
    bea = UserFactory(username="bea", first_name="Bea")
    table = services.table_create(
        game="korova", players=2, options={"turn_seconds": 600}, bots=[], by=ada
    )
    services.table_join(table_id=table.pk, by=bea)
    client = logged_in(ada)
    (ada_move, *_) = selectors.table_moves_for_viewer(table_id=table.pk, user=ada)
    answer = client.post(
        reverse("table-move", args=[table.pk]),
        {"turn": 1, "move": json.dumps(ada_move)},
        **HTMX,
    )
    html = answer.content.decode()
    assert shown_turn(html) == 1 and "has picked" in html  # Ada's pick, hidden, Bea to pick
    viewer = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert shown_etag(html) == polls.table_etag(table_id=table.pk, viewer=viewer)
