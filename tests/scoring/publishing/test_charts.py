"""Server-drawn SVG charts: well-formed, labelled, readable in both colour schemes, with the
numbers as a table too."""

import re
from xml.etree import ElementTree

from django.conf import settings

from scoring.publishing.charts import Chart, Series, label_width

SVG = "{http://www.w3.org/2000/svg}"


def _chart(**kwargs):
    return Chart(
        title="League position by round",
        description="Each team's place after each round, 1st at the top.",
        x_labels=["1", "2", "3"],
        x_title="Round",
        series=[Series("Crown <Heads>", [2, 1, 1]), Series("Anchor Rats", [1, 2, None])],
        **kwargs,
    )


def test_the_svg_parses_and_names_itself_for_screen_readers():
    root = ElementTree.fromstring(str(_chart(lower_is_up=True, integer_y=True).svg))
    assert root.get("role") == "img"
    assert root.find(f"{SVG}title").text == "League position by round"
    assert root.find(f"{SVG}desc").text.startswith("Each team's place")
    assert root.get("aria-labelledby").split() == [
        root.find(f"{SVG}title").get("id"),
        root.find(f"{SVG}desc").get("id"),
    ]
    lines = list(root.iter(f"{SVG}polyline"))
    assert [line.find(f"{SVG}title").text for line in lines] == ["Crown <Heads>", "Anchor Rats"]
    assert len(lines[1].get("points").split()) == 2  # no point where there is no value


def test_first_place_is_drawn_at_the_top_for_positions():
    root = ElementTree.fromstring(str(_chart(lower_is_up=True, integer_y=True).svg))
    crown = list(root.iter(f"{SVG}polyline"))[0].get("points").split()
    heights = [float(point.split(",")[1]) for point in crown]
    assert heights[0] > heights[1] == heights[2]  # from 2nd (lower) up to 1st (higher)


def test_the_table_holds_the_same_numbers():
    table = _chart().table
    assert table["header"] == ["Round", "1", "2", "3"]
    assert table["rows"] == [["Crown <Heads>", "2", "1", "1"], ["Anchor Rats", "1", "2", "–"]]


def test_negative_numbers_whole_or_not_have_a_true_minus_on_the_axis_and_in_the_table():
    chart = Chart(
        title="Rating after each fixture",
        description="The rating after each fixture.",
        x_labels=["1", "2", "3"],
        x_title="Fixture",
        series=[Series("Ann", [-5, -2.5, 3])],
    )
    assert chart.table["rows"] == [["Ann", "−5", "−2.5", "3"]]
    root = ElementTree.fromstring(str(chart.svg))
    labels = [text.text for text in root.iter(f"{SVG}text")]
    assert any(label.startswith("−") for label in labels)
    assert not any(label.startswith("-") for label in labels)


def test_the_view_box_is_phone_sized_so_text_stays_readable_at_390px():
    root = ElementTree.fromstring(str(_chart().svg))
    width = float(root.get("viewBox").split()[2])
    sizes = {float(text.get("font-size")) for text in root.iter(f"{SVG}text")}
    assert width <= 420 and min(sizes) >= 12  # ≥ 11 px on a 390 px screen with margins


def _teams(count: int) -> Chart:
    return Chart(
        title="League position by round",
        description="Each team's place after each round, 1st at the top.",
        x_labels=["1", "2", "3", "4"],
        x_title="Round",
        series=[Series(f"Team {n}", [n, n, n, n]) for n in range(1, count + 1)],
        lower_is_up=True,
        integer_y=True,
    )


def _line_groups(root) -> list:
    return [group for group in root.iter(f"{SVG}g") if "chart-line" in group.get("class", "")]


def test_each_of_eight_teams_has_its_own_colour_dash_and_point_shape():
    root = ElementTree.fromstring(str(_teams(8).svg))
    groups = _line_groups(root)
    colours = {group.get("class") for group in groups}
    dashes = {group.find(f"{SVG}polyline").get("stroke-dasharray") for group in groups}
    assert len(groups) == len(colours) == len(dashes) == 8
    assert len({_point_shape(group) for group in groups}) == 4  # circle, square, two polygons


def _point_shape(group) -> tuple[str, int]:
    point = next(child for child in group if child.tag != f"{SVG}polyline")
    return point.tag, len(point.get("points", "").split())


def test_a_ninth_line_repeats_a_colour_with_another_dash():
    groups = _line_groups(ElementTree.fromstring(str(_teams(10).svg)))
    looks = {
        (group.get("class"), group.find(f"{SVG}polyline").get("stroke-dasharray"))
        for group in groups
    }
    assert len(looks) == 10


def _css() -> tuple[str, str]:
    """roundel.css whole, and its dark-scheme block on."""
    css = (settings.BASE_DIR / "static" / "roundel.css").read_text()
    return css, css[css.index("prefers-color-scheme: dark") :]


def _contrast(one: str, other: str) -> float:
    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


PICO_DARK_BACKGROUND = "#13171f"


def test_no_colour_is_written_into_the_svg_the_page_scheme_sets_it():
    root = ElementTree.fromstring(str(_teams(8).svg))
    painted = {
        element.get(attribute)
        for element in root.iter()
        for attribute in ("fill", "stroke")
        if element.get(attribute) is not None
    }
    assert painted <= {"currentColor", "none"}  # axis text in the page's own text colour


def test_every_line_colour_has_a_light_and_a_dark_value_that_stand_out():
    css, dark = _css()
    groups = _line_groups(ElementTree.fromstring(str(_teams(8).svg)))
    assert len(groups) == 8
    for group in groups:
        number = group.get("class").rsplit("-", 1)[1]
        rule = re.search(rf"\.chart-line-{number} {{ color: var\((--[\w-]+)\); }}", css)
        assert rule, f"no colour rule for line {number}"
        variable = rule.group(1)
        light_value = re.search(rf"{variable}: (#[0-9a-f]{{6}})", css).group(1)
        dark_value = re.search(rf"{variable}: (#[0-9a-f]{{6}})", dark).group(1)
        assert _contrast(light_value, "#ffffff") >= 4.5
        assert _contrast(dark_value, PICO_DARK_BACKGROUND) >= 4.5


def test_the_last_date_label_is_drawn_whole_inside_the_view_box():
    dates = [f"{day} Sep" for day in range(1, 30)]
    chart = Chart(
        title="Ann's Корова rating",
        description="Ann's rating after each fixture.",
        x_labels=dates,
        x_title="Fixture date",
        series=[Series("Rating", [float(n) for n in range(len(dates))])],
    )
    root = ElementTree.fromstring(str(chart.svg))
    width = float(root.get("viewBox").split()[2])
    labels = {text.text: text for text in root.iter(f"{SVG}text")}
    last = labels["29 Sep"]
    assert last.get("text-anchor") == "middle"
    assert float(last.get("x")) + label_width("29 Sep") / 2 <= width
    # and the label before it does not run into it
    drawn = [float(text.get("x")) for name, text in labels.items() if name in dates]
    assert min(b - a for a, b in zip(drawn, drawn[1:])) >= label_width("29 Sep")
