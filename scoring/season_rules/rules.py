"""A season's rules: its game's rule options, the fixture format, league points and the
tie-breakers that order its table.

`season_rules_check` is the one place these are checked (the admin's form asks it to show a
refusal next to its field); `season_rules_set` writes them; `season_rules_describe` puts them
in plain words for the season's page. The game's part comes from the engine's options
(`get_engine(game).options`, and the clock of its fixtures' tables) and the game's kind (`scoring.kinds.get_kind(game)`).
"""

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from leagues.models import Season
from leagues.permissions import can_set_season_rules
from scoring.kinds import get_kind
from scoring.models import ResultVersion
from scoring.standings.tiebreakers import TIE_BREAKERS, tie_breaker_chain

POINTS_FIELDS = ("points_win", "points_draw", "points_loss")
MAX_POINTS = 99


@dataclass(frozen=True)
class SeasonRules:
    rule_options: dict
    fixture_format: dict
    points_win: int
    points_draw: int
    points_loss: int
    tie_breakers: list


def sentence(error: Exception) -> str:
    """An engine's or a kind's message ("option 'x' must be…") as a sentence."""
    text = str(error).rstrip(".")
    return f"{text[:1].upper()}{text[1:]}."


def ensure_can_set_season_rules(*, user) -> None:
    """League admins and whoever may change seasons set a season's rules
    (leagues.permissions.can_set_season_rules). `user` None means the command line."""
    if user is None or can_set_season_rules(user=user):
        return
    raise PermissionDenied(_("Only league admins can change a season's rules."))


def season_rules_check(
    *,
    game: str,
    rule_options,
    fixture_format,
    points_win,
    points_draw,
    points_loss,
    tie_breakers,
) -> SeasonRules:
    """The rules, checked. ValidationError maps each field at fault to one sentence: a rule
    option's error is keyed "rule_options.<name>", so that it can sit next to that option.

    Only the options given are kept: the others follow the engine's defaults.
    """
    kind = get_kind(game)
    errors: dict[str, str] = {}
    options = {}
    if not isinstance(rule_options, dict):
        errors["rule_options"] = _("Give the rule options as names and values.")
    else:
        declared = {option.name: option for option in kind.season_options}
        for name, value in rule_options.items():
            option = declared.get(name)
            if option is None:
                known = ", ".join(declared)
                errors["rule_options"] = _("%(game)s has no option %(name)s; it has %(known)s.") % {
                    "game": kind.label,
                    "name": repr(name),
                    "known": known,
                }
                continue
            try:
                options[name] = option.check(value)
            except ValueError as error:
                errors[f"rule_options.{name}"] = sentence(error)
    try:
        clean_format = kind.check_fixture_format(fixture_format)
    except ValueError as error:
        errors["fixture_format"] = sentence(error)
    points = {"points_win": points_win, "points_draw": points_draw, "points_loss": points_loss}
    for name, value in points.items():
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_POINTS:
            errors[name] = _("Give a whole number from 0 to %(most)s.") % {"most": MAX_POINTS}
    if not errors.keys() & set(POINTS_FIELDS) and not points_win >= points_draw >= points_loss:
        errors["points_draw"] = _("Points must go win ≥ draw ≥ loss.")
    try:
        tie_breaker_chain(tie_breakers)
    except ValueError as error:
        errors["tie_breakers"] = sentence(error)
    if errors:
        raise ValidationError(errors)
    return SeasonRules(
        rule_options=options,
        fixture_format=clean_format,
        tie_breakers=list(tie_breakers),
        **points,
    )


@transaction.atomic
def season_rules_set(
    *,
    season_id: int,
    rule_options,
    fixture_format,
    points_win,
    points_draw,
    points_loss,
    tie_breakers,
    by,
) -> Season:
    """Set a season's rules, with who and a summary of the change in its history.

    Once the season has a result, its game's rule options and fixture format stay as they are
    (the results were checked against them); points and tie-breakers may still change, and the
    table follows at once. Raises PermissionDenied unless `by` is a league admin, and
    ValidationError (see season_rules_check) otherwise; nothing is written then.
    """
    ensure_can_set_season_rules(user=by)
    try:
        season = Season.objects.select_for_update().select_related("league").get(pk=season_id)
    except (Season.DoesNotExist, ValueError, TypeError):
        raise ValidationError({"season_id": _("There is no such season.")})
    rules = season_rules_check(
        game=season.game,
        rule_options=rule_options,
        fixture_format=fixture_format,
        points_win=points_win,
        points_draw=points_draw,
        points_loss=points_loss,
        tie_breakers=tie_breakers,
    )
    game_rules_change = (rules.rule_options, rules.fixture_format) != (
        season.rule_options,
        season.fixture_format,
    )
    if game_rules_change and ResultVersion.objects.filter(fixture__season=season).exists():
        raise ValidationError(
            {
                "rule_options": _(
                    "The season has results, which were checked against its game "
                    "rules: those can no longer change. Points and tie-breakers still can."
                )
            }
        )
    changed = [
        name
        for name in ("rule_options", "fixture_format", *POINTS_FIELDS, "tie_breakers")
        if getattr(season, name) != getattr(rules, name)
    ]
    if not changed:
        return season
    for name in changed:
        setattr(season, name, getattr(rules, name))
    # django-simple-history reads who and why from these attributes
    season._history_user = by  # type: ignore[attr-defined]
    season._change_reason = "Rules changed: " + ", ".join(n.replace("_", " ") for n in changed)  # type: ignore[attr-defined]
    season.save(update_fields=changed)
    return season


def season_points_words(*, season: Season) -> str:
    """The league points in the game's words: "win 3, stalemate 1, loss 0" for Convoy."""
    return str(get_kind(season.game).points_words) % {
        "win": season.points_win,
        "draw": season.points_draw,
        "loss": season.points_loss,
    }


def season_rules_describe(*, season: Season) -> list[tuple[str, str]]:
    """The season's format and rule options as (label, plain words), defaults filled in,
    then its points and tie-breakers."""
    kind = get_kind(season.game)
    rules = kind.rule_lines(rule_options=season.rule_options, fixture_format=season.fixture_format)
    rules.append((pgettext("a season's rule", "Points"), season_points_words(season=season)))
    if season.tie_breakers:
        names = [
            str(TIE_BREAKERS[key].name).lower() if key in TIE_BREAKERS else str(key)
            for key in season.tie_breakers
        ]
        then = pgettext("between the tie-breakers of a season's order", ", then ")
        rules.append((pgettext("a season's rule: the table's order", "Order"), then.join(names)))
    return rules
