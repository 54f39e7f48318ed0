"""A fixture page's cup box: which cup and round the tie is in, and for a drawn tie how it is
decided, with the decider's form for staff of its venue.

  {% load cups %}
  {% cup_tie_box fixture %}
  {{ cup_round|round_title }}   (a round's name in the reader's language)
"""

from django import template

from leagues.permissions import can_enter_results
from scoring.cups.deciders import drawn_tie_rule
from scoring.cups.draw import shown_round_name
from scoring.cups.selectors import fixture_cup_tie, tie_counted_result, tie_sheet_decides

register = template.Library()


@register.filter
def round_title(cup_round) -> str:
    """A cup round's name in the reader's language: {{ round|round_title }}."""
    return shown_round_name(cup_round.name)


@register.inclusion_tag("scoring/_cup_tie_box.html", takes_context=True)
def cup_tie_box(context, fixture):
    tie = fixture_cup_tie(fixture=fixture)
    if tie is None:
        return {"tie": None}
    cup = tie.round.cup
    result = tie_counted_result(fixture_id=fixture.pk)
    drawn = result is not None and result.winner == "draw"
    decided_by_sheet = drawn and bool(tie_sheet_decides(result=result, game=cup.game))
    request = context.get("request")
    user = getattr(request, "user", None)
    rule = drawn_tie_rule(cup.game)
    return {
        "tie": tie,
        "cup": cup,
        "season": cup.season,
        "drawn": drawn,
        "decided_by_sheet": decided_by_sheet,
        "rule": rule.rule,
        "decider": rule.decider,
        "may_decide": drawn
        and not decided_by_sheet
        and can_enter_results(user=user, venue_id=fixture.venue_id),
        "csrf_token": context.get("csrf_token"),
    }
