"""What the referees (and the system) did in a live game, as the room tells the players and
spectators: pauses and resumptions (R-TIME-5), clock corrections (R-TIME-8), infractions with
their penalty (R-REF-*, R-PEN-1) and rulings (R-END-1(d)) — read from the game's record, the
one place they are kept.

:func:`notices` lists them as JSON-ready data (no language: a snapshot is pushed to readers of
every language); :func:`notice_msg` says one in a message the room renders in each reader's.

>>> from weiqi.referee.actors import GameActor
>>> from weiqi.referee.events import ClockAction, ClockEvent
>>> from weiqi.referee.nigiri import ColorAssignment
>>> from weiqi.referee.record import GameRecord
>>> from weiqi.rules.ruleset import Ruleset
>>> from weiqi.clock.control import TimeControl
>>> from weiqi.i18n import render
>>> rec = GameRecord.start(Ruleset.chinese(9), ColorAssignment.by_organiser("Li", "Wang"),
...                        referee=GameActor.referee("r1"), at=0,
...                        time_control=TimeControl.parse("10m"))
>>> _ = rec.append(ClockEvent(ClockAction.START), GameActor.referee("r1"), 0)
>>> _ = rec.append(ClockEvent(ClockAction.PAUSE, reason="server restart"), SYSTEM, 5)
>>> (n,) = notices(rec)
>>> n["kind"], n["by"], n["reason"]
('pause', 'system', 'server restart')
>>> render(notice_msg(n), "en")
'The clock was paused while the server restarted'
"""

from __future__ import annotations

from typing import Any

from weiqi.messages import Msg
from weiqi.referee.actors import GameActor
from weiqi.referee.events import ClockAction, ClockEvent, InfractionRuled, RulingMade
from weiqi.referee.infractions import InfractionKind, Penalty
from weiqi.referee.record import GameRecord
from weiqi.referee.rulings import RulingKind
from weiqi.rules.color import Color

#: Who pauses a live game's clock for the time its server was down (R-TIME-5): the system, not
#: a person — the record names it like a referee (a record's actors are players or referees).
SYSTEM = GameActor.referee("system")
#: The reason a pause for a server's downtime states in the record.
RESTART_REASON = "server restart"
#: The reasons the server, a live game's referee, states for a loss on time where the event
#: allows a forfeited turn instead (R-TIME-2): the player declined it, or did not ask in time.
DECLINED_REASON = "forfeited turn declined"
NOT_ASKED_REASON = "no forfeited turn asked in time"

_PENALTY = {
    Penalty.NONE: Msg("recorded, no penalty in this game"),
    Penalty.WARNING: Msg("a warning"),
    Penalty.LOSS: Msg("loss of the game"),
    Penalty.BOTH_LOSE: Msg("both players lose"),
}


def notices(record: GameRecord) -> list[dict[str, Any]]:
    """The referees' and the system's doings in the record, in its order (JSON-ready)."""
    out: list[dict[str, Any]] = []
    state = record.state
    penalties = {e.seq: e.penalty for e in state.infractions}
    forfeited = {
        c.seq: c.color.value
        for c in state.clock_log
        if c.action is ClockAction.FORFEIT_TURN and c.color is not None
    }
    for entry in record.entries:
        event = entry.event
        base: dict[str, Any] = {"seq": entry.seq, "at": entry.at, "by": _by(entry.actor)}
        if isinstance(event, ClockEvent) and event.action is ClockAction.FORFEIT_TURN:
            flagged = forfeited.get(entry.seq)
            out.append({**base, "kind": "forfeit_turn", "color": flagged, "reason": None})
        elif isinstance(event, ClockEvent) and event.action in (
            ClockAction.PAUSE,
            ClockAction.RESUME,
            ClockAction.ADJUST,
        ):
            out.append(
                {
                    **base,
                    "kind": event.action.value,
                    "color": event.color.value if event.color is not None else None,
                    "seconds": event.seconds,
                    "reason": event.reason,
                }
            )
        elif isinstance(event, InfractionRuled):
            inf = event.infraction
            penalty = penalties.get(entry.seq)
            out.append(
                {
                    **base,
                    "kind": "infraction",
                    "color": inf.offender.value,
                    "what": inf.kind.value,
                    "penalty": penalty.value if penalty is not None else None,
                    "reason": inf.note,
                }
            )
        elif isinstance(event, RulingMade):
            r = event.ruling
            out.append(
                {
                    **base,
                    "kind": "ruling",
                    "color": r.loser.value if r.loser is not None else None,
                    "what": r.kind.value,
                    "reason": r.reason,
                }
            )
    return out


def _by(actor: GameActor) -> str:
    if actor == SYSTEM:
        return "system"
    return actor.id or actor.code


def notice_msg(notice: dict[str, Any]) -> Msg:
    """One notice as the room says it (``render(notice_msg(n), locale)``)."""
    kind = notice["kind"]
    reason = str(notice.get("reason") or "")
    by = str(notice.get("by", ""))
    color = Color(notice["color"]) if notice.get("color") else None
    if kind in ("pause", "resume") and by == "system" and reason == RESTART_REASON:
        if kind == "pause":
            return Msg("The clock was paused while the server restarted")
        return Msg("The clock runs again: the server is back")
    if kind == "pause":
        if reason:
            return Msg("Referee %(name)s paused the game: %(reason)s", name=by, reason=reason)
        return Msg("Referee %(name)s paused the game", name=by)
    if kind == "resume":
        return Msg("Referee %(name)s resumed the game", name=by)
    if kind == "adjust" and color is not None:
        seconds = float(notice.get("seconds") or 0)
        amount = f"{abs(seconds):g}"
        if seconds < 0:
            msg = Msg(
                "Referee %(name)s gave %(color)s %(seconds)s s back", name=by, color=color,
                seconds=amount,
            )  # fmt: skip
        else:
            msg = Msg(
                "Referee %(name)s took %(seconds)s s off %(color)s's clock", name=by,
                color=color, seconds=amount,
            )  # fmt: skip
        return Msg("%(what)s: %(reason)s", what=msg, reason=reason) if reason else msg
    if kind == "infraction" and color is not None:
        penalty = Penalty(notice["penalty"]) if notice.get("penalty") else Penalty.NONE
        msg = Msg(
            "Referee %(name)s: %(color)s, %(kind)s — %(penalty)s", name=by, color=color,
            kind=InfractionKind(notice["what"]), penalty=_PENALTY[penalty],
        )  # fmt: skip
        return Msg("%(what)s: %(reason)s", what=msg, reason=reason) if reason else msg
    if kind == "forfeit_turn" and color is not None:
        return Msg(
            "%(color)s's last period ran out: a forfeited turn (弃权一次) at their request; the "
            "same byo-yomi goes on",
            color=color,
        )
    if kind == "ruling" and reason in (DECLINED_REASON, NOT_ASKED_REASON) and color is not None:
        if reason == DECLINED_REASON:
            return Msg("%(color)s lost on time: no forfeited turn asked for", color=color)
        return Msg("%(color)s lost on time: no forfeited turn asked for in time", color=color)
    if kind == "ruling":
        what = Msg(RulingKind(notice["what"]).value)
        if color is not None:
            return Msg(
                "Referee %(name)s rules %(ruling)s against %(color)s: %(reason)s", name=by,
                ruling=what, color=color, reason=reason,
            )  # fmt: skip
        return Msg("Referee %(name)s rules %(ruling)s: %(reason)s", name=by, ruling=what,
                   reason=reason)  # fmt: skip
    return Msg("Referee %(name)s acted", name=by)
