"""The SVG board (R-BOARD-2, R-BOARD-3), checked by parsing the SVG."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weiqi.errors import InputError, InvalidSetting
from weiqi.rules.vertex import format_vertex, parse_vertex, point_at
from weiqi.server.board import BOARD_COLOR, board_svg

NS = {"svg": "http://www.w3.org/2000/svg"}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def grid_positions(root: ET.Element) -> tuple[list[float], list[float]]:
    xs = sorted({float(e.get("x1", "nan")) for e in root.iterfind(".//svg:line[@class='v']", NS)})
    ys = sorted({float(e.get("y1", "nan")) for e in root.iterfind(".//svg:line[@class='h']", NS)})
    return xs, ys


@pytest.mark.parametrize("size", [9, 13, 19])
def test_r_board_3_cells_are_2_3_wide_and_2_4_tall(size: int) -> None:
    """R-BOARD-3: cell width : height = 2.3 : 2.4; light yellow board, black lines."""
    root = parse(board_svg(size))
    xs, ys = grid_positions(root)
    assert len(xs) == len(ys) == size
    widths = {round(b - a, 6) for a, b in itertools.pairwise(xs)}
    heights = {round(b - a, 6) for a, b in itertools.pairwise(ys)}
    assert len(widths) == 1 and len(heights) == 1
    assert widths.pop() / heights.pop() == pytest.approx(2.3 / 2.4)
    wood = root.find("svg:rect[@class='wood']", NS)
    assert wood is not None and wood.get("fill") == BOARD_COLOR
    red, green, blue = (int(BOARD_COLOR[i : i + 2], 16) for i in (1, 3, 5))
    assert red > 0xE0 and green > 0xC0 and blue < green  # light, and yellow
    grid = root.find("svg:g[@class='grid']", NS)
    assert grid is not None and grid.get("stroke") == "#000000"


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        (19, {(a, b) for a in (4, 10, 16) for b in (4, 10, 16)}),
        (13, {(4, 4), (4, 10), (10, 4), (10, 10), (7, 7)}),
        (9, {(3, 3), (3, 7), (7, 3), (7, 7), (5, 5)}),
    ],
)
def test_r_board_2_star_points(size: int, expected: set[tuple[int, int]]) -> None:
    """R-BOARD-2: nine star points on 19×19; four 4-4 (13×13) or 3-3 (9×9) points and tengen."""
    root = parse(board_svg(size))
    xs, ys = grid_positions(root)  # ys run top to bottom: row `size` first
    drawn = set()
    for star in root.iterfind(".//svg:circle[@class='star']", NS):
        column = xs.index(float(star.get("cx", "nan"))) + 1
        row = size - ys.index(float(star.get("cy", "nan")))
        drawn.add((column, row))
        assert star.get("data-vertex") == format_vertex(point_at(row - 1, column - 1, size), size)
    assert drawn == expected


@pytest.mark.parametrize("size", range(2, 26))
def test_r_board_2_the_svg_draws_the_rules_star_points_on_every_size(size: int) -> None:
    """R-BOARD-2 / R-HCP-2 (issue #10): the SVG board's star points are the rules' own
    (``rules.handicap.star_points``, where the handicap stones go) on every size — 7, 12, 15
    and 17 lines included, where a second definition once differed."""
    from weiqi.rules.handicap import star_points as rules_star_points

    expected = {format_vertex(p, size) for p in rules_star_points(size)}
    drawn = {c.get("data-vertex") for c in parse(board_svg(size)).iterfind(".//svg:circle", NS)}
    assert drawn == expected


def test_stones_sit_on_their_intersections() -> None:
    root = parse(board_svg(19, {"D4": "B", point_at(15, 15, 19): "W", "q3": "B"}, last_move="Q3"))
    xs, ys = grid_positions(root)
    stones = {
        s.get("data-vertex"): s
        for s in root.iterfind(".//svg:circle", NS)
        if "stone" in (s.get("class") or "")
    }
    assert set(stones) == {"D4", "Q16", "Q3"}
    assert stones["D4"].get("class") == "stone black"
    assert stones["Q16"].get("class") == "stone white"
    assert float(stones["D4"].get("cx", "nan")) == xs[3]
    assert float(stones["D4"].get("cy", "nan")) == ys[19 - 4]
    radius = float(stones["D4"].get("r", "nan"))
    assert radius < (xs[1] - xs[0]) / 2  # neighbouring stones do not overlap
    assert root.find(".//svg:circle[@class='last-move']", NS) is not None


def test_coordinates_skip_i_and_number_rows_from_the_bottom() -> None:
    root = parse(board_svg(19))
    labels = [t.text for t in root.iterfind(".//svg:g[@class='coordinates']/svg:text", NS)]
    assert "I" not in labels and "T" in labels and "19" in labels
    assert parse(board_svg(9, coordinates=False)).find(".//svg:g[@class='coordinates']", NS) is None


def test_bad_boards_are_refused() -> None:
    with pytest.raises(InvalidSetting):
        board_svg(1)
    with pytest.raises(InputError):
        board_svg(9, {"K10": "B"})
    with pytest.raises(InputError):
        board_svg(9, {"C3": "X"})
    with pytest.raises(InputError):
        board_svg(9, {"I5": "B"})  # no column I
    with pytest.raises(InputError):
        board_svg(9, {81: "B"})


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=2, max_value=25).flatmap(
        lambda n: st.tuples(st.just(n), st.integers(0, n * n - 1))
    )
)
def test_a_stone_is_drawn_at_the_vertex_of_its_point(case: tuple[int, int]) -> None:
    """The board draws the rules' points (issue #10: one point type): a stone given as a point
    or by its vertex lands on the same intersection, named by that vertex."""
    size, p = case
    name = format_vertex(p, size)
    assert parse_vertex(name, size) == p
    assert board_svg(size, {p: "B"}) == board_svg(size, {name: "B"})
    assert f'data-vertex="{name}"' in board_svg(size, {p: "B"})


def test_templates_can_draw_a_board_unescaped() -> None:
    from weiqi.server.templating import environment

    html = environment("zh_CN").from_string("{{ board_svg(9, {'C3': 'B'}) }}").render()
    assert html.startswith("<svg") and 'data-vertex="C3"' in html
