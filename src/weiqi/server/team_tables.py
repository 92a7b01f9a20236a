"""The team-event and league tables the public pages of ``public_tables`` do not have — board
prizes and player records, a division's table with its promotion and relegation zones, the
dated calendar, the draft log — as ``public_tables.Table`` cells, so the page and the CSV
export (UTF-8 with BOM) show the same thing; and the words of the organisers' round sheet.

>>> from weiqi.league.match import PlayerRecord
>>> b = boards_table({1: [PlayerRecord("李", "A", 1, 1, game_points=2),
...                       PlayerRecord("王", "B", 1, 1, game_points=2),
...                       PlayerRecord("张", "C", 1, 0, game_points=0)]}, {}, "en")
>>> [(r[1].text, r[2].text) for r in b.rows]
[('1=', '李'), ('1=', '王'), ('3', '张')]
>>> b.csv()[:1] == "\\ufeff"
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from weiqi.i18n import N_
from weiqi.league.draft import DraftAction, DraftEvent
from weiqi.league.match import PlayerRecord
from weiqi.rules.result import Result
from weiqi.server.public_tables import Cell, Column, Table, gettext_for, place_text
from weiqi.server.public_tables import result_text as public_result_text
from weiqi.services.teams import MatchView, TeamRoundView
from weiqi.services.winner_stays_on import WinnerStaysOnView

Gettext = Callable[[str], str]


def result_text(code: str | None, locale: str) -> str:
    """A board result in the reader's language (黑中盘胜 / B+R), from its stored code."""
    # the individual tables' words, so a team board reads as an individual game does
    return public_result_text(Result.parse(code) if code else None, locale)


def color_text(color: str, _: Gettext) -> str:
    return _("Black") if color == "B" else _("White")


def match_score(m: MatchView, _: Gettext) -> str:
    """A match's game points, with how a drawn one was decided."""
    if m.game_points is None:
        return ""
    text = f"{m.game_points[0]}:{m.game_points[1]}"
    if m.decided_by_board_one:
        text += " " + _(N_("(board 1 decides)"))
    if m.decided_by_playoff and m.winner:
        text += " " + _(N_("(playoff: %(team)s)")) % {"team": m.winner}
    return text


def with_zones(table: Table, up: int, down: int, locale: str) -> Table:
    """A division's table with its first ``up`` rows marked for promotion and its last
    ``down`` for relegation (R-LEAGUE-1), by position in the table as it stands.

    >>> t = Table((Column("队"),), tuple((Cell(c),) for c in "ABCD"))
    >>> z = with_zones(t, 1, 2, "zh_CN")
    >>> z.row_classes, [r[-1].text for r in z.rows]
    (('zone-up', '', 'zone-down', 'zone-down'), ['升级', '', '降级', '降级'])
    """
    _ = gettext_for(locale)
    n = len(table.rows)
    rows, classes = [], []
    for i, row in enumerate(table.rows):
        if i < up:
            zone, cls = _(N_("Promotion")), "zone-up"
        elif i >= n - down:
            zone, cls = _(N_("Relegation")), "zone-down"
        else:
            zone, cls = "", ""
        rows.append((*row, Cell(zone, cls="zone")))
        classes.append(cls)
    columns = (*table.columns, Column(_(N_("Zone")), cls="zone"))
    return Table(columns, tuple(rows), tuple(classes), table.legend)


def player_table(
    records: Sequence[PlayerRecord],
    names: dict[str, str],
    locale: str,
    players: dict[str, str] | None = None,
) -> Table:
    """Each player's games in the event, best first; ``players``: the players' current names
    by code (an edited name shows), else the code."""
    _ = gettext_for(locale)
    named = players or {}
    columns = (
        Column(_("Player"), cls="name"),
        Column(_("Team")),
        Column(_(N_("Boards played"))),
        Column(_("Games"), numeric=True),
        Column(_("Won"), numeric=True),
        Column(_("Drawn"), numeric=True),
        Column(_("Lost"), numeric=True),
        Column(_("Game points"), numeric=True, cls="points"),
    )
    rows = tuple(
        (
            Cell(named.get(r.player_id, r.player_id), cls="name"),
            Cell(names.get(r.team, r.team)),
            Cell(", ".join(str(b) for b in r.boards)),
            Cell(str(r.games)),
            Cell(str(r.wins)),
            Cell(str(r.draws)),
            Cell(str(r.losses)),
            Cell(str(r.game_points), cls="points"),
        )
        for r in records
    )
    return Table(columns, rows)


