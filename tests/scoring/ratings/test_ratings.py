"""Ratings: the OpenSkill replay (scoring.ratings.replay) and its recomputation from stored results
(scoring.ratings.services.ratings_recompute) on PostgreSQL."""

import datetime

import pytest
from django.utils import timezone

from leagues.models import Game, Player, TeamMember
from leagues.services import fixture_status_change
from leagues.squad_services import team_players_set
from scoring.models import PlayerRating, RatingPoint, RatingRun
from scoring.ratings.replay import RatedFixture, RatedMatch, ratings_replay, shared_ranks
from scoring.ratings.services import ratings_recompute, ratings_refresh_stale
from scoring.results.services import result_submit
from tests.factories import (
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    TeamFactory,
    UserFactory,
    VenueFactory,
)

START = timezone.make_aware(datetime.datetime(2026, 9, 1, 19, 30))


def test_equal_scores_share_a_rank_and_lower_heads_rank_first():
    assert shared_ranks([40, 12, 40, 70], lower_is_better=True) == (2, 1, 2, 4)
    assert shared_ranks([3, 1, 3], lower_is_better=False) == (1, 3, 1)


def _ffa(fixture_id, day, order):
    """A Корова-like free-for-all of players `order`, best first, on day `day`."""
    return RatedFixture(
        fixture_id=fixture_id,
        played_at=START + datetime.timedelta(days=day),
        matches=(RatedMatch(sides=tuple((p,) for p in order), ranks=(1, 2, 3, 4)),),
    )


def test_winners_go_up_and_losers_down():
    replay = ratings_replay([_ffa(1, 0, [1, 2, 3, 4])])
    ordinals = [replay.current[p].ordinal for p in (1, 2, 3, 4)]
    assert ordinals == sorted(ordinals, reverse=True)
    assert replay.current[1].mu > 25 > replay.current[4].mu
    assert all(replay.current[p].games == 1 for p in (1, 2, 3, 4))


def test_a_tie_moves_neither_side_apart():
    tie = RatedFixture(1, START, (RatedMatch(sides=((1, 2), (3, 4)), ranks=(1, 1)),))
    replay = ratings_replay([tie])
    assert replay.current[1].mu == replay.current[3].mu == 25


def test_the_replay_follows_the_date_played_not_the_order_given():
    fixtures = [
        _ffa(n, day, order)
        for n, (day, order) in enumerate(
            [(3, [4, 3, 2, 1]), (1, [1, 2, 3, 4]), (2, [2, 1, 4, 3]), (5, [3, 1, 4, 2])], 1
        )
    ]
    forwards = ratings_replay(fixtures)
    backwards = ratings_replay(list(reversed(fixtures)))
    assert forwards == backwards
    assert [p.fixture_id for p in forwards.points[::4]] == [2, 3, 1, 4]


# --- from stored results --------------------------------------------------------------------


@pytest.fixture
def admin(db):
    return UserFactory(is_superuser=True, is_staff=True)


def _season(game):
    return SeasonFactory(league=LeagueFactory(game=game))


def _fixture(season, home, away, day):
    return FixtureFactory(
        season=season,
        home_team=home,
        away_team=away,
        venue=home.home_venue,
        starts_at=START + datetime.timedelta(days=day),
    )


def _ids(team):
    return list(
        TeamMember.objects.filter(team=team)
        .order_by("position")
        .values_list("player_id", flat=True)
    )


def _korova(fixture, rounds):
    return {"players": _ids(fixture.home_team) + _ids(fixture.away_team), "rounds": rounds}


# Home player 1 reaches 80: heads 80, 20, 40, 20 → ranks 4, 1, 3, 1 (the two 20s tie).
HOME_ONE_LOSES = [[20, 5, 10, 5]] * 4
# The same with the away players' heads swapped onto the home pair.
AWAY_ONE_LOSES = [[5, 10, 20, 5]] * 4


def _submit(fixture, sheet, by, version=0):
    return result_submit(fixture_id=fixture.pk, sheet=sheet, based_on_version=version, by=by)


def _ratings(game):
    return {
        r.player_id: (round(r.mu, 9), round(r.sigma, 9), r.games)
        for r in PlayerRating.objects.filter(game=game)
    }


def _history(game):
    return sorted(
        (p.player_id, p.fixture_id, round(p.ordinal, 9))
        for p in RatingPoint.objects.filter(game=game)
    )


