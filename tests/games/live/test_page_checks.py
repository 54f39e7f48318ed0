"""The hidden-hand check itself: it must pass the deal's cut (a pack of its own) however htmx
has marked it, and still catch a card of another hand anywhere else."""

import pytest

from tests.games.live.page_checks import assert_no_other_hands

HANDS = {"hands": [["2H", "3H"], ["AC", "KD"]], "public": set()}
CUT = '<details class="cut{extra}"><summary>The cut</summary><p>Ann A♣<span> (ace of clubs)</span></p></details>'


@pytest.mark.parametrize("extra", ["", " htmx-added", " htmx-settling"])
def test_the_cut_is_not_taken_for_another_hand_while_htmx_settles_it(extra):
    assert_no_other_hands(CUT.format(extra=extra), game="conquian", hands=HANDS, seat=0)


@pytest.mark.parametrize(
    "leak",
    [
        '<p class="open">ace of clubs</p>',
        '<button data-card="AC">A♣</button>',
        '<details class="cutaway"><p>ace of clubs</p></details>',
    ],
)
def test_a_card_of_the_other_hand_outside_the_cut_is_caught(leak):
    with pytest.raises(AssertionError, match="AC"):
        assert_no_other_hands(
            CUT.format(extra=" htmx-added") + leak, game="conquian", hands=HANDS, seat=0
        )
