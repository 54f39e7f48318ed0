"""Корова situations built for the test_korova*.py tests: fixed decks, first-round states with
given hands and rows, whole turns, and where every card in play is.
"""

from games.engines.korova import ENGINE

ALL_CARDS = list(range(1, 105))


def deck_for(hands, rows, cards=ALL_CARDS):
    """A fixed deck that deals `hands` (10 cards each) and starts the rows with `rows`."""
    n = len(hands)
    deck = [hands[seat][k] for k in range(10) for seat in range(n)] + list(rows)
    used = set(deck)
    return deck + [card for card in cards if card not in used]


def arrange(hands, rows, options=None):
    """A first-round state with these hands and rows (rows may hold several cards).

    Built through the protocol (a fixed deck), then the extra row cards are moved
    from the set-aside cards into the rows by editing the dump.
    """
    state = ENGINE.new_game(
        len(hands), seed=1, options=options, deck=deck_for(hands, [r[0] for r in rows])
    )
    data = ENGINE.dump(state)
    extra = {card for row in rows for card in row[1:]}
    assert extra <= set(data["aside"]), "row cards must come from the set-aside cards"
    data["rows"] = [list(row) for row in rows]
    data["aside"] = [card for card in data["aside"] if card not in extra]
    return ENGINE.load(data)


LOW_ROWS = [[12], [20], [30], [40]]  # above every card of hand(1)


def hand(first, step=1):
    return [first + step * k for k in range(10)]


def play_turn(state, cards):
    """Every seat picks its card (seat order); returns the state after the reveal."""
    for seat, card in enumerate(cards):
        state = ENGINE.apply(state, seat, {"card": card})
    return state


def card_places(state):
    """Every card in play, by where it is; each must be in exactly one place."""
    places = [card for h in state.hands for card in h]
    places += [card for row in state.rows for card in row]
    places += [card for card, _ in state.picks]
    if state.pending is not None:
        places += [card for card, _ in state.reveal[state.pending :]]
    places += [card for pile in state.piles for card in pile]
    places += list(state.aside)
    return places


def finish_round(state):
    """Play time-outs until the round ends (or the game)."""
    round_no = state.round
    while not ENGINE.is_over(state) and state.round == round_no:
        state = ENGINE.timeout(state, ENGINE.to_act(state)[0])
    return state
