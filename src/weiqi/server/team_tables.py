"""The tables of team events and leagues as plain cells in one language: the page renders them
as HTML and the CSV export writes the same cells (UTF-8 with BOM, so Excel reads the Chinese),
so the two cannot disagree.

>>> from weiqi.services.teams import TeamStandingView
>>> rows = [TeamStandingView(1, "A", "黑龙", 3, 3, 0, 0, 6, 7, (3, 2, 2), False),
...         TeamStandingView(2, "B", "白虎", 3, 1, 0, 2, 2, 4, (1, 2, 1), True),
...         TeamStandingView(2, "C", "青龙", 3, 1, 0, 2, 2, 4, (1, 2, 1), True)]
>>> t = standings_table(rows, 3, lambda s: s)
>>> [c.label for c in t.columns][:4], [r[0] for r in t.rows]
(['Place', 'Team', 'Played', 'Won'], ['1', '2=', '2='])
>>> t.csv().splitlines()[1]
'1,黑龙,3,3,0,0,6,7,3,2,2'
>>> t.csv_bytes()[:3] == b"\\xef\\xbb\\xbf"
True
>>> from weiqi.league.match import PlayerRecord
>>> b = boards_table({1: [PlayerRecord("李", "A", 1, 1, game_points=2),
...                       PlayerRecord("王", "B", 1, 1, game_points=2),
...                       PlayerRecord("张", "C", 1, 0, game_points=0)]}, {}, lambda s: s)
>>> [(r[1], r[2]) for r in b.rows]
[('1=', '李'), ('1=', '王'), ('3', '张')]
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from starlette.responses import Response

from weiqi.i18n import N_
from weiqi.league.draft import Action as DraftAction
from weiqi.league.draft import DraftEvent
from weiqi.league.match import PlayerRecord
from weiqi.rules.result import Result
from weiqi.services.teams import MatchView, RoundView, TeamStandingView

Gettext = Callable[[str], str]


@dataclass(frozen=True)
class Column:
    label: str
    numeric: bool = False


@dataclass
class Table:
    """Columns, rows of text cells, and a CSS class per row (zones, winners)."""

    columns: list[Column]
    rows: list[list[str]] = field(default_factory=list)
    row_classes: list[str] = field(default_factory=list)

    def add(self, cells: Sequence[object], cls: str = "") -> None:
        self.rows.append(["" if c is None else str(c) for c in cells])
        self.row_classes.append(cls)

    def csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow([c.label for c in self.columns])
        writer.writerows(self.rows)
        return out.getvalue()

    def csv_bytes(self) -> bytes:
        return ("\ufeff" + self.csv()).encode("utf-8")


def csv_response(table: Table, filename: str) -> Response:
    """The table as a CSV download (UTF-8 with BOM)."""
    return Response(
        table.csv_bytes(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


def place_text(place: int, shared: bool) -> str:
    """A place; a shared one carries ``=`` (2=)."""
    return f"{place}=" if shared else str(place)


def result_text(code: str | None, locale: str) -> str:
    """A board result in the reader's language (黑中盘胜 / B+R)."""
    if not code:
        return ""
    result = Result.parse(code)
    return result.to_zh() if locale == "zh_CN" else result.to_en()


def colour_text(colour: str, _: Gettext) -> str:
    return _("Black") if colour == "B" else _("White")


def standings_table(rows: Sequence[TeamStandingView], boards: int, _: Gettext) -> Table:
    """R-RANK-TEAM: match points, game points, then board 1, board 2 … game points."""
    table = Table(
        [
            Column(_(N_("Place"))),
            Column(_(N_("Team"))),
            Column(_(N_("Played")), True),
            Column(_(N_("Won")), True),
            Column(_(N_("Drawn")), True),
            Column(_(N_("Lost")), True),
            Column(_(N_("Match points")), True),
            Column(_(N_("Game points")), True),
            *(Column(_(N_("Board %(n)s")) % {"n": b}, True) for b in range(1, boards + 1)),
        ]
    )
    for r in rows:
        points = list(r.board_points) + [0] * (boards - len(r.board_points))
        table.add(
            [
                place_text(r.place, r.shared),
                r.name,
                r.played,
                r.won,
                r.drawn,
                r.lost,
                r.match_points,
                r.game_points,
                *points[:boards],
            ]
        )
    return table


def league_table(
    rows: Sequence[TeamStandingView],
    boards: int,
    up: int,
    down: int,
    _: Gettext,
) -> Table:
    """A division's table with its first ``up`` rows marked for promotion and its last
    ``down`` for relegation (R-LEAGUE-1), by position in the table as it stands."""
    table = standings_table(rows, boards, _)
    table.columns.append(Column(_(N_("Zone"))))
    n = len(rows)
    for i in range(n):
        if i < up:
            table.rows[i].append(_(N_("Promotion")))
            table.row_classes[i] = "zone-up"
        elif i >= n - down:
            table.rows[i].append(_(N_("Relegation")))
            table.row_classes[i] = "zone-down"
        else:
            table.rows[i].append("")
    return table


