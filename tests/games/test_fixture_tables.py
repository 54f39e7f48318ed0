"""A fixture played at live tables: who may start them, the seating after the cut, and the
result written into scoring when the tables decide it."""

import datetime
import random
import time

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.engines import get_engine
from games.models import Table, TableMove
from leagues.models import Fixture, Game
from scoring.models import ResultVersion
from tests.factories import (
    EntryFactory,
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    StaffMembershipFactory,
    TeamFactory,
    UserFactory,
)
from tests.games.conftest import client_for

pytestmark = pytest.mark.django_db


def league_fixture(game: str, *, rule_options=None, fixture_format=None) -> Fixture:
    season = SeasonFactory(
        league=LeagueFactory(game=game),
        rule_options=rule_options or {},
        fixture_format=fixture_format or {},
    )
    teams = []
    for side in ("Home", "Away"):
        players = [
            PlayerFactory(name=f"{side} {n}", user=UserFactory(username=f"{side.lower()}{n}"))
            for n in (1, 2)
        ]
        teams.append(TeamFactory(members=players))
        EntryFactory(season=season, team=teams[-1])
    return FixtureFactory(season=season, home_team=teams[0], away_team=teams[1])


def fixture_players(fixture: Fixture) -> list:
    """Home 1, home 2, away 1, away 2."""
    return [
        member.player
        for team in (fixture.home_team, fixture.away_team)
        for member in team.members.order_by("position")
    ]


def start(fixture: Fixture, client: APIClient, body=None):
    return client.post(f"/api/fixtures/{fixture.pk}/tables/", body or {}, format="json")


def test_a_player_of_the_fixture_starts_its_tables_and_a_repeat_call_gets_the_same(db):
    fixture = league_fixture(Game.CONQUIAN)
    home1 = fixture_players(fixture)[0]
    client = client_for(home1.user)
    first = start(fixture, client, {"options": {"turn_seconds": 45}})
    assert first.status_code == 201
    tables = first.json()
    assert [t["status"] for t in tables] == ["playing", "playing"]  # the two singles at once
    assert all(t["fixture"] == fixture.pk and t["turn_seconds"] == 45 for t in tables)
    assert [t["seat"] is not None for t in tables] == [True, False]  # home 1 plays single 1
    again = start(fixture, client_for(fixture_players(fixture)[3].user))
    assert again.status_code == 200
    assert [t["id"] for t in again.json()] == [t["id"] for t in tables]


def test_staff_of_the_venue_may_start_the_tables_and_others_may_not(db):
    fixture = league_fixture(Game.KOROVA)
    stranger = client_for(UserFactory())
    assert start(fixture, stranger).status_code == 403
    other_staff = client_for(StaffMembershipFactory().user)
    assert start(fixture, other_staff).status_code == 403
    assert not Table.objects.exists()
    staff = client_for(StaffMembershipFactory(venue=fixture.venue).user)
    response = start(fixture, staff)
    assert response.status_code == 201 and len(response.json()) == 1
    assert response.json()[0]["seat"] is None  # staff watch; they do not sit


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"options": {"turn_seconds": 1}}, "options.turn_seconds"),
        ({"options": {"end_score": 10}}, "options.end_score"),
        ({"options": "fast"}, "options"),
        ({"options": {"turn_seconds": [30]}}, "options.turn_seconds"),
    ],
)
def test_a_fixture_plays_the_seasons_rules_only_the_clock_may_be_set(db, body, field):
    fixture = league_fixture(Game.KOROVA)
    response = start(fixture, client_for(fixture_players(fixture)[0].user), body)
    assert response.status_code == 400 and field in response.json()
    assert all(isinstance(problems, list) for problems in response.json().values())
    assert all(isinstance(p, str) for problems in response.json().values() for p in problems)
    assert not Table.objects.exists()


def test_the_clock_defaults_to_the_seasons_turn_seconds(db):
    fixture = league_fixture(Game.KOROVA, rule_options={"turn_seconds": 90})
    tables = start(fixture, client_for(fixture_players(fixture)[0].user)).json()
    assert tables[0]["turn_seconds"] == 90


