"""The demo's casual table: in progress, with bots, and loading it again changes nothing."""

from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Table, TableMove


@pytest.fixture(autouse=True)
def _development(settings):
    """The demo is for development (`make run` sets DEBUG=1); pytest runs with DEBUG off."""
    settings.DEBUG = True


def run(command: str) -> str:
    out = StringIO()
    call_command(command, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_the_demo_has_a_casual_table_in_progress_with_bots():
    run("load_demo")
    output = run("load_demo_tables")
    table = Table.objects.get()
    assert table.status == Table.Status.PLAYING and table.fixture is None
    assert [seat.bot for seat in table.seats.order_by("seat")] == [False, True, True, True]
    assert table.seats.get(seat=0).user.username == "ada-finch"
    assert TableMove.objects.filter(table=table, seat=0).exists()  # her first card is down
    assert f"/tables/{table.pk}/" in output
    run("load_demo_tables")
    assert Table.objects.count() == 1
