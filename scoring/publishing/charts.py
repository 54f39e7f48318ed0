"""Line charts drawn on the server as SVG: no script, no chart CDN, and a table beside each.

Pure Python. A chart is drawn in a 400-unit-wide view box, about a phone's width, so that
its 13-unit text stays readable at 390 px and simply grows on a wider screen. Every chart
has a text alternative: its title and a one-line description in the SVG (<title>, <desc>)
for screen readers, and the same numbers as a table (`Chart.table`) that the page shows under
a "Chart as a table" disclosure. Lines are told apart by colour, by dash pattern and by the
shape of their points, and the legend names them in text, so colour is never the only key.

No colour is written into the SVG: a line's group has the class `chart-line-<n>`, whose colour
static/roundel.css sets from a variable with a light and a dark value, and the axis text is
`currentColor`, the page's own text colour, so a chart reads in either colour scheme.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from scoring.publishing.numbers import signed_number

WIDTH, HEIGHT = 400, 260
LEFT, RIGHT, TOP, BOTTOM = 40, 22, 14, 34
FONT_SIZE = 13
# The colours (roundel.css, --roundel-chart-1 to 8) follow Okabe–Ito, told apart by most
# colour-blind readers too; a ninth line takes the first colour again with another dash.
COLOURS = 8
DASHES = ["", "7 3", "2 3", "9 3 2 3", "4 4", "12 3", "2 2 6 2", "1 3"]
MARKERS = ["circle", "square", "triangle", "diamond"]


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
            {
                "name": s.name,
                "line_class": _line_class(n),
                "dash": _dash(n),
                "marker": mark_safe(_marker(n, 14, 5)),
            }
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


def _line_class(n: int) -> str:
    return f"chart-line chart-line-{n % COLOURS + 1}"


def _dash(n: int) -> str:
    return DASHES[(n + n // COLOURS) % len(DASHES)]


def _marker(n: int, cx: float, cy: float) -> str:
    """The n-th line's point: a circle, square, triangle or diamond, in the line's colour."""
    shape = MARKERS[n % len(MARKERS)]
    if shape == "circle":
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3.2" fill="currentColor"/>'
    if shape == "square":
        return f'<rect x="{cx - 3:.1f}" y="{cy - 3:.1f}" width="6" height="6" fill="currentColor"/>'
    corners = (
        [(cx, cy - 4), (cx + 4, cy + 3), (cx - 4, cy + 3)]
        if shape == "triangle"
        else [(cx, cy - 4.2), (cx + 4.2, cy), (cx, cy + 4.2), (cx - 4.2, cy)]
    )
    points = " ".join(f"{px:.1f},{py:.1f}" for px, py in corners)
    return f'<polygon points="{points}" fill="currentColor"/>'


def label_width(label: str, font_size: float = FONT_SIZE) -> float:
    """A generous estimate of a label's drawn width: the SVG is drawn without measuring fonts."""
    return len(label) * font_size * 0.62


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
    count = max(len(chart.x_labels), 1)
    # Room on the right for half of the last date label, which is centred on the last point.
    right = (
        max(RIGHT, math.ceil(label_width(chart.x_labels[-1]) / 2) + 2) if chart.x_labels else RIGHT
    )
    plot_w, plot_h = WIDTH - LEFT - right, HEIGHT - TOP - BOTTOM
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
            f'<line class="chart-grid" x1="{LEFT}" x2="{WIDTH - right}" y1="{y(tick):.1f}" '
            f'y2="{y(tick):.1f}" stroke="currentColor" stroke-opacity=".25" stroke-width="1"/>'
            f'<text x="{LEFT - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" '
            f'font-size="{FONT_SIZE}" fill="currentColor">{signed_number(tick)}</text>'
        )
    for i in _labelled(count):
        parts.append(
            f'<text x="{x(i):.1f}" y="{HEIGHT - BOTTOM + 18}" text-anchor="middle" '
            f'font-size="{FONT_SIZE}" fill="currentColor">{escape(chart.x_labels[i])}</text>'
        )
    if chart.x_title:
        parts.append(
            f'<text class="chart-axis-title" x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 2}" '
            f'text-anchor="middle" font-size="12" fill="currentColor">'
            f"{escape(chart.x_title)}</text>"
        )
    for n, series in enumerate(chart.series):
        points = [(x(i), y(v)) for i, v in enumerate(series.values) if v is not None]
        if not points:
            continue
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        dash = f' stroke-dasharray="{_dash(n)}"' if _dash(n) else ""
        parts.append(
            f'<g class="{_line_class(n)}"><polyline points="{path}" fill="none" '
            f'stroke="currentColor" stroke-width="2.5"{dash} stroke-linejoin="round">'
            f"<title>{escape(series.name)}</title></polyline>"
        )
        parts.extend(_marker(n, px, py) for px, py in points)
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


def _labelled(count: int) -> list[int]:
    """The x positions that get a label: about six fit (50 units a date label), always the
    first and the last; the last takes the place of the one that would stand too near it."""
    every = max(1, math.ceil(count / 6))
    shown = list(range(0, count, every))
    shown[-1] = count - 1  # with two or more points, at least two labels: the first stays
    return shown


def _id(chart: Chart) -> str:
    return "chart-" + "".join(c if c.isalnum() else "-" for c in chart.title.lower())[:40]
