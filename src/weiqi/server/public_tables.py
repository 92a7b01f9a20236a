"""The public tables of an event in one language, as plain cells: the page renders them as
HTML and the CSV export writes the same cells, so the two cannot disagree.

>>> from weiqi.services.read_models import PlayerRead, StandingRead, StandingsRead, tiebreak_reads
>>> def row(place, shared, n, name, points, sos):
...     p = PlayerRead(n, name, name, None, "", "", None)
...     return StandingRead(place, name, name, points, {"SOS": sos, "WARN": 0}, shared, False,
...                         False, p)
>>> rows = [row(1, False, 7, "李明", 6, 8), row(2, True, 8, "王伟", 4, 9),
...         row(2, True, 9, "张三", 4, 9)]
>>> codes = tiebreak_reads(("SOS", "WARN"))
>>> table = standings_table(StandingsRead("Open", 3, codes, rows, []), "zh_CN", event_id=1)
>>> [c.label for c in table.columns]
['名次', '姓名', '段位', '积分', '对手分', '警告次数', '备注']
>>> [r[0].text for r in table.rows]
['1', '并列2', '并列2']
>>> table.csv().splitlines()[1]
'1,李明,,6,8,0,'
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from weiqi.i18n import N_, translations
from weiqi.league.standings import TeamRanking
from weiqi.rules.color import Color
from weiqi.rules.result import Result
from weiqi.services.games import TeamBoard
from weiqi.services.live import room_url
from weiqi.services.public import (
    Crosstable,
    PlayerCard,
    PlayerList,
    PlayerRef,
    format_value,
)
from weiqi.services.read_models import PlayerRead, RoundRead, StandingsRead, TeamStandingRead
from weiqi.services.teams import TeamRoundView
from weiqi.tournament.ranks import Rank
from weiqi.tournament.settings import EventSettings
from weiqi.tournament.standings import BOARD_EN, TIEBREAKS, tiebreak

Gettext = Callable[[str], str]

# The rules' names of the tie-breaks, as msgids: the Chinese catalogue holds the names of
# ``TIEBREAKS[code].zh`` (a system's is ``System.en``; tests/server/test_public_pages.py checks).
TIEBREAK_NAMES: dict[str, str] = {
    "SB": N_("Sonneborn-Berger"),
    "WARN": N_("warnings"),
    "SOS": N_("sum of opponents' points"),
    "TOTAL": N_("total score"),
    "CUSS": N_("cumulative points"),
    "SOS-1": N_("SOS minus the lowest"),
    "SOSOS": N_("sum of opponents' SOS"),
    "DE": N_("direct encounter"),
    "RATING": N_("rating"),
    "MP": N_("Match points"),
    "GP": N_("Game points"),
}
assert {c: t.en for c, t in TIEBREAKS.items()} == TIEBREAK_NAMES
BOARD_NAME = N_("Board %(board)s")
assert BOARD_NAME == BOARD_EN

# What each tie-break counts, for the Chinese column's hover text (from the catalogue).
TIEBREAK_HINTS: dict[str, str] = {
    "SB": N_("points of the opponents beaten, plus half of those drawn with"),
    "WARN": N_("fewer warnings rank higher"),
    "SOS": N_("the sum of the opponents' points"),
    "TOTAL": N_("points plus the McMahon start score"),
    "CUSS": N_("the sum of the running score after each round"),
    "SOS-1": N_("the sum of the opponents' points without the lowest"),
    "SOSOS": N_("the sum of the opponents' SOS"),
    "DE": N_("the result of the games between the tied players"),
    "RATING": N_("the higher rating ranks higher"),
    "MP": N_("2 for a won match, 1 for a drawn one"),
    "GP": N_("the game points of all the team's boards"),
}
assert TIEBREAK_HINTS.keys() == TIEBREAK_NAMES.keys()
BOARD_HINT = N_("the game points on board %(board)s")


@dataclass(frozen=True)
class Column:
    label: str
    title: str = ""
    """Shown on hover (the tie-break's code or full name)."""
    numeric: bool = False
    abbr: bool = False
    """Render the label as ``<abbr>`` (a tie-break)."""
    cls: str = ""


@dataclass(frozen=True)
class Cell:
    text: str
    href: str | None = None
    cls: str = ""
    title: str = ""


_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")


def spreadsheet_safe(text: str) -> str:
    """``text`` as a CSV cell that a spreadsheet shows rather than runs: a cell that starts like a
    formula (``=``, ``+``, ``-``, ``@``, a tab or a line break) gets a leading apostrophe, which
    Excel and LibreOffice hide; numbers such as ``-1`` or ``+0.5`` stay numbers.

    >>> [spreadsheet_safe(t) for t in ("=1+1", "@SUM(A1)", "-1", "+0.5", "李明", "-")]
    ["'=1+1", "'@SUM(A1)", '-1', '+0.5', '李明', '-']
    """
    if len(text) < 2 or not text.startswith(_FORMULA_STARTS) or _is_number(text):
        return text
    return "'" + text


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return text.strip() == text


@dataclass(frozen=True)
class Table:
    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell, ...], ...]
    row_classes: tuple[str, ...] = ()
    legend: tuple[str, ...] = field(default=())

    def csv(self) -> str:
        """The table as CSV with a byte order mark, so Excel reads the Chinese as UTF-8."""
        out = io.StringIO()
        out.write("\ufeff")
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow([spreadsheet_safe(c.label) for c in self.columns])
        for row in self.rows:
            writer.writerow([spreadsheet_safe(c.text) for c in row])
        return out.getvalue()

    def cell_class(self, column: int, cell: Cell) -> str:
        """The HTML classes of a cell: its column's (so a phone can hide a column) and its own.

        >>> table = Table((Column("积分", numeric=True, cls="points"),), ())
        >>> table.cell_class(0, Cell("2", cls="num"))
        'points num'
        """
        col = self.columns[column]
        words = [*col.cls.split(), *(["num"] if col.numeric else []), *cell.cls.split()]
        return " ".join(dict.fromkeys(words))

    def row_class(self, index: int) -> str:
        return self.row_classes[index] if index < len(self.row_classes) else ""


