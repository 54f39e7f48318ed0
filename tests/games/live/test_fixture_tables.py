"""A fixture played at live tables: who may start them, the seating after the cut, and the
result written into scoring when the tables decide it."""

import datetime
import random
import time

import pytest
from django.test import Client as DjangoClient
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games.engines import get_engine
from games.live.expiry import overdue_turns_sweep
from games.live.fixture_tables import HOLD_AFTER_TIMEOUTS
from games.live.services import table_turn_expire
from games.models import Seat, Table, TableMove
from leagues.models import Fixture, Game
from scoring.models import ResultProposal, ResultVersion
from scoring.results.services import result_submit
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

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("moves_unthrottled")]


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
    return FixtureFactory.create(season=season, home_team=teams[0], away_team=teams[1])


def fixture_players(fixture: Fixture) -> list:
    """Home 1, home 2, away 1, away 2."""
    return [
        member.player
        for team in (fixture.home_team, fixture.away_team)
        for member in team.members.order_by("position")
    ]


def start(fixture: Fixture, client: APIClient, body=None):
    return client.post(f"/api/fixtures/{fixture.pk}/tables/", body or {}, format="json")


def join_all(table_id: int, clients: dict) -> dict:
    """Every seated player says "I am here"; the table as the last of them sees it."""
    for seat in Table.objects.get(pk=table_id).seats.all():
        answer = clients[seat.player_id].post(f"/api/tables/{table_id}/join/")
        assert answer.status_code == 200, answer.content
    return answer.json()


def start_and_join(fixture: Fixture, clients: dict) -> list[dict]:
    """The fixture's tables set up by its first player, and every seat joined."""
    first = next(iter(clients.values()))
    tables = start(fixture, first).json()
    return [join_all(table["id"], clients) for table in tables]


def test_a_player_of_the_fixture_starts_its_tables_and_a_repeat_call_gets_the_same(db):
    fixture = league_fixture(Game.CONQUIAN, rule_options={"turn_seconds": 45})
    home1 = fixture_players(fixture)[0]
    client = client_for(home1.user)
    first = start(fixture, client)
    assert first.status_code == 201
    tables = first.json()
    assert [t["status"] for t in tables] == ["waiting", "waiting"]  # the two singles at once
    assert all(t["fixture"] == fixture.pk and t["turn_seconds"] == 45 for t in tables)
    assert [t["seat"] is not None for t in tables] == [True, False]  # home 1 plays single 1
    again = start(fixture, client_for(fixture_players(fixture)[3].user))
    assert again.status_code == 200
    assert [t["id"] for t in again.json()] == [t["id"] for t in tables]


def at_day(fixture: Fixture, days: int) -> Fixture:
    """The fixture moved `days` from today, at 20:00 local time."""
    evening = timezone.localtime().replace(hour=20, minute=0, second=0, microsecond=0)
    Fixture.objects.filter(pk=fixture.pk).update(starts_at=evening + datetime.timedelta(days=days))
    fixture.refresh_from_db()
    return fixture


def test_a_fixtures_tables_open_on_its_day_only(db):
    fixture = at_day(league_fixture(Game.KOROVA), days=42)
    for user in (fixture_players(fixture)[0].user,
                 StaffMembershipFactory(venue=fixture.venue).user):  # fmt: skip
        response = start(fixture, client_for(user))
        assert response.status_code == 409
        body = response.json()
        day = timezone.localdate(fixture.starts_at)
        assert body["code"] == "before_fixture_day" and body["fixture_day"] == day.isoformat()
        assert "its tables open on that day only" in body["detail"]
    assert not Table.objects.exists()
    page = DjangoClient()
    page.force_login(fixture_players(fixture)[0].user)
    html = page.get(reverse("fixture-tables", args=[fixture.pk])).content.decode()
    assert "start-fixture-tables" not in html and "its tables open on that day only" in html
    at_day(fixture, days=-3)  # the day has passed: staff move the fixture to a new date
    late = start(fixture, client_for(fixture_players(fixture)[0].user))
    assert late.status_code == 409 and not Table.objects.exists()
    assert "move it to a new date" in late.json()["detail"]
    html = page.get(reverse("fixture-tables", args=[fixture.pk])).content.decode()
    assert "start-fixture-tables" not in html and "move it to a new date" in html
    at_day(fixture, days=0)  # moved to today
    assert start(fixture, client_for(fixture_players(fixture)[0].user)).status_code == 201


