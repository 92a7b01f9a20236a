"""What organisers and the chief referee do before and between rounds (R-ORG-1): create an event
with its settings and change them (after round 1 only those safe to change), register and
withdraw players (R-WD-1), pair
the next round keeping the pairing's explanation, publish a round, undo the latest pairing.

Each function opens one transaction and checks ``permissions.require``; the pairing and its
explanation come from the pure core (``weiqi.tournament``).

>>> from weiqi.store.database import Database
>>> from weiqi.tournament.settings import EventSettings, System
>>> db = Database("sqlite://"); db.upgrade()
>>> local = Actor.local()
>>> from weiqi.services.events import create_event
>>> ev = create_event(db, local, "2026 俱乐部赛", EventSettings(System.SWISS, rounds=5))
>>> register_player(db, local, ev.id, "李明", rank="5段", club="北京").rank
'5d'
>>> import_players(db, local, ev.id, "姓名,段位\\n王芳,3d\\n张伟,2d\\n赵磊,1k\\n")
3
>>> rnd = pair_next_round(db, local, ev.id)
>>> rnd.number, len(rnd.pairings), rnd.published, rnd.totals.score_gap_max
(1, 2, False, 0)
>>> publish_round(db, local, ev.id, 1).published
True
>>> withdraw(db, local, ev.id, "赵磊").consequence == CONSEQUENCE_SWISS
True
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from weiqi.errors import (
    Conflict,
    Duplicate,
    DuplicateRows,
    FieldsRejected,
    InputError,
    InvalidSetting,
    PermissionDenied,
    RowsRejected,
)
from weiqi.formats.players_csv import MAX_LICENCE, parse_birth_date, parse_rating
from weiqi.i18n import N_
from weiqi.messages import Msg
from weiqi.services import tournament
from weiqi.services.actor import Actor
from weiqi.services.events import (
    Competition,
    count_rows,
    details_in,
    event_name,
    event_players,
    event_rounds,
    latest_round,
    player_row,
    round_row,
    store_name_and_details,
    store_settings,
)
from weiqi.services.permissions import Action, require
from weiqi.services.player_names import matches, namesake_labels, player_labels, search_terms
from weiqi.services.round_edits import EditRecord, edit_records, recorded_boards
from weiqi.services.server_clock import SYSTEM_CLOCK, ServerClock, as_utc
from weiqi.services.tournament import PairingView
from weiqi.store.database import Database
from weiqi.store.games import GameRecordRow
from weiqi.store.locks import lock_event
from weiqi.store.tournament import GameRow, PlayerRow, RoundRow
from weiqi.text import clean_name
from weiqi.tournament.details import EventDetails, format_local, parse_local
from weiqi.tournament.manual import editable
from weiqi.tournament.namesakes import identity_key
from weiqi.tournament.ranks import Rank
from weiqi.tournament.records import RoundTotals
from weiqi.tournament.settings import (
    SYSTEM_SETTINGS,
    EventSettings,
    System,
    settings_from_dict,
    settings_from_text,
    settings_text,
    settings_to_dict,
)
from weiqi.tournament.systems import system_for

# R-WD-1 (Art. 28), what a withdrawal means for the player's games, by system.
CONSEQUENCE_BEFORE_START = N_("Withdrawn before the start: the player is left out of the draw.")
CONSEQUENCE_RR_VOID = N_(
    "Fewer than half of the games played: all of the player's results are void."
)
CONSEQUENCE_RR_STAND = N_(
    "At least half of the games played: the results stand and the remaining games are forfeits."
)
CONSEQUENCE_SWISS = N_("The results stand; the player is not paired again.")
CONSEQUENCE_FORFEITS = N_("The results stand; the remaining games are forfeits.")


@dataclass(frozen=True)
class PlayerView:
    id: int
    name: str
    rank: str | None
    rating: float | None
    club: str
    country: str
    birth_date: date | None
    joined_round: int
    withdrawn_after: int | None
    warnings: int
    licence: str = ""
    label: str = ""
    """The name, with what tells a namesake apart (``张伟 (北京)``); the name if none."""


@dataclass(frozen=True)
class RoundSummary:
    number: int
    published: bool
    games: int
    results: int


@dataclass(frozen=True)
class Dashboard:
    info: Competition[EventSettings]
    players: tuple[PlayerView, ...]
    rounds: tuple[RoundSummary, ...]
    finished: bool
    """The system has no further round to pair."""
    search: str = ""
    shown: tuple[PlayerView, ...] = ()
    """The players the search matches (all of them without a search)."""
    pair_blocker: Msg | None = None
    """Why the next round cannot be paired (the system's preconditions, checked without pairing
    it), ``None`` when it can be or the event is finished: the page shows it instead of a
    button that would fail."""


@dataclass(frozen=True)
class ExplanationView:
    """Why two players were paired, with names instead of ids."""

    board: int
    black: str
    white: str
    score_black: int
    score_white: int
    colors_black: str
    colors_white: str
    seed_black: int
    seed_white: int
    score_gap: int
    seeding_deviation: int
    color_violation: bool
    same_club: bool
    note: str
    handicap: int = 0
    by_hand: bool = False
    """The chief referee made or moved this pair by hand (``services.round_edits``)."""


def explanation_views(
    stored: Mapping[str, Any], names: Mapping[str, str], handicaps: Mapping[int, int]
) -> tuple[ExplanationView, ...]:
    """A round's stored explanation (``tournament.explanation_json``), each pair's entrants
    by name (``names`` of their codes), each board's ``handicaps``: an individual round's
    boards, a team round's matches alike."""
    return tuple(
        ExplanationView(
            board=e["board"],
            black=names.get(e["black"], e["black"]),
            white=names.get(e["white"], e["white"]),
            score_black=e["score_black"],
            score_white=e["score_white"],
            colors_black=e["colors_black"],
            colors_white=e["colors_white"],
            seed_black=e["seed_black"],
            seed_white=e["seed_white"],
            score_gap=abs(e["score_black"] - e["score_white"]),
            seeding_deviation=e["seeding_deviation"],
            color_violation=e["color_violation"],
            same_club=e["same_club"],
            note=e.get("note", ""),
            handicap=handicaps.get(e["board"], 0),
            by_hand=bool(e.get("by_hand", False)),
        )
        for e in stored.get("explanations", [])
    )