def boards_table(
    by_board: dict[int, list[PlayerRecord]],
    names: dict[str, str],
    locale: str,
    players: dict[str, str] | None = None,
) -> Table:
    """The players of each board ranked by game points (board prizes); equal → shared;
    ``players`` as for :func:`player_table`."""
    _ = gettext_for(locale)
    named = players or {}
    columns = (
        Column(_("Board"), numeric=True, cls="board"),
        Column(_("Place"), numeric=True, cls="place"),
        Column(_("Player"), cls="name"),
        Column(_("Team")),
        Column(_("Games"), numeric=True),
        Column(_("Won"), numeric=True),
        Column(_("Game points"), numeric=True, cls="points"),
    )
    rows, classes = [], []
    for board, recs in sorted(by_board.items()):
        best = sorted(recs, key=lambda r: (-r.game_points, r.games, r.player_id))
        places: list[int] = []
        for i, r in enumerate(best):
            same = i and (r.game_points, r.games) == (best[i - 1].game_points, best[i - 1].games)
            places.append(places[-1] if same else i + 1)
        for i, (r, place) in enumerate(zip(best, places, strict=True)):
            rows.append(
                (
                    Cell(str(board) if i == 0 else ""),
                    Cell(place_text(place, places.count(place) > 1, _), cls="place"),
                    Cell(named.get(r.player_id, r.player_id), cls="name"),
                    Cell(names.get(r.team, r.team)),
                    Cell(str(r.games)),
                    Cell(str(r.wins)),
                    Cell(str(r.game_points), cls="points"),
                )
            )
            classes.append(("match-start " if i == 0 else "") + ("first" if place == 1 else ""))
    return Table(columns, tuple(rows), tuple(c.strip() for c in classes))


def calendar_table(rounds: Sequence[TeamRoundView], names: dict[str, str], locale: str) -> Table:
    """The dated calendar of a division: every round's matches and their scores."""
    _ = gettext_for(locale)
    columns = (
        Column(_("Round"), numeric=True),
        Column(_(N_("Date"))),
        Column(_(N_("Home team")), cls="name"),
        Column(_(N_("Away team")), cls="name"),
        Column(_("Game points"), cls="score"),
    )
    rows, classes = [], []
    for r in rounds:
        for i, m in enumerate(r.matches):
            rows.append(
                (
                    Cell(str(r.number)),
                    Cell(r.date or ""),
                    Cell(names.get(m.home, m.home)),
                    Cell(names.get(m.away, m.away)),
                    Cell(match_score(m, _)),
                )
            )
            classes.append("match-start" if i == 0 else "")
    return Table(columns, tuple(rows), tuple(classes))


def draft_table(log: Sequence[DraftEvent], locale: str) -> Table:
    """The transfer draft's log, line by line (R-LEAGUE-2)."""
    _ = gettext_for(locale)
    columns = (
        Column(_(N_("No.")), numeric=True),
        Column(_("Round"), numeric=True),
        Column(_(N_("Turn")), numeric=True),
        Column(_(N_("Club"))),
        Column(_(N_("Action"))),
        Column(_("Player"), cls="name"),
        Column(_(N_("From"))),
    )
    rows = tuple(
        (
            Cell(str(e.seq)),
            Cell(str(e.round)),
            Cell(str(e.turn)),
            Cell(e.club),
            Cell(_(N_("passes")) if e.action is DraftAction.PASS else _(N_("picks"))),
            Cell(e.player or ""),
            Cell(e.from_club or ""),
        )
        for e in log
    )
    return Table(columns, rows)


