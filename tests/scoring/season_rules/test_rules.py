"""scoring.season_rules.rules: setting a season's rules (checked, locked, in its history) and putting
them in words."""

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied, ValidationError

from scoring.models import ResultVersion
from scoring.season_rules.rules import season_rules_describe, season_rules_set
from tests.factories import (
    FixtureFactory,
    LeagueFactory,
    SeasonFactory,
    StaffMembershipFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

DEFAULTS = {
    "rule_options": {},
    "fixture_format": {},
    "points_win": 3,
    "points_draw": 1,
    "points_loss": 0,
    "tie_breakers": ["points", "difference", "head_to_head", "wins"],
}


def league_admin():
    return UserFactory(is_staff=True, is_superuser=True)


def set_rules(season, *, by, **rules):
    return season_rules_set(season_id=season.pk, by=by, **{**DEFAULTS, **rules})


def test_a_league_admin_sets_the_rules_with_who_and_what_in_the_history():
    season = SeasonFactory(league=LeagueFactory(game="korova"))
    admin = league_admin()
    set_rules(season, by=admin, rule_options={"end_score": 50}, points_win=2, tie_breakers=["wins"])
    season.refresh_from_db()
    assert (season.rule_options, season.points_win, season.tie_breakers) == (
        {"end_score": 50},
        2,
        ["wins"],
    )
    latest = season.history.first()
    assert latest.history_user == admin
    assert latest.history_change_reason == "Rules changed: rule options, points win, tie breakers"


def test_setting_the_same_rules_again_writes_nothing():
    season = SeasonFactory(league=LeagueFactory(game="conquian"))
    set_rules(season, by=None)
    before = season.history.count()
    set_rules(season, by=None)
    assert season.history.count() == before


@pytest.mark.parametrize(
    ("game", "rules", "field", "message"),
    [
        ("korova", {"rule_options": {"end_score": 0}}, "rule_options.end_score", "at least 1"),
        ("korova", {"rule_options": {"end_score": "66"}}, "rule_options.end_score", "whole number"),
        ("korova", {"rule_options": {"edition": "deluxe"}}, "rule_options.edition", "one of"),
        ("korova", {"rule_options": {"tactical": "yes"}}, "rule_options.tactical", "true or false"),
        ("conquian", {"rule_options": {"end_score": 66}}, "rule_options", "has no option"),
        ("conquian", {"rule_options": ["target", 5]}, "rule_options", "names and values"),
        ("convoy", {"fixture_format": {"games": 16}}, "fixture_format", "from 1 to 15"),
        ("convoy", {"fixture_format": {"sets": 3}}, "fixture_format", "Unknown key 'sets'"),
        ("korova", {"fixture_format": {"games": 3}}, "fixture_format", "has no format options"),
        ("korova", {"points_draw": 4}, "points_draw", "win ≥ draw ≥ loss"),
        ("korova", {"points_loss": 2}, "points_draw", "win ≥ draw ≥ loss"),
        ("korova", {"points_win": True}, "points_win", "whole number from 0 to 99"),
        ("korova", {"points_win": "3"}, "points_win", "whole number from 0 to 99"),
        ("korova", {"points_loss": -1}, "points_loss", "whole number from 0 to 99"),
        ("korova", {"points_win": 10**40}, "points_win", "whole number from 0 to 99"),
        ("korova", {"tie_breakers": ["points", "luck"]}, "tie_breakers", "Unknown tie-breaker"),
        ("korova", {"tie_breakers": ["wins", "wins"]}, "tie_breakers", "only once"),
        ("korova", {"tie_breakers": "points"}, "tie_breakers", "a list of keys"),
    ],
)
def test_bad_rules_are_refused_with_the_field_at_fault_and_nothing_changes(
    game, rules, field, message
):
    season = SeasonFactory(league=LeagueFactory(game=game))
    before = season.history.count()
    with pytest.raises(ValidationError) as refused:
        set_rules(season, by=league_admin(), **rules)
    assert message in " ".join(refused.value.message_dict[field])
    assert season.history.count() == before


def test_every_problem_is_named_at_once():
    season = SeasonFactory(league=LeagueFactory(game="korova"))
    with pytest.raises(ValidationError) as refused:
        set_rules(
            season,
            by=None,
            rule_options={"end_score": 0},
            points_draw=9,
            tie_breakers=["luck"],
        )
    assert set(refused.value.message_dict) == {
        "rule_options.end_score",
        "points_draw",
        "tie_breakers",
    }


@pytest.mark.parametrize("who", ["venue staff", "staff status", "player"])
def test_only_league_admins_set_rules(who):
    season = SeasonFactory()
    user = {
        "venue staff": lambda: StaffMembershipFactory(user__is_staff=True).user,
        "staff status": lambda: UserFactory(is_staff=True),
        "player": lambda: UserFactory(),
    }[who]()
    with pytest.raises(PermissionDenied):
        set_rules(season, by=user, points_win=5)
    season.refresh_from_db()
    assert season.points_win == 3


def test_a_user_who_may_change_seasons_sets_rules():
    user = UserFactory(is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="change_season"))
    season = SeasonFactory()
    set_rules(season, by=user, points_win=5)
    season.refresh_from_db()
    assert season.points_win == 5


def test_once_a_season_has_results_its_game_rules_stay_but_points_may_change():
    fixture = FixtureFactory(season=SeasonFactory(league=LeagueFactory(game="korova")))
    season = fixture.season
    ResultVersion.objects.create(
        fixture=fixture, number=1, sheet={}, home_score=1, away_score=2, winner="home"
    )
    with pytest.raises(ValidationError) as refused:
        set_rules(season, by=None, rule_options={"end_score": 50})
    assert "can no longer change" in refused.value.message_dict["rule_options"][0]
    set_rules(season, by=None, points_win=4, tie_breakers=["points", "wins"])
    season.refresh_from_db()
    assert (season.rule_options, season.points_win) == ({}, 4)


@pytest.mark.parametrize("season_id", [987654, "abc", None])
def test_an_unknown_season_is_refused(season_id):
    with pytest.raises(ValidationError) as refused:
        season_rules_set(season_id=season_id, by=None, **DEFAULTS)
    assert "season_id" in refused.value.message_dict


def test_the_rules_in_words_fill_in_the_games_defaults():
    season = SeasonFactory(
        league=LeagueFactory(game="conquian"),
        rule_options={"carry_over": "add"},
        points_win=2,
        tie_breakers=["points", "wins"],
    )
    assert season_rules_describe(season=season) == [
        ("Single ends at", "5 deal points"),
        ("Drawn deals", "add one to the next deal"),
        ("Points", "win 2, draw 1, loss 0"),
        ("Order", "points, then wins"),
    ]
