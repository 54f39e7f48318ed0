"""Signed figures (scoring.publishing.numbers) and the template filter that prints them everywhere."""

import pytest
from django.template import Context, Template

from scoring.publishing.numbers import signed_number


@pytest.mark.parametrize(
    ("value", "options", "shown"),
    [
        (-3, {}, "−3"),
        (-2.5, {}, "−2.5"),
        (4.0, {}, "4"),
        (3, {"plus": True}, "+3"),
        (0, {"plus": True}, "0"),
        (-12.04, {"places": 1}, "−12.0"),
        (-0.04, {"places": 1}, "0.0"),  # rounds to zero: no sign
        (7, {"places": 1}, "7.0"),
    ],
)
def test_negative_numbers_whole_or_not_get_a_true_minus(value, options, shown):
    assert signed_number(value, **options) == shown


def test_the_template_filter_takes_a_plus_and_the_decimal_places():
    template = Template(
        '{% load publishing %}{{ a|signed:"+" }} {{ b|signed:"+" }} {{ c|signed:1 }} '
        "{{ d|signed }} {{ e|signed }}"
    )
    shown = template.render(Context({"a": 3, "b": -3, "c": -1.25, "d": -4, "e": None}))
    assert shown == "+3 −3 −1.2 −4 None"