# -- words ----------------------------------------------------------------------------------


def gettext_for(locale: str) -> Gettext:
    return translations(locale).gettext


def tiebreak_label(code: str, locale: str, *, spelled: bool = False) -> tuple[str, str]:
    """(header, hover text) of a tie-break column, from the registry: the Chinese name with the
    code and what it counts (in Chinese) in the title, or in English the code with its name in
    the title; ``spelled``, the English header is the name, with the code and what it counts in
    the title (the team table's "Match points", "Board 1").

    >>> tiebreak_label("SB", "zh_CN")
    ('胜者小分', 'SB · 所胜对手的积分之和，加所和对手积分的一半')
    >>> tiebreak_label("B2", "zh_CN"), tiebreak_label("B2", "en", spelled=True)
    (('第2台', 'B2 · 第2台的局分之和'), ('Board 2', 'B2 · the game points on board 2'))
    """
    _ = gettext_for(locale)
    tb = tiebreak(code)
    if tb.board is None:
        name, hint = _(TIEBREAK_NAMES[code]), _(TIEBREAK_HINTS[code])
    else:
        args = {"board": tb.board}
        name, hint = _(BOARD_NAME) % args, _(BOARD_HINT) % args
    if locale == "zh_CN":
        return tb.zh, f"{code} · {hint}"
    if spelled:
        return name, f"{code} · {hint}"
    return code, name


