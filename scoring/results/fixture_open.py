"""Whether a fixture takes a result now: a void one takes none, and a postponed one none from
its live tables (scoring.results.services raises FixtureNotOpen through here)."""

from django.utils.translation import gettext as _

from config.errors import Conflict
from leagues.models import Fixture
from scoring.models import ResultVersion


class FixtureNotOpen(Conflict):
    """The fixture takes no result: it is void, or (for a live table's) postponed (409)."""


def ensure_fixture_takes_result(*, fixture: Fixture, source: str) -> None:
    """A void fixture takes no result; nor does a postponed one from its live tables, whose
    game is off until the fixture is back on (a person may still record a postponed fixture's
    result: it was played after all). A live game begun on the fixture's day that ends after
    midnight is the game as played: no day check here."""
    if fixture.status == Fixture.Status.VOID:
        raise FixtureNotOpen(_("This fixture is void: it takes no result."))
    if source == ResultVersion.Source.LIVE and fixture.status == Fixture.Status.POSTPONED:
        raise FixtureNotOpen(_("This fixture is postponed: its live tables' result is not taken."))
