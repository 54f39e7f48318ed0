"""The Conquian bot: always legal, finishes matches, sees only its own seat, beats random play."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import bot_move
from games.engines import get_engine
from games.engines.conquian import CARRY_OVERS
from games.engines.conquian_melds import CODES
from tests.games.bots.playing import bot_wins, play_game, positions

ENGINE = get_engine("conquian")


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_every_bot_move_is_legal_and_bots_finish_matches(data):
    options = {
        "target": data.draw(st.integers(1, 4)),
        "carry_over": data.draw(st.sampled_from(CARRY_OVERS)),
        "forcing": data.draw(st.booleans()),
    }
    state, bot_moves = play_game(
        "conquian",
        players=2,
        seed=data.draw(st.integers(0, 2**32), label="seed"),
        bot_seats=data.draw(st.sampled_from([{0}, {1}, {0, 1}]), label="bot seats"),
        options=options,
        timeout_rate=data.draw(st.sampled_from([0.0, 0.3])),
    )
    assert ENGINE.is_over(state)
    assert bot_moves >= 1


def test_a_forced_bot_melds_the_forced_card():
    forced = 0
    for state in positions("conquian", players=2, seeds=range(40)):
        if state["phase"] != "forced":
            continue
        (seat,) = ENGINE.to_act(state)
        move = bot_move(game="conquian", state=state, seat=seat, rng=random.Random(1))
        assert "meld" in move and move in ENGINE.legal_moves(state, seat)
        forced += 1
    assert forced >= 5


def _position(*, hand, melds=(), theirs=(), open_card=None, phase="facing"):
    """Seat 0 to act with `hand`, its `melds` and the opponent's; other cards in the stock."""
    placed = set(hand) | set(melds) | set(theirs) | {open_card}
    rest = [code for code in CODES if code not in placed]
    data = ENGINE.dump(ENGINE.new_game(players=2, seed=1))
    data.update(
        hands=[list(hand), rest[:5]],
        melds=[list(melds), list(theirs)],
        stock=rest[5:],
        open_card=open_card,
        dead_pile=[],
        to_act=0,
        phase=phase,
    )
    return ENGINE.load(data)


def _bot(state):
    move = bot_move(game="conquian", state=state, seat=0, rng=random.Random(0))
    assert move in ENGINE.legal_moves(state, 0)
    return move


def test_it_goes_out_when_it_can():
    state = _position(
        hand=["6C", "7C"],
        melds=["AS", "2S", "3S", "4S", "AH", "2H", "3H", "4H"],
        open_card="JC",
    )
    assert _bot(state) == {"meld": ["6C", "7C"]}


def test_it_melds_a_usable_open_card_rather_than_reject_it():
    state = _position(
        hand=["5H", "5D", "KS", "2C", "QD", "7S", "JH", "AD", "3C", "6H"], open_card="5C"
    )
    assert _bot(state) == {"meld": ["5H", "5D"]}


def test_it_discards_a_card_that_cannot_meld_and_keeps_pairs():
    state = _position(hand=["5H", "5D", "KS", "6S", "7S"], phase="discard")
    assert _bot(state) == {"discard": "KS"}


def test_it_does_not_hand_the_opponent_a_card_that_fits_their_melds():
    # KS and 2C are both useless to the bot, but KS would join the opponent's kings
    state = _position(hand=["5H", "5D", "KS", "2C"], theirs=["KH", "KD", "KC"], phase="discard")
    assert _bot(state) == {"discard": "2C"}


def _hidden_variant(state, seat, rng):
    """The same position with the other hand, the stock and the dead pile dealt differently."""
    data = ENGINE.dump(state)
    other = 1 - seat
    pool = data["hands"][other] + data["stock"] + data["dead_pile"]
    rng.shuffle(pool)
    hand_size, stock_size = len(data["hands"][other]), len(data["stock"])
    data["hands"][other] = sorted(pool[:hand_size], key=CODES.index)
    data["stock"] = pool[hand_size : hand_size + stock_size]
    data["dead_pile"] = sorted(pool[hand_size + stock_size :], key=CODES.index)
    return ENGINE.load(data)


def test_the_choice_depends_only_on_what_the_seat_can_see():
    shuffler = random.Random(3)
    compared = changed = 0
    for state in positions("conquian", players=2, seeds=range(8)):
        (seat,) = ENGINE.to_act(state)
        other = _hidden_variant(state, seat, shuffler)
        assert ENGINE.view(other, seat) == ENGINE.view(state, seat)
        changed += other["hands"][1 - seat] != state["hands"][1 - seat]
        first = bot_move(game="conquian", state=state, seat=seat, rng=random.Random(9))
        second = bot_move(game="conquian", state=other, seat=seat, rng=random.Random(9))
        assert first == second
        compared += 1
    assert compared >= 200 and changed >= compared * 0.9


def test_a_bot_beats_a_random_player_by_a_margin_luck_cannot_explain():
    # 100 fixed seeds, matches to 5, the bot in either seat. Random play wins half;
    # 80 of 100 at p = 0.5 has a chance below 1e-9.
    wins = bot_wins("conquian", players=2, seeds=range(50), bot_seats={0}) + bot_wins(
        "conquian", players=2, seeds=range(50, 100), bot_seats={1}
    )
    assert wins >= 80
