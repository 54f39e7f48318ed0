"""A table page's fetch that finds nothing new is answered before any session, user or
template work: one query (the table's version), none of the session's or the user's, and the
ETag is the same one the view gives. It names its viewer: another person's cookie with the
same ETag is read in full, as is everyone's after a move."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import UserFactory
from tests.games.live.test_views import HTMX, full_table, legal, logged_in, post_move

pytestmark = pytest.mark.django_db


@pytest.fixture
def users():
    return [UserFactory(username=f"p{n}", first_name=f"Player{n}") for n in range(5)]


def test_an_unchanged_fetch_costs_one_query_and_no_session(users, django_assert_num_queries):
    table = full_table(users)
    watcher = logged_in(users[1])
    url = reverse("table-detail", args=[table.pk])
    etag = watcher.get(url, **HTMX)["ETag"]
    with django_assert_num_queries(1) as queries:
        unchanged = watcher.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert "games_table" in queries.captured_queries[0]["sql"]
    assert unchanged.status_code == 304 and unchanged["ETag"] == etag
    assert unchanged["Cache-Control"] == "no-store"


def test_an_etag_is_its_viewers_own(users):
    table = full_table(users)
    url = reverse("table-detail", args=[table.pk])
    etag = logged_in(users[1]).get(url, **HTMX)["ETag"]
    other = logged_in(users[2]).get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert other.status_code == 200 and other["ETag"] != etag


def test_after_a_move_the_old_etag_reads_the_table_in_full(users):
    """...and its version once: the ETag the middleware found new is the view's too."""
    table = full_table(users)
    watcher = logged_in(users[1])
    url = reverse("table-detail", args=[table.pk])
    etag = watcher.get(url, **HTMX)["ETag"]
    post_move(logged_in(users[0]), table, legal(table, 0)[0])
    with CaptureQueriesContext(connection) as queries:
        changed = watcher.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    versions = [query for query in queries.captured_queries if "log_entries" in query["sql"]]
    assert len(versions) == 1
    assert changed.status_code == 200 and "has picked" in changed.content.decode()
    assert changed["ETag"] == watcher.get(url, **HTMX)["ETag"] != etag


def test_a_fetch_of_a_table_that_is_gone_is_the_views_404(users):
    response = logged_in(users[1]).get(
        reverse("table-detail", args=[987654]), HTTP_IF_NONE_MATCH='"x"', **HTMX
    )
    assert response.status_code == 404
