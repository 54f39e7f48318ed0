"""The Convoy bot: build its own convoys, block the opponents', spend jacks with care.

Every square is scored by the windows (lines and squares of four) through it:
- attack: each window still open to the bot's side (no other side's counter, and
  one the sharing rule would count) is worth more the fewer cells it lacks; the
  cell that completes a convoy is worth most, and one that wins the game more still;
- defence: each window an opponent could still complete is worth blocking, the
  more so the closer the opponent is (one cell short is nearly as urgent as a
  convoy of one's own).
A removing jack is scored by the opponent windows the removed counter stood in
(and the bot's own windows it reopens). Jacks and jokers pay a price, so a plain
card is played unless the jack buys a convoy, a block or a strong build. A dead
card is always exchanged first (the bot then plays again); it passes only when
that is the only move.
"""

import random

from games.engines import convoy_board as board
from games.engines.convoy import ConvoyView
from games.engines.protocol import Move

# Value of a window by the cells it still lacks once the bot's counter is down.
ATTACK = {0: 1000.0, 1: 40.0, 2: 8.0, 3: 1.0}
WIN = 100_000.0
# Value of covering a cell in a window an opponent could complete, by the cells it lacks.
BLOCK = {1: 500.0, 2: 15.0, 3: 2.0, 4: 0.5}
# Value of removing an opponent counter, by the cells its windows lack before the removal.
UNDO = {1: 450.0, 2: 12.0, 3: 1.0}
# What a card spent on a square or a removal costs, by card (plain cards cost nothing).
PLACE_COST = {"JC": 60.0, "JD": 60.0, "X": 90.0}
REMOVE_COST = {"JS": 50.0, "JH": 50.0, "X": 90.0}
EXCHANGE = 1_000_000.0


def choose(*, view: ConvoyView, legal: list[Move], rng: random.Random) -> Move:
    position = _Position(view)
    scored = []
    for move in legal:
        if "square" in move:
            row, column = move["square"]
            value = position.place_value(row * board.SIZE + column) - PLACE_COST.get(
                move["card"], 0.0
            )
        elif "remove" in move:
            cells = [row * board.SIZE + column for row, column in move["remove"]]
            value = sum(position.remove_value(cell) for cell in cells) - REMOVE_COST[move["card"]]
        elif "exchange" in move:
            value = EXCHANGE
        else:  # a pass, offered only when there is nothing else
            value = 0.0
        scored.append((value, move))
    best = max(value for value, _ in scored)
    return rng.choice([move for value, move in scored if value == best])


class _Position:
    """The board as the bot's seat sees it, as bit masks, with per-cell scores cached."""

    def __init__(self, view: ConvoyView):
        self.side = view["side"]
        self.sides = view["sides"]
        self.placed = [0] * self.sides
        self.locked = 0
        for cell, square in enumerate(sq for row in view["board"] for sq in row):
            if square["counter"] is not None:
                self.placed[square["counter"]] |= 1 << cell
            if square["locked"]:
                self.locked |= 1 << cell
        self.occupied = 0
        for mask in self.placed:
            self.occupied |= mask
        # per cell, the shapes of the convoys through it (for the sharing rule)
        self.shapes = [0] * (board.SIZE * board.SIZE)
        for convoy in view["convoy_cells"]:
            cells = tuple(row * board.SIZE + column for row, column in convoy["cells"])
            shape = board.WINDOWS[board.WINDOW_INDEX[cells]][1]
            for cell in cells:
                self.shapes[cell] |= shape
        self.one_from_win = [count + 1 >= view["convoys_to_win"] for count in view["convoys"]]
        self._place_values: dict[int, float] = {}
        self._remove_values: dict[int, float] = {}

    def _can_count(self, mask: int, shape: int) -> bool:
        """Whether a window would count as a convoy under the sharing rule, once complete."""
        shared = mask & self.locked
        if not shared:
            return True
        if shared & (shared - 1):
            return False
        return not self.shapes[shared.bit_length() - 1] & shape

    def place_value(self, cell: int) -> float:
        if cell not in self._place_values:
            empty_window_blocks = len(self.placed) - 1  # every opponent could use it
            value = 0.0
            for mask, shape, _ in board.WINDOWS_THROUGH[cell]:
                held = self.occupied & mask
                if not held:
                    lacking = mask.bit_count()
                    value += ATTACK[lacking - 1] + empty_window_blocks * BLOCK[lacking]
                    continue
                owner = self._sole_owner(held)
                if owner is None or not self._can_count(mask, shape):
                    continue  # two sides in it, or it would never count
                lacking = (mask & ~held).bit_count()  # the cell itself included
                if owner == self.side:
                    value += ATTACK[lacking - 1]
                    if lacking == 1 and self.one_from_win[owner]:
                        value += WIN
                else:
                    value += BLOCK[lacking]
                    if lacking == 1 and self.one_from_win[owner]:
                        value += WIN / 2
            self._place_values[cell] = value
        return self._place_values[cell]

    def _sole_owner(self, held: int) -> int | None:
        """The side holding every counter of `held`, or None when two sides share it."""
        for side, own in enumerate(self.placed):
            if own & held:
                return side if own & held == held else None
        return None

    def remove_value(self, cell: int) -> float:
        if cell not in self._remove_values:
            owner = next(side for side, own in enumerate(self.placed) if own >> cell & 1)
            rest = self.occupied & ~(1 << cell)
            value = 0.0
            for mask, shape, _ in board.WINDOWS_THROUGH[cell]:
                if not self._can_count(mask, shape):
                    continue
                theirs = self.placed[owner]
                if not rest & ~theirs & mask:
                    lacking = (mask & ~theirs).bit_count()
                    value += UNDO.get(lacking, 0.0) + (
                        WIN / 2 if lacking == 1 and self.one_from_win[owner] else 0
                    )
                ours = self.placed[self.side]
                if not rest & ~ours & mask:
                    value += ATTACK[(mask & ~ours).bit_count() - 1] / 4
            self._remove_values[cell] = value
        return self._remove_values[cell]
