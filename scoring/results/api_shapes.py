"""The shapes the result API's views share: a saved version as the API shows it (with its
sheet's per-game schema), the error bodies of a write, the sheet as a client sends it, and who
is shown a version's author. The views are scoring.results.api (a fixture's result, submit),
confirmation_api (confirm, dispute), history_api (every version) and walkover_api.
"""

from django.utils.translation import gettext as _
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from leagues.models import Fixture
from leagues.permissions import can_enter_results
from scoring.kinds import all_kinds
from scoring.models import ResultVersion
from scoring.results.selectors import result_version_json
from scoring.results.sheet_serializers import SHEET_SERIALIZERS
from scoring.results.sheets import unstorable_character

# The sheet in the OpenAPI schema: one component per game (KorovaSheet, ConquianSheet,
# ConvoySheet, ...), each declared by its kind; the fixture's game decides which applies.
# Only the schema: the kind's own validation checks a sheet (every message names its field).
SHEET_SCHEMA = PolymorphicProxySerializer(
    component_name="ResultSheet",
    serializers=[SHEET_SERIALIZERS.get(kind.game) for kind in all_kinds()],
    resource_type_field_name=None,
)


@extend_schema_field(SHEET_SCHEMA)
class SavedSheetField(serializers.DictField):
    """A saved sheet, described in the schema by its game's shape."""


# ---- Output shapes ----------------------------------------------------------------------------


class LineupPlaceOutputSerializer(serializers.Serializer):
    team = serializers.IntegerField(help_text="Team id.")
    player = serializers.IntegerField(help_text="Player id.")
    substitute = serializers.BooleanField(
        help_text="A registered reserve who stood in for one of the team's two players."
    )


class ResultVersionOutputSerializer(serializers.ModelSerializer):
    """One saved version of a fixture's result."""

    fixture = serializers.IntegerField(source="fixture_id")
    version = serializers.IntegerField(source="number")
    sheet = SavedSheetField(help_text="The game's result sheet: the shape of the fixture's game.")
    created_by = serializers.CharField(
        allow_null=True,
        read_only=True,
        help_text="Who saved it: shown to staff of the fixture's venue and admins, else null.",
    )
    walkover = serializers.ChoiceField(
        choices=ResultVersion.Walkover.values,
        allow_null=True,
        help_text='null, or "home" / "away": the team awarded a walkover (no game was played; '
        "the sheet is empty and the scores are the season's walkover score).",
    )
    lineup = LineupPlaceOutputSerializer(
        many=True,
        help_text="The players who played, home team's first, each team's in position order "
        "(empty for a walkover).",
    )

    class Meta:
        model = ResultVersion
        fields = [
            "fixture",
            "version",
            "is_current",
            "home_score",
            "away_score",
            "winner",
            "sheet",
            "source",
            "note",
            "created_at",
            "created_by",
            "walkover",
            "lineup",
            "confirmation",
            "confirm_by",
        ]
        extra_kwargs = {
            "confirmation": {
                "required": True,
                "help_text": "confirmed: it counts in the table; awaiting: entered by a player, "
                "waiting for the other team (or the window); disputed: staff decide.",
            },
            "confirm_by": {
                "required": True,
                "help_text": "When an awaiting result counts without an answer (UTC); null "
                "once confirmed, and while disputed.",
            },
        }

    def to_representation(self, instance):
        # The fields above describe the schema; the body is the results' own JSON of a
        # version, which a ResultConflict carries too.
        return result_version_json(
            version=instance, show_author=bool(self.context.get("show_author"))
        )


class SheetErrorOutputSerializer(serializers.Serializer):
    sheet = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text='Problems of the sheet by field path, e.g. {"rounds.3.2": ["…"]}.',
    )
    based_on_version = serializers.ListField(child=serializers.CharField(), required=False)
    note = serializers.ListField(child=serializers.CharField(), required=False)
    non_field_errors = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="The body is not a JSON object.",
    )
    detail = serializers.CharField(required=False, help_text="The body is not valid JSON.")


class ConflictOutputSerializer(serializers.Serializer):
    detail = serializers.CharField()
    based_on_version = serializers.ListField(child=serializers.CharField(), required=False)
    current_version = ResultVersionOutputSerializer(allow_null=True, required=False)
    code = serializers.ChoiceField(
        choices=["before_fixture_day"],
        required=False,
        help_text="before_fixture_day: the fixture's day has not come yet.",
    )
    fixture_day = serializers.DateField(
        required=False, help_text="With before_fixture_day: the day the fixture is played."
    )
    before_fixture_day = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="With before_fixture_day: how a league admin records the result anyway.",
    )


def may_see_author(request, fixture: Fixture) -> bool:
    """Whether who asks is shown who saved a version: staff of the venue and admins."""
    return can_enter_results(user=request.user, venue_id=fixture.venue_id)


# ---- The sheet as sent ------------------------------------------------------------------------


@extend_schema_field(SHEET_SCHEMA)
class SheetField(serializers.DictField):
    """The sheet as sent: a JSON object whose text PostgreSQL can store and JSON can carry.

    Like DRF's CharField, it refuses null characters and lone surrogates (a JSON "\\ud800"),
    naming the field path where it found them; the game's rules are scoring.results.sheets' business.
    """

    def to_internal_value(self, data):
        sheet = super().to_internal_value(data)
        problem = _unusable_text(sheet)
        if problem is not None:
            path, message = problem
            raise serializers.ValidationError({path or "non_field_errors": [message]})
        return sheet


def _unusable_text(sheet) -> tuple[str, str] | None:
    """(field path, message) for the first key or text that holds a NUL or a lone surrogate."""
    stack = [(sheet, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            bad = unstorable_character(value)
            if bad:
                return path, _("Text with %(character)s is not allowed.") % {"character": bad}
        elif isinstance(value, dict | list):
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, child in items:
                bad = unstorable_character(key) if isinstance(key, str) else None
                if bad:
                    return path, _("A field name with %(character)s is not allowed.") % {
                        "character": bad
                    }
                stack.append((child, f"{path}.{key}" if path else str(key)))
    return None


def sheet_input_errors(errors) -> dict:
    """The input serializer's errors, with "sheet" always an object of field paths."""
    body = dict(errors)
    if isinstance(body.get("sheet"), list):
        body["sheet"] = {"non_field_errors": body["sheet"]}
    return body
