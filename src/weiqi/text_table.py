"""A small text table for the light commands (``check``, ``score``, ``clock``, ``nigiri``): the
look of rich's default table (heavy header, light body), without importing rich, which was a
fifth of those commands' start (issue #15). Widths count a Chinese character as two columns;
cells are never cut or folded, so a long path stays whole on one line for ``grep``.

>>> t = TextTable("file", "moves", "verdict")
>>> t.add_row("张三.sgf", "25", "legal")
>>> print(t.render())
┏━━━━━━━━━━┳━━━━━━━┳━━━━━━━━━┓
┃ file     ┃ moves ┃ verdict ┃
┡━━━━━━━━━━╇━━━━━━━╇━━━━━━━━━┩
│ 张三.sgf │ 25    │ legal   │
└──────────┴───────┴─────────┘
>>> t = TextTable(show_header=False)
>>> t.add_row("SGF", "TM[3600]")
>>> print(t.render())
┌─────┬──────────┐
│ SGF │ TM[3600] │
└─────┴──────────┘

A header may take two lines (``名次\\nplace``); a title is centred above, a caption below:

>>> t = TextTable("名次\\nplace", "姓名\\nname", title="Club", caption="SB = 累进分")
>>> t.add_row("1", "张三")
>>> print(t.render())
      Club
┏━━━━━━━┳━━━━━━┓
┃ 名次  ┃ 姓名 ┃
┃ place ┃ name ┃
┡━━━━━━━╇━━━━━━┩
│ 1     │ 张三 │
└───────┴──────┘
SB = 累进分
"""

from __future__ import annotations

from unicodedata import east_asian_width


def cell_width(text: str) -> int:
    """Columns ``text`` takes on a terminal: two for wide (Chinese) characters.

    >>> cell_width("黑 Black"), cell_width("…")
    (8, 1)
    """
    return sum(2 if east_asian_width(ch) in "WF" else 1 for ch in text)


class TextTable:
    """Rows of text cells under optional headers, rendered with box-drawing lines."""

    def __init__(
        self, *headers: str, show_header: bool = True, title: str = "", caption: str = ""
    ) -> None:
        self.headers = list(headers)
        self.title = title
        self.caption = caption
        self.show_header = show_header and bool(headers)
        self.rows: list[list[str]] = []

    @property
    def row_count(self) -> int:
        return len(self.rows)

    def add_row(self, *cells: str) -> None:
        self.rows.append([" ".join(c.splitlines()) for c in cells])

    def render(self) -> str:
        """The table as lines of text (no trailing newline)."""
        columns = max([len(self.headers), *(len(r) for r in self.rows)], default=0)
        grid = [r + [""] * (columns - len(r)) for r in self.rows]
        heads = [h.split("\n") for h in self.headers] + [[""]] * (columns - len(self.headers))
        depth = max((len(h) for h in heads), default=1)
        head_rows = [[h[i] if i < len(h) else "" for h in heads] for i in range(depth)]
        widths = [
            max(
                [
                    max(cell_width(x) for x in heads[i]) if self.show_header else 0,
                    *(cell_width(r[i]) for r in grid),
                ]
            )
            for i in range(columns)
        ]

        def line(left: str, fill: str, middle: str, right: str) -> str:
            return left + middle.join(fill * (w + 2) for w in widths) + right

        def row(cells: list[str], edge: str, middle: str) -> str:
            padded = (
                f" {c}{' ' * (w - cell_width(c))} " for c, w in zip(cells, widths, strict=True)
            )
            return edge + middle.join(padded) + edge

        out = []
        if self.title:
            total = sum(widths) + 3 * len(widths) + 1
            out.append(" " * max(0, (total - cell_width(self.title)) // 2) + self.title)
        if self.show_header:
            out.append(line("┏", "━", "┳", "┓"))
            out += [row(r, "┃", "┃") for r in head_rows]
            out.append(line("┡", "━", "╇", "┩"))
        else:
            out.append(line("┌", "─", "┬", "┐"))
        out += [row(r, "│", "│") for r in grid]
        out.append(line("└", "─", "┴", "┘"))
        if self.caption:
            out.append(self.caption)
        return "\n".join(out)
