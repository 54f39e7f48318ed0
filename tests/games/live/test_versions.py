"""A table's version, read by the compiled one-table query that every page fetch asks, is the
same as the general query's, and moves on with each change a page shows: a join, the deal, a
move. It runs on SQLite as well (bad-input runs), whose datetimes come back as text."""

import datetime

import pytest

from games.live import services
from games.live.versions import table_version, table_versions
from games.models import Table
from tests.factories import UserFactory
from tests.games.live.test_push import play_a_card

pytestmark = pytest.mark.django_db


def test_one_tables_version_matches_the_general_query_through_a_game_start_and_a_move():
    ada, bea = UserFactory(username="ada"), UserFactory(username="bea")
    table = services.table_create(game="korova", players=2, options={}, bots=[], by=ada)
    seen = [table_version(table_id=table.pk)]
    services.table_join(table_id=table.pk, by=bea)
    seen.append(table_version(table_id=table.pk))
    table.refresh_from_db()
    play_a_card(table, ada, 0)
    seen.append(table_version(table_id=table.pk))
    assert table_versions(table_ids=[table.pk])[table.pk] == seen[-1]
    assert seen[0] != seen[1] != seen[2]
    assert seen[2]["log_entries"] == 1 and seen[2]["taken_seats"] == 2
    assert isinstance(seen[2]["deadline"], datetime.datetime) and seen[2]["deadline"].tzinfo


def test_a_table_that_is_gone_has_no_version():
    with pytest.raises(Table.DoesNotExist):
        table_version(table_id=987654)
