"""Referee decisions that are not penalties for an infraction: how a game ends by a decision
(R-END-1(d)) and what happens to moved stones or a scattered board (R-REF-3).

>>> Ruling(RulingKind.DRAW, reason="board scattered by a spectator").ends_game
True
>>> Ruling(RulingKind.LOSS, reason="moved a stone on purpose").loser
Traceback (most recent call last):
...
weiqi.errors.InvalidSetting: ruling: loss names the player who loses
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from weiqi.errors import InvalidSetting
from weiqi.messages import Msg
from weiqi.referee.actors import Role
from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result


class RulingKind(enum.Enum):
    """The decisions of R-REF-3 and R-END-1(d)."""

    DROPPED_STONE = (
        "dropped_stone"  # 掉落之子: the last move replaced by the point chosen (R-REF-2)
    )
    RESTORE = "restore"  # moved stone back to where it was (the record's board is unchanged)
    STONE_TO_POINT = "stone_to_point"  # 移动之子挪至合理点
    STONE_STANDS = "stone_stands"  # 移动之子有效
    DRAW = "draw"  # 和棋
    REPLAY = "replay"  # 重赛
    BOTH_LOSE = "both_lose"  # 双方均负
    NO_RESULT = "no_result"  # 无胜负
    FORFEIT = "forfeit"  # 不战负: absence, late arrival beyond the limit
    TIME_LOSS = "time_loss"  # 超时负
    LOSS = "loss"  # 判负: intentional moving, a scattered board that cannot be rebuilt, …

    @property
    def zh(self) -> str:
        return _ZH[self]

    @property
    def en(self) -> str:
        """The English name (a message argument renders :attr:`zh` or this by the reader's
        language, as an infraction's kind).

        >>> RulingKind.TIME_LOSS.en, RulingKind.TIME_LOSS.zh
        ('loss on time', '判超时负')
        """
        return _EN[self]


_ZH = {
    RulingKind.DROPPED_STONE: "掉落之子任选着点",
    RulingKind.RESTORE: "移动之子挪回原处",
    RulingKind.STONE_TO_POINT: "移动之子挪至合理点",
    RulingKind.STONE_STANDS: "移动之子有效",
    RulingKind.DRAW: "判和棋",
    RulingKind.REPLAY: "判重赛",
    RulingKind.BOTH_LOSE: "判双方均负",
    RulingKind.NO_RESULT: "判无胜负",
    RulingKind.FORFEIT: "判不战负",
    RulingKind.TIME_LOSS: "判超时负",
    RulingKind.LOSS: "判负",
}

_EN = {
    RulingKind.DROPPED_STONE: "dropped stone played where chosen",
    RulingKind.RESTORE: "moved stone put back",
    RulingKind.STONE_TO_POINT: "moved stone to a reasonable point",
    RulingKind.STONE_STANDS: "moved stone stands",
    RulingKind.DRAW: "draw",
    RulingKind.REPLAY: "replay",
    RulingKind.BOTH_LOSE: "both lose",
    RulingKind.NO_RESULT: "no result",
    RulingKind.FORFEIT: "forfeit",
    RulingKind.TIME_LOSS: "loss on time",
    RulingKind.LOSS: "loss",
}

#: Decisions the rules leave to the chief referee (Art. 17.5–6; 无胜负 of a cycle rule).
CHIEF_ONLY = {
    RulingKind.STONE_TO_POINT,
    RulingKind.STONE_STANDS,
    RulingKind.DRAW,
    RulingKind.REPLAY,
    RulingKind.BOTH_LOSE,
    RulingKind.NO_RESULT,
}

#: Rulings that name the player who loses.
WITH_LOSER = {RulingKind.FORFEIT, RulingKind.TIME_LOSS, RulingKind.LOSS}
_MOVES_STONE = {RulingKind.STONE_TO_POINT, RulingKind.STONE_STANDS}


@dataclass(frozen=True)
class Ruling:
    """One decision. ``loser`` for forfeit, time loss and loss; ``points`` =
    ``(where the stone stood, where it stands now)`` for a stone moved by the ruling, and
    ``(the point chosen,)`` for a dropped stone."""

    kind: RulingKind
    reason: str
    loser: Color | None = None
    points: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        name = self.kind  # named in the reader's language
        if (self.kind in WITH_LOSER) != (self.loser is not None):
            if self.loser is None:
                raise InvalidSetting(
                    "ruling", Msg("%(kind)s names the player who loses", kind=name)
                )
            raise InvalidSetting("ruling", Msg("%(kind)s names no loser", kind=name))
        if self.kind in _MOVES_STONE and len(self.points) != 2:
            raise InvalidSetting("ruling", Msg("%(kind)s needs (from point, to point)", kind=name))
        if self.kind is RulingKind.DROPPED_STONE and len(self.points) != 1:
            raise InvalidSetting("ruling", Msg("dropped_stone needs the point chosen instead"))
        if (
            self.kind not in _MOVES_STONE
            and self.points
            and self.kind not in (RulingKind.RESTORE, RulingKind.DROPPED_STONE)
        ):
            raise InvalidSetting("ruling", Msg("%(kind)s moves no stone", kind=name))
        if not self.reason.strip():
            raise InvalidSetting("ruling", Msg("a ruling states its reason"))

    @property
    def required_role(self) -> Role:
        return Role.CHIEF_REFEREE if self.kind in CHIEF_ONLY else Role.REFEREE

    @property
    def ends_game(self) -> bool:
        return self.result() is not None

    def result(self) -> Result | None:
        """The result this ruling gives, ``None`` when play goes on."""
        if self.kind is RulingKind.DRAW:
            return Result.draw()
        if self.kind is RulingKind.REPLAY:
            return Result.replay()
        if self.kind is RulingKind.BOTH_LOSE:
            return Result.both_lose()
        if self.kind is RulingKind.NO_RESULT:
            return Result.no_result()
        if self.loser is not None:
            reason = {
                RulingKind.FORFEIT: Reason.FORFEIT,
                RulingKind.TIME_LOSS: Reason.TIME,
                RulingKind.LOSS: Reason.RULING,
            }[self.kind]
            return Result.win(self.loser.opponent, reason)
        return None
