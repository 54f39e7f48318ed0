"""Each tie-breaker alone, on a hand-built table (no database)."""

import pytest

from scoring.standings.table import ResultRecord, StandingRow, StandingsConfig, StandingsContext
from scoring.standings.tiebreakers import (
    TIE_BREAKER_CHOICES,
    GameDifference,
    HeadToHead,
    Points,
    Wins,
    get_tie_breaker,
    tie_breaker_chain,
)

CONFIG = StandingsConfig(game="convoy")


def row(team_id, **counts) -> StandingRow:
    return StandingRow(team=f"Team {team_id}", team_id=team_id, **counts)


def ranked(tie_breaker, rows, context=None):
    """Team ids, best first, by this one tie-breaker (ties keep the given order)."""
    context = context or StandingsContext(CONFIG, [])
    among = context.among(r.team_id for r in rows)
    keyed = sorted(rows, key=lambda r: tie_breaker.sort_key(r, among), reverse=True)
    return [r.team_id for r in keyed]


def result(fixture_id, home, away, home_score, away_score, winner):
    return ResultRecord(fixture_id, home, away, home_score, away_score, winner)


def test_points_ranks_more_league_points_higher():
    rows = [row(1, points=3), row(2, points=7), row(3, points=4), row(4, points=7)]
    assert ranked(Points(), rows) == [2, 4, 3, 1]


def test_game_difference_ranks_the_better_difference_higher():
    rows = [row(1, difference=-2), row(2, difference=5), row(3, difference=0)]
    assert ranked(GameDifference(), rows) == [2, 3, 1]


def test_wins_ranks_more_fixtures_won_higher():
    rows = [row(1, won=2, drawn=5), row(2, won=4), row(3, won=3)]
    assert ranked(Wins(), rows) == [2, 3, 1]


def test_head_to_head_uses_only_the_fixtures_between_the_tied_teams():
    # 1 beat 2 and 2 beat 3 and 3 beat 1: 3 points each among 1-2-3. Team 4 is not tied, so
    # 1's big win over 4 does not count; the difference among the three decides: 2, 1, 3.
    records = [
        result(1, 1, 2, 3, 2, "home"),
        result(2, 2, 3, 3, 0, "home"),
        result(3, 3, 1, 3, 2, "home"),
        result(4, 1, 4, 3, 0, "home"),
    ]
    context = StandingsContext(CONFIG, records)
    rows = [row(1), row(2), row(3)]
    assert ranked(HeadToHead(), rows, context) == [2, 1, 3]
    among = context.among([1, 2, 3])
    assert among.mini_table == {1: (3, 0), 2: (3, 2), 3: (3, -2)}


def test_head_to_head_puts_points_before_difference():
    # Best of 3 Convoy: team 1 won their first meeting on games with fewer convoys (6-7),
    # and the return was a draw (3-3): 4 points to 1 beat a better difference.
    records = [result(1, 1, 2, 6, 7, "home"), result(2, 2, 1, 3, 3, "draw")]
    context = StandingsContext(CONFIG, records)
    assert context.among([1, 2]).mini_table == {1: (4, -1), 2: (1, 1)}
    assert ranked(HeadToHead(), [row(2), row(1)], context) == [1, 2]


def test_head_to_head_counts_league_points_of_the_season():
    # With 1 point for a win and 1 for a draw, one win equals one draw.
    config = StandingsConfig(game="convoy", points_win=1, points_draw=1)
    records = [result(1, 1, 2, 3, 1, "home"), result(2, 2, 1, 2, 2, "draw")]
    assert StandingsContext(config, records).among([1, 2]).mini_table == {1: (2, 2), 2: (1, -2)}


def test_head_to_head_uses_the_korova_sign_fewer_heads_is_better():
    config = StandingsConfig(game="korova")
    # One win each; team 1 took 170 heads to team 2's 155, so team 2 is ahead.
    records = [result(1, 1, 2, 90, 70, "away"), result(2, 2, 1, 85, 80, "away")]
    context = StandingsContext(config, records)
    assert context.among([1, 2]).mini_table == {1: (3, -15), 2: (3, 15)}
    assert ranked(HeadToHead(), [row(1), row(2)], context) == [2, 1]


def test_head_to_head_without_mutual_fixtures_leaves_the_teams_level():
    context = StandingsContext(CONFIG, [result(1, 1, 3, 3, 0, "home")])
    assert ranked(HeadToHead(), [row(2), row(1)], context) == [2, 1]


def test_tie_breakers_are_found_by_key():
    assert [
        type(get_tie_breaker(key)) for key in ("points", "difference", "head_to_head", "wins")
    ] == [
        Points,
        GameDifference,
        HeadToHead,
        Wins,
    ]
    assert TIE_BREAKER_CHOICES == [
        ("points", "Points"),
        ("difference", "Game difference"),
        ("head_to_head", "Head to head"),
        ("wins", "Wins"),
    ]


@pytest.mark.parametrize("key", ["goals", "", None, "Points"])
def test_an_unknown_tie_breaker_key_is_a_value_error(key):
    with pytest.raises(ValueError, match="unknown tie-breaker"):
        get_tie_breaker(key)


def test_a_chain_refuses_a_repeated_key_and_a_bare_string():
    assert [tb.key for tb in tie_breaker_chain(["wins", "points"])] == ["wins", "points"]
    with pytest.raises(ValueError, match="only once"):
        tie_breaker_chain(["points", "points"])
    with pytest.raises(ValueError, match="list of keys"):
        tie_breaker_chain("points")
