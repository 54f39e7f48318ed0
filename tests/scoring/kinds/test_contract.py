"""The contract every game kind keeps, checked the same way for each (scoring.kinds).

Validation, outcome, the summary line, the entry grid's round trip (sheet → grid → posted
form → sheet), and `sheet_from_final_state` on games the engine plays from random seeds: the
sheet a finished live table writes is valid and gives the engine's own result.
"""

import json
import random
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.demo import DEMO_GAMES
from scoring.kinds import FinishedTable, MatchOutcome, SheetInvalid, all_kinds, get_kind
from scoring.results.grids import ENTRY_GRIDS

HOME_IDS, AWAY_IDS = [11, 12], [21, 22]
NAMES = {11: "Ann", 12: "Bea", 21: "Cy", 22: "Dot"}
TEAMS = {"home_team": "Roundheads", "away_team": "Sixth Cow"}
# Small games, so that random play ends quickly.
QUICK_OPTIONS = {"korova": {"end_score": 20}, "conquian": {"target": 2}}
FORMATS = {"convoy": {"games": 3}}
SEEDS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])

each_kind = pytest.mark.parametrize("kind", all_kinds(), ids=lambda kind: kind.game)


def rosters():
    return {
        "home_players": {pk: NAMES[pk] for pk in HOME_IDS},
        "away_players": {pk: NAMES[pk] for pk in AWAY_IDS},
    }


def validate(kind, sheet):
    return kind.validate(
        sheet=sheet,
        rule_options=QUICK_OPTIONS.get(kind.game, {}),
        fixture_format=FORMATS.get(kind.game, {}),
        **rosters(),
        **TEAMS,
    )


def demo(kind, seed=1):
    """A valid sheet to start from: the demo league's (scoring.demo)."""
    return DEMO_GAMES.get(kind.game).sheet(
        home_player_ids=HOME_IDS,
        away_player_ids=AWAY_IDS,
        rule_options=QUICK_OPTIONS.get(kind.game, {}),
        fixture_format=FORMATS.get(kind.game, {}),
        seed=seed,
    )


@each_kind
def test_the_kind_is_registered_under_its_game(kind):
    assert get_kind(kind.game) is kind
    assert kind.label and kind.unit and kind.standings_columns
    for column in kind.standings_columns:
        assert column.label and column.explanation.endswith(".")


@each_kind
def test_its_demo_sheet_is_valid_and_has_an_outcome_and_a_summary(kind):
    clean = validate(kind, demo(kind))
    outcome = kind.outcome(sheet=clean, rule_options=QUICK_OPTIONS.get(kind.game, {}))
    assert isinstance(outcome, MatchOutcome)
    assert outcome.winner in ("home", "away", "draw")
    summary = kind.summary(outcome, **TEAMS)
    if outcome.winner != "draw":
        winner = TEAMS[f"{outcome.winner}_team"]
        assert summary.startswith(f"{winner} win")
        # the winner's figure first
        figure = outcome.score_for(outcome.winner)
        assert str(figure) in summary


@each_kind
def test_a_sheet_of_the_wrong_shape_is_refused_with_a_message_per_field(kind):
    for bad in ([], {"nonsense": 1}, {}):
        with pytest.raises(SheetInvalid) as caught:
            validate(kind, bad)
        assert caught.value.errors
        sentences = [sentence for path, (sentence,) in caught.value.errors.items()]
        assert all(isinstance(sentence, str) and sentence for sentence in sentences)
        assert not any(" home " in f" {sentence} " for sentence in sentences)


@each_kind
def test_the_difference_follows_lower_is_better(kind):
    assert kind.difference(10, 4) == (-6 if kind.lower_is_better else 6)


def grid_for(kind, sheet):
    home = [SimpleNamespace(pk=pk, name=NAMES[pk]) for pk in HOME_IDS]
    away = [SimpleNamespace(pk=pk, name=NAMES[pk]) for pk in AWAY_IDS]
    context = {
        "fixture": SimpleNamespace(
            home_team=SimpleNamespace(name=TEAMS["home_team"]),
            away_team=SimpleNamespace(name=TEAMS["away_team"]),
        ),
        "season": SimpleNamespace(
            rule_options=QUICK_OPTIONS.get(kind.game, {}),
            fixture_format=FORMATS.get(kind.game, {}),
        ),
        "lineup": SimpleNamespace(home=home, away=away, players=[*home, *away]),
    }
    return ENTRY_GRIDS.get(kind.game).from_sheet(sheet, **context), context


class Post(dict):
    """A form post: what QueryDict offers the grids (iteration and get)."""


@each_kind
def test_the_entry_grid_shows_a_sheet_and_reads_it_back_from_the_form(kind):
    sheet = validate(kind, demo(kind, seed=3))
    grid, context = grid_for(kind, sheet)
    posted = Post({cell.name: cell.value for block in grid.blocks() for cell in block.cells})
    again = ENTRY_GRIDS.get(kind.game).from_post(posted, **context)
    assert validate(kind, grid.sheet()) == sheet
    assert validate(kind, again.sheet()) == sheet


# --- live tables: the sheet of finished games -----------------------------------------------


def seating(kind, plan, chooser: random.Random) -> tuple[int, ...]:
    """Who sits where after the cut: any seat order, sides alternating (partners opposite)."""
    sides = [list(side) for side in plan.sides]
    chooser.shuffle(sides)
    for side in sides:
        chooser.shuffle(side)
    width = max(len(side) for side in sides)
    return tuple(side[index] for index in range(width) for side in sides)


