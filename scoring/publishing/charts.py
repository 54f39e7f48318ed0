"""Line charts drawn on the server as SVG: no script, no chart CDN, and a table beside each.

Pure Python. A chart is drawn in a 400-unit-wide view box, about a phone's width, so that
its 13-unit text stays readable at 390 px and simply grows on a wider screen. Every chart
has a text alternative: its title and a one-line description in the SVG (<title>, <desc>)
for screen readers, and the same numbers as a table (`Chart.table`) that the page shows under
a "Chart as a table" disclosure. Lines are told apart by colour and by dash pattern, and the
legend names them in text, so colour is never the only key.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from scoring.publishing.numbers import signed_number

WIDTH, HEIGHT = 400, 260
LEFT, RIGHT, TOP, BOTTOM = 40, 22, 14, 34
# Okabe–Ito: told apart by most colour-blind readers too.
COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#999933"]
DASHES = ["", "6 3", "2 3", "8 3 2 3"]


@dataclass(frozen=True)
class Series:
    name: str
    values: Sequence[float | None]  # one per x position; None where the series has no point


@dataclass
class Chart:
    title: str
    description: str  # one sentence: what the chart shows and how to read it
    x_labels: list[str]
    series: list[Series]
    x_title: str = ""
    lower_is_up: bool = False  # positions: 1st at the top
    integer_y: bool = False
    legend: list[dict] = field(default_factory=list)

    def __post_init__(self):
        self.legend = [
            {"name": s.name, "colour": _colour(n), "dash": _dash(n)}
            for n, s in enumerate(self.series)
        ]

    @property
    def table(self) -> dict:
        """The numbers as rows: header (x title, then each x label), one row per series."""
        return {
            "header": [self.x_title, *self.x_labels],
            "rows": [
                [s.name, *("–" if v is None else signed_number(v) for v in s.values)]
                for s in self.series
            ],
        }

    @property
    def svg(self) -> SafeString:
        return mark_safe(_svg(self))


def _colour(n: int) -> str:
    return COLOURS[n % len(COLOURS)]


def _dash(n: int) -> str:
    return DASHES[(n // len(COLOURS)) % len(DASHES)]


def _scale(chart: Chart) -> tuple[float, float, list[float]]:
    """The y axis: its ends and its ticks, on a step of 1, 2 or 5 times a power of ten, at
    most six ticks; positions run from 1st."""
    values = [v for s in chart.series for v in s.values if v is not None] or [0, 1]
    low, high = min(values), max(values)
    if chart.lower_is_up:
        low = 1
    if low == high:
        low, high = low - 1, high + 1
    step = _nice_step((high - low) / 5, integer=chart.integer_y)
    low = math.floor(low / step) * step if not chart.lower_is_up else low
    high = math.ceil(high / step) * step
    ticks = []
    tick = low
    while tick <= high + step / 1000:
        ticks.append(round(tick, 6))
        tick += step
    return low, high, ticks


def _nice_step(rough: float, *, integer: bool) -> float:
    power = 10 ** math.floor(math.log10(rough)) if rough > 0 else 1
    for factor in (1, 2, 5, 10):
        if factor * power >= rough:
            step = factor * power
            break
    return max(1, round(step)) if integer else step


def _svg(chart: Chart) -> str:
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    count = max(len(chart.x_labels), 1)
    low, high, ticks = _scale(chart)

    def x(i: int) -> float:
        return LEFT + (plot_w * i / (count - 1) if count > 1 else plot_w / 2)

    def y(v: float) -> float:
        share = (v - low) / (high - low)
        return TOP + (share * plot_h if chart.lower_is_up else (1 - share) * plot_h)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{_id(chart)}-t {_id(chart)}-d" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{_id(chart)}-t">{escape(chart.title)}</title>',
        f'<desc id="{_id(chart)}-d">{escape(chart.description)}</desc>',
    ]
    for tick in ticks:
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            f'stroke="#ccc" stroke-width="1"/>'
            f'<text x="{LEFT - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" font-size="13" '
            f'fill="#333">{signed_number(tick)}</text>'
        )
    every = max(1, math.ceil(count / 6))  # about 50 units a date label: six fit
    for i, label in enumerate(chart.x_labels):
        if i % every == 0:
            parts.append(
                f'<text x="{x(i):.1f}" y="{HEIGHT - BOTTOM + 18}" text-anchor="middle" '
                f'font-size="13" fill="#333">{escape(label)}</text>'
            )
    if chart.x_title:
        parts.append(
            f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 2}" text-anchor="middle" '
            f'font-size="12" fill="#555">{escape(chart.x_title)}</text>'
        )
    for n, series in enumerate(chart.series):
        points = [(x(i), y(v)) for i, v in enumerate(series.values) if v is not None]
        if not points:
            continue
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        dash = f' stroke-dasharray="{_dash(n)}"' if _dash(n) else ""
        parts.append(
            f'<polyline points="{path}" fill="none" stroke="{_colour(n)}" stroke-width="2.5"'
            f'{dash} stroke-linejoin="round"><title>{escape(series.name)}</title></polyline>'
        )
        parts.extend(
            f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="{_colour(n)}"/>' for px, py in points
        )
    parts.append("</svg>")
    return "".join(parts)


def _id(chart: Chart) -> str:
    return "chart-" + "".join(c if c.isalnum() else "-" for c in chart.title.lower())[:40]
