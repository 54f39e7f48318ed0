"""Conquian: the sheet's shape in the OpenAPI schema (the kind validates it)."""

from rest_framework import serializers

from scoring.kinds.conquian import DEAL_RESULTS, SINGLES


class ConquianSingleSerializer(serializers.Serializer):
    home_player = serializers.IntegerField(help_text="The home team's player (1 or 2).")
    away_player = serializers.IntegerField(help_text="The away team's player in the same place.")
    deals = serializers.ListField(
        child=serializers.ChoiceField(choices=DEAL_RESULTS),
        help_text="Each deal in order: won by the home or the away player, or drawn; the "
        "last deal is the one that took a player to the target.",
    )


class ConquianSheetSerializer(serializers.Serializer):
    """Conquian: two singles, home 1 v away 1 and home 2 v away 2, deal by deal."""

    # many=True hands min_length and max_length to the ListSerializer DRF makes (its
    # LIST_SERIALIZER_KWARGS); the stubs type only a single serializer's __init__.
    singles = ConquianSingleSerializer(many=True, min_length=SINGLES, max_length=SINGLES)  # type: ignore[call-arg]


SHEET_SERIALIZER = ConquianSheetSerializer  # scoring.results.sheet_serializers.SHEET_SERIALIZERS