@pytest.mark.django_db
def test_korova_ranks_the_four_by_heads_fewest_first(admin):
    season = _season(Game.KOROVA)
    fixture = _fixture(season, TeamFactory(), TeamFactory(), 0)
    _submit(fixture, _korova(fixture, HOME_ONE_LOSES), admin)
    ratings_recompute(game=Game.KOROVA)
    h1, h2, a1, a2 = _ids(fixture.home_team) + _ids(fixture.away_team)
    rating = {r.player_id: r for r in PlayerRating.objects.filter(game=Game.KOROVA)}
    assert rating[h2].ordinal == rating[a2].ordinal > rating[a1].ordinal > rating[h1].ordinal
    assert rating[h2].mu > 25 > rating[h1].mu


@pytest.mark.django_db
def test_recomputing_twice_gives_the_same_ratings(admin):
    _league(admin, entered=[_right(n) for n in range(6)])
    first = (_ratings(Game.KOROVA), _history(Game.KOROVA))
    ratings_recompute(game=Game.KOROVA)
    assert (_ratings(Game.KOROVA), _history(Game.KOROVA)) == first
    assert RatingRun.objects.get(game=Game.KOROVA).fixtures == 6


PAIRS = [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)]


def _right(number):
    return HOME_ONE_LOSES if number % 2 else AWAY_ONE_LOSES


def _league(admin, *, entered):
    """A fresh Корова league of four teams and six fixtures on six days; `entered` lists the
    sheet grid (or None: no result) of each fixture. Earlier leagues' ratings are cleared so
    that the two leagues a test compares are rated alike."""
    PlayerRating.objects.all().delete()
    RatingPoint.objects.all().delete()
    season = _season(Game.KOROVA)
    teams = [TeamFactory(home_venue=VenueFactory()) for _ in range(4)]
    fixtures = [_fixture(season, teams[h], teams[a], day) for day, (h, a) in enumerate(PAIRS)]
    for fixture, rounds in zip(fixtures, entered):
        if rounds is not None:
            _submit(fixture, _korova(fixture, rounds), admin)
    ratings_recompute(game=Game.KOROVA)
    return teams, fixtures


@pytest.mark.django_db
def test_a_correction_in_round_three_equals_the_right_result_from_the_start(admin):
    """In one league fixture 3 is entered wrongly, rated, then corrected; in the other it is
    right from the start. After the correction the ratings, and every player's history, are
    those of the right history, for the players of later fixtures too."""
    wrong = [_right(n) if n != 2 else HOME_ONE_LOSES for n in range(6)]
    teams, fixtures = _league(admin, entered=wrong)
    before = _by_seat(teams)
    _submit(fixtures[2], _korova(fixtures[2], _right(2)), admin, version=1)
    ratings_recompute(game=Game.KOROVA)
    corrected = _by_seat(teams)
    assert corrected != before

    teams, _ = _league(admin, entered=[_right(n) for n in range(6)])
    assert corrected == _by_seat(teams)


@pytest.mark.django_db
def test_a_voided_result_drops_out_as_if_never_entered(admin):
    teams, fixtures = _league(admin, entered=[_right(n) for n in range(6)])
    fixture_status_change(fixture_id=fixtures[3].pk, status="void", reason="Wrong teams", by=admin)
    ratings_recompute(game=Game.KOROVA)
    voided = _by_seat(teams)
    assert RatingRun.objects.get(game=Game.KOROVA).fixtures == 5
    assert not RatingPoint.objects.filter(fixture=fixtures[3]).exists()

    teams, _ = _league(admin, entered=[_right(n) if n != 3 else None for n in range(6)])
    assert voided == _by_seat(teams)


def _by_seat(teams):
    """Ratings and histories keyed by (team, position) and fixture day, so leagues compare."""
    seat = {pid: (n, pos) for n, team in enumerate(teams) for pos, pid in enumerate(_ids(team))}
    current = {
        seat[r.player_id]: (round(r.mu, 9), round(r.sigma, 9), r.games)
        for r in PlayerRating.objects.filter(player_id__in=seat)
    }
    history = sorted(
        (seat[p.player_id], p.played_at, round(p.ordinal, 9), p.games)
        for p in RatingPoint.objects.filter(player_id__in=seat)
    )
    return current, history


