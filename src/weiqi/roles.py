"""The roles a person holds in one event (R-ORG-1).

A role is granted per event; one person may hold several (an organiser who is also the chief
referee). ``PUBLIC`` is what everyone has without a grant — it is never stored.

>>> Role("chief_referee").label
'chief referee'
>>> [r.value for r in Role.grantable()]
['organiser', 'chief_referee', 'referee', 'player']
"""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    ORGANISER = "organiser"
    CHIEF_REFEREE = "chief_referee"
    REFEREE = "referee"
    PLAYER = "player"
    PUBLIC = "public"

    @property
    def label(self) -> str:
        """The English name, as the glossary spells it."""
        return self.value.replace("_", " ")

    @classmethod
    def grantable(cls) -> tuple[Role, ...]:
        """The roles that can be granted (every role but ``PUBLIC``)."""
        return tuple(r for r in cls if r is not cls.PUBLIC)
