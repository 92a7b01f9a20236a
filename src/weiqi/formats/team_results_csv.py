"""Board results of a team round from CSV: ``team,board,result`` (``club`` or 队名 for ``team``,
台次 for ``board``, 结果 for ``result``), one row per board, all or nothing.

>>> parse_team_results("team,board,result\\nA,1,B+R\\nA,2,W+1.5\\n")
[(2, 'A', 1, 'B+R'), (3, 'A', 2, 'W+1.5')]
>>> parse_team_results("club,board,result\\nA,x,B+R\\nA,1,B+Q\\n")
Traceback (most recent call last):
...
weiqi.errors.RowsRejected: results.csv, line 2: board 'x' is not a number; line 3: ...
"""

from __future__ import annotations

import csv
import io

from weiqi.errors import InputError, RowsRejected
from weiqi.messages import Msg
from weiqi.rules.result import Result

_ALIASES = {
    "team": ("team", "club", "队名", "俱乐部"),
    "board": ("board", "台次"),
    "result": ("result", "结果"),
}


def parse_team_results(text: str, source: str = "results.csv") -> list[tuple[int, str, int, str]]:
    """``(line, team, board, result code)`` for each row; every bad row is reported by line."""
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    header = [h.strip().lower() for h in next(reader, [])]
    col: dict[str, int] = {}
    for key, names in _ALIASES.items():
        found = [i for i, h in enumerate(header) if h in names]
        if not found:
            raise RowsRejected(source, [(1, f"missing column {key!r}")])
        col[key] = found[0]
    rows: list[tuple[int, str, int, str]] = []
    problems: list[tuple[int, Msg]] = []
    seen: dict[tuple[str, int], int] = {}
    line = reader.line_num
    for row in reader:
        start, line = line + 1, reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        cells = [row[i].strip() if i < len(row) else "" for i in range(len(header))]
        team, board_text, code = cells[col["team"]], cells[col["board"]], cells[col["result"]]
        if not team:
            problems.append((start, Msg("no team")))
            continue
        try:
            board = int(board_text)
        except ValueError:
            problems.append(
                (start, Msg("board '%(board_text)s' is not a number", board_text=str(board_text)))
            )
            continue
        try:
            Result.parse(code)
        except InputError as err:
            problems.append((start, err.msg))
            continue
        if (team, board) in seen:
            problems.append(
                (
                    start,
                    Msg(
                        "%(team)s board %(board)s already on line %(seen)s",
                        team=team,
                        board=board,
                        seen=seen[team, board],
                    ),
                )
            )
            continue
        seen[team, board] = start
        rows.append((start, team, board, code))
    if problems:
        raise RowsRejected(source, problems)
    return rows