@pytest.mark.parametrize(
    "body",
    [{"options": {"turn_seconds": 2}}, {"options": {}}, {"options": {"end_score": 10}},
     {"options": "fast"}],
)  # fmt: skip
def test_the_caller_cannot_set_a_fixture_tables_clock_or_rules(db, body):
    fixture = league_fixture(Game.KOROVA, rule_options={"turn_seconds": 90})
    response = start(fixture, client_for(fixture_players(fixture)[0].user), body)
    assert response.status_code == 400 and list(response.json()) == ["options"]
    assert all(isinstance(p, str) for p in response.json()["options"])
    assert not Table.objects.exists()


def test_a_fixture_table_waits_with_no_clock_until_every_seated_player_has_joined(db):
    fixture = league_fixture(Game.KOROVA)
    players = fixture_players(fixture)
    clients = {player.pk: client_for(player.user) for player in players}
    table = start(fixture, clients[players[0].pk]).json()[0]
    assert table["status"] == "waiting" and table["deadline"] is None
    assert table["awaiting"] == [0, 1, 2, 3] and table["to_act"] == []
    seats = list(Table.objects.get(pk=table["id"]).seats.order_by("seat"))
    for n, seat in enumerate(seats[:-1]):
        answer = clients[seat.player_id].post(f"/api/tables/{table['id']}/join/")
        assert answer.status_code == 200 and answer.json()["seat"] == seat.seat
        again = clients[seat.player_id].post(f"/api/tables/{table['id']}/join/")
        assert again.status_code == 200  # twice is harmless
        row = Table.objects.get(pk=table["id"])
        assert (row.status, row.deadline, row.state) == ("waiting", None, None)
        assert answer.json()["awaiting"] == [s.seat for s in seats[n + 1 :]]
    moved = clients[seats[0].player_id].post(
        f"/api/tables/{table['id']}/moves/", {"turn": 0, "move": {"card": 1}}, format="json"
    )
    assert moved.status_code == 409  # no game yet
    last = clients[seats[-1].player_id].post(f"/api/tables/{table['id']}/join/").json()
    assert last["status"] == "playing" and last["turn"] == 1 and last["deadline"]
    assert last["awaiting"] == []
    assert all(seat.joined_at for seat in Table.objects.get(pk=table["id"]).seats.all())


def test_only_a_seated_player_can_join_a_fixture_table(db):
    fixture = league_fixture(Game.CONQUIAN)
    players = fixture_players(fixture)
    tables = start(fixture, client_for(players[0].user)).json()
    staff = StaffMembershipFactory(venue=fixture.venue).user
    # away 2 plays the other single; the stranger and staff play none
    for user in (UserFactory(), staff, players[3].user):
        answer = client_for(user).post(f"/api/tables/{tables[0]['id']}/join/")
        assert answer.status_code == 403, user
        assert "only they can join" in answer.json()["detail"]
    assert not Seat.objects.filter(table_id=tables[0]["id"], joined_at__isnull=False).exists()


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
        assert table.state is not None, "a started table has a state"
        state = eng.load(table.state)
        if eng.is_over(state):
            return lost
        seat = eng.to_act(state)[0]
        player = table.seats.get(seat=seat).player
        assert player is not None, "every seat here is a player's"
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
    tables = start_and_join(fixture, clients)
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
    assert version.lineup == {"home": ids[:2], "away": ids[2:], "substitutes": []}
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
    tables = start_and_join(fixture, clients)
    assert len(tables) == 1  # the same four play game 2 after game 1
    play_to_the_end(tables[0]["id"], clients, random.Random(3), lose_one_turn=False)
    numbers = list(
        Table.objects.filter(fixture=fixture).order_by("number").values_list("number", "status")
    )
    assert numbers == [(1, "finished"), (2, "waiting")]  # game 2 waits for its players too
    assert not ResultVersion.objects.filter(fixture=fixture).exists()
    game2 = Table.objects.get(fixture=fixture, number=2)
    assert game2.deadline is None and game2.state is None
    assert join_all(game2.pk, clients)["status"] == "playing"


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
    fixture = league_fixture(Game.KOROVA, rule_options={"end_score": 1, "turn_seconds": 5})
    players = fixture_players(fixture)
    clients = {player.pk: client_for(player.user) for player in players}
    table_id = start_and_join(fixture, clients)[0]["id"]
    eng, rng = get_engine(Game.KOROVA), random.Random(7)
    while True:
        table = Table.objects.get(pk=table_id)
        state = eng.load(table.state)
        if eng.is_over(state):
            break
        if table.turn == 3 and not table.moves.filter(turn=3).exists():
            wait_for_the_clock(table_id, turn=3, timeout=15)  # everyone looks away
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