@pytest.mark.django_db
def test_convoy_rates_the_pairs_and_a_stalemate_is_a_tie(admin):
    season = _season(Game.CONVOY)
    season.fixture_format = {"games": 3}
    season.save()
    fixture = _fixture(season, TeamFactory(), TeamFactory(), 0)
    games = [
        {"winner": "home", "convoys": {"home": 2, "away": 1}},
        {"winner": "stalemate", "convoys": {"home": 1, "away": 1}},
        {"winner": "home", "convoys": {"home": 2, "away": 0}},
    ]
    _submit(fixture, {"games": games}, admin)
    ratings_recompute(game=Game.CONVOY)
    home, away = _ids(fixture.home_team), _ids(fixture.away_team)
    rating = {r.player_id: r for r in PlayerRating.objects.filter(game=Game.CONVOY)}
    assert all(rating[p].games == 3 for p in home + away)
    assert rating[home[0]].mu == rating[home[1]].mu > 25 > rating[away[0]].mu == rating[away[1]].mu


HOME_WINS = {"games": [{"winner": "home", "convoys": {"home": 2, "away": 1}}]}


@pytest.mark.django_db
def test_a_player_replaced_in_a_convoy_team_keeps_his_games_and_his_successor_gets_none(admin):
    season = _season(Game.CONVOY)
    home, away = TeamFactory(), TeamFactory()
    for fixture in (_fixture(season, home, away, 0), _fixture(season, away, home, 7)):
        _submit(fixture, HOME_WINS, admin)
    ratings_recompute(game=Game.CONVOY)
    before = (_ratings(Game.CONVOY), _history(Game.CONVOY))
    leaver, partner = _ids(home)
    successor = PlayerFactory()

    team_players_set(team=home, players=[successor, Player.objects.get(pk=partner)])

    assert Game.CONVOY not in ratings_refresh_stale()  # its results did not change
    assert (_ratings(Game.CONVOY), _history(Game.CONVOY)) == before
    PlayerRating.objects.all().delete()
    RatingPoint.objects.all().delete()
    ratings_recompute(game=Game.CONVOY)
    assert (_ratings(Game.CONVOY), _history(Game.CONVOY)) == before  # as a replay from scratch
    assert before[0][leaver][2] == 2 and successor.pk not in before[0]

    _submit(_fixture(season, home, TeamFactory(), 14), HOME_WINS, admin)
    ratings_recompute(game=Game.CONVOY)
    games = {r.player_id: r.games for r in PlayerRating.objects.filter(game=Game.CONVOY)}
    assert (games[leaver], games[successor.pk], games[partner]) == (2, 1, 3)


@pytest.mark.django_db
def test_conquian_rates_each_single_on_its_own(admin):
    season = _season(Game.CONQUIAN)
    fixture = _fixture(season, TeamFactory(), TeamFactory(), 0)
    home, away = _ids(fixture.home_team), _ids(fixture.away_team)
    sheet = {
        "singles": [
            {"home_player": home[0], "away_player": away[0], "deals": ["home"] * 5},
            {"home_player": home[1], "away_player": away[1], "deals": ["away"] * 5},
        ]
    }
    _submit(fixture, sheet, admin)
    ratings_recompute(game=Game.CONQUIAN)
    rating = {r.player_id: r for r in PlayerRating.objects.filter(game=Game.CONQUIAN)}
    assert rating[home[0]].mu > 25 > rating[away[0]].mu
    assert rating[away[1]].mu > 25 > rating[home[1]].mu
    assert all(rating[p].games == 1 for p in home + away)


@pytest.mark.django_db
def test_the_periodic_refresh_recomputes_only_what_changed(admin):
    _, fixtures = _league(admin, entered=[_right(n) for n in range(6)])
    ratings_refresh_stale()
    assert ratings_refresh_stale() == []
    fixture_status_change(fixture_id=fixtures[0].pk, status="void", reason="Wrong teams", by=admin)
    assert ratings_refresh_stale() == [Game.KOROVA]


@pytest.mark.django_db
def test_a_recomputation_rewrites_only_the_rows_that_changed(admin):
    teams, fixtures = _league(admin, entered=[_right(n) for n in range(5)] + [None])
    points = dict(RatingPoint.objects.values_list("pk", "fixture_id"))
    _submit(fixtures[5], _korova(fixtures[5], _right(5)), admin)
    ratings_recompute(game=Game.KOROVA)
    after = dict(RatingPoint.objects.values_list("pk", "fixture_id"))
    assert {pk: f for pk, f in after.items() if pk in points} == points  # the past kept
    assert sorted(set(after.values()) - set(points.values())) == [fixtures[5].pk]
    assert len(after) == len(points) + 4
