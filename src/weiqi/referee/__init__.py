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

from weiqi.referee.actors import GameActor, Role
from weiqi.referee.infractions import Infraction, InfractionKind, Penalty
from weiqi.referee.nigiri import ColorAssignment, ColorMethod, Contestant, Guess, Nigiri
from weiqi.referee.record import Entry, GameRecord, replay
from weiqi.referee.rulings import Ruling, RulingKind
from weiqi.referee.state import GameState, Phase, ResultChange

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