def expire_now(table_id: int) -> None:
    """The open turn's clock runs out (as the worker's expiry task would find it)."""
    table = Table.objects.get(pk=table_id)
    Table.objects.filter(pk=table_id).update(
        deadline=timezone.now() - datetime.timedelta(milliseconds=1)
    )
    assert table_turn_expire(table_id=table_id, turn=table.turn)


def test_a_side_that_stops_playing_holds_the_table_instead_of_losing_on_time_outs(db):
    fixture = league_fixture(Game.CONQUIAN, rule_options={"target": 5})
    players = fixture_players(fixture)
    clients = {player.pk: client_for(player.user) for player in players}
    table_id = start_and_join(fixture, clients)[0]["id"]
    eng, rng = get_engine(Game.CONQUIAN), random.Random(11)
    present = Table.objects.get(pk=table_id).seats.get(seat=0)
    for _ in range(200):  # the player in seat 1 has left the pub
        table = Table.objects.get(pk=table_id)
        if table.held:
            break
        state = eng.load(table.state)
        seat = eng.to_act(state)[0]
        if seat == present.seat:
            move = rng.choice(eng.legal_moves(state, seat))
            answer = clients[present.player_id].post(
                f"/api/tables/{table_id}/moves/", {"turn": table.turn, "move": move}, format="json"
            )
            assert answer.status_code == 200, answer.content
        else:
            expire_now(table_id)
    absent_turns = list(
        TableMove.objects.filter(table_id=table_id, seat=1).values_list("timeout", flat=True)
    )
    assert absent_turns == [True] * HOLD_AFTER_TIMEOUTS  # held at the third, not played out

    seen = client_for(present.player.user).get(f"/api/tables/{table_id}/").json()
    assert seen["status"] == "playing" and seen["held"] is True and seen["deadline"] is None
    assert overdue_turns_sweep() == 0
    logged = TableMove.objects.filter(table_id=table_id).count()
    state = eng.load(Table.objects.get(pk=table_id).state)
    for seat, player_id in ((0, present.player_id), (1, None)):
        if player_id is None:
            player_id = Table.objects.get(pk=table_id).seats.get(seat=1).player_id
        move = (eng.legal_moves(state, seat) or [{"pass": True}])[0]
        refused = clients[player_id].post(
            f"/api/tables/{table_id}/moves/", {"turn": seen["turn"], "move": move}, format="json"
        )
        assert refused.status_code == 409 and "held" in refused.json()["detail"]
    assert TableMove.objects.filter(table_id=table_id).count() == logged

    assert clients[present.player_id].post(f"/api/tables/{table_id}/resume/").status_code == 403
    other_staff = client_for(StaffMembershipFactory().user)
    assert other_staff.post(f"/api/tables/{table_id}/resume/").status_code == 403
    assert Table.objects.get(pk=table_id).held
    staff = client_for(StaffMembershipFactory(venue=fixture.venue).user)
    resumed = staff.post(f"/api/tables/{table_id}/resume/")
    assert resumed.status_code == 200
    assert resumed.json()["held"] is False and resumed.json()["deadline"] is not None
    assert resumed.json()["turn"] == seen["turn"]
    assert staff.post(f"/api/tables/{table_id}/resume/").status_code == 409  # not held now
    assert not Fixture.objects.get(pk=fixture.pk).status == Fixture.Status.PLAYED