def stored_totals(stored: Mapping[str, Any]) -> RoundTotals | None:
    """A round's stored pairing totals (``tournament.explanation_json``), either kind's; none
    stored: ``None``."""
    return RoundTotals(**stored["totals"]) if stored.get("totals") else None


@dataclass(frozen=True)
class RoundDetail:
    number: int
    published: bool
    pairings: tuple[PairingView, ...]
    byes: tuple[str, ...]
    seed: int | None
    explanations: tuple[ExplanationView, ...]
    totals: RoundTotals | None
    latest: bool
    results: int
    """Boards with a result entered (forfeits of players withdrawn earlier do not count)."""
    edits: tuple[EditRecord, ...] = ()
    """The chief referee's edits by hand of the pairing, with their reasons."""
    editable: bool = False
    """The system pairs this round by the Swiss matching: it may be edited by hand while it
    is unpublished and has no result."""
    search: str = ""
    """The organisers' search of the round's page (``?q=``); empty: every board shown."""
    shown_boards: frozenset[int] | None = None
    """The boards where either player matches ``search`` (``None``: no search, all)."""
    shown_byes: tuple[str, ...] | None = None
    """The byes ``search`` matches (``None``: no search, all)."""
    starts_at: datetime | None = None
    """When the round starts (UTC), as the organisers set it (:func:`set_round_start`)."""

    def shows(self, board: int) -> bool:
        """Whether board ``board`` is shown under the search."""
        return self.shown_boards is None or board in self.shown_boards


@dataclass(frozen=True)
class Withdrawal:
    name: str
    after_round: int
    consequence: str
    """One of the ``CONSEQUENCE_*`` msgids."""


# -- settings -------------------------------------------------------------------------------


#: The settings the form shows as boxes (a browser sends no unticked box).
CHECKBOXES = (
    "shared_places",
    "avoid_same_club",
    "avoid_same_region",
    "forfeit_in_sos",
    "grand_final_reset",
)


def settings_from_form(form: Mapping[str, str], base: EventSettings | None = None) -> EventSettings:
    """The settings of an HTML form (strings; an unticked checkbox is absent), checked by the
    core — an ``InvalidSetting`` names the form field. Settings the form does not show (an
    imported event's EGF McMahon rules, no-result points …) keep ``base``'s values.

    >>> from weiqi.tournament.settings import egf_mcmahon
    >>> egf = egf_mcmahon(5, Rank.parse("4d"))
    >>> kept = settings_from_form({**settings_form(egf), "rounds": "6"}, egf)
    >>> kept.rounds, kept.unplayed_sos, kept.mcmahon_zero
    (6, 'own_start', Rank('30k'))

    >>> s = settings_from_form({"system": "swiss", "rounds": "5", "komi": "3¾",
    ...                         "tiebreak_1": "SOS", "tiebreak_2": "SB", "tiebreak_3": ""})
    >>> s.rounds, s.tiebreaks, s.komi, s.shared_places
    (5, ('SOS', 'SB'), Fraction(15, 4), False)
    >>> type(settings_from_form({"system": "swiss", "rounds": "5", "best_of": "5"}))  # hidden
    <class 'weiqi.tournament.settings.SwissSettings'>
    >>> settings_from_form({"system": "swiss", "rounds": "0"})
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: rounds: must be between 1 and 100
    """
    tiebreaks = [form.get(f"tiebreak_{i}", "").strip().upper() for i in range(1, 6)]
    codes = [c for c in tiebreaks if c]
    data = settings_from_text(EventSettings, form, checkboxes=CHECKBOXES)
    data["system"] = form.get("system", "")
    # a setting the chosen system does not read is not the organiser's choice: the form sent
    # what it showed before the system changed (or shows without script)
    for name, systems in SYSTEM_SETTINGS.items():
        if data["system"] not in {s.value for s in systems}:
            data.pop(name, None)
    data["tiebreaks"] = None if form.get("tiebreaks_default") or not codes else codes
    if len(set(codes)) != len(codes) and data["tiebreaks"] is not None:
        raise InvalidSetting("tiebreaks", N_("a code appears twice"))
    if base is not None:
        data = {**settings_to_dict(base), **data}
    return settings_from_dict(data)


