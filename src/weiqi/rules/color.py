"""The two colours.

>>> Color.BLACK.opponent
<Color.WHITE: 'W'>
>>> Color("W").zh
'白'
"""

from __future__ import annotations

import enum


class Color(enum.Enum):
    """A player's colour; the value is the SGF letter."""

    BLACK = "B"
    WHITE = "W"

    @property
    def opponent(self) -> Color:
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def zh(self) -> str:
        return "黑" if self is Color.BLACK else "白"

    @property
    def en(self) -> str:
        return "Black" if self is Color.BLACK else "White"
