"""/api/cups/ and a fixture's competition: the shapes of docs/api.md, read by anyone."""

import random

import pytest

from leagues.models import CupTie
from scoring.cups.services import cup_draw
from tests.factories import FixtureFactory

from .cups import HOME_WINS, admin_user, first_round_at, make_cup, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn_cup():
    cup = make_cup(3)
    cup_draw(cup_id=cup.pk, by=None, first_round_at=first_round_at(), rng=random.Random(5))
    return cup


def test_a_cup_reads_round_one_first_with_its_ties_byes_and_winners(client, drawn_cup):
    body = client.get(f"/api/cups/{drawn_cup.pk}/").json()
    assert set(body) == {"id", "name", "game", "season", "rounds"}
    assert body["name"] == "Knockout Cup" and body["game"] == "korova"
    assert body["season"] == drawn_cup.season_id
    assert [r["number"] for r in body["rounds"]] == [1, 2]
    assert [r["name"] for r in body["rounds"]] == ["Semi-finals", "Final"]
    first = body["rounds"][0]["ties"]
    assert all(set(tie) == {"fixture", "home", "away", "bye", "winner"} for tie in first)
    bye = next(tie for tie in first if tie["bye"])
    assert bye["away"] is None and bye["fixture"] is None and bye["winner"] == bye["home"]
    played = next(tie for tie in first if not tie["bye"])
    assert played["fixture"] and played["winner"] is None
    final = body["rounds"][1]["ties"][0]
    assert final["home"] == bye["home"] and final["away"] is None and final["fixture"] is None


def test_the_list_holds_every_cup_and_filters_by_season(client, drawn_cup):
    other = make_cup(2, names=["Red Lions", "Night Owls"])
    body = client.get("/api/cups/").json()
    assert [cup["id"] for cup in body["results"]] == [drawn_cup.pk, other.pk]
    body = client.get(f"/api/cups/?season={other.season_id}").json()
    assert [cup["id"] for cup in body["results"]] == [other.pk]


def test_an_unknown_cup_is_a_json_404(client):
    response = client.get("/api/cups/999999/")
    assert response.status_code == 404 and "detail" in response.json()


def test_a_tie_says_its_cup_and_round_and_the_cup_filter_lists_its_ties(client, drawn_cup):
    tie = CupTie.objects.get(round__cup=drawn_cup, round__number=1, bye=False)
    play(tie.fixture, HOME_WINS, by=admin_user())
    final = CupTie.objects.get(round__cup=drawn_cup, round__number=2)
    body = client.get(f"/api/fixtures/{tie.fixture_id}/").json()
    assert body["competition"] == {
        "kind": "cup",
        "id": drawn_cup.pk,
        "name": "Knockout Cup",
        "round": 1,
    }
    assert body["division"] is None
    listed = client.get(f"/api/fixtures/?cup={drawn_cup.pk}").json()["results"]
    assert [f["id"] for f in listed] == [tie.fixture_id, final.fixture_id]
    assert listed[1]["competition"]["round"] == 2


def test_a_league_fixture_is_the_leagues(client, drawn_cup):
    fixture = FixtureFactory(season=drawn_cup.season)
    body = client.get(f"/api/fixtures/{fixture.pk}/").json()
    assert body["competition"] == {"kind": "league"}
    assert (
        client.get(f"/api/fixtures/?cup={drawn_cup.pk}&season={drawn_cup.season_id}").json()[
            "count"
        ]
        == 1
    )


def test_a_bad_cup_filter_is_a_400(client):
    response = client.get("/api/fixtures/?cup=1.5")
    assert response.status_code == 400 and "cup" in response.json()
