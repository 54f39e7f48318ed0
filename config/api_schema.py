"""The OpenAPI schema's generator: drf-spectacular's, plus the refusals every operation shares.

A list answers 400 naming the filter for a filter value of the wrong type and 404 for a page
past the end; an operation on one object (a path with an id) answers 404 when there is none.
Views declare these only where they say something more particular (see scoring/api.py).
"""

import re

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import OpenApiResponse

from .api_errors import FIELD_ERRORS_SCHEMA, ErrorOutputSerializer


class AutoSchema(SpectacularAutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        for code, refusal in self._shared_refusals().items():
            if code not in responses:
                responses[code] = self._get_response_for_code(refusal, code, direction=direction)
        return responses

    def _shared_refusals(self) -> dict[str, OpenApiResponse]:
        refusals = {}
        if self.method == "GET" and self._is_list_view() and self._get_paginator():
            if getattr(self.view, "filterset_class", None) is not None:
                refusals["400"] = OpenApiResponse(
                    FIELD_ERRORS_SCHEMA, description="A filter value of the wrong type"
                )
            refusals["404"] = OpenApiResponse(
                ErrorOutputSerializer, description="A page past the end (Invalid page.)"
            )
        elif re.search(r"\{\w+\}", self.path):
            refusals["404"] = OpenApiResponse(ErrorOutputSerializer, description="No such object")
        return refusals
