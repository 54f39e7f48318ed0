"""A fixture's live result that met a version entered meanwhile waits as a proposal; staff may
take it on the conflict form ("Use the live result's"), as well as keep the saved version
(tests/games/live/test_fixture_tables.py)."""

import random

import pytest
from django.urls import reverse

from games.models import Table
from scoring.models import ResultProposal, ResultVersion
from scoring.results.services import result_submit
from tests.factories import StaffMembershipFactory, UserFactory
from tests.games.conftest import client_for
from tests.games.live.test_fixture_tables import (
    fixture_players,
    league_fixture,
    play_to_the_end,
    start_and_join,
)
from tests.scoring.results.test_conflicts import form_as_shown

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("moves_unthrottled")]


def test_staff_take_the_live_result_over_the_version_entered_meanwhile(db, client):
    fixture = league_fixture("korova", rule_options={"end_score": 1})
    players = fixture_players(fixture)
    clients = {player.pk: client_for(player.user) for player in players}
    table_id = start_and_join(fixture, clients)[0]["id"]
    admin = UserFactory(is_staff=True, is_superuser=True)
    result_submit(
        fixture_id=fixture.pk,
        sheet={"players": [p.pk for p in players], "rounds": [[5, 5, 5, 20]]},
        based_on_version=0,
        by=admin,
    )  # the admin enters the result while the table plays
    play_to_the_end(table_id, clients, random.Random(2), lose_one_turn=False)
    assert Table.objects.get(pk=table_id).status == Table.Status.FINISHED
    proposal = ResultProposal.objects.get(fixture=fixture)
    assert proposal.decided_at is None
    assert proposal.sheet["rounds"] != [[5, 5, 5, 20]]  # the table played another game

    staff = StaffMembershipFactory(venue=fixture.venue).user
    client.force_login(staff)
    html = client.get(reverse("result-entry", args=[fixture.pk])).content.decode()
    assert "A live result waits for your choice" in html
    shown = form_as_shown(html)
    clashes = [name for name in shown if name.startswith("clash.")]
    assert clashes, "the live result and version 1 differ field by field"
    taken = client.post(
        reverse("result-entry", args=[fixture.pk]),
        {**shown, **dict.fromkeys(clashes, "mine")},  # "Use the live result's:" each time
    )
    assert taken.status_code == 302, taken.content.decode()

    current = ResultVersion.objects.get(fixture=fixture, is_current=True)
    assert current.number == 2 and current.created_by == staff
    assert current.sheet["rounds"] == proposal.sheet["rounds"]
    assert current.sheet["players"] == proposal.sheet["players"]
    proposal.refresh_from_db()
    assert proposal.decided_at is not None and proposal.decided_by == staff
    after = client.get(reverse("result-entry", args=[fixture.pk])).content.decode()
    assert "A live result waits" not in after