def test_a_void_or_played_fixture_gets_no_tables(db):
    fixture = league_fixture(Game.KOROVA)
    Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.VOID)
    response = start(fixture, client_for(fixture_players(fixture)[0].user))
    assert response.status_code == 409 and not Table.objects.exists()
    assert start(Fixture(pk=99999), client_for(UserFactory())).status_code == 404


def test_convoy_partners_sit_opposite_and_the_cut_decides_seat_zero(db):
    fixture = league_fixture(Game.CONVOY)
    home1, home2, away1, away2 = fixture_players(fixture)
    table = start(fixture, client_for(home1.user)).json()[0]
    names = [seat["name"] for seat in table["seats"]]
    sides = [{home1.name: "h", home2.name: "h", away1.name: "a", away2.name: "a"}[n] for n in names]
    assert sides in (["h", "a", "h", "a"], ["a", "h", "a", "h"])
    cut = table["cut"]
    assert cut["seat_0"] == names[0]
    last_round = cut["cuts"][-1]
    ranks = "23456789TJQKA"
    dealer_card = next(c["card"] for c in last_round if c["name"] == cut["dealer"])
    assert all(ranks.index(dealer_card[0]) > ranks.index(c["card"][0])
               for c in last_round if c["name"] != cut["dealer"])  # fmt: skip
    assert names[-1] == cut["dealer"]  # seat 0 sits at the dealer's left


def test_conquians_lower_card_deals_so_the_higher_card_sits_in_seat_zero(db):
    fixture = league_fixture(Game.CONQUIAN)
    for table in start(fixture, client_for(fixture_players(fixture)[0].user)).json():
        cuts = table["cut"]["cuts"][-1]
        ranks = "23456789TJQKA"
        seat0 = next(c for c in cuts if c["name"] == table["cut"]["seat_0"])
        dealer = next(c for c in cuts if c["name"] == table["cut"]["dealer"])
        assert ranks.index(seat0["card"][0]) > ranks.index(dealer["card"][0])
        assert table["seats"][1]["name"] == dealer["name"]


def play_to_the_end(table_id: int, clients: dict, rng: random.Random, *, lose_one_turn: bool):
    """Play through the API with the seated players' own tokens; optionally one player lets
    the clock run out once (the late move is refused and the clock's move stands)."""
    eng = get_engine(Table.objects.get(pk=table_id).game)
    lost = False
    while True:
        table = Table.objects.get(pk=table_id)
        state = eng.load(table.state)
        if eng.is_over(state):
            return lost
        seat = eng.to_act(state)[0]
        player = table.seats.get(seat=seat).player
        moves = eng.legal_moves(state, seat)
        move = rng.choice([m for m in moves if "meld" in m] or moves)
        if lose_one_turn and not lost and table.turn >= 3:
            Table.objects.filter(pk=table_id).update(
                deadline=timezone.now() - datetime.timedelta(milliseconds=1)
            )  # the player looks away and the clock runs out
        answer = clients[player.pk].post(
            f"/api/tables/{table_id}/moves/", {"turn": table.turn, "move": move}, format="json"
        )
        if lose_one_turn and not lost and table.turn >= 3:
            assert answer.status_code == 409 and answer.json()["turn"] > table.turn
            lost = True
        else:
            assert answer.status_code == 200, answer.content


