"""What a game's demo is made of: its league and a sheet from games the engine plays."""

from typing import NamedTuple, Protocol


class DemoLeague(NamedTuple):
    """The demo league of one game: its name, the season's rule options and fixture format."""

    name: str
    rule_options: dict
    fixture_format: dict


class DemoSheet(Protocol):
    def __call__(
        self,
        *,
        home_player_ids: list[int],
        away_player_ids: list[int],
        rule_options: dict,
        fixture_format: dict,
        seed: int,
    ) -> dict:
        """A realistic sheet for a demo fixture, from games the engine plays at random
        (`seed` makes it the same every time)."""
        ...


class DemoGame(NamedTuple):
    league: DemoLeague
    sheet: DemoSheet
    # What else of a league the demo shows in this game's league ("cup", "walkover", …):
    # each game's own module says, and scoring.demo.demo_game_showing finds it.
    shows: frozenset[str] = frozenset()