def settings_form(settings: EventSettings) -> dict[str, str]:
    """The form fields showing ``settings`` (inverse of :func:`settings_from_form`).

    >>> f = settings_form(EventSettings(System.ROUND_ROBIN))
    >>> f["komi"], f["tiebreak_1"], f["tiebreaks_default"], f["shared_places"]
    ('3¾', 'SB', 'on', 'on')
    """
    out = settings_text(settings)
    out["tiebreaks_default"] = "on" if settings.tiebreaks is None else ""
    codes = settings.tiebreak_codes
    for i in range(1, 6):
        out[f"tiebreak_{i}"] = codes[i - 1] if i <= len(codes) else ""
    return out


DEFAULT_SWISS = EventSettings(System.SWISS, rounds=5)
"""What the form shows first: a 5-round Swiss with the rules' defaults (3¾, 2/1/0)."""


# -- events ---------------------------------------------------------------------------------


# -- what may change after round 1 (issue #13) ----------------------------------------------

EDITABLE_AFTER_START = frozenset(
    {
        "rounds",
        "tiebreaks",
        "shared_places",
        "tie_resolution",
        "top_score",
        "forfeit_in_sos",
        "late_entry_points",
        "absent_points",
        "schedule_published",
        "disconnect_alert",
        "game_start",
        "online_colors",
        "lag_gain",
        "lag_cap",
        "time_control",
    }
)
"""The settings that may change once a round is paired: they only rank the players (the
standings are derived from the rounds on every read, so they follow), count the rounds still
to come or shape the online games still to start (a game begun keeps the lag allowance and
time control its record started with); the name and the details (dates, venue, time zone) may
change too."""

LOCKED_PLAYED = N_("cannot change after round 1: the games already played were played under it")
LOCKED_PAIRED = N_("cannot change after round 1: the pairings already made depend on it")

_PLAYED = frozenset(
    {
        "points_win",
        "points_draw",
        "points_loss",
        "bye_points",
        "no_result_points",
        "replay_points",
        "komi",
        "board_size",
        "cycle",
        "handicap_placement",
        "play",
        "color_policy",
        "handicap_reduction",
        "handicap_max",
        "handicap_threshold",
        "handicap_basis",
    }
)


def locked_reason(field: str) -> str:
    """Why the setting ``field`` cannot change once round 1 is paired (a msgid), or ``""`` if
    it may.

    >>> locked_reason("komi") == LOCKED_PLAYED, locked_reason("system") == LOCKED_PAIRED
    (True, True)
    >>> locked_reason("tiebreaks")
    ''
    """
    if field in EDITABLE_AFTER_START:
        return ""
    return LOCKED_PLAYED if field in _PLAYED else LOCKED_PAIRED


def locked_fields(settings: EventSettings) -> dict[str, str]:
    """Every setting that cannot change once round 1 is paired, with why (a msgid); the keys
    are ``settings_to_dict``'s, which are also the settings form's fields.

    >>> locked = locked_fields(EventSettings(System.SWISS, rounds=5))
    >>> "rounds" in locked, locked["komi"] == LOCKED_PLAYED, locked["seed"] == LOCKED_PAIRED
    (False, True, True)
    """
    return {k: locked_reason(k) for k in settings_to_dict(settings) if locked_reason(k)}


def check_change_after_start(old: EventSettings, new: EventSettings, paired: int) -> None:
    """Refuse a change of ``old`` into ``new`` that round ``paired`` (≥ 1) already played or
    paired under: ``InvalidSetting`` naming the first such field and why; the number of rounds
    may not go below the rounds paired.

    >>> from dataclasses import replace
    >>> from fractions import Fraction
    >>> s = EventSettings(System.SWISS, rounds=5)
    >>> check_change_after_start(s, replace(s, rounds=7, tiebreaks=("SOS", "SB")), 2)
    >>> check_change_after_start(s, replace(s, komi=Fraction(13, 2)), 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: komi: cannot change after round 1: the games already played ...
    >>> check_change_after_start(s, replace(s, rounds=1), 2)
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: rounds: must be at least 2, the rounds already paired
    """
    before, after = settings_to_dict(old), settings_to_dict(new)
    for field in [*after, *(k for k in before if k not in after)]:
        if before.get(field) != after.get(field) and locked_reason(field):
            raise InvalidSetting(field, Msg(locked_reason(field)))
    check_rounds_paired(new.rounds, paired)


def check_rounds_paired(rounds: int | None, paired: int) -> None:
    """``InvalidSetting`` naming ``rounds`` when it is fewer than the rounds already
    ``paired`` (no number set is never refused); for individual and team events alike."""
    if rounds is not None and rounds < paired:
        raise InvalidSetting(
            "rounds", Msg("must be at least %(paired)s, the rounds already paired", paired=paired)
        )