def test_a_conquian_fixture_played_live_to_the_end_puts_its_result_in_the_table(db):
    fixture = league_fixture(Game.CONQUIAN, rule_options={"target": 2})
    players = fixture_players(fixture)
    clients = {player.pk: client_for(player.user) for player in players}
    tables = start(fixture, clients[players[0].pk]).json()
    rng = random.Random(5)
    assert play_to_the_end(tables[0]["id"], clients, rng, lose_one_turn=True)
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED  # one single still to play
    assert not ResultVersion.objects.exists()
    play_to_the_end(tables[1]["id"], clients, rng, lose_one_turn=False)

    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED
    version = ResultVersion.objects.get(fixture=fixture)
    assert version.source == ResultVersion.Source.LIVE and version.created_by is None
    assert "1, 2" in version.note
    ids = [player.pk for player in players]
    assert version.lineup == {"home": ids[:2], "away": ids[2:]}
    log = APIClient().get(f"/api/tables/{tables[0]['id']}/log/").json()
    assert sum(entry["timeout"] for entry in log) == 1
    standings = APIClient().get(f"/api/seasons/{fixture.season_id}/standings/").json()
    played = {row["team"]["id"]: row for row in standings["rows"]}
    assert played[fixture.home_team_id]["played"] == played[fixture.away_team_id]["played"] == 1
    assert sorted(row["points"] for row in played.values()) in ([0, 3], [1, 1])
    finished = APIClient().get(f"/api/tables/{tables[1]['id']}/").json()
    assert finished["status"] == "finished" and finished["outcome"]["winners"]


def test_convoy_best_of_three_starts_the_next_game_when_one_ends_undecided(db):
    fixture = league_fixture(Game.CONVOY, fixture_format={"games": 3})
    players = fixture_players(fixture)
    clients = {player.pk: client_for(player.user) for player in players}
    tables = start(fixture, clients[players[0].pk]).json()
    assert len(tables) == 1  # the same four play game 2 after game 1
    play_to_the_end(tables[0]["id"], clients, random.Random(3), lose_one_turn=False)
    numbers = list(
        Table.objects.filter(fixture=fixture).order_by("number").values_list("number", "status")
    )
    assert numbers == [(1, "finished"), (2, "playing")]
    assert not ResultVersion.objects.filter(fixture=fixture).exists()


def wait_for_the_clock(table_id: int, turn: int, timeout: float) -> None:
    """Watch the database (reading through the API would expire the turn itself)."""
    deadline = time.monotonic() + timeout
    while Table.objects.filter(pk=table_id, turn=turn, status=Table.Status.PLAYING).exists():
        assert time.monotonic() < deadline, f"turn {turn} still open after {timeout} s"
        time.sleep(0.05)


@pytest.mark.celery
@pytest.mark.django_db(transaction=True)
def test_a_fixture_turn_the_worker_runs_out_is_played_by_the_clock_and_the_result_still_comes(
    table_worker,
):
    fixture = league_fixture(Game.KOROVA, rule_options={"end_score": 1})
    players = fixture_players(fixture)
    clients = {player.pk: client_for(player.user) for player in players}
    body = {"options": {"turn_seconds": 2}}
    table_id = start(fixture, clients[players[0].pk], body).json()[0]["id"]
    eng, rng = get_engine(Game.KOROVA), random.Random(7)
    while True:
        table = Table.objects.get(pk=table_id)
        state = eng.load(table.state)
        if eng.is_over(state):
            break
        if table.turn == 3 and not table.moves.filter(turn=3).exists():
            wait_for_the_clock(table_id, turn=3, timeout=10)  # everyone looks away
            continue
        seat = eng.to_act(state)[0]
        player = table.seats.get(seat=seat).player
        move = rng.choice(eng.legal_moves(state, seat))
        answer = clients[player.pk].post(
            f"/api/tables/{table_id}/moves/", {"turn": table.turn, "move": move}, format="json"
        )
        assert answer.status_code in (200, 409), answer.content  # 409: a slow client, late

    timed_out = TableMove.objects.filter(table_id=table_id, turn=3)
    assert timed_out.exists() and all(entry.timeout for entry in timed_out)
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED
    version = ResultVersion.objects.get(fixture=fixture)
    assert version.source == ResultVersion.Source.LIVE and version.created_by is None
    log = APIClient().get(f"/api/tables/{table_id}/log/").json()
    assert [entry["timeout"] for entry in log if entry["turn"] == 3] == [True] * timed_out.count()
    assert APIClient().get(f"/api/tables/{table_id}/").json()["status"] == "finished"