def match_score(m: MatchView, _: Gettext) -> str:
    if m.game_points is None:
        return ""
    text = f"{m.game_points[0]}:{m.game_points[1]}"
    if m.decided_by_board_one:
        text += " " + _(N_("(board 1 decides)"))
    if m.decided_by_playoff and m.winner:
        text += " " + _(N_("(playoff: %(team)s)")) % {"team": m.winner}
    return text


def round_table(view: RoundView, names: dict[str, str], locale: str, _: Gettext) -> Table:
    """Every board of a round, match by match (the CSV of a round page)."""
    table = Table(
        [
            Column(_(N_("Match")), True),
            Column(_(N_("Board")), True),
            Column(_(N_("Home team"))),
            Column(_(N_("Player"))),
            Column(_(N_("Colour"))),
            Column(_(N_("Away team"))),
            Column(_(N_("Player"))),
            Column(_(N_("Result"))),
            Column(_(N_("Match score"))),
        ]
    )
    for m in view.matches:
        for b in m.boards:
            table.add(
                [
                    m.number,
                    b.board if not b.sitting else f"{b.board}.{b.sitting + 1}",
                    names.get(m.home, m.home),
                    b.home_player or "—",
                    colour_text(b.home_color, _),
                    names.get(m.away, m.away),
                    b.away_player or "—",
                    result_text(b.result, locale),
                    match_score(m, _),
                ]
            )
        if not m.boards:
            table.add(
                [
                    m.number,
                    "",
                    names.get(m.home, m.home),
                    "",
                    "",
                    names.get(m.away, m.away),
                    "",
                    "",
                    "",
                ]
            )
    return table


def player_table(records: Sequence[PlayerRecord], names: dict[str, str], _: Gettext) -> Table:
    """Each player's games, best first (board prizes)."""
    table = Table(
        [
            Column(_(N_("Player"))),
            Column(_(N_("Team"))),
            Column(_(N_("Boards"))),
            Column(_(N_("Games")), True),
            Column(_(N_("Won")), True),
            Column(_(N_("Drawn")), True),
            Column(_(N_("Lost")), True),
            Column(_(N_("Game points")), True),
        ]
    )
    for r in records:
        table.add(
            [
                r.player_id,
                names.get(r.team, r.team),
                ", ".join(str(b) for b in r.boards),
                r.games,
                r.wins,
                r.draws,
                r.losses,
                r.game_points,
            ]
        )
    return table


def boards_table(
    by_board: dict[int, list[PlayerRecord]], names: dict[str, str], _: Gettext
) -> Table:
    """The best players of each board (board prizes), board by board."""
    table = Table(
        [
            Column(_(N_("Board")), True),
            Column(_(N_("Place")), True),
            Column(_(N_("Player"))),
            Column(_(N_("Team"))),
            Column(_(N_("Games")), True),
            Column(_(N_("Won")), True),
            Column(_(N_("Game points")), True),
        ]
    )
    for board, recs in sorted(by_board.items()):
        best = sorted(recs, key=lambda r: (-r.game_points, r.games, r.player_id))
        places: list[int] = []
        for i, r in enumerate(best):
            same = i and (r.game_points, r.games) == (best[i - 1].game_points, best[i - 1].games)
            places.append(places[-1] if same else i + 1)
        for r, place in zip(best, places, strict=True):
            table.add(
                [
                    board,
                    place_text(place, places.count(place) > 1),
                    r.player_id,
                    names.get(r.team, r.team),
                    r.games,
                    r.wins,
                    r.game_points,
                ],
                "first" if place == 1 else "",
            )
    return table


def calendar_table(rounds: Sequence[RoundView], names: dict[str, str], _: Gettext) -> Table:
    """The dated calendar of a division: every round's matches and their scores."""
    table = Table(
        [
            Column(_(N_("Round")), True),
            Column(_(N_("Date"))),
            Column(_(N_("Home team"))),
            Column(_(N_("Away team"))),
            Column(_(N_("Score"))),
        ]
    )
    for r in rounds:
        for m in r.matches:
            table.add(
                [
                    r.number,
                    r.date or "",
                    names.get(m.home, m.home),
                    names.get(m.away, m.away),
                    match_score(m, _),
                ]
            )
        if r.bye:
            table.add([r.number, r.date or "", names.get(r.bye, r.bye), _(N_("rests")), ""])
    return table


def draft_table(log: Sequence[DraftEvent], _: Gettext) -> Table:
    """The transfer draft's log, line by line (R-LEAGUE-2)."""
    table = Table(
        [
            Column(_(N_("No.")), True),
            Column(_(N_("Round")), True),
            Column(_(N_("Turn")), True),
            Column(_(N_("Club"))),
            Column(_(N_("Action"))),
            Column(_(N_("Player"))),
            Column(_(N_("From"))),
        ]
    )
    for e in log:
        action = _(N_("passes")) if e.action is DraftAction.PASS else _(N_("picks"))
        table.add([e.seq, e.round, e.turn, e.club, action, e.player or "", e.from_club or ""])
    return table
