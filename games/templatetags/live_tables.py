"""Template tags for the pages of other apps that show live play: the fixture page's link to
its tables (templates/games/_fixture_link.html) and a player's finished tables on their page
(templates/games/_player_tables.html), and the held tables on the staff's list of fixtures
(templates/games/_held_tables.html), so that scoring's pages import nothing of games."""

import datetime
from typing import Any

from django import template
from django.utils import timezone

from games.live.pages.convoy import square_list_words
from games.live.table_lists import finished_tables_of_player, held_tables_of_fixture
from leagues.models import Player
from scoring.results.selectors import fixture_day_to_come

register = template.Library()


@register.simple_tag
def tables_open_on(fixture) -> datetime.date | None:
    """The day a fixture's live tables open while it is still to come, else None: the fixture's
    day, as for entering its result (games/live/fixture_day.py)."""
    return fixture_day_to_come(fixture=fixture)


@register.simple_tag
def tables_day_passed(fixture) -> datetime.date | None:
    """The fixture's day once it has passed, else None: its tables opened on that day only
    (games/live/fixture_day.py); staff move a fixture played late to a new date."""
    day = timezone.localdate(fixture.starts_at)
    return day if day < timezone.localdate() else None


@register.simple_tag
def finished_tables_of(player: Player) -> list[dict[str, Any]]:
    """The player's finished live tables, newest first, each with its result for them."""
    return finished_tables_of_player(player=player)


@register.simple_tag
def held_tables_of(fixture) -> list[dict[str, Any]]:
    """The fixture's held live tables and the claims on their seats, for its venue's staff."""
    return held_tables_of_fixture(fixture_id=fixture.pk)


@register.filter
def squares_words(squares) -> str:
    """Convoy's board squares ([row, column] from 0) in words: "row 1 column 2 and row 3 column
    4", in the page's language."""
    return square_list_words(squares)
