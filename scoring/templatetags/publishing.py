"""Pieces that other pages include: a player's ratings, charts, subscribe and print links.

Inclusion tags, so that a page shows them with one line and its view needs no change:
  {% load publishing %}
  {% player_ratings player %}            current rating per game, games rated, history chart
  {% season_positions_chart season %}    league position by round
  {% fixture_result_charts fixture %}    the game's own charts of a result (Корова's heads)
  {% subscribe_link feed_url "label" %}  a calendar subscription (webcal:) and the .ics link
  {{ value|signed }}, {{ value|signed:1 }}, {{ value|signed:"+" }}  a signed figure (below)
"""

from django import template
from django.utils.translation import gettext as _

from leagues.models import Fixture, Game, Player
from scoring.publishing import chart_data
from scoring.publishing.numbers import signed_number
from scoring.publishing.result_charts import RESULT_CHARTS, no_charts
from scoring.ratings import selectors as rating_selectors
from scoring.results.selectors import fixture_current_result

register = template.Library()


@register.inclusion_tag("scoring/ratings/_player_ratings.html")
def player_ratings(player):
    ratings = rating_selectors.player_ratings(player=player)
    for rating in ratings:
        rating.label = Game(rating.game).label
        rating.chart = chart_data.player_rating_chart(
            player=player, game=rating.game, game_label=rating.label
        )
    return {"player": player, "ratings": ratings}


@register.inclusion_tag("scoring/charts/_charts.html")
def season_positions_chart(season):
    chart = chart_data.season_positions_chart(season=season)
    return {"charts": [chart] if chart else []}


@register.inclusion_tag("scoring/charts/_charts.html")
def fixture_result_charts(fixture: Fixture):
    result = fixture_current_result(fixture=fixture)
    if result is None or result.walkover or fixture.status == Fixture.Status.VOID:
        return {"charts": []}
    names = dict(
        Player.objects.filter(teams__in=[fixture.home_team_id, fixture.away_team_id]).values_list(
            "pk", "name"
        )
    )
    return {
        "charts": RESULT_CHARTS.get(fixture.season.game, no_charts)(sheet=result.sheet, names=names)
    }


@register.filter
def numbers(count) -> range:
    """1 to `count`: the rows of a blank grid ({% for round in 10|numbers %})."""
    return range(1, int(count) + 1)


@register.filter
def signed(value, spec="") -> str:
    """A signed figure with a true minus sign (scoring.publishing.numbers.signed_number). `spec`: a "+"
    to sign positive numbers too (a difference), then the decimal places if fixed ("+",
    "1", "+1"). Anything but a number is shown as it is."""
    spec = str(spec)
    try:
        return signed_number(
            float(value) if isinstance(value, str) else value,
            places=int(spec.lstrip("+")) if spec.lstrip("+") else None,
            plus=spec.startswith("+"),
        )
    except (TypeError, ValueError):
        return value


@register.inclusion_tag("scoring/_subscribe.html", takes_context=True)
def subscribe_link(context, feed_url: str, label: str = ""):
    request = context.get("request")
    absolute = request.build_absolute_uri(feed_url) if request else feed_url
    return {
        "feed_url": feed_url,
        "webcal_url": "webcal://" + absolute.split("://", 1)[-1],
        "label": label or _("Subscribe to the calendar"),
    }
