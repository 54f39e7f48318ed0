"""A cup tie is a fixture like any other: staff enter it on the entry page, its live tables
start, its printed sheet prints, and the winner it records goes through."""

import pytest

from games.live.fixture_tables import fixture_tables_start
from leagues.models import CupTie, Fixture
from scoring.cups.services import cup_draw
from tests.factories import StaffMembershipFactory
from tests.scoring.results.staff_sheets import FULL_GAME, entry_url, korova_post

from .cups import (
    AWAY_WINS,
    HOME_WINS,
    LEVEL_EVERY_ROUND,
    admin_user,
    first_round_at,
    korova_sheet,
    make_cup,
    play,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def tie():
    cup = make_cup(4)
    cup_draw(cup_id=cup.pk, by=None, first_round_at=first_round_at())
    return CupTie.objects.select_related("fixture__venue").filter(round__cup=cup).first()


def test_staff_enter_a_tie_on_the_entry_page_and_the_winner_goes_through(client, tie):
    client.force_login(StaffMembershipFactory(venue=tie.fixture.venue).user)
    assert client.get(entry_url(tie.fixture)).status_code == 200
    data = korova_post(FULL_GAME)  # the away pair takes fewer heads
    players = [
        m.player_id for team in (tie.home, tie.away) for m in team.members.order_by("position")
    ]
    data.update({f"players.{seat}": str(player) for seat, player in enumerate(players)})
    response = client.post(entry_url(tie.fixture), data)
    assert response.status_code in (200, 302)
    tie.refresh_from_db()
    assert tie.winner_id == tie.away_id
    final = CupTie.objects.get(round__cup=tie.round.cup, round__number=2)
    assert final.home_id == tie.away_id


def test_staff_of_another_venue_cannot_open_the_entry_page(client, tie):
    client.force_login(StaffMembershipFactory().user)
    assert client.get(entry_url(tie.fixture)).status_code == 403


def test_the_printed_sheet_of_a_tie_prints(client, tie):
    page = client.get(f"/print/fixtures/{tie.fixture_id}/").content.decode()
    assert tie.home.name in page and tie.away.name in page


def test_a_ties_live_tables_start_for_its_venue_staff(tie):
    staff = StaffMembershipFactory(venue=tie.fixture.venue).user
    tables, started = fixture_tables_start(fixture_id=tie.fixture_id, by=staff)
    assert started and len(tables) >= 1


def _final_played(tie, admin):
    """Both first-round ties won at home, then the final played."""
    for first in CupTie.objects.filter(round__cup=tie.round.cup, round__number=1):
        play(first.fixture, HOME_WINS, by=admin)
    final = CupTie.objects.get(round__cup=tie.round.cup, round__number=2)
    play(final.fixture, HOME_WINS, by=admin)


def test_a_correction_after_the_next_round_is_a_409_on_the_staff_page(client, tie):
    admin = admin_user()
    _final_played(tie, admin)
    client.force_login(admin)
    data = korova_post(FULL_GAME, based_on=1, before_fixture_day="on")
    response = client.post(entry_url(tie.fixture), data)
    assert response.status_code == 409
    assert "has been played since" in response.content.decode()
    assert tie.fixture.result_versions.count() == 1


def test_a_correction_after_the_next_round_is_a_409_through_the_api(client, tie):
    admin = admin_user()
    _final_played(tie, admin)
    client.force_login(admin)
    tie.fixture.refresh_from_db()
    response = client.post(
        f"/api/fixtures/{tie.fixture_id}/result/",
        {"sheet": korova_sheet(tie.fixture, AWAY_WINS), "based_on_version": 1},
        content_type="application/json",
    )
    assert response.status_code == 409
    assert response.json()["code"] == "cup_tie_played"


def test_a_correction_to_an_undecided_draw_takes_the_team_out_of_the_next_tie(tie):
    admin = admin_user()
    for first in CupTie.objects.filter(round__cup=tie.round.cup, round__number=1):
        play(first.fixture, HOME_WINS, by=admin)
    final = CupTie.objects.get(round__cup=tie.round.cup, round__number=2)
    fixture_id = final.fixture_id
    play(tie.fixture, LEVEL_EVERY_ROUND, by=admin, based_on=1)
    final.refresh_from_db()
    assert final.home_id is None and final.fixture_id is None
    assert not Fixture.objects.filter(pk=fixture_id).exists()
