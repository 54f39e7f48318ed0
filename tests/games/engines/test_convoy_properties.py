"""Convoy: properties that hold in random games (seeded random choice of moves and time-outs)."""

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import IllegalMove, get_engine
from games.engines.convoy import COUNTERS_PER_SIDE, FULL_DECK

ENGINE = get_engine("convoy")
CARDS = sorted(set(FULL_DECK))

games = st.fixed_dictionaries(
    {
        "players": st.sampled_from([2, 3, 4, 6]),
        "seed": st.integers(0, 10**6),
        "options": st.fixed_dictionaries(
            {"hand_size": st.integers(3, 7), "dead_card_exchange": st.booleans()}
        ),
        "chooser": st.integers(0, 10**6),
        "timeout_rate": st.sampled_from([0.0, 0.05, 0.3]),
    }
)
SETTINGS = settings(max_examples=30, deadline=None)


def play(game, on_step=None, max_steps=400):
    """Play a random game; returns the final state and the log of (seat, move or None)."""
    chooser = random.Random(game["chooser"])
    state = ENGINE.new_game(players=game["players"], seed=game["seed"], options=game["options"])
    log = []
    while not ENGINE.is_over(state) and len(log) < max_steps:
        (seat,) = ENGINE.to_act(state)
        if chooser.random() < game["timeout_rate"]:
            move, after = None, ENGINE.timeout(state, seat)
        else:
            move = chooser.choice(ENGINE.legal_moves(state, seat))
            after = ENGINE.apply(state, seat, move)
        log.append((seat, move))
        if on_step:
            on_step(state, seat, move, after, chooser)
        state = after
    return state, log


def stock_of(data):
    return data["deck"][data["drawn"] :]


def check_conservation(state):
    data = ENGINE.dump(state)
    places = stock_of(data) + data["discards"] + [card for hand in data["hands"] for card in hand]
    assert Counter(places) == Counter(FULL_DECK)
    view = ENGINE.view(state, None)
    on_board = Counter(
        square["counter"]
        for board_row in view["board"]
        for square in board_row
        if square["counter"] is not None
    )
    for side, left in enumerate(view["counters_left"]):
        assert 0 <= left and on_board[side] + left == COUNTERS_PER_SIDE
    in_convoys = {tuple(sq) for convoy in view["convoy_cells"] for sq in convoy["cells"]}
    locked = {
        (r, c)
        for r, board_row in enumerate(view["board"])
        for c, square in enumerate(board_row)
        if square["locked"]
    }
    assert locked == {sq for sq in in_convoys if view["board"][sq[0]][sq[1]]["card"] != "ROUNDEL"}
    assert view["convoys"] == [
        sum(convoy["side"] == side for convoy in view["convoy_cells"])
        for side in range(view["sides"])
    ]


@SETTINGS
@given(games)
def test_every_card_and_counter_is_in_exactly_one_place(game):
    def check(state, seat, move, after, chooser):
        check_conservation(after)

    final, _ = play(game, check)
    check_conservation(final)


@SETTINGS
@given(games)
def test_apply_and_timeout_never_change_their_input(game):
    def check(state, seat, move, after, chooser):
        before = json.dumps(ENGINE.dump(state))
        ENGINE.timeout(state, seat)
        for other in ENGINE.legal_moves(state, seat)[:5]:
            ENGINE.apply(state, seat, other)
        assert json.dumps(ENGINE.dump(state)) == before

    play(game, check)


@SETTINGS
@given(games)
def test_load_of_dump_round_trips(game):
    def check(state, seat, move, after, chooser):
        data = json.loads(json.dumps(ENGINE.dump(after)))
        assert len(json.dumps(data)) <= 16 * 1024
        assert ENGINE.load(data) == after
        assert ENGINE.dump(ENGINE.load(data)) == data

    play(game, check)


@SETTINGS
@given(games)
def test_replaying_the_log_gives_the_same_state(game):
    final, log = play(game)
    state = ENGINE.new_game(players=game["players"], seed=game["seed"], options=game["options"])
    for seat, move in log:
        state = ENGINE.timeout(state, seat) if move is None else ENGINE.apply(state, seat, move)
    assert state == final
    assert ENGINE.dump(state) == ENGINE.dump(final)