def update_settings(
    db: Database,
    actor: Actor,
    event_id: int,
    name: str,
    settings: EventSettings,
    details: EventDetails | None = None,
) -> Competition[EventSettings]:
    """Change the name, the settings and the details (``None``: kept). Once round 1 is paired
    only the settings of :data:`EDITABLE_AFTER_START` may change
    (:func:`check_change_after_start`); the standings follow at their next read."""
    name = event_name(name)
    with db.transaction() as session:
        require(session, actor, Action.EDIT_SETTINGS, event_id)
        lock_event(session, event_id)  # no round paired in between the check and the change
        row = tournament._settings_row(session, event_id)
        paired = count_rows(session, RoundRow, event_id)
        current = tournament.settings_of(row)
        # publishing the schedule is its own action (publish_schedule): a settings form or
        # body that does not carry the flag must not unpublish it
        settings = replace(settings, schedule_published=current.schedule_published)
        if paired:
            check_change_after_start(current, settings, paired)
        store_name_and_details(session, event_id, name, details)
        store_settings(row, settings)
        session.flush()
        return tournament._info(session, event_id)


def dashboard(db: Database, actor: Actor, event_id: int, search: str = "") -> Dashboard:
    """Players and rounds for the organisers' page (those who may enter players or pair);
    ``shown``: the players ``search`` matches (``player_names.matches``: name, club, rank)."""
    terms = search_terms(search)
    with db.transaction() as session:
        try:
            require(session, actor, Action.MANAGE_PLAYERS, event_id)
        except PermissionDenied:
            require(session, actor, Action.PAIR_ROUND, event_id)
        info = tournament._info(session, event_id)
        event, _ = tournament._load(session, event_id)
        complete = all(g.result is not None for r in event.rounds for g in r.games)
        system = system_for(event.settings)
        finished = bool(event.rounds) and complete and system.is_finished(event)
        blocker = None if finished else system.blocker(event)
        rows = event_players(session, event_id)
        shown = player_labels(rows)
        players = tuple(_view(p, shown[p.id]) for p in rows)
        matching = tuple(
            v for p, v in zip(rows, players, strict=True) if matches(terms, p, v.label)
        )
        rounds = tuple(
            RoundSummary(
                r.number,
                r.published,
                len(r.games),
                sum(1 for g in r.games if g.result is not None),
            )
            for r in event_rounds(session, event_id)
        )
        return Dashboard(info, players, rounds, finished, search.strip(), matching, blocker)


# -- players --------------------------------------------------------------------------------


def import_players(
    db: Database, actor: Actor, event_id: int, text: str, source: str = "players.csv"
) -> int:
    """Enter every player of a CSV text, or none: ``RowsRejected`` lists each bad line."""
    return tournament.import_players(db, actor, event_id, text, source)


def register_player(
    db: Database,
    actor: Actor,
    event_id: int,
    name: str,
    rank: str = "",
    rating: str = "",
    club: str = "",
    country: str = "",
    birth_date: str = "",
    licence: str = "",
) -> PlayerView:
    """Enter one player (the same checks as a CSV row; a late entry only into a Swiss). A
    namesake of a player entered is accepted when the club, birth date or licence differs."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["name", "rank", "rating", "club", "country", "birth_date", "licence"])
    writer.writerow([name, rank, rating, club, country, birth_date, licence])
    try:
        tournament.import_players(db, actor, event_id, out.getvalue(), "form")
    except DuplicateRows as err:  # the same person entered already: 409, on the name field
        raise Duplicate("name", err.problems[0][1]) from None
    except RowsRejected as err:
        reason = err.problems[0][1]
        cell = reason.args.get("field")
        text_cell = isinstance(cell, Msg) and cell.id in ("name", "club", "country", "licence")
        if reason.id == "%(field)s: %(reason)s" and isinstance(cell, Msg) and text_cell:
            # a text cell refused by weiqi.text.clean_name: its field, and the reason alone
            inner = reason.args["reason"]
            raise InputError(cell.id, inner if isinstance(inner, Msg) else reason) from None
        # The row's reason names its cell first ("rank %(raw)s: …" or "rating … is …").
        head = reason.args.get("field", reason) if reason.id == "%(field)s: %(reason)s" else reason
        head_id = head.id if isinstance(head, Msg) else ""
        field = next((f for f in ("rank", "rating", "birth date") if head_id.startswith(f)), "name")
        raise InputError(field, reason) from None
    fields = check_player_fields(name, rank, rating, club, country, birth_date, licence)
    key = identity_key(fields.name, fields.club, fields.birth_date, fields.licence)
    with db.transaction() as session:
        p = session.scalars(
            select(PlayerRow).where(PlayerRow.event_id == event_id, PlayerRow.identity_key == key)
        ).one()
        return _view(p, namesake_labels(session, event_id, p)[p.id])


def withdrawal_consequence(system: System, games_played: int, games_scheduled: int) -> str:
    """What R-WD-1 (Art. 28) makes of a withdrawal (a ``CONSEQUENCE_*`` msgid).

    >>> withdrawal_consequence(System.ROUND_ROBIN, 2, 7) == CONSEQUENCE_RR_VOID
    True
    >>> withdrawal_consequence(System.ROUND_ROBIN, 4, 7) == CONSEQUENCE_RR_STAND
    True
    >>> withdrawal_consequence(System.SWISS, 0, 5) == CONSEQUENCE_BEFORE_START
    True
    """
    if games_played == 0:
        return CONSEQUENCE_BEFORE_START
    if system.is_round_robin:
        return CONSEQUENCE_RR_VOID if 2 * games_played < games_scheduled else CONSEQUENCE_RR_STAND
    if system.is_swiss:
        return CONSEQUENCE_SWISS
    return CONSEQUENCE_FORFEITS


@dataclass(frozen=True)
class WithdrawalPreview:
    """What withdrawing a player would mean now (R-WD-1, 第28条), for the confirm step."""

    player_id: int
    label: str
    after_round: int
    """The rounds paired so far: the player's results in them stay as the system says."""
    consequence: str
    """One of the ``CONSEQUENCE_*`` msgids, for this player now."""
    round_robin: bool
    played: int
    """The player's games so far (round robin: against the scheduled ``scheduled``)."""
    scheduled: int
    withdrawn_after: int | None
    """Set when the player has withdrawn already."""

    @property
    def next_round(self) -> int:
        """The first round the player is no longer paired in."""
        return self.after_round + 1


