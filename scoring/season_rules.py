"""A season's rules: its game's rule options, fixture format, league points and tie-breakers."""

from games.engines import get_engine
from games.engines.options import resolve_options
from leagues.models import Game, Season

from .tiebreakers import TIE_BREAKERS

_RULE_LABELS = {
    Game.CONVOY: (),
    Game.KOROVA: (("edition", "Edition"), ("end_score", "Game ends at")),
    Game.CONQUIAN: (("target", "Single ends at"), ("carry_over", "Drawn deals")),
}
_RULE_VALUES = {
    "edition": {"korova-006": "Корова 006 (55 has 6 heads)", "classic": "Classic (55 has 7 heads)"},
    "carry_over": {
        "double": "double the next deal",
        "add": "add one to the next deal",
        "none": "do not carry over",
    },
}
_RULE_UNITS = {"end_score": " heads", "target": " deal points"}


def _resolved_options(season: Season) -> dict:
    """The season's rule options with the engine's defaults filled in (as stored if invalid)."""
    try:
        return resolve_options(get_engine(season.game).options, season.rule_options)
    except ValueError:
        return dict(season.rule_options or {})


def season_rules(*, season: Season) -> list[tuple[str, str]]:
    """The season's format and rule options as (label, plain words) pairs, defaults filled in."""
    rules = []
    if season.game == Game.CONVOY:
        games = (season.fixture_format or {}).get("games", 1)
        rules.append(("Fixture", "one game" if games == 1 else f"best of {games} games"))
    options = _resolved_options(season)
    for name, label in _RULE_LABELS.get(season.game, ()):
        if name in options:
            value = options[name]
            words = _RULE_VALUES.get(name, {}).get(value, f"{value}{_RULE_UNITS.get(name, '')}")
            rules.append((label, words))
    rules.append(
        ("Points", f"win {season.points_win}, draw {season.points_draw}, loss {season.points_loss}")
    )
    if season.tie_breakers:
        names = [
            TIE_BREAKERS[key].name.lower() if key in TIE_BREAKERS else str(key)
            for key in season.tie_breakers
        ]
        rules.append(("Order", ", then ".join(names)))
    return rules
