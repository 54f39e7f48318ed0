"""Properties of random Корова games: conservation, purity, round trips, replays, secrecy."""

import json
import random
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines import IllegalMove, korova
from games.engines.korova import ENGINE, deck_heads

SETTINGS = settings(max_examples=60, deadline=None)

games = st.fixed_dictionaries(
    {
        "players": st.integers(2, 10),
        "seed": st.integers(0, 2**32),
        "options": st.fixed_dictionaries(
            {
                "edition": st.sampled_from(korova.EDITIONS),
                "end_score": st.integers(1, 45),
                "tactical": st.booleans(),
            }
        ),
        "chooser": st.integers(0, 2**32),
        "timeout_rate": st.sampled_from([0.0, 0.2, 1.0]),
    }
)


def play(game, on_state=None):
    """A random game: random legal moves, some time-outs. Returns (final state, log)."""
    chooser = random.Random(game["chooser"])
    state = ENGINE.new_game(game["players"], game["seed"], game["options"])
    log = []
    if on_state:
        on_state(state)
    while not ENGINE.is_over(state):
        seat = chooser.choice(ENGINE.to_act(state))
        if chooser.random() < game["timeout_rate"]:
            move = None
            state = ENGINE.timeout(state, seat)
        else:
            move = chooser.choice(ENGINE.legal_moves(state, seat))
            state = ENGINE.apply(state, seat, move)
        log.append((seat, move))
        if on_state:
            on_state(state)
    return state, log


def places(state):
    """Every card in play, each time it occurs in a hand, row, pick, unplaced reveal, pile, aside."""
    cards = [card for hand in state.hands for card in hand]
    cards += [card for row in state.rows for card in row]
    cards += [card for card, _ in state.picks]
    if state.pending is not None:
        cards += [card for card, _ in state.reveal[state.pending :]]
    cards += [card for pile in state.piles for card in pile]
    return cards + list(state.aside)


def heads_of(state, cards):
    return sum(state.setup.heads[card] for card in cards)


@SETTINGS
@given(games)
def test_every_card_in_play_is_in_exactly_one_place(game):
    def check(state):
        assert sorted(places(state)) == list(state.setup.cards)

    play(game, check)


@SETTINGS
@given(games)
def test_at_every_round_end_heads_taken_rows_and_aside_add_up_to_the_deck(game):
    original = korova._end_round
    rounds = []

    def check(finished):
        cards = finished.setup.cards
        assert all(hand == () for hand in finished.hands) and finished.picks == ()
        taken = heads_of(finished, [card for pile in finished.piles for card in pile])
        on_table = heads_of(finished, [card for row in finished.rows for card in row])
        total = taken + on_table + heads_of(finished, finished.aside)
        assert total == deck_heads(finished.setup.edition, cards)
        if not finished.setup.tactical:
            assert total == {"korova-006": 170, "classic": 171}[finished.setup.edition]
        after = original(finished)
        assert sum(after.sheet[-1]) == taken
        rounds.append(after)
        return after

    with mock.patch.object(korova, "_end_round", check):
        final, _ = play(game)
    assert rounds and rounds[-1] == final
    assert len(final.sheet) == final.round == len(rounds)


@SETTINGS
@given(games)
def test_apply_and_timeout_never_change_their_input(game):
    chooser = random.Random(game["chooser"])
    state = ENGINE.new_game(game["players"], game["seed"], game["options"])
    while not ENGINE.is_over(state):
        before = json.dumps(ENGINE.dump(state))
        seat = chooser.choice(ENGINE.to_act(state))
        ENGINE.timeout(state, seat)
        state_after = ENGINE.apply(state, seat, chooser.choice(ENGINE.legal_moves(state, seat)))
        assert json.dumps(ENGINE.dump(state)) == before
        state = state_after


@SETTINGS
@given(games)
def test_load_of_dump_round_trips_through_json(game):
    def check(state):
        data = ENGINE.dump(state)
        text = json.dumps(data)
        assert len(text) <= 16 * 1024
        assert ENGINE.load(json.loads(text)) == state
        assert ENGINE.dump(ENGINE.load(json.loads(text))) == data

    play(game, check)