def _preview(session: Session, event_id: int, row: PlayerRow) -> WithdrawalPreview:
    event, _ = tournament._load(session, event_id)
    pid = str(row.id)
    played = sum(1 for r in event.rounds for g in r.games if pid in g.players)
    others = sum(1 for e in event.entrants if e.id != pid and e.joined_round == 1)
    scheduled = others * event.settings.cycle_count
    system = event.settings.system
    return WithdrawalPreview(
        row.id,
        namesake_labels(session, event_id, row)[row.id],
        row.withdrawn_after if row.withdrawn_after is not None else len(event.rounds),
        withdrawal_consequence(system, played, scheduled),
        system.is_round_robin,
        played,
        scheduled,
        row.withdrawn_after,
    )


def withdrawal_preview(
    db: Database, actor: Actor, event_id: int, player_id: int
) -> WithdrawalPreview:
    """What withdrawing ``player_id`` would mean now, said before it is done (those who manage
    the event's players)."""
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        return _preview(session, event_id, player_row(session, event_id, player_id))


def withdraw(db: Database, actor: Actor, event_id: int, name: str | int) -> Withdrawal:
    """Withdraw a player after the rounds paired so far, saying what follows (R-WD-1). The
    player is named as ``tournament._player`` reads a name (a label tells namesakes apart), or
    given by row id."""
    if isinstance(name, str):
        with db.transaction() as session:
            name = tournament._player(session, event_id, name).id
    after = tournament.withdraw_player(db, actor, event_id, name)
    with db.transaction() as session:
        done = _preview(session, event_id, player_row(session, event_id, name))
    return Withdrawal(done.label, after, done.consequence)


# -- rounds ---------------------------------------------------------------------------------


def pair_next_round(
    db: Database, actor: Actor, event_id: int, start: datetime | None = None
) -> RoundDetail:
    """Pair the next round with the event's system, keeping the explanation (unpublished);
    ``start``: when it starts, as a team event's pairing takes it (to move it later:
    :func:`set_round_start`)."""
    with db.transaction() as session:
        require(session, actor, Action.PAIR_ROUND, event_id)
        lock_event(session, event_id)  # of two pairings at once, the second sees the first
        event, _ = tournament._load(session, event_id)
        if not event.entrants:
            raise Conflict(Msg("enter players before pairing"))
        plan = system_for(event.settings).next_round(event)
        rnd = tournament.store_plan(session, event_id, plan, start)
        return _detail(session, event_id, rnd)


def _detail(session: Session, event_id: int, rnd: RoundRow, search: str = "") -> RoundDetail:
    terms = search_terms(search)
    event, players = tournament._load(session, event_id)
    view = tournament._round_view(session, rnd, players)
    names = {str(k): v for k, v in player_labels(players.values()).items()}
    shown_boards: frozenset[int] | None = None
    shown_byes: tuple[str, ...] | None = None
    if terms:
        # the same matching as every other list's search (name, club, country, rank)
        rows = {names[k]: row for k, row in players.items()}

        def found(label: str) -> bool:
            row = rows.get(label)
            return row is not None and matches(terms, row, label)

        shown_boards = frozenset(p.board for p in view.pairings if found(p.black) or found(p.white))
        shown_byes = tuple(b for b in view.byes if found(b))
    stored = json.loads(rnd.explanation_json or "{}")
    explanations = explanation_views(stored, names, {p.board: p.handicap for p in view.pairings})
    totals = stored_totals(stored)
    latest = latest_round(session, event_id)
    return RoundDetail(
        number=rnd.number,
        published=rnd.published,
        pairings=view.pairings,
        byes=view.byes,
        seed=rnd.seed,
        explanations=explanations,
        totals=totals,
        latest=rnd.number == latest,
        results=_entered_results(rnd, players),
        edits=edit_records(stored, names),
        editable=bool(explanations) and editable(event),
        search=search.strip(),
        shown_boards=shown_boards,
        shown_byes=shown_byes,
        starts_at=as_utc(rnd.starts_at),
    )


