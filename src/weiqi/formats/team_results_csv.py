"""Board results of a team round from CSV: ``team,board,result`` (``club`` or 队名 for ``team``,
台次 for ``board``, 结果 for ``result``), one row per board, all or nothing. A 全队轮赛制 match
adds a ``sitting`` column (场次, from 1); without it every row is of sitting 1.

>>> parse_team_results("team,board,result\\nA,1,B+R\\nA,2,W+1.5\\n")
[(2, 'A', 1, 'B+R', 0), (3, 'A', 2, 'W+1.5', 0)]
>>> parse_team_results("team,board,sitting,result\\nA,1,1,B+R\\nA,1,2,W+R\\n")
[(2, 'A', 1, 'B+R', 0), (3, 'A', 1, 'W+R', 1)]
>>> parse_team_results("club,board,result\\nA,x,B+R\\nA,1,B+Q\\n")
Traceback (most recent call last):
...
weiqi.errors.RowsRejected: results.csv, line 2: board 'x' is not a number; line 3: ...
"""

from __future__ import annotations

import csv
import io

from weiqi.errors import InputError, RowsRejected
from weiqi.formats.team_csv import data_rows
from weiqi.messages import Msg
from weiqi.rules.result import Result

_ALIASES = {
    "team": ("team", "club", "队名", "俱乐部"),
    "board": ("board", "台次"),
    "result": ("result", "结果"),
}
_OPTIONAL = {"sitting": ("sitting", "场次")}


def parse_team_results(
    text: str, source: str = "results.csv"
) -> list[tuple[int, str, int, str, int]]:
    """``(line, team, board, result code, sitting from 0)`` for each row; every bad row is
    reported by line."""
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    header = [h.strip().lower() for h in next(reader, [])]
    col: dict[str, int] = {}
    for key, names in _ALIASES.items():
        found = [i for i, h in enumerate(header) if h in names]
        if not found:
            raise RowsRejected(source, [(1, Msg("missing column '%(key)s'", key=key))])
        col[key] = found[0]
    for key, names in _OPTIONAL.items():
        found = [i for i, h in enumerate(header) if h in names]
        if found:
            col[key] = found[0]
    rows: list[tuple[int, str, int, str, int]] = []
    problems: list[tuple[int, Msg]] = []
    seen: dict[tuple[str, int, int], int] = {}
    for start, row in data_rows(reader):
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
        sitting_text = cells[col["sitting"]] if "sitting" in col else "1"
        try:
            sitting = int(sitting_text) - 1
        except ValueError:
            sitting = -1
        if sitting < 0:
            problems.append(
                (start, Msg("sitting '%(sitting)s' is not a number from 1", sitting=sitting_text))
            )
            continue
        try:
            Result.parse(code)
        except InputError as err:
            problems.append((start, err.msg))
            continue
        if (team, board, sitting) in seen:
            where = Msg("%(team)s board %(board)s", team=team, board=board)
            if sitting:
                where = Msg("%(where)s sitting %(sitting)s", where=where, sitting=sitting + 1)
            problems.append(
                (
                    start,
                    Msg(
                        "%(where)s already on line %(seen)s",
                        where=where,
                        seen=seen[team, board, sitting],
                    ),
                )
            )
            continue
        seen[team, board, sitting] = start
        rows.append((start, team, board, code, sitting))
    if problems:
        raise RowsRejected(source, problems)
    return rows