def stones(value: Fraction) -> str:
    """A komi in stones with the fractions of the rules: ``3¾``, ``½``, ``-2¼``.

    >>> [stones(Fraction(n, 4)) for n in (15, 2, 0, -9)]
    ['3¾', '½', '0', '-2¼']
    """
    sign = "-" if value < 0 else ""
    whole, rest = divmod(abs(value), 1)
    glyph = {Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}.get(rest)
    if rest and glyph is None:
        return f"{sign}{float(abs(value)):g}"
    head = str(int(whole)) if whole or not rest else ""
    return f"{sign}{head}{glyph or ''}"


def rank_text(rank: Rank | str | None, locale: str) -> str:
    """A rank as the page's language writes it: 5段 in Chinese, 5d otherwise."""
    if not rank:
        return ""
    if isinstance(rank, str):
        rank = Rank.parse(rank)
    if locale != "zh_CN":
        return rank.code
    return rank.zh.removeprefix("业余")  # amateur dan is the usual reading: 5段


def result_text(result: Result | None, locale: str) -> str:
    if result is None:
        return ""
    return result.to_zh() if locale == "zh_CN" else result.to_en()


def handicap_text(handicap: int, komi: Fraction, _: Gettext) -> str:
    """贴3¾子, 让先, 让3子 (R-HCP-1/2, R-SCORE-3)."""
    if handicap == 0:
        return _("komi %(stones)s") % {"stones": stones(komi)}
    if handicap == 1:
        return _("no komi (black first)")
    return _("%(stones)s stones handicap") % {"stones": handicap}


def place_text(place: int | None, shared: bool, _: Gettext) -> str:
    if place is None:
        return "—"
    return _("%(place)s=") % {"place": place} if shared else str(place)


def color_text(color: Color | None, _: Gettext) -> str:
    if color is None:
        return ""
    return _("Black") if color is Color.BLACK else _("White")


def settings_words(settings: EventSettings, planned: int | None, locale: str) -> list[str]:
    """The event's rules in a few lines: system and rounds, komi, points, byes, tie-breaks,
    ties (for the overview page)."""
    _ = gettext_for(locale)
    system = _(settings.system.en)
    lines = [_("%(system)s, %(rounds)s rounds") % {"system": system, "rounds": planned}]
    if planned is None:
        lines = [system]
    lines.append(handicap_text(0, settings.komi, _))
    lines.append(
        _("win %(win)s, draw %(draw)s, loss %(loss)s")
        % {"win": settings.points_win, "draw": settings.points_draw, "loss": settings.points_loss}
    )
    if settings.system.is_swiss:
        lines.append(_("a bye scores %(points)s") % {"points": settings.bye_points})
    names = [tiebreak_label(c, locale)[0] if locale == "zh_CN" else _(TIEBREAK_NAMES[c])
             for c in settings.tiebreak_codes]  # fmt: skip
    lines.append(_("ties broken by: %(names)s") % {"names": _(", ").join(names)})
    if not settings.shared_places:
        lines.append(
            _("remaining ties decided by lot")
            if settings.tie_resolution == "lot"
            else _("remaining ties decided by playoff")
        )
    return lines


# -- tables ---------------------------------------------------------------------------------


def game_href(event_id: int, number: int, board: int | None) -> str | None:
    """The game page of a board (its result, history and record).

    >>> game_href(3, 2, 7)
    '/events/3/rounds/2/boards/7'
    """
    return None if board is None else f"/events/{event_id}/rounds/{number}/boards/{board}"


def _player_cell(p: PlayerRef | PlayerRead, event_id: int) -> Cell:
    return Cell(p.label or p.name, href=f"/events/{event_id}/players/{p.id}", cls="name")


def _tiebreak_columns(codes: Sequence[str], locale: str) -> list[Column]:
    out = []
    for code in codes:
        label, title = tiebreak_label(code, locale)
        out.append(Column(label, title=title, numeric=True, abbr=True, cls="tb"))
    return out


def _has_club(players: Sequence[PlayerRef | PlayerRead]) -> bool:
    return any(p.club for p in players)