def _entered_results(rnd: RoundRow, players: Mapping[str, PlayerRow]) -> int:
    """Results somebody entered; a forfeit the pairing gave a player withdrawn before this
    round (R-WD-1) was not entered by anyone."""

    def withdrawn_before(pid: int) -> bool:
        after = players[str(pid)].withdrawn_after
        return after is not None and after < rnd.number

    return sum(
        1
        for g in rnd.games
        if g.result is not None and not any(withdrawn_before(pid) for pid in g.pair)
    )


def round_detail(
    db: Database, actor: Actor, event_id: int, number: int, search: str = ""
) -> RoundDetail:
    """A round with its explanation: anyone once published, before that those who pair or
    publish it. ``search`` (the page's ``?q=``) marks the boards and byes whose players it
    matches (``player_names.matches``: name, club, rank), as every list's search does."""
    with db.transaction() as session:
        rnd = round_row(session, event_id, number)
        if not rnd.published:
            try:
                require(session, actor, Action.PUBLISH_ROUND, event_id)
            except PermissionDenied:
                require(session, actor, Action.PAIR_ROUND, event_id)
        return _detail(session, event_id, rnd, search)


def publish_round(
    db: Database, actor: Actor, event_id: int, number: int, published: bool = True
) -> RoundDetail:
    """Show a round to the public (or hide it again)."""
    with db.transaction() as session:
        require(session, actor, Action.PUBLISH_ROUND, event_id)
        lock_event(session, event_id)
        rnd = round_row(session, event_id, number)
        rnd.published = published
        session.flush()
        return _detail(session, event_id, rnd)


def move_round_start(
    session: Session,
    rnd: RoundRow,
    start: str,
    clock: ServerClock,
) -> datetime | None:
    """Set when round ``rnd`` starts: ``start`` as typed in the event's time zone (empty:
    ``None``), stored and returned as a UTC moment. Individual and team rounds alike
    (``teams.set_round_start``).

    ``InvalidSetting`` (field ``start``) for a start that cannot be read or is not later than
    now (the server's clock); ``Conflict`` once a game of the round has begun: its start
    cannot change (the game began under the old time). A record of one event is a game only
    opened (its colours drawn by nigiri): it has not begun; more (the clock started, a
    referee's decision) and the start stands."""
    zone_name = details_in(session, rnd.event_id).time_zone
    when = parse_local(start, zone_name) if start.strip() else None
    now = clock.now()
    if when is not None and when <= now:
        raise InvalidSetting(
            "start",
            Msg("the start must be later than now (%(now)s)", now=format_local(now, zone_name)),
        )
    began = session.scalar(
        select(func.count())
        .select_from(GameRecordRow)
        .join(GameRow, GameRow.id == GameRecordRow.game_id)
        .where(GameRow.round_id == rnd.id, GameRecordRow.seq > 1)
    )
    if began:
        raise Conflict(
            Msg(
                "a game of round %(number)s has begun: its start cannot change",
                number=rnd.number,
            )
        )
    rnd.starts_at = when
    return when


def set_round_start(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    start: str,
    clock: ServerClock = SYSTEM_CLOCK,
) -> RoundDetail:
    """Set when round ``number`` starts (those who publish rounds): ``start`` as typed, in the
    event's time zone (``2026-12-05 09:30``; empty: no start time). An online event whose games
    start at the round's start time (``EventSettings.game_start``) has the server start them
    then. What "now" is comes from the server's clock.

    ``InvalidSetting`` (field ``start``) for a time that cannot be read or is not later than
    now; ``Conflict`` once a game of the round has begun (it began under the old time).

    >>> from weiqi.services.server_clock import ManualClock
    >>> from weiqi.services.tournament import pair_round
    >>> from weiqi.services.events import create_event
    >>> db = Database("sqlite://"); db.upgrade()
    >>> local = Actor.local()
    >>> ev = create_event(db, local, "网络赛", EventSettings(System.ROUND_ROBIN)).id
    >>> _ = import_players(db, local, ev, "name\\n甲\\n乙\\n")
    >>> _ = pair_round(db, local, ev)
    >>> from datetime import UTC
    >>> now = ManualClock(datetime(2026, 12, 1, 0, 0, tzinfo=UTC))
    >>> set_round_start(db, local, ev, 1, "2026-12-05 09:30", now).starts_at.isoformat()
    '2026-12-05T01:30:00+00:00'
    >>> set_round_start(db, local, ev, 1, "2026-11-30 09:30", now)
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: start: the start must be later than now (2026-12-01 08:00)
    """
    with db.transaction() as session:
        require(session, actor, Action.PUBLISH_ROUND, event_id)
        lock_event(session, event_id)
        rnd = round_row(session, event_id, number)
        move_round_start(session, rnd, start, clock)
        session.flush()
        return _detail(session, event_id, rnd)


