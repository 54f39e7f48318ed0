"""scoring.results.outcomes: match_outcome through the kinds, and league points."""

from types import SimpleNamespace

import pytest

from scoring.kinds import MatchOutcome
from scoring.results.outcomes import league_points, match_outcome

SEASON = SimpleNamespace(points_win=3, points_draw=1, points_loss=0)


def test_match_outcome_refuses_an_unknown_game():
    with pytest.raises(ValueError):
        match_outcome(game="chess", sheet={}, rule_options={})


def test_score_for_reads_the_side():
    outcome = MatchOutcome(home_score=3, away_score=1, winner="home")
    assert (outcome.score_for("home"), outcome.score_for("away")) == (3, 1)


@pytest.mark.parametrize(
    "winner, side, points",
    [("home", "home", 3), ("home", "away", 0), ("away", "away", 3), ("draw", "home", 1),
     ("draw", "away", 1)],
)  # fmt: skip
def test_league_points_by_outcome_and_side(winner, side, points):
    assert league_points(winner=winner, side=side, season=SEASON) == points


def test_league_points_follow_the_season():
    season = SimpleNamespace(points_win=2, points_draw=1, points_loss=-1)
    assert league_points(winner="away", side="home", season=season) == -1
    assert league_points(winner="away", side="away", season=season) == 2