@SETTINGS
@given(games)
def test_replaying_the_log_gives_the_same_state(game):
    final, log = play(game)
    state = ENGINE.new_game(game["players"], game["seed"], game["options"])
    for seat, move in log:
        state = ENGINE.timeout(state, seat) if move is None else ENGINE.apply(state, seat, move)
    assert state == final
    assert ENGINE.dump(state) == ENGINE.dump(final)
    assert ENGINE.outcome(state) == ENGINE.outcome(final)


def swap_hidden_cards(state, viewer, rng):
    """A state that differs from `state` only in cards `viewer` may not see, or None."""
    data = ENGINE.dump(state)
    n = data["players"]
    others = [seat for seat in range(n) if seat != viewer]
    hidden = []  # (list, index) of cards hidden from viewer: other hands, other picks, aside
    for seat in others:
        hidden += [(data["hands"][seat], i) for i in range(len(data["hands"][seat]))]
    hidden += [(pick, 0) for pick in data["picks"] if pick[1] != viewer]
    hidden += [(data["aside"], i) for i in range(len(data["aside"]))]
    if len(hidden) < 2:
        return None
    (a, i), (b, j) = rng.sample(hidden, 2)
    a[i], b[j] = b[j], a[i]
    for seat in others:
        data["hands"][seat].sort()
    return ENGINE.load(data)


@SETTINGS
@given(games)
def test_a_view_does_not_change_when_only_hidden_cards_of_others_differ(game):
    rng = random.Random(game["seed"])

    def check(state):
        if ENGINE.is_over(state):
            return
        for viewer in (rng.randrange(game["players"]), None):
            other = swap_hidden_cards(state, viewer, rng)
            if other is not None:
                assert ENGINE.view(other, viewer) == ENGINE.view(state, viewer)

    play(game, check)


def keys_of(value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from keys_of(item)
    elif isinstance(value, list):
        for item in value:
            yield from keys_of(item)


@SETTINGS
@given(games)
def test_no_view_holds_the_deck_order_the_set_aside_cards_or_the_seed(game):
    def check(state):
        aside = list(state.aside)
        for seat in [*range(game["players"]), None]:
            view = ENGINE.view(state, seat)
            text = json.dumps(view)
            assert not {"deck", "seed"} & set(keys_of(view))
            shown = [card for row in view["rows"] for card in row] + view.get("hand", [])
            shown += [item["card"] for item in view["revealed"]]
            if not (state.turn == 1 and state.pending is None):
                # (at turn 1, last_turn shows the end of the previous round: old, public cards)
                shown += [item["card"] for item in view["last_turn"]]
            assert not set(shown) & set(aside)
            if len(aside) >= 2:
                assert json.dumps(aside)[1:-1] not in text
            if view.get("my_pick") is not None:
                assert view["my_pick"] not in aside

    play(game, check)


@SETTINGS
@given(games)
def test_timeouts_and_legal_moves_always_continue_the_game(game):
    chooser = random.Random(game["chooser"])

    def check(state):
        if ENGINE.is_over(state):
            assert ENGINE.to_act(state) == []
            return
        acting = ENGINE.to_act(state)
        assert acting
        for seat in range(game["players"]):
            moves = ENGINE.legal_moves(state, seat)
            assert bool(moves) == (seat in acting)
        seat = chooser.choice(acting)
        moves = ENGINE.legal_moves(state, seat)
        after = ENGINE.timeout(state, seat)
        assert any(after == ENGINE.apply(state, seat, move) for move in moves)
        assert ENGINE.is_over(after) or ENGINE.to_act(after)
        # A card that is not the player's is refused.
        if state.pending is None:
            mine = {move["card"] for move in moves}
            stranger = chooser.choice([c for c in range(0, 106) if c not in mine])
            try:
                ENGINE.apply(state, seat, {"card": stranger})
            except IllegalMove:
                pass
            else:
                raise AssertionError(f"{stranger} was accepted")

    play(game, check)
