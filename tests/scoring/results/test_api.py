"""The result API describes each game's sheet in the OpenAPI schema: one
component per game kind, offered wherever a sheet is sent or returned."""

from drf_spectacular.generators import SchemaGenerator

from scoring.kinds import all_kinds
from scoring.results.sheet_serializers import SHEET_SERIALIZERS


def test_the_schema_has_one_sheet_component_per_game_and_the_result_api_uses_them():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    names = [
        SHEET_SERIALIZERS.get(kind.game).__name__.removesuffix("Serializer") for kind in all_kinds()
    ]
    assert names == ["ConvoySheet", "KorovaSheet", "ConquianSheet"]
    assert [ref["$ref"].rsplit("/", 1)[1] for ref in components["ResultSheet"]["oneOf"]] == names
    assert components["KorovaSheet"]["required"] == ["players", "rounds"]
    assert components["ConvoyGame"]["properties"]["winner"]["allOf"][0]["$ref"].endswith(
        "/ConvoyGameWinnerEnum"
    )

    submit = components["ResultSubmitInput"]["properties"]["sheet"]
    saved = components["ResultVersionOutput"]["properties"]["sheet"]
    for field in (submit, saved):
        assert field["allOf"][0]["$ref"] == "#/components/schemas/ResultSheet"
