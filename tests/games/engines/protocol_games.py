"""The games, decks and stock of positions (reached by random play) that the protocol contract
tests (test_protocol_contract*.py) run over.
"""

import json
import random
from functools import cache

import pytest
from hypothesis import HealthCheck, settings

from games.engines import get_engine

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

GAMES = [("convoy", 2), ("convoy", 3), ("convoy", 4), ("convoy", 6)]
GAMES += [("korova", 2), ("korova", 5), ("korova", 10), ("conquian", 2)]
GAME_IDS = [f"{name}-{players}" for name, players in GAMES]
each_game = pytest.mark.parametrize(("name", "players"), GAMES, ids=GAME_IDS)

PLAYER_COUNTS = {"convoy": (2, 3, 4, 6), "korova": tuple(range(2, 11)), "conquian": (2,)}
DEFAULT_OPTIONS = {  # docs/rules.md, with the names of docs/engines.md ("The protocol in full")
    "convoy": {"hand_size": 5, "dead_card_exchange": True},
    "korova": {"edition": "korova-006", "end_score": 66, "tactical": False},
    "conquian": {"target": 5, "carry_over": "double", "forcing": True},
}
CHOICES = {"edition": ("korova-006", "classic"), "carry_over": ("double", "add", "none")}
# Small games, so that random play reaches the end (and Корова's row choices) quickly.
QUICK_OPTIONS = {"convoy": {}, "korova": {"end_score": 20}, "conquian": {"target": 2}}
DEAL_NUMBER = {"korova": "round", "conquian": "deal_number"}  # view key of the deal in play

RANKS, SUITS = "A23456789TJQK", "SHDC"
PACK = [rank + suit for suit in SUITS for rank in RANKS]
CONQUIAN_CARDS = [rank + suit for suit in SUITS for rank in "A234567JQK"]


def full_deck(name, players, options=None):
    """Every card in play for a game, from docs/rules.md."""
    if name == "convoy":
        return PACK * 2 + ["X"] * 4
    if name == "korova":
        tactical = (options or {}).get("tactical", False)
        return list(range(1, 10 * players + 5 if tactical else 105))
    return list(CONQUIAN_CARDS)


def rules_heads(card, edition):
    """Корова penalty heads, as docs/rules.md lists them."""
    if card == 55:
        return 6 if edition == "korova-006" else 7
    if card % 11 == 0:
        return 5
    return 3 if card % 10 == 0 else 2 if card % 5 == 0 else 1


def sides_of(name, players):
    if name != "convoy":
        return players
    return 3 if players % 3 == 0 else 2


def roundtrip(value):
    return json.loads(json.dumps(value, allow_nan=False))


def keys_at_any_depth(value):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from keys_at_any_depth(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys_at_any_depth(inner)


# -- random play and a stock of positions ----------------------------------------------------


def play(eng, name, players, seed, chooser_seed, timeout_rate=0.1, options=None, prefer=None):
    """One random game from legal moves and time-outs: the states met and the log. Moves with
    the key `prefer` are chosen nine times out of ten when there are some."""
    chooser = random.Random(chooser_seed)
    options = QUICK_OPTIONS[name] if options is None else options
    state = eng.new_game(players=players, seed=seed, options=options)
    states, log = [state], []
    while not eng.is_over(state):
        seat = chooser.choice(eng.to_act(state))
        if chooser.random() < timeout_rate:
            state, move = eng.timeout(state, seat), None
        else:
            moves = eng.legal_moves(state, seat)
            preferred = [move for move in moves if prefer in move]
            if preferred and chooser.random() < 0.9:
                moves = preferred
            move = chooser.choice(moves)
            state = eng.apply(state, seat, move)
        states.append(state)
        log.append((seat, move))
    return states, log


def kinds_of(eng, name, state):
    """Labels of the situations a position shows, read through the protocol."""
    if eng.is_over(state):
        return {"over"}
    view = eng.view(state, None)
    moves = [m for seat in eng.to_act(state) for m in eng.legal_moves(state, seat)]
    kinds = set()
    if name == "convoy":
        kinds |= {key for move in moves for key in move if key in ("remove", "exchange", "pass")}
        if view["stock"] == 0:
            kinds.add("deck used up")
        if any(move.get("card") == "X" for move in moves):
            kinds.add("joker")
    elif name == "korova":
        if view["pending_row_choice"] is not None:
            kinds.add("row choice")
        elif len(eng.to_act(state)) < view["players"]:
            kinds.add("some picked")
    else:
        kinds.add(view["phase"])
        if any("force" in move for move in moves):
            kinds.add("may force")
    return kinds


@cache
def positions(name, players):
    """(label, state) pairs at several points of random games: the start, mid-game, every
    kind of decision the game has (a row choice, a discard, a forced card, a remover...) and
    the end. Deterministic."""
    eng = get_engine(name)
    found: dict[str, list] = {}
    for seed in range(40):
        # every other game prefers removals (so that a Convoy deck runs out) or forcing
        prefer = {"convoy": "remove", "conquian": "force"}.get(name) if seed % 2 else None
        states, _ = play(eng, name, players, seed, seed, timeout_rate=0.05, prefer=prefer)
        found.setdefault("start", []).append(states[0])
        found.setdefault("mid-game", []).append(states[len(states) // 2])
        for state in states[1:]:
            for kind in kinds_of(eng, name, state):
                if len(found.setdefault(kind, [])) < 3:
                    found[kind].append(state)
        if seed >= 6 and all(len(v) >= 3 for v in found.values()):
            break
    return [(label, state) for label, states in found.items() for state in states[:3]]


def playing_positions(name, players):
    return [(label, s) for label, s in positions(name, players) if label != "over"]