def publish_schedule(db: Database, actor: Actor, event_id: int, published: bool = True) -> None:
    """Show a round robin's whole schedule (轮次表) to the public in advance, or hide it again
    (those who may publish a round); ``Conflict`` for an event that is not a round robin.

    >>> from weiqi.services.events import create_event
    >>> db = Database("sqlite://"); db.upgrade()
    >>> local = Actor.local()
    >>> ev = create_event(db, local, "循环赛", EventSettings(System.ROUND_ROBIN))
    >>> publish_schedule(db, local, ev.id)
    >>> tournament.tournament_info(db, ev.id).settings.schedule_published
    True
    """
    with db.transaction() as session:
        require(session, actor, Action.PUBLISH_ROUND, event_id)
        lock_event(session, event_id)
        row = tournament._settings_row(session, event_id)
        settings = tournament.settings_of(row)
        if not settings.system.is_round_robin:
            raise Conflict(Msg("only a round robin has a schedule to publish in advance"))
        store_settings(row, replace(settings, schedule_published=published))


def unpair_round(db: Database, actor: Actor, event_id: int, number: int) -> None:
    """Delete the latest round's pairing, so it can be paired again; refused once a result has
    been entered on one of its boards or one of its games has a record (a warning, an
    infraction, a ruling: the referee's decisions are never deleted with a pairing).

    Under the event's lock, like every write to a board (``services.games``): a result entered
    at the same moment either comes first, and the round stays, or finds the round gone and is
    told so — never both."""
    with db.transaction() as session:
        require(session, actor, Action.PAIR_ROUND, event_id)
        lock_event(session, event_id)
        rnd = round_row(session, event_id, number)
        latest = latest_round(session, event_id)
        if number != latest:
            raise Conflict(Msg("only the latest round (%(latest)s) can be unpaired", latest=latest))
        _, players = tournament._load(session, event_id)
        if _entered_results(rnd, players):
            raise Conflict(
                Msg("round %(number)s has results; it can no longer be unpaired", number=number)
            )
        recorded = recorded_boards(session, rnd)
        if recorded:
            raise Conflict(
                Msg(
                    "round %(number)s: the game records of board(s) %(boards)s hold the "
                    "referees' decisions; it can no longer be unpaired",
                    number=number,
                    boards=", ".join(str(b) for b in recorded),
                )
            )
        session.delete(rnd)


# -- editing players ------------------------------------------------------------------------

REINSTATED = N_(
    "No round was missed: the player is paired again from the next round, and every result "
    "so far counts as played."
)
"""What a reinstatement means (R-WD-1 undone before the next round is paired)."""


@dataclass(frozen=True)
class PlayerFields:
    """A player's details as a form gives them, checked (:func:`check_player_fields`)."""

    name: str
    rank: str | None
    rating: float | None
    club: str
    country: str
    birth_date: date | None
    licence: str = ""


@dataclass(frozen=True)
class Reinstatement:
    name: str
    from_round: int
    """The first round the player is paired in again."""
    consequence: str
    """:data:`REINSTATED` (a msgid)."""


PLAYER_FORM_FIELDS = ("name", "rank", "rating", "club", "country", "birth_date", "licence")
"""The fields of the player form, in its order (also the keys of ``FieldsRejected``)."""


def check_player_fields(
    name: str,
    rank: str = "",
    rating: str = "",
    club: str = "",
    country: str = "",
    birth_date: str = "",
    licence: str = "",
) -> PlayerFields:
    """The fields of a player form as they are stored, or ``FieldsRejected`` with every bad
    field at once (the same checks as a CSV row: ``weiqi.formats.players_csv``).

    >>> check_player_fields("李明", "5段", "2400").rank
    '5d'
    >>> try:
    ...     check_player_fields("", "12d", "abc")
    ... except FieldsRejected as err:
    ...     sorted(err.problems)
    ['name', 'rank', 'rating']
    """
    values = check_fields(
        (
            ("name", name, lambda t: clean_name(N_("name"), t)),
            ("rank", rank, lambda t: Rank.parse(t.strip()).code if t.strip() else None),
            ("rating", rating, lambda t: parse_rating(t.strip())),
            ("club", club, lambda t: clean_name(N_("club"), t, required=False)),
            ("country", country, lambda t: clean_name(N_("country"), t, required=False)),
            ("birth_date", birth_date, lambda t: parse_birth_date(t.strip())),
            (
                "licence",
                licence,
                lambda t: clean_name(N_("licence"), t, required=False, max_length=MAX_LICENCE),
            ),
        )
    )
    return PlayerFields(**values)


def check_fields(checks: Iterable[tuple[str, str, Callable[[str], object]]]) -> dict[str, Any]:
    """Each ``(field, text, check)``'s text as its check reads it, or ``FieldsRejected`` naming
    every field whose check refuses it (``InvalidSetting`` or ``InputError``) with the reason:
    how the player and the roster forms show all their bad fields at once.

    >>> check_fields([("name", "李明", lambda t: clean_name(N_("name"), t)), ("n", "3", int)])
    {'name': '李明', 'n': 3}
    >>> try:
    ...     check_fields([("name", "", lambda t: clean_name(N_("name"), t)), ("n", "3", int)])
    ... except FieldsRejected as err:
    ...     list(err.problems)
    ['name']
    """
    problems: dict[str, Msg] = {}
    values: dict[str, Any] = {}
    for field, text, check in checks:
        try:
            values[field] = check(text)
        except (InvalidSetting, InputError) as err:
            problems[field] = err.reason
    if problems:
        raise FieldsRejected(problems)
    return values


