"""The protocol contract: how a fixed deck is dealt, and what a deck fixes (docs/engines.md)."""

import random
from collections import Counter

import pytest

from games.engines import get_engine
from tests.games.engines.protocol_games import DEAL_NUMBER, full_deck

# -- a fixed deck -------------------------------------------------------------------------------


def dealt_hands(deck, players, size):
    return [Counter(deck[seat : players * size : players]) for seat in range(players)]


@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("hand_size", [3, 5, 7])
def test_convoy_deck_is_dealt_one_at_a_time_then_drawn_from_the_top(players, hand_size):
    eng = get_engine("convoy")
    deck = full_deck("convoy", players)
    random.Random(players * 10 + hand_size).shuffle(deck)
    state = eng.new_game(players=players, seed=None, options={"hand_size": hand_size}, deck=deck)
    hands = dealt_hands(deck, players, hand_size)
    for seat in range(players):
        assert Counter(eng.view(state, seat)["hand"]) == hands[seat]
    assert eng.view(state, None)["stock"] == 108 - players * hand_size
    top = players * hand_size
    for _ in range(2 * players):  # every card played or exchanged is replaced by the top card
        (seat,) = eng.to_act(state)
        move = next(m for m in eng.legal_moves(state, seat) if "pass" not in m)
        before = Counter(eng.view(state, seat)["hand"])
        state = eng.apply(state, seat, move)
        assert Counter(eng.view(state, seat)["hand"]) == before - Counter([move["card"]]) + Counter(
            [deck[top]]
        )
        top += 1
        assert eng.view(state, None)["stock"] == 108 - top


@pytest.mark.parametrize("players", [2, 4, 7, 10])
@pytest.mark.parametrize("tactical", [False, True])
def test_korova_deck_is_dealt_one_at_a_time_then_starts_the_rows(players, tactical):
    eng = get_engine("korova")
    options = {"tactical": tactical}
    deck = full_deck("korova", players, options)
    random.Random(players).shuffle(deck)
    state = eng.new_game(players=players, seed=None, options=options, deck=deck)
    hands = dealt_hands(deck, players, 10)
    for seat in range(players):
        assert Counter(eng.view(state, seat)["hand"]) == hands[seat]
    view = eng.view(state, None)
    assert view["rows"] == [[card] for card in deck[10 * players : 10 * players + 4]]
    assert view["stock"] == len(deck) - 10 * players - 4
    if tactical:
        assert view["stock"] == 0
    if players < 10:  # with 10 players the tactical game uses all 104 cards
        other = list(range(1, 105)) if tactical else list(range(1, 10 * players + 5))
        with pytest.raises(ValueError):  # a deck lists exactly the cards in play
            eng.new_game(players=players, seed=1, options=options, deck=other)


def test_conquian_deck_deals_seat_0_as_non_dealer_and_opens_deck_20():
    eng = get_engine("conquian")
    for shuffle_seed in range(5):
        deck = full_deck("conquian", 2)
        random.Random(shuffle_seed).shuffle(deck)
        state = eng.new_game(players=2, seed=None, deck=deck)
        hands = dealt_hands(deck, 2, 10)
        for seat in (0, 1):
            assert Counter(eng.view(state, seat)["hand"]) == hands[seat]
        view = eng.view(state, 0)
        assert view["open_card"] == deck[20]
        assert view["stock"] == 19
        assert view["dealer"] == 1
        assert eng.to_act(state) == [0]
        # seat 0 leaves the first card open; the dealer rejects it and turns the stock's top
        state = eng.apply(state, 0, {"pass": True})
        assert eng.view(state, 1)["open_card"] == deck[20]
        state = eng.apply(state, 1, {"reject": True})
        assert eng.view(state, 1)["open_card"] == deck[21]
        assert eng.view(state, None)["stock"] == 18


def play_on_with_timeouts(eng, state, stop):
    while not stop(state):
        state = eng.timeout(state, eng.to_act(state)[0])
    return state


@pytest.mark.parametrize(("name", "players"), [("korova", 3), ("korova", 6), ("conquian", 2)])
def test_a_deck_fixes_the_first_deal_only_and_later_deals_come_from_the_seed(name, players):
    eng = get_engine(name)
    key = DEAL_NUMBER[name]
    options = {"end_score": 1000} if name == "korova" else {"target": 1000}
    deck = full_deck(name, players)
    random.Random(11).shuffle(deck)

    def second_deal(seed, deck):
        state = eng.new_game(players=players, seed=seed, options=options, deck=deck)
        state = play_on_with_timeouts(eng, state, lambda s: eng.view(s, None)[key] == 2)
        return [eng.view(state, seat)["hand"] for seat in range(players)]

    with_deck, seed_only = second_deal(5, deck), second_deal(5, None)
    assert with_deck == seed_only
    assert second_deal(6, deck) != with_deck
    first = eng.new_game(players=players, seed=5, options=options, deck=deck)
    assert eng.view(first, 0)["hand"] != eng.view(eng.new_game(players=players, seed=5), 0)["hand"]


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_convoy_with_a_deck_does_not_depend_on_the_seed(players):
    eng = get_engine("convoy")
    deck = full_deck("convoy", players)
    random.Random(players).shuffle(deck)
    a = eng.new_game(players=players, seed=1, deck=deck)
    b = eng.new_game(players=players, seed=2, deck=deck)
    chooser = random.Random(players)
    for _ in range(30):
        if eng.is_over(a):
            break
        assert [eng.view(a, s) for s in range(players)] == [eng.view(b, s) for s in range(players)]
        (seat,) = eng.to_act(a)
        move = chooser.choice(eng.legal_moves(a, seat))
        a, b = eng.apply(a, seat, move), eng.apply(b, seat, move)
