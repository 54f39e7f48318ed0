"""Convoy: the sheet's shape in the OpenAPI schema (the kind validates it)."""

from rest_framework import serializers

from scoring.kinds.convoy import MAX_GAMES, MOST_CONVOYS, WINNERS


class ConvoyGameSerializer(serializers.Serializer):
    winner = serializers.ChoiceField(choices=WINNERS, help_text="Who won the game.")
    convoys = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=MOST_CONVOYS),
        help_text='Convoys each team made: {"home": n, "away": n}.',
    )


class ConvoySheetSerializer(serializers.Serializer):
    """Convoy: each game of the fixture (one, or the best of N) in order."""

    # many=True hands min_length and max_length to the ListSerializer DRF makes (its
    # LIST_SERIALIZER_KWARGS); the stubs type only a single serializer's __init__.
    games = ConvoyGameSerializer(  # type: ignore[call-arg]
        many=True,
        min_length=1,
        max_length=MAX_GAMES,
        help_text="The games played, in order; leave out the games that were not needed.",
    )


SHEET_SERIALIZER = ConvoySheetSerializer  # scoring.results.sheet_serializers.SHEET_SERIALIZERS
