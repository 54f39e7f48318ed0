"""Server-drawn SVG charts: well-formed, labelled, with the numbers as a table too."""

from xml.etree import ElementTree

from scoring.publishing.charts import Chart, Series

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
    lines = root.findall(f"{SVG}polyline")
    assert [line.find(f"{SVG}title").text for line in lines] == ["Crown <Heads>", "Anchor Rats"]
    assert len(lines[1].get("points").split()) == 2  # no point where there is no value


def test_first_place_is_drawn_at_the_top_for_positions():
    root = ElementTree.fromstring(str(_chart(lower_is_up=True, integer_y=True).svg))
    crown = root.findall(f"{SVG}polyline")[0].get("points").split()
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
