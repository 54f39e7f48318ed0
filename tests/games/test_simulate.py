from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def simulate(*args) -> str:
    out = StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("game", "players", "label"),
    [("korova", 4, "per seat"), ("convoy", 4, "per side"), ("conquian", 2, "per seat")],
)
def test_simulate_prints_win_shares_length_scores_and_speed(game, players, label):
    output = simulate(game, "--players", str(players), "--games", "5", "--seed", "3")
    assert f"{game}: 5 random games, {players} players, seed 3" in output
    assert output.count("among the winners in") == players
    assert "game length: median" in output
    assert f"scores ({label}): median" in output
    assert "games per second" in output
    assert "mean" not in output


def test_simulate_conquian_reports_medians_deals_per_match_and_drawn_deals():
    # Random play draws most deals, and doubling makes a few matches worth billions: the
    # report gives medians and deal counts, never a mean such as 43132846.3.
    output = simulate("conquian", "--players", "2", "--games", "30", "--seed", "1")
    lines = {line.split(":")[0].strip(): line for line in output.splitlines()}
    assert lines["deals per game"].startswith("  deals per game: median")
    drawn = lines["drawn deals per game"]
    share = float(drawn.split("(")[1].split("%")[0])
    assert 50 < share < 100 and drawn.endswith("of all deals)")
    medians = lines["scores (per seat)"].split("median ")[1].split(", ")
    assert all(float(m.replace(",", "")) < 1000 for m in medians)


def test_simulate_is_reproducible_from_its_seed():
    first = simulate("korova", "--players", "3", "--games", "4", "--seed", "9")
    again = simulate("korova", "--players", "3", "--games", "4", "--seed", "9")
    assert first.split("speed:")[0] == again.split("speed:")[0]


def test_simulate_passes_options_to_the_engine():
    output = simulate("korova", "--players", "4", "--games", "3", "--option", "end_score=20")
    assert 'options: {"end_score": 20}' in output


def test_simulate_refuses_an_unknown_option_by_name():
    with pytest.raises(CommandError, match="unknown option 'bogus'"):
        simulate("korova", "--players", "4", "--option", "bogus=1")


def test_simulate_refuses_a_player_count_the_game_does_not_allow():
    with pytest.raises(CommandError, match="exactly 2 players"):
        simulate("conquian", "--players", "3")
