"""Every rule choice of one game in one value (RULES.md §1–3; ARCHITECTURE: one ``Ruleset``).

Komi is kept in stones (子) as an exact fraction: the written rule is 3¾ stones (R-SCORE-3).

>>> r = Ruleset.chinese()
>>> r.board_size, r.komi, r.cycle.value, r.par
(19, Fraction(15, 4), 'ban', Fraction(361, 2))
>>> Ruleset.chinese(size=9).par
Fraction(81, 2)
>>> Ruleset.no_komi().komi                      # 让先
Fraction(0, 1)
>>> h = Ruleset.handicap_game(4)                # 让四子
>>> h.komi, h.handicap_compensation
(Fraction(0, 1), Fraction(2, 1))
>>> Ruleset(komi=Fraction(1, 3))
Traceback (most recent call last):
...
weiqi.errors.InvalidSetting: komi: must be a multiple of 1/4 stone
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction

from weiqi.errors import InvalidSetting
from weiqi.messages import Msg
from weiqi.rules.vertex import check_board_size

DEFAULT_KOMI = Fraction(15, 4)


class CyclePolicy(enum.Enum):
    """What a repetition other than the simple ko recapture does (R-KO-2).

    Art. 20 bans three things: 20.1 the immediate recapture of a single ko, 20.2 假生类多劫循环
    (cycles of false life, always), and 20.3 triple ko, quadruple ko, 长生, 双提两子 …
    "原则上禁止", where an event may instead rule 无胜负 / 和棋 / 加赛. The board cannot tell a
    20.2 cycle from a 20.3 one: under any policy but ``BAN`` a false-life cycle also ends the
    game with the policy's outcome, and it is for the chief referee to correct that result.
    The text's 加赛 (an extra game) is ``REPLAY`` here.
    """

    BAN = "ban"  # forbidden, as R-KO-1 writes it
    NO_RESULT = "no_result"  # 无胜负
    DRAW = "draw"  # 和棋
    REPLAY = "replay"  # 重赛


class HandicapPlacement(enum.Enum):
    """Where handicap stones go (R-HCP-2)."""

    FIXED = "fixed"  # the standard star points
    FREE = "free"  # Black chooses


class IllegalMoves(enum.Enum):
    """How the referee treats an illegal move: ``online`` refuses it; ``strict`` lets it stand
    as an infraction to rule on, as over the board (R-REF-5)."""

    ONLINE = "online"
    STRICT = "strict"


def _as_fraction(value: Fraction | int | float | str) -> Fraction:
    try:
        return Fraction(value)
    except (ValueError, TypeError, ZeroDivisionError):
        raise InvalidSetting("komi", Msg("not a number: %(value)s", value=repr(value))) from None


def set_choices(settings: object, choices: Iterable[tuple[str, type[enum.Enum]]]) -> None:
    """Turn each named field of the frozen ``settings`` into its enum (a settings file or form
    gives the value's text); ``InvalidSetting`` naming the field and the choices otherwise.
    The one rule of every settings value's choices (the ruleset's, an event's).

    >>> @dataclass(frozen=True)
    ... class Example:
    ...     cycle: CyclePolicy | str
    >>> e = Example("draw"); set_choices(e, [("cycle", CyclePolicy)]); e.cycle
    <CyclePolicy.DRAW: 'draw'>
    >>> set_choices(Example("ko"), [("cycle", CyclePolicy)])
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: cycle: 'ko' is not one of ...
    """
    for name, kind in choices:
        value = getattr(settings, name)
        if isinstance(value, kind):
            continue
        try:
            object.__setattr__(settings, name, kind(value))
        except ValueError:
            raise InvalidSetting(
                name,
                Msg(
                    "%(value)s is not one of %(choices)s",
                    value=repr(value),
                    choices=" | ".join(str(k.value) for k in kind),
                ),
            ) from None


@dataclass(frozen=True)
class Ruleset:
    """The rule choices of a game. Build it with a preset and ``with_``; invalid values raise
    :class:`~weiqi.errors.InvalidSetting`."""

    board_size: int = 19
    komi: Fraction = DEFAULT_KOMI
    cycle: CyclePolicy = CyclePolicy.BAN
    handicap: int = 0
    handicap_placement: HandicapPlacement = HandicapPlacement.FIXED
    play_mode: IllegalMoves = IllegalMoves.ONLINE

    def __post_init__(self) -> None:
        if isinstance(self.board_size, bool) or not isinstance(self.board_size, int):
            raise InvalidSetting(
                "board_size",
                Msg("must be a whole number, not %(board_size)s", board_size=repr(self.board_size)),
            )
        check_board_size(self.board_size)
        komi = _as_fraction(self.komi)
        object.__setattr__(self, "komi", komi)
        if (komi * 4).denominator != 1:
            raise InvalidSetting("komi", Msg("must be a multiple of 1/4 stone"))
        if abs(komi) > self.board_size * self.board_size:
            raise InvalidSetting("komi", Msg("must not exceed the number of points of the board"))
        set_choices(
            self,
            (
                ("cycle", CyclePolicy),
                ("handicap_placement", HandicapPlacement),
                ("play_mode", IllegalMoves),
            ),
        )
        if isinstance(self.handicap, bool) or not isinstance(self.handicap, int):
            raise InvalidSetting(
                "handicap",
                Msg("must be a whole number, not %(handicap)s", handicap=repr(self.handicap)),
            )
        if self.handicap == 1 or not 0 <= self.handicap <= 9:
            raise InvalidSetting(
                "handicap", Msg("must be 0 or 2 to 9 stones (1 stone is 让先: komi 0)")
            )
        if self.handicap and self.handicap >= self.board_size * self.board_size:
            raise InvalidSetting("handicap", Msg("more stones than the board has points"))
        if self.handicap and self.handicap_placement is HandicapPlacement.FIXED:
            from weiqi.rules.handicap import max_fixed_handicap

            most = max_fixed_handicap(self.board_size)
            if self.handicap > most:
                raise InvalidSetting(
                    "handicap",
                    Msg(
                        "at most %(most)s fixed stones on %(board_size)s×%(board_size)s; "
                        "use free placement",
                        most=most,
                        board_size=self.board_size,
                    ),
                )

    # -- presets ------------------------------------------------------------------------------

    @classmethod
    def chinese(cls, size: int = 19) -> Ruleset:
        """The written rules: even game, komi 3¾ stones, every repetition banned."""
        return cls(board_size=size)

    @classmethod
    def no_komi(cls, size: int = 19) -> Ruleset:
        """让先 (R-HCP-1): Black without komi; a count of exactly par is a draw."""
        return cls(board_size=size, komi=Fraction(0))

    @classmethod
    def handicap_game(
        cls,
        stones: int,
        size: int = 19,
        placement: HandicapPlacement = HandicapPlacement.FIXED,
    ) -> Ruleset:
        """让子 (R-HCP-2): ``stones`` handicap stones, no komi, compensation of half of them."""
        return cls(board_size=size, komi=Fraction(0), handicap=stones, handicap_placement=placement)

    def with_(self, **changes: object) -> Ruleset:
        """A copy with some choices changed (validated again).

        >>> Ruleset.chinese().with_(cycle="draw").cycle
        <CyclePolicy.DRAW: 'draw'>
        """
        return replace(self, **changes)  # type: ignore[arg-type]

    # -- derived values -----------------------------------------------------------------------

    @property
    def points(self) -> int:
        """Number of points of the board (361 on 19×19)."""
        return self.board_size * self.board_size

    @property
    def par(self) -> Fraction:
        """归本数 (R-SCORE-2): half the points of the board."""
        return Fraction(self.points, 2)

    @property
    def handicap_compensation(self) -> Fraction:
        """Stones Black gives back in a handicap game: half the handicap stones (R-HCP-2)."""
        return Fraction(self.handicap, 2)

    @property
    def black_threshold(self) -> Fraction:
        """Black wins with a count above this, draws on it (R-SCORE-3, R-HCP-1/2).

        >>> Ruleset.chinese().black_threshold
        Fraction(737, 4)
        """
        return self.par + self.komi + self.handicap_compensation