def stage_table(
    view: WinnerStaysOnView | None,
    event_id: int,
    names: Mapping[str, str],
    shown: Mapping[tuple[str, str], str],
    locale: str,
) -> Table:
    """A 擂台赛 (R-FMT-3) as its public page shows it: its games in order — holder (擂主),
    challenger, who has black, the result, each game linked to its board's page — and below,
    where the match stands and each team's players still to play and out. Without a ``view``
    (the lineups not revealed yet), no game.

    >>> from weiqi.services.winner_stays_on import StageGameView
    >>> game = StageGameView(1, ("A", "a1"), ("B", "b1"), ("B", "b1"), "B+R")
    >>> view = WinnerStaysOnView(("A", "B"), (game,), "A", {"A": ("a2",), "B": ()},
    ...                          (("A", "a1"),), False, None)
    >>> t = stage_table(view, 3, {"A": "甲队", "B": "乙队"}, {}, "zh_CN")
    >>> [c.text for c in t.rows[0]]
    ['1', 'a1（甲队）', 'b1（乙队）', 'b1', '黑中盘胜']
    >>> t.rows[0][0].href
    '/events/3/rounds/1/matches/1/boards/1'
    >>> t.legend[0]
    '甲队必须派出下一名棋手。'
    """
    _ = gettext_for(locale)

    def player(seat: tuple[str, str]) -> str:
        return _("%(player)s (%(team)s)") % {
            "player": shown.get(seat, seat[1]),
            "team": names.get(seat[0], seat[0]),
        }

    columns = (
        Column(_("Game"), numeric=True),
        Column(_("Holder (擂主)")),
        Column(_("Challenger")),
        Column(_("Black")),
        Column(_("Result"), cls="result"),
    )
    if view is None:
        return Table(columns, ())
    rows = tuple(
        (
            Cell(str(g.number), href=f"/events/{event_id}/rounds/1/matches/{g.number}/boards/1"),
            Cell(player(g.holder)),
            Cell(player(g.challenger)),
            Cell(shown.get(g.black, g.black[1])),
            Cell(public_result_text(Result.parse(g.result), locale) if g.result else "—"),
        )
        for g in view.games
    )
    teams = [
        _("%(team)s — still to play: %(waiting)s; out: %(out)s")
        % {
            "team": names.get(t, t),
            "waiting": "、".join(shown.get((t, p), p) for p in view.waiting[t]) or "—",
            "out": "、".join(shown.get(s, s[1]) for s in view.out if s[0] == t) or "—",
        }
        for t in view.teams
    ]
    return Table(columns, rows, legend=(stage_status(view, names, shown, locale), *teams))


def stage_status(
    view: WinnerStaysOnView,
    names: Mapping[str, str],
    shown: Mapping[tuple[str, str], str],
    locale: str,
) -> str:
    """Where a 擂台赛 stands, in a sentence: its winner, the team that must send its next
    player, or the game being played (the round's page and the public page say the same).

    >>> from weiqi.services.winner_stays_on import StageGameView
    >>> game = StageGameView(2, ("A", "a1"), ("B", "b2"), ("B", "b2"), None)
    >>> view = WinnerStaysOnView(("A", "B"), (game,), None, {"A": (), "B": ()}, (), False, None)
    >>> stage_status(view, {"A": "甲队"}, {("A", "a1"): "张三"}, "zh_CN")
    '第2局正在进行：张三（擂主）对b2。'
    """
    _ = gettext_for(locale)
    if view.finished and view.winner is not None:
        return _("%(team)s wins the 擂台赛: its player is the last one standing.") % {
            "team": names.get(view.winner, view.winner)
        }
    if view.finished:
        return _("The last two players went out together: the 擂台赛 has no winner.")
    if view.awaiting is not None:
        return _("%(team)s must send its next player.") % {
            "team": names.get(view.awaiting, view.awaiting)
        }
    g = view.games[-1]
    return _("Game %(n)s is being played: %(holder)s (擂主) against %(challenger)s.") % {
        "n": g.number,
        "holder": shown.get(g.holder, g.holder[1]),
        "challenger": shown.get(g.challenger, g.challenger[1]),
    }
