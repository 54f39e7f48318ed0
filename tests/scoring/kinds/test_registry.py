"""A fourth game needs only its kind: registered at run time, it is served by validation,
outcome, standings and the staff entry page with no other module changed."""

import re

import pytest
from django.urls import get_resolver, reverse

from config.values import whole_number
from scoring.kinds import GameKind, SheetInvalid, StandingsColumn, get_kind, register, unregister
from scoring.kinds.base import winner_by
from scoring.models import ResultVersion
from scoring.results.grids import ENTRY_GRIDS
from scoring.results.grids.base import Block, Cell, SheetGrid
from scoring.results.outcomes import match_outcome
from scoring.results.sheets import validate_sheet
from scoring.standings.selectors import season_standings
from tests.factories import (
    EntryFactory,
    FixtureFactory,
    LeagueFactory,
    PlayerFactory,
    SeasonFactory,
    StaffMembershipFactory,
    TeamFactory,
    VenueFactory,
)

SIDES = ("home", "away")


class DiceGrid(SheetGrid):
    """Two inputs: each team's pips. The generic page and messages are enough to serve it."""

    game = "dice"
    template = "scoring/entry_base.html"
    partial = "scoring/_error_slots.html"

    def __init__(self, *, pips=None, **context):
        super().__init__(**context)
        self.pips = pips or {"home": "", "away": ""}

    @classmethod
    def from_sheet(cls, sheet, **context):
        pips = (sheet or {}).get("pips") or {}
        return cls(pips={side: str(pips.get(side, "")) for side in SIDES}, **context)

    @classmethod
    def from_post(cls, post, **context):
        return cls(pips={side: str(post.get(f"pips.{side}", "")) for side in SIDES}, **context)

    def sheet(self):
        return {"pips": {side: whole_number(self.pips[side], padded=True) for side in SIDES}}

    def blocks(self):
        if not hasattr(self, "_blocks"):
            cells = [Cell(name=f"pips.{side}", label=side, value=self.pips[side]) for side in SIDES]
            self._blocks = [Block(path="pips", title="Pips", cells=cells)]
        return self._blocks


class DiceKind(GameKind):
    game = "dice"
    label = "Dice"
    unit = "pips"
    score_for_label = "Pips rolled"
    score_against_label = "Pips rolled against"
    standings_columns = (
        StandingsColumn("won", "W", "Fixtures won."),
        StandingsColumn("sixes", "6s", "Fixtures with a six or more.", from_sheet=True),
    )

    def options(self, rule_options):
        return {}

    def check_sheet(self, sheet, context, errors):
        pips = sheet.get("pips")
        if not isinstance(pips, dict):
            errors["pips"] = "Enter the pips of both teams."
            return {}
        for side in SIDES:
            if whole_number(pips.get(side), padded=True) is None:
                errors[f"pips.{side}"] = f"Enter {context.team(side)}' pips."
        return {"pips": pips}

    def outcome(self, *, sheet, rule_options):
        from scoring.kinds import MatchOutcome

        home, away = sheet["pips"]["home"], sheet["pips"]["away"]
        return MatchOutcome(home, away, winner_by(home, away))

    def summary(self, outcome, *, home_team, away_team):
        return f"{home_team} {outcome.home_score}, {away_team} {outcome.away_score}"

    def fixture_figures(self, outcome, side):
        return {"sixes": int(outcome.score_for(side) >= 6)}


@pytest.fixture
def dice():
    # A real kind registers when the apps load, before the URLconf builds the API's sheet
    # schema from the registry: load the URLconf first, so that the schema other tests read
    # does not take in this passing kind.
    get_resolver().url_patterns  # noqa: B018
    kind = DiceKind()
    register(kind)
    ENTRY_GRIDS.register(kind.game, DiceGrid)  # the staff entry page's one registry line
    yield kind
    ENTRY_GRIDS.unregister(kind.game)
    unregister(kind.game)


def test_the_registry_serves_a_registered_kind_and_forgets_it(dice):
    assert get_kind("dice") is dice
    unregister("dice")
    with pytest.raises(ValueError, match="no game 'dice'"):
        get_kind("dice")
    register(dice)


def test_a_built_in_game_cannot_be_registered_twice():
    with pytest.raises(ValueError):
        register(get_kind("korova"))


def test_validation_and_outcome_serve_it(dice):
    sheet = {"pips": {"home": 6, "away": 2}}
    assert validate_sheet(game="dice", sheet=sheet, rule_options={}, fixture_format={}) == sheet
    with pytest.raises(SheetInvalid) as caught:
        validate_sheet(
            game="dice", sheet={"pips": {"home": "x"}}, rule_options={}, fixture_format={},
            home_team="Roundheads", away_team="Sixth Cow",
        )  # fmt: skip
    assert caught.value.errors == {
        "pips.home": ["Enter Roundheads' pips."],
        "pips.away": ["Enter Sixth Cow' pips."],
    }
    assert match_outcome(game="dice", sheet=sheet, rule_options={}).winner == "home"


def make_fixture():
    venue = VenueFactory()
    season = SeasonFactory(league=LeagueFactory(game="dice"))
    home = TeamFactory(home_venue=venue, members=[PlayerFactory(), PlayerFactory()])
    away = TeamFactory(members=[PlayerFactory(), PlayerFactory()])
    for team in (home, away):
        EntryFactory(season=season, team=team)
    return FixtureFactory(season=season, home_team=home, away_team=away, venue=venue)


@pytest.mark.django_db
def test_the_entry_page_standings_and_its_own_columns_serve_it(dice, client):
    fixture = make_fixture()
    client.force_login(StaffMembershipFactory(venue=fixture.venue).user)
    url = reverse("result-entry", args=[fixture.pk])

    assert client.get(url).status_code == 200
    preview = client.post(
        url, {"based_on_version": "0", "action": "preview"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert re.search(r"Enter .*pips\.", preview)

    saved = client.post(url, {"based_on_version": "0", "pips.home": "6", "pips.away": "2"})
    assert saved.status_code == 302
    version = ResultVersion.objects.get()
    assert (version.home_score, version.away_score, version.winner) == (6, 2, "home")

    table = season_standings(season=fixture.season, use_cache=False)
    top, bottom = table
    assert (top.team, top.won, top.difference, top.figures) == (
        fixture.home_team,
        1,
        4,
        {"sixes": 1},
    )
    assert (bottom.figures, [column.value(bottom) for column in dice.standings_columns]) == (
        {"sixes": 0},
        [0, 0],
    )