def standings_title(rounds: int, locale: str) -> str:
    """The standings' heading, on their page and on the projector: after which round (just
    "Standings" before any), in ``locale``.

    >>> standings_title(3, "en"), standings_title(0, "en"), standings_title(3, "zh_CN")
    ('Standings after round 3', 'Standings', '第3轮后名次')
    """
    _ = gettext_for(locale)
    return _("Standings after round %(round)s") % {"round": rounds} if rounds else _("Standings")


def standings_table(table: StandingsRead, locale: str, *, event_id: int) -> Table:
    """名次, 姓名, 段位, 单位, 积分, one column per tie-break in the event's order, 备注."""
    _ = gettext_for(locale)
    club = _has_club([r.player for r in table.rows])
    columns = [
        Column(_("Place"), numeric=True, cls="place"),
        Column(_("Name")),
        Column(_("Rank"), cls="rank"),
        *([Column(_("Club"), cls="club")] if club else []),
        Column(_("Points"), numeric=True, cls="points"),
        *_tiebreak_columns([t.code for t in table.tiebreaks], locale),
        Column(_("Note"), cls="note"),
    ]
    rows = []
    classes = []
    for r in table.rows:
        notes = []
        if r.by_lot:
            notes.append(_("by lot"))
        if r.playoff:
            notes.append(_("playoff"))
        if r.player.withdrawn_after is not None:
            notes.append(_withdrawn(r.player.withdrawn_after, _))
        rows.append(
            (
                Cell(place_text(r.place, r.shared, _), cls="num place"),
                _player_cell(r.player, event_id),
                Cell(rank_text(r.player.rank, locale)),
                *([Cell(r.player.club)] if club else []),
                Cell(str(r.points), cls="num points"),
                *(Cell(format_value(v), cls="num") for v in r.tiebreaks.values()),
                Cell(_(", ").join(notes), cls="note"),
            )
        )
        classes.append("withdrawn" if r.player.withdrawn_after is not None else "")
    legend = []
    if table.void:
        names = _(", ").join(p.label or p.name for p in table.void)
        legend.append(
            _("Results cancelled after an early withdrawal: %(names)s") % {"names": names}
        )
    return Table(tuple(columns), tuple(rows), tuple(classes), tuple(legend))


def _withdrawn(after: int, _: Gettext) -> str:
    if after == 0:
        return _("withdrew before the start")
    return _("withdrew after round %(round)s") % {"round": after}


def crosstable_table(table: Crosstable, locale: str, *, event_id: int) -> Table:
    """序号, 名次, 姓名, 段位, one column per round (``12b+``), 积分, tie-breaks."""
    _ = gettext_for(locale)
    bye = _("bye")
    columns = [
        Column(_("No."), numeric=True, cls="row"),
        Column(_("Place"), numeric=True, cls="place"),
        Column(_("Name")),
        Column(_("Rank"), cls="rank"),
        *(
            Column(str(n), title=_("Round %(round)s") % {"round": n}, cls="round")
            for n in range(1, table.rounds + 1)
        ),
        Column(_("Points"), numeric=True, cls="points"),
        *_tiebreak_columns(table.codes, locale),
    ]
    rows = []
    for r in table.rows:
        cells = []
        for c in r.cells:
            kind = {"W": "win", "D": "draw", "L": "loss", "N": "void"}.get(c.outcome or "", "")
            if c.bye:
                kind = "bye"
            if c.forfeit:
                kind += " forfeit"
            cells.append(Cell(c.text(bye), cls=f"cross {kind}".strip()))
        rows.append(
            (
                Cell(str(r.row), cls="num"),
                Cell(place_text(r.place, r.shared, _), cls="num place"),
                _player_cell(r.player, event_id),
                Cell(rank_text(r.player.rank, locale)),
                *cells,
                Cell(str(r.points) if r.place is not None else "", cls="num points"),
                *(Cell(format_value(v), cls="num") for v in r.tiebreaks),
                *(Cell("", cls="num") for _v in range(len(table.codes) - len(r.tiebreaks))),
            )
        )
    legend = (
        _("12b+: won with Black against No. 12; w: White; =: draw; −: loss"),
        _("!: forfeit (not played); ~: no result; (…): cancelled"),
    )
    return Table(tuple(columns), tuple(rows), (), legend)


