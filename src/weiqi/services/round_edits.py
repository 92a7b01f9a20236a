"""The chief referee's edits by hand of a paired round (issue #13): swap two players, pair two
players by hand, give the bye to another player, move a game to another table.

Two steps: :func:`preview_edit` says what the edit would break (the core's
``weiqi.tournament.manual``); :func:`apply_edit` makes it, with a reason that is kept with who
made it and when, in the round's stored explanation, which is recomputed. Both only for the
chief referee (``Action.PAIR_ROUND``), on an unpublished round without a result; a rematch in
a Swiss (a hard rule) is refused, the other problems are warnings the reason confirms.

>>> from weiqi.store.database import Database
>>> from weiqi.tournament.settings import EventSettings, System
>>> from weiqi.services import event_admin
>>> from weiqi.services.events import create_event
>>> db = Database("sqlite://"); db.upgrade()
>>> local = Actor.local()
>>> ev = create_event(db, local, "俱乐部赛", EventSettings(System.SWISS, rounds=3)).id
>>> event_admin.import_players(db, local, ev, "姓名,段位\\n甲,5d\\n乙,4d\\n丙,3d\\n丁,2d\\n")
4
>>> rnd = event_admin.pair_next_round(db, local, ev)
>>> [(p.board, p.black, p.white) for p in rnd.pairings]
[(1, '甲', '丙'), (2, '丁', '乙')]
>>> ids = player_ids(db, ev)
>>> swap = RoundEdit(EditKind.SWAP, ids["甲"], ids["乙"])
>>> preview_edit(db, local, ev, 1, swap).refused
False
>>> done = apply_edit(db, local, ev, 1, swap, "甲 arrived late")
>>> [(p.board, p.black, p.white) for p in done.pairings]
[(1, '乙', '丙'), (2, '丁', '甲')]
>>> [(e.by, e.reason) for e in done.edits]
[('(command line)', '甲 arrived late')]
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from weiqi.errors import Conflict, InvalidSetting
from weiqi.messages import Msg
from weiqi.services import tournament
from weiqi.services.actor import Actor
from weiqi.services.events import round_row
from weiqi.services.permissions import Action, require
from weiqi.services.player_names import player_labels
from weiqi.services.server_clock import SYSTEM_CLOCK, ServerClock
from weiqi.services.tournament import PairingView
from weiqi.store.database import Database
from weiqi.store.games import GameRecordRow
from weiqi.store.locks import lock_event
from weiqi.store.tournament import ByeRow, GameRow, PlayerRow, RoundRow
from weiqi.text import stated_reason
from weiqi.tournament.manual import (
    EditedRound,
    EditKind,
    Problem,
    ProblemKind,
    RoundEdit,
    edit_round,
    explain_round,
)
from weiqi.tournament.records import Event


@dataclass(frozen=True)
class ProblemView:
    """One problem of an edit: its words, and whether it refuses the edit."""

    kind: str
    message: Msg
    refused: bool


@dataclass(frozen=True)
class EditPreview:
    """What an edit would make of the round, before the chief referee confirms it."""

    number: int
    edit: RoundEdit
    description: Msg
    pairings: tuple[PairingView, ...]
    byes: tuple[str, ...]
    changed: tuple[int, ...]
    problems: tuple[ProblemView, ...]

    @property
    def refused(self) -> bool:
        return any(p.refused for p in self.problems)


@dataclass(frozen=True)
class EditRecord:
    """An edit made: what, by whom, when (UTC), why, and the warnings confirmed with it."""

    description: Msg
    by: str
    at: datetime
    reason: str
    warnings: tuple[Msg, ...]


def player_ids(db: Database, event_id: int) -> dict[str, str]:
    """The core ids (``str`` of the row id) of the event's players by their labels."""
    with db.transaction() as session:
        _, players = tournament._load(session, event_id)
        return {label: str(pid) for pid, label in player_labels(players.values()).items()}


def _problem_record(p: Problem) -> dict[str, object]:
    return {
        "kind": p.kind.value,
        "board": p.board,
        "players": list(p.players),
        "refused": p.refused,
        "gap": p.gap,
        "colors": p.colors,
    }


def _problem_of(d: dict[str, object]) -> Problem:
    board = d.get("board")
    gap = d.get("gap", 0)
    players = d.get("players", [])
    return Problem(
        ProblemKind(str(d["kind"])),
        board if isinstance(board, int) else None,
        tuple(str(p) for p in players) if isinstance(players, list) else (),
        bool(d.get("refused", False)),
        gap if isinstance(gap, int) else 0,
        str(d.get("colors", "")),
    )


