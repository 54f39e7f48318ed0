"""What competition a fixture belongs to, as the API shows it (docs/api.md "Cups"):
the league, or a round of a cup. One function that every fixture serializer calls."""

from typing import Any

from django.core.exceptions import ObjectDoesNotExist

from .models import Fixture

# What a fixture queryset joins so that fixture_competition costs no query per fixture.
COMPETITION_RELATED = ("cup_tie__round__cup",)


def fixture_competition(fixture: Fixture) -> dict[str, Any]:
    """`{"kind": "league"}`, or `{"kind": "cup", "id", "name", "round"}` for a cup tie (its
    cup's id and name, the round's number)."""
    if fixture.stage == Fixture.Stage.CUP:
        try:
            cup_round = fixture.cup_tie.round
        except ObjectDoesNotExist:
            pass
        else:
            return {
                "kind": "cup",
                "id": cup_round.cup_id,
                "name": cup_round.cup.name,
                "round": cup_round.number,
            }
    return {"kind": "league"}