def round_table(rnd: RoundRead, locale: str, *, event_id: int, sgf: bool = False) -> Table:
    """台次, 黑方, 段位, 白方, 段位, 让子/贴目, 结果 (and SGF ``RE`` if asked); byes follow."""
    _ = gettext_for(locale)
    columns = [
        Column(_("Board"), numeric=True, cls="board"),
        Column(_("Black"), cls="black"),
        Column(_("Rank"), cls="rank"),
        Column(_("White"), cls="white"),
        Column(_("Rank"), cls="rank"),
        Column(_("Handicap / komi"), cls="handicap"),
        Column(_("Result"), cls="result"),
    ]
    if sgf:
        columns.append(Column("SGF", title=_("SGF notation"), cls="sgf"))
    rows = []
    classes = []
    for b in rnd.pairings:
        winner = Result.parse(b.result).winner if b.result is not None else None
        black, white = b.black_player, b.white_player
        notation = b.notation
        row = [
            Cell(str(b.board), game_href(event_id, rnd.round, b.board),
                 "num", _("The game on this board")),
            Cell(black.label, f"/events/{event_id}/players/{black.id}",
                 "name" + (" winner" if winner is Color.BLACK else "")),
            Cell(rank_text(black.rank, locale)),
            Cell(white.label, f"/events/{event_id}/players/{white.id}",
                 "name" + (" winner" if winner is Color.WHITE else "")),
            Cell(rank_text(white.rank, locale)),
            Cell(handicap_text(b.handicap, Fraction(b.komi), _)),
            Cell("" if notation is None else notation.zh if locale == "zh_CN" else notation.en,
                 cls="result"),
        ]  # fmt: skip
        if sgf:
            row.append(Cell(notation.sgf if notation else "", cls="sgf"))
        rows.append(tuple(row))
        classes.append("" if b.result is not None else "pending")
    for p in rnd.bye_players:
        points = (
            _("bye (%(points)s points)") % {"points": rnd.bye_points}
            if rnd.bye_points is not None
            else _("bye")
        )
        row = [
            Cell(""),
            _player_cell(p, event_id),
            Cell(rank_text(p.rank, locale)),
            Cell(""),
            Cell(""),
            Cell(""),
            Cell(points, cls="result"),
        ]
        if sgf:
            row.append(Cell(""))
        rows.append(tuple(row))
        classes.append("bye")
    return Table(tuple(columns), tuple(rows), tuple(classes))


def players_table(data: PlayerList, locale: str, *, event_id: int) -> Table:
    """序号, 姓名, 段位, 俱乐部, 国家/地区, 备注: the event's players in the order of entry
    (namesakes told apart), a withdrawn player marked.

    >>> from weiqi.services.public import PlayerList
    >>> t = players_table(PlayerList("Open", (PlayerRef(3, "张伟", Rank.parse("5d"), "北京",
    ...     label="张伟 (北京)", country="中国"),), 1), "zh_CN", event_id=1)
    >>> [c.label for c in t.columns]
    ['序号', '姓名', '段位', '俱乐部', '国家', '备注']
    >>> [c.text for c in t.rows[0]]
    ['1', '张伟 (北京)', '5段', '北京', '中国', '']
    """
    _ = gettext_for(locale)
    columns = (
        Column(_("No."), numeric=True),
        Column(_("Name"), cls="name"),
        Column(_("Rank"), cls="rank"),
        Column(_("Club"), cls="club"),
        Column(_("Country"), cls="country"),
        Column(_("Note"), cls="note"),
    )
    rows = []
    classes = []
    for i, p in enumerate(data.players, start=1):
        note = _withdrawn(p.withdrawn_after, _) if p.withdrawn_after is not None else ""
        rows.append(
            (
                Cell(str(i), cls="num"),
                _player_cell(p, event_id),
                Cell(rank_text(p.rank, locale)),
                Cell(p.club),
                Cell(p.country),
                Cell(note),
            )
        )
        classes.append("withdrawn" if p.withdrawn_after is not None else "")
    return Table(columns, tuple(rows), tuple(classes))


