"""Корова 006: the sheet's shape in the OpenAPI schema (the kind validates it)."""

from rest_framework import serializers

from scoring.kinds.korova import SEATS


class KorovaSheetSerializer(serializers.Serializer):
    """Корова 006: the four players and the heads each took, round by round."""

    players = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=SEATS,
        max_length=SEATS,
        help_text="Player ids: the home team's players 1 and 2, then the away team's.",
    )
    rounds = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(min_value=0), min_length=SEATS, max_length=SEATS
        ),
        help_text="Per round, the penalty heads each player took, in the order of `players`; "
        "the last round is the one in which someone reached the end score.",
    )


SHEET_SERIALIZER = KorovaSheetSerializer  # scoring.results.sheet_serializers.SHEET_SERIALIZERS