def _edit_of(d: dict[str, object]) -> RoundEdit:
    board = d.get("board", 0)
    return RoundEdit(
        EditKind(str(d["kind"])),
        str(d["player"]),
        str(d.get("other", "")),
        board if isinstance(board, int) else 0,
    )


def edit_records(stored: dict[str, object], names: dict[str, str]) -> tuple[EditRecord, ...]:
    """The edits kept in a round's stored explanation, in words (players by ``names``)."""
    out = []
    edits = stored.get("edits", [])
    for d in edits if isinstance(edits, list) else []:
        problems = [_problem_of(p) for p in d.get("problems", [])]
        out.append(
            EditRecord(
                _edit_of(d).describe(names),
                str(d.get("by", "")),
                datetime.fromisoformat(str(d["at"])),
                str(d.get("reason", "")),
                tuple(p.message(names) for p in problems),
            )
        )
    return tuple(out)


def _editable_round(
    session: Session, actor: Actor, event_id: int, number: int
) -> tuple[RoundRow, Event, dict[str, PlayerRow]]:
    require(session, actor, Action.PAIR_ROUND, event_id)
    rnd = round_row(session, event_id, number)
    if rnd.published:
        raise Conflict(
            Msg(
                "round %(number)s is published; hide it from the public before changing its "
                "pairing",
                number=number,
            )
        )
    event, players = tournament._load(session, event_id)
    return rnd, event, players


def recorded_boards(
    session: Session, rnd: RoundRow, boards: Iterable[int] | None = None
) -> list[int]:
    """The boards of ``rnd`` (of ``boards`` only, when given) whose game has a record, in
    board order: the referees' decisions it holds are never deleted or given to other players
    by a change to the pairing.

    >>> from weiqi.store.database import Database
    >>> db = Database("sqlite://"); db.upgrade()
    >>> with db.transaction() as session:
    ...     recorded_boards(session, RoundRow(id=1), [1, 2])
    []
    """
    query = (
        select(GameRow.board)
        .join(GameRecordRow, GameRecordRow.game_id == GameRow.id)
        .where(GameRow.round_id == rnd.id)
    )
    if boards is not None:
        query = query.where(GameRow.board.in_(boards))
    return sorted(session.scalars(query))


def _preview(
    session: Session,
    event_id: int,
    rnd: RoundRow,
    event: Event,
    players: dict[str, PlayerRow],
    edit: RoundEdit,
) -> tuple[EditPreview, EditedRound]:
    done = edit_round(event, rnd.number, edit)
    recorded = recorded_boards(session, rnd, done.changed)
    if recorded:
        raise Conflict(
            Msg(
                "round %(number)s: the game records of board(s) %(boards)s hold the referees' "
                "decisions; their players cannot change",
                number=rnd.number,
                boards=", ".join(str(b) for b in recorded),
            )
        )
    labels = {str(k): v for k, v in player_labels(players.values()).items()}
    pairings = tuple(
        PairingView(
            g.board, labels[g.black], labels[g.white], None, False, g.handicap, g.komi, g.label
        )
        for g in done.games
    )
    preview = EditPreview(
        rnd.number,
        edit,
        edit.describe(labels),
        pairings,
        tuple(sorted(labels[b] for b in done.byes)),
        done.changed,
        tuple(ProblemView(p.kind.value, p.message(labels), p.refused) for p in done.problems),
    )
    return preview, done


def preview_edit(
    db: Database, actor: Actor, event_id: int, number: int, edit: RoundEdit
) -> EditPreview:
    """What ``edit`` would make of round ``number`` and what it would break (nothing is
    changed)."""
    with db.transaction() as session:
        rnd, event, players = _editable_round(session, actor, event_id, number)
        return _preview(session, event_id, rnd, event, players, edit)[0]


@dataclass(frozen=True)
class EditDone:
    """The round after an edit: its boards, byes and every edit made so far."""

    number: int
    pairings: tuple[PairingView, ...]
    byes: tuple[str, ...]
    edits: tuple[EditRecord, ...]
    warnings: tuple[Msg, ...]