def player_table(card: PlayerCard, locale: str, *, event_id: int) -> Table:
    """轮次, 台次, 执色, 对手, 段位, 结果, 得分, 累计积分."""
    _ = gettext_for(locale)
    columns = [
        Column(_("Round"), numeric=True),
        Column(_("Board"), numeric=True),
        Column(_("Colour")),
        Column(_("Opponent")),
        Column(_("Rank"), cls="rank"),
        Column(_("Handicap / komi"), cls="handicap"),
        Column(_("Result")),
        Column(_("Score"), numeric=True),
        Column(_("Running score"), numeric=True),
    ]
    rows = []
    for g in card.games:
        if g.opponent is None:
            text = _("bye") if g.outcome == "W" or g.points is not None else _("did not play")
            rows.append(
                (
                    Cell(str(g.round), cls="num"),
                    Cell(""),
                    Cell(""),
                    Cell(text),
                    Cell(""),
                    Cell(""),
                    Cell(""),
                    Cell("" if g.points is None else str(g.points), cls="num"),
                    Cell(str(g.running), cls="num"),
                )
            )
            continue
        color_class = f"color {g.color.name.lower()}" if g.color else ""
        result = result_text(g.result, locale)
        if g.void and result:
            result = _("%(result)s (cancelled)") % {"result": result}
        rows.append(
            (
                Cell(str(g.round), cls="num"),
                Cell(str(g.board), game_href(event_id, g.round, g.board), "num"),
                Cell(color_text(g.color, _), cls=color_class),
                _player_cell(g.opponent, event_id),
                Cell(rank_text(g.opponent.rank, locale)),
                Cell(handicap_text(g.handicap, g.komi, _)),
                Cell(result, cls={"W": "win", "D": "draw", "L": "loss"}.get(g.outcome or "", "")),
                Cell("" if g.points is None else str(g.points), cls="num"),
                Cell(str(g.running), cls="num"),
            )
        )  # fmt: skip
    return Table(tuple(columns), tuple(rows))


# -- team events ----------------------------------------------------------------------------


def team_standings_table(rows: Sequence[TeamStandingRead], boards: int, locale: str) -> Table:
    """名次, 队名, 场次, 胜, 和, 负, 场分, 局分, then the game points of board 1, 2, …
    (R-SCORE-TEAM-1, R-RANK-TEAM: the order the ties are broken in); the points' columns are
    named by the tie-break registry, as the individual table's."""
    _ = gettext_for(locale)
    columns = [
        Column(_("Place"), numeric=True, cls="place"),
        Column(_("Team"), cls="team"),
        Column(_("Played"), numeric=True),
        Column(_("Won"), numeric=True),
        Column(_("Drawn"), numeric=True),
        Column(_("Lost"), numeric=True),
    ]
    for code in TeamRanking.ROUND_ROBIN.codes(boards):
        label, title = tiebreak_label(code, locale, spelled=True)
        cls = "points" if code == "MP" else "" if code == "GP" else "tb"
        columns.append(Column(label, title=title, numeric=True, cls=cls))
    out = []
    for r in rows:
        per_board = list(r.board_points) + [0] * (boards - len(r.board_points))
        out.append(
            (
                Cell(place_text(r.place, r.shared, _), cls="num place"),
                Cell(r.name, cls="name"),
                Cell(str(r.played)),
                Cell(str(r.won)),
                Cell(str(r.drawn)),
                Cell(str(r.lost)),
                Cell(str(r.match_points), cls="points"),
                Cell(str(r.game_points)),
                *(Cell(str(p)) for p in per_board[:boards]),
            )
        )
    return Table(tuple(columns), tuple(out))