def play(kind, seats, seed):
    engine = kind.engine
    chooser = random.Random(seed)
    options = QUICK_OPTIONS.get(kind.game, {})
    state = engine.new_game(players=len(seats), seed=seed, options=options)
    while not engine.is_over(state):
        for seat in engine.to_act(state):
            moves = engine.legal_moves(state, seat)
            melds = [move for move in moves if "meld" in move]  # Conquian: end deals sooner
            state = engine.apply(state, seat, melds[0] if melds else chooser.choice(moves))
    return state


def engine_result_agrees(kind, sheet, tables):
    """The sheet's figures are the engine's, table by table, seat by seat."""
    engine = kind.engine
    by_number = {table.number: table for table in tables}
    if kind.game == "korova":
        (table,) = tables
        scores = engine.outcome(table.state)["scores"]
        totals = [sum(row[index] for row in sheet["rounds"]) for index in range(4)]
        assert totals == [scores[table.seat_players.index(pk)] for pk in sheet["players"]]
    elif kind.game == "conquian":
        for number, single in enumerate(sheet["singles"], 1):
            table = by_number[number]
            scores = engine.outcome(table.state)["scores"]
            outcome = kind.outcome(
                sheet={"singles": [single]}, rule_options=QUICK_OPTIONS["conquian"]
            )
            points = {"home": outcome.home_score, "away": outcome.away_score}
            for seat, pk in enumerate(table.seat_players):
                side = "home" if pk in HOME_IDS else "away"
                assert points[side] == scores[seat]
    else:
        for number, game in enumerate(sheet["games"], 1):
            table = by_number[number]
            result = engine.outcome(table.state)
            home_side = 0 if table.seat_players[0] in HOME_IDS else 1
            assert game["convoys"]["home"] == result["scores"][home_side]
            assert game["convoys"]["away"] == result["scores"][1 - home_side]
            if result["draw"]:
                assert game["winner"] == "stalemate"
            else:
                winner_side = result["winners"][0] % 2
                assert game["winner"] == ("home" if winner_side == home_side else "away")


@each_kind
@SEEDS
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_finished_live_tables_give_a_valid_sheet_with_the_engines_result(kind, seed):
    chooser = random.Random(seed)
    fixture_format = FORMATS.get(kind.game, {})
    plans = kind.fixture_table_plans(
        fixture_format=fixture_format, home_player_ids=HOME_IDS, away_player_ids=AWAY_IDS
    )
    tables = []
    sheet = None
    for plan in plans:
        seats = seating(kind, plan, chooser)
        state = play(kind, seats, seed + plan.number)
        # A live table stores the state as JSON and loads it back (games.Table.state).
        stored = kind.engine.load(json.loads(json.dumps(kind.engine.dump(state))))
        tables.append(FinishedTable(plan.number, seats, stored))
        sheet = kind.sheet_from_final_state(
            tables=tables,
            fixture_format=fixture_format,
            rule_options=QUICK_OPTIONS.get(kind.game, {}),
            home_player_ids=HOME_IDS,
            away_player_ids=AWAY_IDS,
        )
        if sheet is not None:
            break
    assert sheet is not None, "every table finished, so the fixture is decided"
    assert validate(kind, sheet) == sheet
    engine_result_agrees(kind, sheet, tables)


@each_kind
def test_no_sheet_while_a_table_still_has_to_finish(kind):
    plans = kind.fixture_table_plans(
        fixture_format=FORMATS.get(kind.game, {}),
        home_player_ids=HOME_IDS,
        away_player_ids=AWAY_IDS,
    )
    unfinished = kind.engine.new_game(
        players=sum(len(side) for side in plans[0].sides),
        seed=5,
        options=QUICK_OPTIONS.get(kind.game, {}),
    )
    seats = seating(kind, plans[0], random.Random(5))
    sheet = kind.sheet_from_final_state(
        tables=[FinishedTable(1, seats, unfinished)],
        fixture_format=FORMATS.get(kind.game, {}),
        rule_options=QUICK_OPTIONS.get(kind.game, {}),
        home_player_ids=HOME_IDS,
        away_player_ids=AWAY_IDS,
    )
    assert sheet is None


@each_kind
def test_rule_lines_say_the_seasons_rules_in_words(kind):
    lines = dict(
        kind.rule_lines(
            rule_options=QUICK_OPTIONS.get(kind.game, {}), fixture_format=FORMATS.get(kind.game, {})
        )
    )
    expected = {
        "convoy": {"Fixture": "best of 3 games"},
        "korova": {"Edition": "Корова 006 (55 has 6 heads)", "Game ends at": "20 heads"},
        "conquian": {"Single ends at": "2 deal points", "Drawn deals": "double the next deal"},
    }
    assert lines == expected[kind.game]


@each_kind
def test_a_fixture_format_is_checked_in_plain_words(kind):
    assert kind.check_fixture_format(FORMATS.get(kind.game, {})) == FORMATS.get(kind.game, {})
    with pytest.raises(ValueError) as refused:
        kind.check_fixture_format({"sets": 3})
    assert "sets" in str(refused.value) or "no format options" in str(refused.value)


@each_kind
def test_sheet_paths_read_in_words_with_team_and_player_names(kind):
    sheet = validate(kind, demo(kind))
    teams = (SimpleNamespace(name=TEAMS["home_team"]), SimpleNamespace(name=TEAMS["away_team"]))
    grid, _ = grid_for(kind, sheet)
    for block in grid.blocks():
        for cell in block.cells:
            words = kind.describe_path(cell.name.split("."), names=NAMES, sheet=sheet, teams=teams)
            assert words and "." not in words and " home" not in words and " away" not in words


@each_kind
@pytest.mark.parametrize("value", [5, "12", True, {"1": 2}, None])
def test_a_sheet_of_the_wrong_shape_names_no_players(kind, value):
    # Before the sheet's own check runs (which then refuses it in plain words).
    assert kind.sheet_player_ids({"players": value, "singles": value, "games": value}) == set()
