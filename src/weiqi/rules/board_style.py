"""How a board is drawn (R-BOARD-3): a little taller than wide, light yellow, black lines.

>>> CELL_WIDTH_TO_HEIGHT
(23, 24)
>>> round(cell_height(23.0), 6)
24.0
"""

from __future__ import annotations

#: Width : height of one cell of the grid, 2.3 : 2.4 (Art. 1, Art. 32).
CELL_WIDTH_TO_HEIGHT = (23, 24)

#: Light yellow wood and black lines.
BOARD_COLOR = "#f2d89b"
LINE_COLOR = "#000000"


def cell_height(cell_width: float) -> float:
    """The height of a cell drawn ``cell_width`` wide."""
    width, height = CELL_WIDTH_TO_HEIGHT
    return cell_width * height / width
