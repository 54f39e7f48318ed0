"""scoring.results.sheets: validate_sheet for any game, and sheet_changes (no database)."""

import pytest

from config.errors import Invalid
from scoring.results.sheets import SheetInvalid, sheet_changes, validate_sheet

KOROVA_ROUNDS = [[11, 7, 6, 6]] * 6
TEAMS = {"home_team": "Roundheads", "away_team": "Sixth Cow"}


def korova(rounds=None, players=None, rule_options=None, **kwargs):
    sheet = {
        "players": [1, 2, 3, 4] if players is None else players,
        "rounds": KOROVA_ROUNDS if rounds is None else rounds,
    }
    return validate_sheet(
        game="korova", sheet=sheet, rule_options=rule_options, fixture_format={}, **TEAMS, **kwargs
    )


def convoy_game(winner="home", home=3, away=1):
    return {"winner": winner, "convoys": {"home": home, "away": away}}


def errors_of(call, *args, **kwargs) -> dict:
    with pytest.raises(SheetInvalid) as caught:
        call(*args, **kwargs)
    # one sentence per path
    return {path: sentence for path, (sentence,) in caught.value.errors.items()}


def test_unknown_game_is_refused():
    errors = errors_of(validate_sheet, game="chess", sheet={}, rule_options={}, fixture_format={})
    assert errors == {"__all__": "There is no result sheet for the game 'chess'."}


@pytest.mark.parametrize("game", ["convoy", "korova", "conquian"])
def test_a_sheet_that_is_not_an_object_is_refused(game):
    errors = errors_of(validate_sheet, game=game, sheet=[1, 2], rule_options={}, fixture_format={})
    assert errors == {"__all__": "The result sheet must be a JSON object."}


def test_sheet_invalid_is_a_400_refusal_naming_each_path_inside_the_sheet():
    with pytest.raises(Invalid) as caught:
        korova(players=[1, 1, 3, 4])
    assert caught.value.status == 400
    assert caught.value.as_json() == {"sheet": {"players.1": ["Player 1 is listed twice."]}}


@pytest.mark.parametrize(
    "game, sheet",
    [
        ("korova", {"players": [1, 2, 3, 4], "rounds": KOROVA_ROUNDS, "notes": "x"}),
        ("conquian", {"singles": [], "winner": "home"}),
        ("convoy", {"games": [convoy_game()], "venue": 1}),
    ],
)
def test_an_unknown_field_is_refused(game, sheet):
    errors = errors_of(validate_sheet, game=game, sheet=sheet, rule_options={}, fixture_format={})
    unknown = next(key for key in sheet if key not in ("players", "rounds", "singles", "games"))
    assert errors[unknown].startswith(f"Unknown field {unknown!r}")


def test_sheet_changes_names_each_changed_field():
    before = {"players": [1, 2, 3, 4], "rounds": [[1, 2, 3, 4]]}
    after = {"players": [1, 2, 3, 4], "rounds": [[1, 5, 3, 4], [6, 6, 6, 6]]}
    assert sheet_changes(before, after) == [
        ("rounds.0.1", 2, 5),
        ("rounds.1", None, [6, 6, 6, 6]),
    ]
    assert sheet_changes(after, after) == []
