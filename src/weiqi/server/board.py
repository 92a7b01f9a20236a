"""A Go board as server-side SVG, drawn to the rules' proportions.

R-BOARD-3: a cell is 2.3 wide and 2.4 tall, the board light yellow with black lines; R-BOARD-2:
star points on 19×19 at 4-4, 4-10, 4-16, 10-4, 10-10 (tengen), …, on 13×13 the four 4-4 points
and tengen, on 9×9 the four 3-3 points and tengen.

A point is the rules' (``weiqi.rules.vertex``): an ``int``, ``row * size + column`` with row 0
at the bottom and column 0 on the left, named by its GTP vertex (``"D4"``; no ``I``) — the
coordinates printed around the board. The board to draw is just a size and a mapping of points
(or their vertices) to ``"B"``/``"W"``, so any game representation can be drawn.

>>> svg = board_svg(9, {"C3": "B", 60: "W"})
>>> svg.count('class="stone black"'), svg.count('class="stone white"'), svg.count('class="star"')
(1, 1, 5)
>>> 'data-vertex="G7"' in svg
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from markupsafe import Markup, escape

from weiqi.errors import InputError
from weiqi.messages import Msg
from weiqi.rules.handicap import star_points
from weiqi.rules.vertex import COLUMNS, check_board_size, format_vertex, parse_vertex

CELL_WIDTH = 23.0
CELL_HEIGHT = 24.0
BOARD_COLOR = "#f3dc9c"
LINE_COLOR = "#000000"


@dataclass(frozen=True)
class Layout:
    """Where things go, in SVG user units (one unit = 1/10 of the cell's width in mm × 10/23)."""

    size: int
    cell_width: float
    cell_height: float
    margin_x: float
    margin_y: float

    @property
    def width(self) -> float:
        return 2 * self.margin_x + (self.size - 1) * self.cell_width

    @property
    def height(self) -> float:
        return 2 * self.margin_y + (self.size - 1) * self.cell_height

    def script_geometry(self) -> dict[str, float]:
        """The layout as the pages' scripts read it (a room's board, a round's boards): the
        margins and a cell's size, to find the point under a click or draw a stone.

        >>> layout(9, coordinates=False).script_geometry()
        {'mx': 17.25, 'my': 18.0, 'cw': 23.0, 'ch': 24.0}
        """
        return {
            "mx": self.margin_x,
            "my": self.margin_y,
            "cw": self.cell_width,
            "ch": self.cell_height,
        }

    def xy(self, p: int) -> tuple[float, float]:
        """The centre of point ``p`` (the rules' point: row 0 at the bottom)."""
        row, column = divmod(p, self.size)
        return (
            self.margin_x + column * self.cell_width,
            self.margin_y + (self.size - 1 - row) * self.cell_height,
        )


def layout(size: int, coordinates: bool = True, scale: float = 1.0) -> Layout:
    check_board_size(size)
    w, h = CELL_WIDTH * scale, CELL_HEIGHT * scale
    # Room for a line of coordinates on each side, else half a cell of wood around the grid.
    factor = 1.35 if coordinates else 0.75
    return Layout(size, w, h, w * factor, h * factor)


def _fmt(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def board_svg(
    size: int,
    stones: Mapping[int, str] | Mapping[str, str] | None = None,
    *,
    coordinates: bool = True,
    last_move: int | str | None = None,
    scale: float = 1.0,
    title: str | None = None,
) -> Markup:
    """The board as an ``<svg>`` element, safe to put into a Jinja template as it is.

    ``stones`` maps points (the rules' ``int`` or a vertex, ``"D4"``) to ``"B"`` or ``"W"``;
    ``last_move`` gets a small ring.
    """
    geo = layout(size, coordinates, scale)
    w = geo.cell_width
    placed: dict[int, str] = {}
    for where, color in (stones or {}).items():
        p = _point(where, size)
        if not 0 <= p < size * size:
            raise InputError(
                Msg("stone at %(where)s", where=repr(where)),
                Msg("off a %(size)s×%(size)s board", size=size),
            )
        if color not in ("B", "W"):
            raise InputError(
                Msg("stone at %(where)s", where=repr(where)),
                Msg("colour must be 'B' or 'W', not %(color)s", color=repr(color)),
            )
        placed[p] = color

    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" role="img" '
        f'viewBox="0 0 {_fmt(geo.width)} {_fmt(geo.height)}" '
        f'width="{_fmt(geo.width)}" height="{_fmt(geo.height)}" data-size="{size}">'
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(
        f'<rect class="wood" x="0" y="0" width="{_fmt(geo.width)}" height="{_fmt(geo.height)}" '
        f'fill="{BOARD_COLOR}"/>'
    )
    x0, y0 = geo.xy(size * (size - 1))  # the top left corner
    x1, y1 = geo.xy(size - 1)  # the bottom right one
    thin, thick = _fmt(0.045 * w), _fmt(0.09 * w)
    out.append(f'<g class="grid" stroke="{LINE_COLOR}" stroke-linecap="square">')
    for i in range(size):
        x, _ = geo.xy(i)  # column i
        _, y = geo.xy(i * size)  # row i
        sw = thick if i in (0, size - 1) else thin
        out.append(
            f'<line class="v" x1="{_fmt(x)}" y1="{_fmt(y0)}" x2="{_fmt(x)}" y2="{_fmt(y1)}" '
            f'stroke-width="{sw}"/>'
        )
        out.append(
            f'<line class="h" x1="{_fmt(x0)}" y1="{_fmt(y)}" x2="{_fmt(x1)}" y2="{_fmt(y)}" '
            f'stroke-width="{sw}"/>'
        )
    out.append("</g>")
    for p in star_points(size):
        cx, cy = geo.xy(p)
        out.append(
            f'<circle class="star" data-vertex="{format_vertex(p, size)}" cx="{_fmt(cx)}" '
            f'cy="{_fmt(cy)}" r="{_fmt(0.14 * w)}" fill="{LINE_COLOR}"/>'
        )
    if coordinates:
        out.append(_coordinates(geo))
    radius = _fmt(0.48 * w)
    for p, color in sorted(placed.items()):
        cx, cy = geo.xy(p)
        if color == "B":
            style = 'class="stone black" fill="#111111"'
        else:
            style = f'class="stone white" fill="#ffffff" stroke="#000000" stroke-width="{thin}"'
        out.append(
            f'<circle {style} data-vertex="{format_vertex(p, size)}" cx="{_fmt(cx)}" '
            f'cy="{_fmt(cy)}" r="{radius}"/>'
        )
    if last_move is not None:
        p = _point(last_move, size)
        cx, cy = geo.xy(p)
        ring = "#ffffff" if placed.get(p) == "B" else "#111111"
        out.append(
            f'<circle class="last-move" data-vertex="{format_vertex(p, size)}" cx="{_fmt(cx)}" '
            f'cy="{_fmt(cy)}" r="{_fmt(0.22 * w)}" fill="none" stroke="{ring}" '
            f'stroke-width="{_fmt(0.07 * w)}"/>'
        )
    out.append("</svg>")
    return Markup("".join(out))


def _point(where: int | str, size: int) -> int:
    """The rules' point of a stone given as one or by its vertex (``InputError`` naming a
    vertex that is not a point of the board)."""
    if isinstance(where, int):
        return where
    p = parse_vertex(where, size)
    if p is None:  # "pass" is no place for a stone
        raise InputError(Msg("stone at %(where)s", where=repr(where)), Msg("a pass is not a point"))
    return p


def _coordinates(geo: Layout) -> str:
    size = geo.size
    font = _fmt(0.5 * geo.cell_width)
    parts = [
        f'<g class="coordinates" font-family="sans-serif" font-size="{font}" '
        f'fill="{LINE_COLOR}" text-anchor="middle" dominant-baseline="central">'
    ]
    edge_x, edge_y = 0.55 * geo.cell_width, 0.55 * geo.cell_height
    for i in range(size):
        x, _ = geo.xy(i)  # column i
        _, y = geo.xy(i * size)  # row i
        letter, number = COLUMNS[i], str(i + 1)
        for tx, ty, label in (
            (x, edge_y, letter),
            (x, geo.height - edge_y, letter),
            (edge_x, y, number),
            (geo.width - edge_x, y, number),
        ):
            parts.append(f'<text x="{_fmt(tx)}" y="{_fmt(ty)}">{label}</text>')
    parts.append("</g>")
    return "".join(parts)
