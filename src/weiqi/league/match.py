"""Team matches and their scoring (R-SCORE-TEAM-1): each board scores as an individual game (局分:
win 2, draw 1, loss 0, both lose 0 each); the team with more game points wins the match (场分:
2 / 1 / 0).

>>> from weiqi.rules.result import Reason
>>> m = TeamMatch.pair("A", "B", ("a1", "a2", "a3", "a4"), ("b1", "b2", "b3", "b4"))
>>> [g.a_color.value for g in m.games]
['B', 'W', 'B', 'W']
>>> m = m.record(1, Result.win(Color.BLACK, Reason.RESIGNATION))  # a1 wins
>>> m = m.record(2, Result.win(Color.BLACK, Reason.TIME))  # b2 (black on board 2) wins
>>> m = m.record(3, Result.draw()).record(4, Result.both_lose())
>>> s = m.score()
>>> (s.game_points_a, s.game_points_b, s.match_points_a, s.match_points_b, s.winner)
(3, 3, 1, 1, None)
>>> m.score(board_one_decides=True).winner
'A'
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from weiqi.errors import InputError, InvalidSetting
from weiqi.messages import Msg
from weiqi.rules.color import Color
from weiqi.rules.result import Outcome, Reason, Result

WIN_POINTS = 2
DRAW_POINTS = 1
MATCH_WIN, MATCH_DRAW, MATCH_LOSS = 2, 1, 0


class BoardColors(enum.Enum):
    """How colours are given on the boards of a match (event setting)."""

    ALTERNATE = "alternate"  # team A (the home team, listed first) black on the odd boards
    NIGIRI = "nigiri"  # nigiri decides team A's colour on board 1; the boards then alternate


def board_colors(
    boards: int, policy: BoardColors = BoardColors.ALTERNATE, rng: random.Random | None = None
) -> tuple[Color, ...]:
    """Team A's colour on each board.

    >>> board_colors(3)
    (<Color.BLACK: 'B'>, <Color.WHITE: 'W'>, <Color.BLACK: 'B'>)
    >>> board_colors(2, BoardColors.NIGIRI, random.Random(2))
    (<Color.WHITE: 'W'>, <Color.BLACK: 'B'>)
    """
    first = Color.BLACK
    if policy is BoardColors.NIGIRI:
        if rng is None:
            raise InvalidSetting("board_colors", Msg("nigiri needs a seeded random source"))
        first = Color.BLACK if rng.random() < 0.5 else Color.WHITE
    return tuple(first if i % 2 == 0 else first.opponent for i in range(boards))


def game_points(result: Result, color: Color) -> int:
    """Game points (局分) of the player of ``color``: win 2, draw 1, loss 0; both lose 0.

    A replay or a game with no result (无胜负) carries no points until the event records what
    stands, so it is refused here.

    >>> game_points(Result.draw(), Color.WHITE), game_points(Result.both_lose(), Color.BLACK)
    (1, 0)
    """
    if result.outcome is Outcome.WIN:
        return WIN_POINTS if result.winner is color else 0
    if result.outcome is Outcome.DRAW:
        return DRAW_POINTS
    if result.outcome is Outcome.BOTH_LOSE:
        return 0
    raise InputError(
        Msg("result %(to_code)s", to_code=result.to_code()),
        Msg(
            "a replay or no result scores no game points; record the "
            "replayed game or the chief referee's ruling"
        ),
    )


def match_points(points_a: int, points_b: int) -> tuple[int, int]:
    """Match points (场分) from the two teams' game points.

    >>> match_points(5, 3), match_points(4, 4), match_points(0, 8)
    ((2, 0), (1, 1), (0, 2))
    """
    if points_a > points_b:
        return MATCH_WIN, MATCH_LOSS
    if points_a < points_b:
        return MATCH_LOSS, MATCH_WIN
    return MATCH_DRAW, MATCH_DRAW


@dataclass(frozen=True)
class BoardGame:
    """One game of a team match. A player id of ``None`` is an empty board (lost by forfeit).
    ``sitting`` numbers the rounds of a 全队轮赛制 match (0 otherwise)."""

    board: int
    a_player: str | None
    b_player: str | None
    a_color: Color
    result: Result | None = None
    sitting: int = 0

    def points(self) -> tuple[int, int]:
        """Game points of team A and team B on this board."""
        if self.result is None:
            raise InputError(
                Msg("board %(board)s", board=self.board), Msg("no result recorded yet")
            )
        return game_points(self.result, self.a_color), game_points(
            self.result, self.a_color.opponent
        )

    def player_of(self, color: Color) -> str | None:
        return self.a_player if color is self.a_color else self.b_player


@dataclass(frozen=True)
class MatchScore:
    game_points_a: int
    game_points_b: int
    match_points_a: int
    match_points_b: int
    winner: str | None
    decided_by_board_one: bool = False


def _forfeit_result(a_player: str | None, b_player: str | None, a_color: Color) -> Result | None:
    if a_player is None and b_player is None:
        return Result.both_lose()
    if a_player is None:
        return Result.win(a_color.opponent, Reason.FORFEIT)
    if b_player is None:
        return Result.win(a_color, Reason.FORFEIT)
    return None


@dataclass(frozen=True)
class TeamMatch:
    """A match between team ``a`` (home, listed first) and team ``b``."""

    a: str
    b: str
    games: tuple[BoardGame, ...]

    @classmethod
    def pair(
        cls,
        a: str,
        b: str,
        lineup_a: Sequence[str] | None,
        lineup_b: Sequence[str] | None,
        colors: Sequence[Color] | None = None,
        boards: int | None = None,
    ) -> TeamMatch:
        """Seat two lineups board by board; a missing lineup (``None``) leaves its boards empty
        and each empty board is lost by forfeit (both empty: both lose)."""
        n = boards if boards is not None else len(lineup_a or lineup_b or ())
        if n < 1:
            raise InvalidSetting("boards", Msg("a team match needs at least one board"))
        for name, lineup in ((a, lineup_a), (b, lineup_b)):
            if lineup is not None and len(lineup) != n:
                raise InputError(
                    Msg("lineup of %(name)s", name=name),
                    Msg("%(lineup)s players for %(n)s boards", lineup=len(lineup), n=n),
                )
        cols = tuple(colors) if colors is not None else board_colors(n)
        if len(cols) != n:
            raise InvalidSetting(
                "board_colors", Msg("%(cols)s colours for %(n)s boards", cols=len(cols), n=n)
            )
        games = []
        for i in range(n):
            pa = lineup_a[i] if lineup_a is not None else None
            pb = lineup_b[i] if lineup_b is not None else None
            games.append(BoardGame(i + 1, pa, pb, cols[i], _forfeit_result(pa, pb, cols[i])))
        return cls(a, b, tuple(games))

    def record(self, board: int, result: Result, sitting: int = 0) -> TeamMatch:
        """The match with ``result`` on ``board`` (of ``sitting`` for a rotation match)."""
        for i, g in enumerate(self.games):
            if g.board == board and g.sitting == sitting:
                if g.a_player is None or g.b_player is None:
                    raise InputError(
                        Msg("board %(board)s", board=board),
                        Msg("an empty board is already a forfeit"),
                    )
                games = list(self.games)
                games[i] = replace(g, result=result)
                return replace(self, games=tuple(games))
        raise InputError(
            Msg("board %(board)s", board=board),
            Msg("no such board in %(a)s–%(b)s", a=self.a, b=self.b),
        )

    @property
    def finished(self) -> bool:
        return all(g.result is not None for g in self.games)

    def board_points(self) -> tuple[tuple[int, int], ...]:
        """Game points of (A, B) board by board (summed over sittings for a rotation match)."""
        boards = sorted({g.board for g in self.games})
        out = []
        for b in boards:
            pts = [g.points() for g in self.games if g.board == b]
            out.append((sum(p[0] for p in pts), sum(p[1] for p in pts)))
        return tuple(out)

    def score(self, board_one_decides: bool = False) -> MatchScore:
        """Game and match points. With ``board_one_decides`` (a setting some leagues use), a
        match level on game points goes to the winner of board 1, if board 1 has a winner."""
        per_board = self.board_points()
        ga = sum(p[0] for p in per_board)
        gb = sum(p[1] for p in per_board)
        ma, mb = match_points(ga, gb)
        by_board_one = False
        if ga == gb and board_one_decides and per_board[0][0] != per_board[0][1]:
            ma, mb = match_points(*per_board[0])
            by_board_one = True
        winner = self.a if ma > mb else self.b if mb > ma else None
        return MatchScore(ga, gb, ma, mb, winner, by_board_one)

    def opponent(self, team: str) -> str:
        if team == self.a:
            return self.b
        if team == self.b:
            return self.a
        raise InputError(
            Msg("team %(team)s", team=team), Msg("does not play %(a)s–%(b)s", a=self.a, b=self.b)
        )


def rotation_match(a: str, b: str, lineup_a: Sequence[str], lineup_b: Sequence[str]) -> TeamMatch:
    """全队轮赛制: every member of A plays every member of B, over ``n`` sittings.

    In sitting ``s`` A's player on board ``i`` meets B's player ``(i + s) mod n``; all of A take
    black in the even sittings, so each player of either team gets black in half of the sittings
    (one more or less when ``n`` is odd).

    >>> m = rotation_match("A", "B", ("a1", "a2"), ("b1", "b2"))
    >>> [(g.sitting, g.a_player, g.b_player, g.a_color.value) for g in m.games]
    [(0, 'a1', 'b1', 'B'), (0, 'a2', 'b2', 'B'), (1, 'a1', 'b2', 'W'), (1, 'a2', 'b1', 'W')]
    """
    n = len(lineup_a)
    if n != len(lineup_b) or n < 1:
        raise InputError(
            Msg("%(a)s–%(b)s", a=a, b=b), Msg("a rotation match needs two teams of the same size")
        )
    games = []
    for s in range(n):
        color = Color.BLACK if s % 2 == 0 else Color.WHITE
        for i in range(n):
            games.append(BoardGame(i + 1, lineup_a[i], lineup_b[(i + s) % n], color, sitting=s))
    return TeamMatch(a, b, tuple(games))


@dataclass(frozen=True)
class PlayerRecord:
    """A player's games in team matches, for board prizes."""

    player_id: str
    team: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    game_points: int = 0
    boards: tuple[int, ...] = ()