def test_a_live_result_after_a_version_entered_meanwhile_waits_as_a_proposal(db, client):
    fixture = league_fixture(Game.KOROVA, rule_options={"end_score": 1})
    players = fixture_players(fixture)
    clients = {player.pk: client_for(player.user) for player in players}
    table_id = start_and_join(fixture, clients)[0]["id"]
    admin = UserFactory(is_staff=True, is_superuser=True)
    entered = result_submit(
        fixture_id=fixture.pk,
        sheet={"players": [p.pk for p in players], "rounds": [[5, 5, 5, 20]]},
        based_on_version=0,
        by=admin,
    )  # the admin enters the result while the table plays
    play_to_the_end(table_id, clients, random.Random(2), lose_one_turn=False)

    current = ResultVersion.objects.get(fixture=fixture, is_current=True)
    assert current.pk == entered.pk and ResultVersion.objects.filter(fixture=fixture).count() == 1
    proposal = ResultProposal.objects.get(fixture=fixture)
    assert proposal.source == ResultVersion.Source.LIVE and proposal.based_on_version == 0
    assert proposal.decided_at is None and "Played live at table 1" in proposal.note
    standings = APIClient().get(f"/api/seasons/{fixture.season_id}/standings/").json()
    points = {row["team"]["id"]: row["points"] for row in standings["rows"]}
    assert points[fixture.home_team_id] == 3  # version 1's winner, whatever the table said

    staff = StaffMembershipFactory(venue=fixture.venue).user
    client.force_login(staff)
    page = client.get(reverse("result-entry", args=[fixture.pk]))
    assert page.status_code == 200
    assert "A live result waits for your choice" in page.content.decode()
    kept = client.post(reverse("result-entry", args=[fixture.pk]), {"action": "keep_current"})
    assert kept.status_code == 302
    proposal.refresh_from_db()
    assert proposal.decided_by == staff and proposal.decided_at is not None
    assert (
        "A live result waits"
        not in client.get(reverse("result-entry", args=[fixture.pk])).content.decode()
    )


def test_the_table_page_asks_each_awaited_player_and_lets_staff_resume_a_held_game(db):
    fixture = league_fixture(Game.CONQUIAN)
    players = fixture_players(fixture)
    table_id = start(fixture, client_for(players[0].user)).json()[0]["id"]
    seated = [seat.user for seat in Table.objects.get(pk=table_id).seats.order_by("seat")]
    page_url = reverse("table-detail", args=[table_id])
    pages = {}
    for user in (*seated, players[3].user):
        pages[user] = DjangoClient()
        pages[user].force_login(user)
    for user in seated:
        assert "I am here" in pages[user].get(page_url).content.decode()
    assert "I am here" not in pages[players[3].user].get(page_url).content.decode()

    joined = pages[seated[0]].post(reverse("table-join", args=[table_id]))  # no JavaScript
    assert joined.status_code == 302 and joined["Location"] == page_url
    html = pages[seated[0]].get(page_url).content.decode()
    assert "I am here" not in html and f"Still to come: {seated[1].player.name}." in html
    refused = pages[players[3].user].post(reverse("table-join", args=[table_id]), follow=True)
    assert "only they can join" in refused.content.decode()
    pages[seated[1]].post(reverse("table-join", args=[table_id]))
    assert Table.objects.get(pk=table_id).status == Table.Status.PLAYING

    Table.objects.filter(pk=table_id).update(held=True, deadline=None)
    staff = DjangoClient()
    staff.force_login(StaffMembershipFactory(venue=fixture.venue).user)
    assert "Resume the game" in staff.get(page_url).content.decode()
    player_page = pages[seated[0]].get(page_url).content.decode()
    assert "The game is held" in player_page and "Resume the game" not in player_page
    pages[seated[0]].post(reverse("table-resume", args=[table_id]))
    assert Table.objects.get(pk=table_id).held
    assert staff.post(reverse("table-resume", args=[table_id]))["Location"] == page_url
    table = Table.objects.get(pk=table_id)
    assert not table.held and table.deadline is not None