@SETTINGS
@given(games)
def test_a_view_does_not_depend_on_hidden_cards_the_deck_order_or_the_seed(game):
    def check(state, seat, move, after, chooser):
        data = ENGINE.dump(after)
        viewer = chooser.randrange(data["players"])
        others = [s for s in range(data["players"]) if s != viewer and data["hands"][s]]
        stock_start = data["drawn"]
        if not others or stock_start >= len(data["deck"]):
            return
        edited = json.loads(json.dumps(data))
        other = chooser.choice(others)
        # swap a card of another seat's hand with one in the draw pile, reorder the pile
        hand_index = chooser.randrange(len(edited["hands"][other]))
        deck_index = chooser.randrange(stock_start, len(edited["deck"]))
        edited["hands"][other][hand_index], edited["deck"][deck_index] = (
            edited["deck"][deck_index],
            edited["hands"][other][hand_index],
        )
        pile = edited["deck"][stock_start:]
        chooser.shuffle(pile)
        edited["deck"][stock_start:] = pile
        edited["seed"] = data["seed"] + 1
        twin = ENGINE.load(edited)
        assert ENGINE.view(twin, viewer) == ENGINE.view(after, viewer)
        assert ENGINE.view(twin, None) == ENGINE.view(after, None)

    play(game, check)


@SETTINGS
@given(games)
def test_no_view_holds_the_deck_order_or_the_seed(game):
    def check(state, seat, move, after, chooser):
        data = ENGINE.dump(after)
        stock = stock_of(data)
        for viewer in [None, *range(data["players"])]:
            view = ENGINE.view(after, viewer)
            text = json.dumps(view)
            assert '"deck"' not in text and '"seed"' not in text
            if len(stock) >= 8:  # the next eight draws, in order, appear nowhere
                assert json.dumps(stock[:8])[1:-1] not in text

    play(game, check, max_steps=60)


@SETTINGS
@given(games)
def test_a_timeout_always_leaves_a_legal_continuation(game):
    def check(state, seat, move, after, chooser):
        timed_out = ENGINE.timeout(state, seat)
        if ENGINE.is_over(timed_out):
            assert ENGINE.to_act(timed_out) == []
            return
        (next_seat,) = ENGINE.to_act(timed_out)
        assert next_seat == (seat + 1) % state["players"]
        moves = ENGINE.legal_moves(timed_out, next_seat)
        assert moves
        ENGINE.apply(timed_out, next_seat, chooser.choice(moves))

    play(game, check)


def _normal(move):
    """A move with its removal squares in a fixed order (apply takes them in any order)."""
    if isinstance(move, dict) and isinstance(move.get("remove"), list):
        return json.dumps({**move, "remove": sorted(move["remove"])}, sort_keys=True)
    return json.dumps(move, sort_keys=True)


def _random_move(chooser, hand):
    card = chooser.choice(hand) if hand and chooser.random() < 0.8 else chooser.choice(CARDS)
    square = [chooser.randrange(10), chooser.randrange(10)]
    kind = chooser.randrange(4)
    if kind == 0:
        return {"card": card, "square": square}
    if kind == 1:
        return {
            "card": card,
            "remove": [
                [chooser.randrange(10), chooser.randrange(10)] for _ in range(chooser.randint(1, 2))
            ],
        }
    if kind == 2:
        return {"card": card, "exchange": True}
    return {"pass": True}


@SETTINGS
@given(games)
def test_apply_takes_exactly_the_legal_moves(game):
    def check(state, seat, move, after, chooser):
        moves = ENGINE.legal_moves(state, seat)
        assert json.loads(json.dumps(moves)) == moves
        legal = {_normal(m) for m in moves}
        assert len(legal) == len(moves)
        for listed in chooser.sample(moves, min(3, len(moves))):
            ENGINE.apply(state, seat, listed)
        hand = ENGINE.view(state, seat)["hand"]
        for _ in range(8):
            candidate = _random_move(chooser, hand)
            try:
                ENGINE.apply(state, seat, candidate)
            except IllegalMove:
                assert _normal(candidate) not in legal
            else:
                assert _normal(candidate) in legal
        for other in range(state["players"]):
            if other != seat:
                assert ENGINE.legal_moves(state, other) == []

    play(game, check)


@SETTINGS
@given(games)
def test_random_games_end_with_a_sound_outcome(game):
    final, _ = play({**game, "timeout_rate": 0.0}, max_steps=1000)
    assert ENGINE.is_over(final)
    outcome = ENGINE.outcome(final)
    sides = ENGINE.view(final, None)["sides"]
    assert len(outcome["scores"]) == sides
    if outcome["draw"]:
        assert outcome["winners"] == []
    else:
        side = outcome["winners"][0] % sides
        assert outcome["winners"] == list(range(side, game["players"], sides))
        assert outcome["scores"][side] == max(outcome["scores"])
