"""The fixture's day: a result (and a live table) waits for it.

A result is taken from the fixture's (local) day on: a match is played that evening. A league
admin may record one earlier (a match played ahead of its date by agreement); a live table's
result is the game as it was played, whenever that was. scoring.results.services (a result),
scoring.results.walkovers (a walkover) and games.live (the fixture's tables) raise
BeforeFixtureDay through here.
"""

import datetime

from django.core.exceptions import PermissionDenied
from django.utils import dateformat
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from config.errors import Conflict
from leagues.models import Fixture
from leagues.permissions import AnyUser, is_league_admin
from scoring.results.selectors import fixture_day_to_come


class BeforeFixtureDay(Conflict):
    """The fixture's day has not come: a result for it is refused (a league admin may override).

    `fixture_day` is the local date the fixture is played on; `waiting` says what waits for it;
    `override` (a sentence) tells a client how to go ahead anyway, where one may.
    """

    code = "before_fixture_day"

    def __init__(
        self,
        *,
        fixture_day: datetime.date,
        waiting: str = "its result can be entered",
        override: str | None = None,
    ):
        self.fixture_day = fixture_day
        extra: dict[str, object] = {"fixture_day": fixture_day.isoformat()}
        if override is not None:
            extra["before_fixture_day"] = [override]
        day = dateformat.format(fixture_day, pgettext("date format", "D j M Y"))
        if waiting == "its tables open":
            sentence = _("This fixture is on %(day)s: its tables open on that day only.")
        elif waiting == "its result can be entered":
            sentence = _("This fixture is on %(day)s: its result can be entered from that day on.")
        else:
            sentence = _("This fixture is on %(day)s: %(waiting)s from that day on.")
        super().__init__(sentence % {"day": day, "waiting": waiting}, extra=extra)


def ensure_fixture_day_has_come(
    *, fixture: Fixture, waiting: str = "its result can be entered"
) -> None:
    """Raise BeforeFixtureDay while the fixture's (local) day has not come: the one rule for
    what waits for that day, a person's result and the fixture's live tables alike."""
    fixture_day = fixture_day_to_come(fixture=fixture)
    if fixture_day is not None:
        raise BeforeFixtureDay(fixture_day=fixture_day, waiting=waiting)


def ensure_fixture_day_or_admin_override(
    *, fixture: Fixture, by: AnyUser | None, override: bool
) -> None:
    """A person's result waits for the fixture's day; a live table's is the game as played.
    `override` (a league admin's before_fixture_day) records it earlier: PermissionDenied for
    anyone else who asks."""
    try:
        ensure_fixture_day_has_come(fixture=fixture)
    except BeforeFixtureDay as early:
        if not override:
            raise BeforeFixtureDay(
                fixture_day=early.fixture_day,
                override=_("A league admin may record it earlier with before_fixture_day: true."),
            ) from None
        if not is_league_admin(user=by):
            raise PermissionDenied(
                _("Only a league admin may record a result before the fixture's day.")
            ) from None