def apply_edit(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    edit: RoundEdit,
    reason: str,
    *,
    clock: ServerClock = SYSTEM_CLOCK,
) -> EditDone:
    """Make ``edit`` on round ``number``, confirmed with ``reason`` (required): refused when it
    breaks a hard rule (a rematch in a Swiss, a forbidden pair); its warnings are kept with the
    reason, who made it and when; the explanation of the round is recomputed."""
    reason = stated_reason(reason, Msg("a change of the pairing states its reason"))
    with db.transaction() as session:
        require(session, actor, Action.PAIR_ROUND, event_id)
        lock_event(session, event_id)  # a result or another edit at once comes before or after
        rnd, event, players = _editable_round(session, actor, event_id, number)
        preview, done = _preview(session, event_id, rnd, event, players, edit)
        refusals = [p.message for p in preview.problems if p.refused]
        if refusals:
            raise Conflict(refusals[0])
        rows = {g.board: g for g in rnd.games}
        for g in done.games:
            if g.board in done.changed:
                row = rows[g.board]
                row.black_id, row.white_id = int(g.black), int(g.white)
                row.handicap, row.komi = g.handicap, str(g.komi)
        old_byes = sorted(str(b.player_id) for b in rnd.byes)
        if sorted(done.byes) != old_byes:
            session.execute(delete(ByeRow).where(ByeRow.round_id == rnd.id))
            session.execute(
                insert(ByeRow), [{"round_id": rnd.id, "player_id": int(p)} for p in done.byes]
            )
            session.expire(rnd, ["byes"])
        stored = json.loads(rnd.explanation_json or "{}")
        by_hand = {
            frozenset((e["black"], e["white"]))
            for e in stored.get("explanations", [])
            if e.get("by_hand")
        }
        session.flush()
        why, totals = explain_round(event, number, done.games)
        entries = []
        for e in why:
            entry = dict(vars(e))
            pair = frozenset((e.black, e.white))
            entry["by_hand"] = pair in by_hand or e.board in done.changed
            entries.append(entry)
        edits = list(stored.get("edits", []))
        edits.append(
            {
                "kind": edit.kind.value,
                "player": edit.player,
                "other": edit.other,
                "board": edit.board,
                "by": actor.username,
                "at": clock.now().isoformat(),
                "reason": reason,
                "problems": [_problem_record(p) for p in done.problems],
            }
        )
        stored.update(
            {
                "explanations": entries,
                "totals": vars(totals),
                "edits": edits,
            }
        )
        rnd.explanation_json = json.dumps(stored)
        session.flush()
        labels = {str(k): v for k, v in player_labels(players.values()).items()}
        return EditDone(
            number,
            preview.pairings,
            preview.byes,
            edit_records(stored, labels),
            tuple(p.message for p in preview.problems),
        )


EDIT_KINDS = tuple(k.value for k in EditKind)
"""The words of the edits (``swap``, ``pair``, ``bye``, ``table``), as forms and the API take
them."""


def parse_edit(kind: str, player: str, other: str = "", board: str = "") -> RoundEdit:
    """An edit as a form, the API or the command line gives it (players by core id), or
    ``InvalidSetting`` naming the field that is wrong.

    >>> parse_edit("table", "3", board="2")
    RoundEdit(kind=<EditKind.TABLE: 'table'>, player='3', other='', board=2)
    >>> parse_edit("swap", "3")
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: other: choose a second, different player
    >>> parse_edit("shuffle", "3")
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: kind: must be one of swap, pair, bye, table
    """
    if kind not in EDIT_KINDS:
        raise InvalidSetting(
            "kind", Msg("must be one of %(choices)s", choices=", ".join(EDIT_KINDS))
        )
    edit_kind = EditKind(kind)
    player = player.strip()
    if not player.isdigit():
        raise InvalidSetting("player", Msg("choose a player"))
    other = other.strip()
    number = 0
    if edit_kind in (EditKind.SWAP, EditKind.PAIR):
        if not other.isdigit() or other == player:
            raise InvalidSetting("other", Msg("choose a second, different player"))
    else:
        other = ""
    if edit_kind is EditKind.TABLE:
        text = board.strip()
        if not text.isdigit() or not 1 <= int(text) <= 100_000:
            raise InvalidSetting("board", Msg("give the number of a board"))
        number = int(text)
    return RoundEdit(edit_kind, player, other, number)


__all__ = [
    "EDIT_KINDS",
    "EditDone",
    "EditKind",
    "EditPreview",
    "EditRecord",
    "ProblemView",
    "RoundEdit",
    "apply_edit",
    "edit_records",
    "parse_edit",
    "player_ids",
    "preview_edit",
]