def team_game_href(event_id: int, number: int, match: int, board: int, sitting: int = 0) -> str:
    """The game page of a team match's board.

    >>> team_game_href(3, 2, 1, 4)
    '/events/3/rounds/2/matches/1/boards/4'
    >>> team_game_href(3, 2, 1, 4, 1)
    '/events/3/rounds/2/matches/1/boards/4?sitting=1'
    """
    return room_url(event_id, number, TeamBoard(match, board, sitting), part="")


def team_round_table(
    view: TeamRoundView,
    locale: str,
    event_id: int | None = None,
    names: Mapping[str, str] | None = None,
    *,
    stage: bool = False,
) -> Table:
    """One row per board of every match: 对阵, 台次, 主队棋手, 执色, 客队棋手, 结果; a match's
    first row carries its score (场分 and 局分). Boards stay empty until the lineups are
    revealed (sealed lineups, R-LINEUP). ``names``: the teams' display names by code (a
    renamed team shows its new name); the players' are the boards' own. A 擂台赛's (``stage``)
    matches are its games: each is named by its number and holder (擂主), without a score."""
    named = names or {}
    _ = gettext_for(locale)
    columns = [
        Column(_("Home – away"), cls="match"),
        Column(_("Board"), numeric=True, cls="board"),
        Column(_("Home"), cls="home"),
        Column(_("Colour"), cls="color"),
        Column(_("Away"), cls="away"),
        Column(_("Result"), cls="result"),
        Column(_("Game points"), cls="score"),
    ]
    rows = []
    classes = []
    for m in view.matches:
        title = f"{named.get(m.home, m.home)} – {named.get(m.away, m.away)}"
        score = f"{m.game_points[0]}:{m.game_points[1]}" if m.game_points else ""
        if stage:
            home, away = named.get(m.home, m.home), named.get(m.away, m.away)
            title = _("Game %(n)s: %(home)s (擂主) – %(away)s") % {
                "n": m.number,
                "home": home,
                "away": away,
            }
            score = ""
        if not m.boards:
            rows.append((Cell(title, cls="name"), Cell(""), Cell(""), Cell(""), Cell(""),
                         Cell(_("lineups sealed")), Cell(score)))  # fmt: skip
            classes.append("match-start pending")
            continue
        for i, b in enumerate(m.boards):
            result = Result.parse(b.result) if b.result else None
            home_black = b.home_color == "B"
            rows.append(
                (
                    Cell(title if i == 0 else "", cls="name" if i == 0 else ""),
                    Cell(
                        str(b.board) + (f".{b.sitting + 1}" if b.sitting else ""),
                        team_game_href(event_id, view.number, m.number, b.board, b.sitting)
                        if event_id is not None and b.home_player and b.away_player
                        else None,
                        "num",
                        _("The game on this board"),
                    ),
                    Cell(b.home_name or b.home_player or "—"),
                    Cell(_("Black") if home_black else _("White")),
                    Cell(b.away_name or b.away_player or "—"),
                    Cell(result_text(result, locale), cls="result"),
                    Cell(score if i == 0 else ""),
                )
            )
            classes.append(("match-start " if i == 0 else "") + ("" if result else "pending"))
    if view.bye:
        rows.append((Cell(view.bye, cls="name"), Cell(""), Cell(""), Cell(""), Cell(""),
                     Cell(_("bye")), Cell("")))  # fmt: skip
        classes.append("bye match-start")
    width = len(columns) - 1 if stage else len(columns)  # a 擂台赛's game: a result, no score
    return Table(
        tuple(columns[:width]),
        tuple(tuple(row[:width]) for row in rows),
        tuple(c.strip() for c in classes),
    )
