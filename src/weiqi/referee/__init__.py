"""The referee: the game record (an append-only, hash-chained log of events), infractions,
penalties, rulings, the ending protocol, colours and nigiri (RULES.md §2, §4, §6).

- :class:`GameRecord` — append events (checked against the rules first), read ``state``,
  ``history()``, ``to_json``/``from_json`` (hash chain checked); :func:`replay`.
- :mod:`~weiqi.referee.events` — the events; :class:`GameActor` — who acts.
- :class:`Infraction` / :class:`InfractionKind` / :class:`Penalty` — what a referee rules and
  what it costs; :class:`Ruling` / :class:`RulingKind` — decisions (R-REF-3, R-END-1(d)).
- :class:`Nigiri` / :class:`ColorAssignment` — colours (R-COLOR-1).
- :func:`~weiqi.referee.annotations.timeline` — the record as board nodes with notes (for SGF).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from weiqi.referee.actors import GameActor, Role
    from weiqi.referee.infractions import Infraction, InfractionKind, Penalty
    from weiqi.referee.nigiri import ColorAssignment, ColorMethod, Contestant, Guess, Nigiri
    from weiqi.referee.record import Entry, GameRecord, replay
    from weiqi.referee.rulings import Ruling, RulingKind
    from weiqi.referee.state import GameState, Phase, ResultChange

#: Where each name of the package lives: a module is imported when its name is first used, so
#: ``weiqi nigiri`` loads the nigiri, not the record, its replay and the SGF notes (issue #15).
_WHERE = {
    "GameActor": "actors",
    "Role": "actors",
    "Infraction": "infractions",
    "InfractionKind": "infractions",
    "Penalty": "infractions",
    "ColorAssignment": "nigiri",
    "ColorMethod": "nigiri",
    "Contestant": "nigiri",
    "Guess": "nigiri",
    "Nigiri": "nigiri",
    "Entry": "record",
    "GameRecord": "record",
    "replay": "record",
    "Ruling": "rulings",
    "RulingKind": "rulings",
    "GameState": "state",
    "Phase": "state",
    "ResultChange": "state",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = [
    "ColorAssignment",
    "ColorMethod",
    "Contestant",
    "Entry",
    "GameActor",
    "GameRecord",
    "GameState",
    "Guess",
    "Infraction",
    "InfractionKind",
    "Nigiri",
    "Penalty",
    "Phase",
    "ResultChange",
    "Role",
    "Ruling",
    "RulingKind",
    "replay",
]