def _view(p: PlayerRow, label: str) -> PlayerView:
    """A stored player as the pages, the API and the CLI see it; ``label`` as
    ``player_labels`` shows it among its namesakes."""
    return PlayerView(
        p.id,
        p.name,
        p.rank,
        p.rating,
        p.club,
        p.country,
        p.birth_date,
        p.joined_round,
        p.withdrawn_after,
        p.warnings,
        p.licence,
        label,
    )


def player(db: Database, actor: Actor, event_id: int, player_id: int) -> PlayerView:
    """One player as the edit form shows it (those who manage the event's players)."""
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        row = player_row(session, event_id, player_id)
        return _view(row, namesake_labels(session, event_id, row)[row.id])


def player_named(db: Database, event_id: int, name: str) -> int:
    """The id of the event's player called ``name`` (for the command line, which names them):
    a label tells namesakes apart (``张伟 (北京)``); a name they share is refused with their
    labels, never guessed."""
    with db.transaction() as session:
        tournament._settings_row(session, event_id)
        return tournament._player(session, event_id, clean_name(N_("name"), name)).id


def edit_player(
    db: Database,
    actor: Actor,
    event_id: int,
    player_id: int,
    name: str,
    rank: str = "",
    rating: str = "",
    club: str = "",
    country: str = "",
    birth_date: str = "",
    licence: str = "",
) -> PlayerView:
    """Change a player's details, at any time. Games, byes and game records point at the
    player's id, never the name: a renamed player keeps every result and record. What is
    paired stays paired (its handicap included); a new rank counts from the next pairing.

    ``FieldsRejected`` lists every bad field; the name of another player of the event is one
    unless the club, birth date or licence tells the two apart."""
    fields = check_player_fields(name, rank, rating, club, country, birth_date, licence)
    key = identity_key(fields.name, fields.club, fields.birth_date, fields.licence)
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        lock_event(session, event_id)  # the identity checked stays free until commit
        row = player_row(session, event_id, player_id)
        clash = session.scalar(
            select(PlayerRow.id).where(
                PlayerRow.event_id == event_id,
                PlayerRow.identity_key == key,
                PlayerRow.id != player_id,
            )
        )
        if clash is not None:
            raise Duplicate(
                "name",
                Msg(
                    "another player is already entered as %(name)s with the same club, "
                    "birth date and licence: give the one that tells them apart",
                    name=fields.name,
                ),
            )
        row.identity_key = key
        row.licence = fields.licence
        row.name = fields.name
        row.rank = fields.rank
        row.rating = fields.rating
        row.club = fields.club
        row.country = fields.country
        row.birth_date = fields.birth_date
        session.flush()
        return _view(row, namesake_labels(session, event_id, row)[row.id])


def delete_player(db: Database, actor: Actor, event_id: int, player_id: int) -> str:
    """Delete an entry made by mistake, before round 1 is paired; returns the name. Once the
    event has started the player is part of its draw: withdraw them instead (R-WD-1)."""
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        lock_event(session, event_id)  # no round paired between the check and the delete
        row = player_row(session, event_id, player_id)
        if count_rows(session, RoundRow, event_id):
            raise Conflict(
                Msg(
                    "%(name)s can no longer be deleted: round 1 is paired and the player is "
                    "part of the draw. Withdraw the player instead.",
                    name=row.name,
                )
            )
        name = namesake_labels(session, event_id, row)[row.id]
        session.delete(row)
        return name


def reinstate(db: Database, actor: Actor, event_id: int, player_id: int) -> Reinstatement:
    """Undo a withdrawal (R-WD-1) while no round has been paired since: the player has missed
    nothing, is paired again from the next round, and the results so far count (a round
    robin's results voided by the withdrawal stand again). After a further round is paired the
    rounds missed cannot be given back, and the withdrawal stands."""
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        lock_event(session, event_id)  # no round paired between the check and the change
        row = player_row(session, event_id, player_id)
        after = row.withdrawn_after
        if after is None:
            raise Conflict(Msg("%(name)s has not withdrawn", name=row.name))
        paired = count_rows(session, RoundRow, event_id)
        if paired > after:
            if after == 0:
                raise Conflict(
                    Msg(
                        "%(name)s withdrew before the start and round 1 is paired without "
                        "them: the withdrawal stands.",
                        name=row.name,
                    )
                )
            raise Conflict(
                Msg(
                    "%(name)s withdrew after round %(after)s and round %(paired)s is paired "
                    "since: the rounds missed cannot be given back, so the withdrawal stands.",
                    name=row.name,
                    after=after,
                    paired=paired,
                )
            )
        row.withdrawn_after = None
        label = namesake_labels(session, event_id, row)[row.id]
        return Reinstatement(label, paired + 1, REINSTATED)