def _add(record: PlayerRecord, points: int, board: int) -> PlayerRecord:
    return replace(
        record,
        games=record.games + 1,
        wins=record.wins + (points == WIN_POINTS),
        draws=record.draws + (points == DRAW_POINTS),
        losses=record.losses + (points == 0),
        game_points=record.game_points + points,
        boards=(*record.boards, board),
    )


def player_records(matches: Iterable[TeamMatch]) -> dict[str, PlayerRecord]:
    """Each player's record over the finished games of ``matches`` (forfeits by an empty board
    count for the player present; empty boards have no player)."""
    out: dict[str, PlayerRecord] = {}
    for m in matches:
        for g in m.games:
            if g.result is None:
                continue
            pa, pb = g.points()
            for pid, team, pts in ((g.a_player, m.a, pa), (g.b_player, m.b, pb)):
                if pid is None:
                    continue
                rec = out.get(pid, PlayerRecord(pid, team))
                out[pid] = _add(rec, pts, g.board)
    return out


def board_records(matches: Iterable[TeamMatch], board: int) -> list[PlayerRecord]:
    """Records of the games on one board, best first (game points, then fewer games) — the
    ranking for that board's prize. Players equal on both share the place; ties keep first-seen
    order and are the organiser's to decide."""
    out: dict[str, PlayerRecord] = {}
    for m in matches:
        for g in m.games:
            if g.board != board or g.result is None:
                continue
            pa, pb = g.points()
            for pid, team, pts in ((g.a_player, m.a, pa), (g.b_player, m.b, pb)):
                if pid is not None:
                    out[pid] = _add(out.get(pid, PlayerRecord(pid, team)), pts, board)
    return sorted(out.values(), key=lambda r: (-r.game_points, r.games))
