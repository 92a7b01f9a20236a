"""Who does something in a game: a player (by colour), a referee, or the chief referee (R-ORG-1).

>>> GameActor.player(Color.BLACK).describe()
'Black'
>>> GameActor.chief_referee("zhang").describe()
'chief referee zhang'
>>> GameActor.parse("W") == GameActor.player(Color.WHITE), GameActor.parse("referee:li").code
(True, 'referee:li')
>>> GameActor(Role.REFEREE)
Traceback (most recent call last):
...
weiqi.errors.InvalidSetting: actor: a referee needs an id
"""

from __future__ import annotations

from dataclasses import dataclass

from weiqi.errors import InvalidSetting
from weiqi.messages import Msg
from weiqi.roles import Role
from weiqi.rules.color import Color

__all__ = ["GAME_ROLES", "GameActor", "Role"]


#: The roles that act in a game record (the organiser acts only through the event's settings).
GAME_ROLES = (Role.PLAYER, Role.REFEREE, Role.CHIEF_REFEREE)


@dataclass(frozen=True)
class GameActor:
    """One participant: a player is named by colour, a referee by id."""

    role: Role
    color: Color | None = None
    id: str | None = None

    def __post_init__(self) -> None:
        if self.role not in GAME_ROLES:
            raise InvalidSetting(
                "actor",
                Msg("a %(label)s does not act in a game record", label=Msg(self.role.label)),
            )
        if self.role is Role.PLAYER and self.color is None:
            raise InvalidSetting("actor", Msg("a player is named by colour"))
        if self.role is not Role.PLAYER:
            if self.color is not None:
                raise InvalidSetting(
                    "actor", Msg("a %(label)s has no colour", label=Msg(self.role.label))
                )
            if not self.id:
                raise InvalidSetting(
                    "actor", Msg("a %(label)s needs an id", label=Msg(self.role.label))
                )

    @classmethod
    def player(cls, color: Color) -> GameActor:
        return cls(Role.PLAYER, color=color)

    @classmethod
    def referee(cls, id: str) -> GameActor:
        return cls(Role.REFEREE, id=id)

    @classmethod
    def chief_referee(cls, id: str) -> GameActor:
        return cls(Role.CHIEF_REFEREE, id=id)

    @classmethod
    def parse(cls, text: str) -> GameActor:
        """``B``/``W`` (or ``black``/``white``) for a player, ``referee:ID`` or
        ``chief_referee:ID`` (``chief:ID``) for a referee."""
        raw = text.strip()
        key = raw.lower()
        if key in ("b", "black"):
            return cls.player(Color.BLACK)
        if key in ("w", "white"):
            return cls.player(Color.WHITE)
        role, _, id = raw.partition(":")
        role = {"chief": "chief_referee"}.get(role.lower(), role.lower())
        if role in (Role.REFEREE.value, Role.CHIEF_REFEREE.value) and id:
            return cls(Role(role), id=id)
        raise InvalidSetting(
            "actor", Msg("%(raw)s is not B, W, referee:ID or chief_referee:ID", raw=repr(raw))
        )

    @property
    def code(self) -> str:
        """The inverse of :meth:`parse`."""
        if self.color is not None:
            return self.color.value
        return f"{self.role.value}:{self.id}"

    @property
    def is_referee(self) -> bool:
        """A referee or the chief referee."""
        return self.role is not Role.PLAYER

    def describe(self) -> str:
        if self.color is not None:
            return self.color.en
        return f"{self.role.label} {self.id}"

    @property
    def msg(self) -> Msg:
        """Who this is, as a message: the colour of a player, else the role and the name."""
        if self.color is not None:
            return Msg("%(color)s", color=self.color)
        return Msg("%(role)s %(name)s", role=Msg(self.role.label), name=self.id or "")
