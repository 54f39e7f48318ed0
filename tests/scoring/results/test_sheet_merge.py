"""scoring.results.sheet_merge: the three-way merge of the conflict page, on plain sheets."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.results.sheet_merge import Clash, FieldChange, merge_sheets

PLAYERS = [11, 12, 21, 22]


def korova(*rounds):
    return {"players": PLAYERS, "rounds": [list(row) for row in rounds]}


BASE = korova([8, 3, 12, 6], [15, 7, 2, 9], [11, 14, 5, 3])


def test_fields_only_i_changed_are_applied_to_the_current_version():
    theirs = korova([8, 3, 12, 6], [15, 7, 20, 9], [11, 14, 5, 3])  # they fixed round 2, Cy
    mine = korova([8, 3, 12, 6], [15, 7, 2, 9], [11, 4, 5, 3])  # I fixed round 3, Bea

    merge = merge_sheets(base=BASE, mine=mine, theirs=theirs)

    assert merge.sheet == korova([8, 3, 12, 6], [15, 7, 20, 9], [11, 4, 5, 3])
    assert merge.applied == (FieldChange("rounds.2.1", 14, 4),)
    assert merge.clashes == ()


def test_a_field_both_changed_differently_is_a_clash_and_keeps_their_value_until_chosen():
    theirs = korova([8, 3, 12, 6], [15, 7, 20, 9], [11, 14, 5, 3])
    mine = korova([8, 3, 12, 6], [15, 7, 5, 9], [11, 14, 5, 3])

    merge = merge_sheets(base=BASE, mine=mine, theirs=theirs)

    assert merge.clashes == (Clash("rounds.1.2", base=2, mine=5, theirs=20),)
    assert merge.sheet == theirs  # never their change undone without a choice
    assert merge.resolve(set()) == theirs
    assert merge.resolve({"rounds.1.2"}) == mine


def test_the_same_change_on_both_sides_is_neither_applied_nor_a_clash():
    both = korova([8, 3, 12, 6], [15, 7, 20, 9], [11, 14, 5, 3])

    merge = merge_sheets(base=BASE, mine=both, theirs=both)

    assert (merge.sheet, merge.applied, merge.clashes) == (both, (), ())


def test_fields_only_they_changed_stay_theirs_even_where_mine_still_has_the_old_value():
    theirs = korova([9, 3, 12, 6], [15, 7, 2, 9], [11, 14, 5, 3], [1, 2, 3, 4])

    merge = merge_sheets(base=BASE, mine=BASE, theirs=theirs)

    assert merge.sheet == theirs
    assert merge.applied == ()


def test_a_round_i_added_is_added_to_theirs():
    theirs = korova([8, 3, 12, 6], [15, 7, 20, 9], [11, 14, 5, 3])
    mine = korova(*BASE["rounds"], [13, 9, 4, 7])

    merge = merge_sheets(base=BASE, mine=mine, theirs=theirs)

    assert merge.sheet == korova(*theirs["rounds"], [13, 9, 4, 7])
    assert [change.path for change in merge.applied] == [f"rounds.3.{seat}" for seat in range(4)]


def test_a_round_i_removed_goes_unless_they_changed_it():
    mine = korova([8, 3, 12, 6], [15, 7, 2, 9])
    untouched = merge_sheets(
        base=BASE, mine=mine, theirs=korova([1, 3, 12, 6], *BASE["rounds"][1:])
    )
    changed = merge_sheets(base=BASE, mine=mine, theirs=korova(*BASE["rounds"][:2], [11, 14, 6, 3]))

    assert untouched.sheet == korova([1, 3, 12, 6], [15, 7, 2, 9])
    assert untouched.applied == (FieldChange("rounds.2", [11, 14, 5, 3], None),)
    # They changed the round I removed: one choice for the whole round, theirs until chosen.
    assert changed.clashes == (Clash("rounds.2", [11, 14, 5, 3], None, [11, 14, 6, 3]),)
    assert changed.sheet == korova(*BASE["rounds"][:2], [11, 14, 6, 3])
    assert changed.resolve({"rounds.2"}) == mine


def test_my_blank_cell_counts_as_a_change_to_blank():
    mine = korova([8, 3, 12, 6], [15, 7, None, 9], [11, 14, 5, 3])

    merge = merge_sheets(base=BASE, mine=mine, theirs=BASE)

    assert merge.applied == (FieldChange("rounds.1.2", 2, None),)
    assert merge.sheet["rounds"][1] == [15, 7, None, 9]


def test_from_an_empty_sheet_what_both_typed_alike_agrees_and_the_rest_clashes_or_applies():
    theirs = korova([8, 3, 12, 6], [15, 7, 2, 9])
    mine = korova([8, 3, 12, 6], [15, 7, 3, 9], [11, 14, 5, 3])

    merge = merge_sheets(base=None, mine=mine, theirs=theirs)

    assert merge.clashes == (Clash("rounds.1.2", base=None, mine=3, theirs=2),)
    assert merge.sheet == korova([8, 3, 12, 6], [15, 7, 2, 9], [11, 14, 5, 3])


def test_with_no_saved_result_my_sheet_is_the_merge():
    mine = korova([8, 3, 12, 6])

    assert merge_sheets(base=BASE, mine=mine, theirs=None).sheet["rounds"] == [[8, 3, 12, 6]]


def conquian(first, second):
    return {
        "singles": [
            {"home_player": 11, "away_player": 21, "deals": list(first)},
            {"home_player": 12, "away_player": 22, "deals": list(second)},
        ]
    }


def test_conquian_deals_merge_by_single_and_deal():
    base = conquian(["home", "draw"], ["away"])
    theirs = conquian(["home", "draw", "home"], ["away"])  # they added a deal to single 1
    mine = conquian(["home", "draw"], ["away", "away"])  # I added one to single 2

    merge = merge_sheets(base=base, mine=mine, theirs=theirs)

    assert merge.sheet == conquian(["home", "draw", "home"], ["away", "away"])


def test_removing_my_last_two_deals_shortens_the_list():
    base = conquian(["home", "draw", "home"], ["away"])

    merge = merge_sheets(base=base, mine=conquian(["home"], ["away"]), theirs=base)

    assert merge.sheet == conquian(["home"], ["away"])


@pytest.mark.parametrize(
    "mine",
    [
        {"games": [{"winner": "away", "convoys": {"home": 1, "away": 3}}]},
        {"games": [{"winner": "home", "convoys": {"home": 3, "away": 1}}, {"winner": "home"}]},
    ],
)
def test_convoy_games_merge_by_field(mine):
    base = {"games": [{"winner": "home", "convoys": {"home": 3, "away": 1}}]}
    theirs = {"games": [{"winner": "home", "convoys": {"home": 3, "away": 2}}]}

    merge = merge_sheets(base=base, mine=mine, theirs=theirs)

    changed_by_me = {change.path for change in merge.applied} | {c.path for c in merge.clashes}
    assert "games.0.convoys.away" not in {change.path for change in merge.applied}
    assert merge.sheet["games"][0]["convoys"]["away"] == 2  # their fix stays
    for path in changed_by_me - {clash.path for clash in merge.clashes}:
        node = merge.sheet
        for part in path.split("."):
            node = node[int(part)] if part.isdigit() else node[part]
        assert node is not None


def test_the_sheets_given_are_left_alone():
    theirs = korova([8, 3, 12, 6])
    mine = korova([8, 3, 12, 7], [1, 1, 1, 1])

    merge_sheets(base=korova([8, 3, 12, 6]), mine=mine, theirs=theirs)

    assert theirs == korova([8, 3, 12, 6]) and mine == korova([8, 3, 12, 7], [1, 1, 1, 1])


ROUNDS = st.lists(
    st.lists(st.one_of(st.none(), st.integers(0, 3)), min_size=4, max_size=4), max_size=4
)


def _cells(sheet):
    return {
        (index, seat): cell
        for index, row in enumerate(sheet["rounds"])
        for seat, cell in enumerate(row)
        if cell is not None
    }


@given(base=ROUNDS, mine=ROUNDS, theirs=ROUNDS)
def test_their_changes_survive_and_mine_land_where_they_do_not_clash(base, mine, theirs):
    base, mine, theirs = korova(*base), korova(*mine), korova(*theirs)

    merge = merge_sheets(base=base, mine=mine, theirs=theirs)

    merged, theirs_cells = _cells(merge.sheet), _cells(theirs)
    base_cells, mine_cells = _cells(base), _cells(mine)
    clashing = {clash.path for clash in merge.clashes}
    whole_rounds = {int(path.split(".")[1]) for path in clashing if path.count(".") == 1}
    for cell in set(base_cells) | set(theirs_cells):
        if base_cells.get(cell) != theirs_cells.get(cell):  # they changed it: it stays
            assert merged.get(cell) == theirs_cells.get(cell), cell
    for cell in set(base_cells) | set(mine_cells):
        changed_by_them = base_cells.get(cell) != theirs_cells.get(cell)
        settled_with_its_round = cell[0] in whole_rounds
        if base_cells.get(cell) != mine_cells.get(cell) and not (
            changed_by_them or settled_with_its_round
        ):
            assert merged.get(cell) == mine_cells.get(cell), cell  # mine applied
    everything_mine = merge.resolve(clashing)
    for sheet in (merge.sheet, everything_mine):  # still a grid of whole rounds
        assert all(isinstance(row, list) and len(row) == 4 for row in sheet["rounds"])
    for cell in set(base_cells) | set(mine_cells):
        if base_cells.get(cell) != mine_cells.get(cell):
            assert _cells(everything_mine).get(cell) == mine_cells.get(cell), cell
