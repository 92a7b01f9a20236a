"""An individual event as the core sees it, built from plain rows — and its standings read
from an SQLite file without SQLAlchemy.

``services.tournament._load`` (every use case on an event) and :func:`sqlite_standings` (``weiqi
standings``) build the core's ``Event`` with the same functions here (:func:`entrant`,
:func:`rounds_of`) from the same columns, so both give equal events; they differ only in who
runs the queries. The SQLite reader exists for speed (issue #15: the standings of 10,000 players
× 9 rounds ≤ 1 s through the command line): it imports neither SQLAlchemy nor Alembic and reads
the five tables in five queries. It declines (returns None) whatever it does not handle — a
database other than an SQLite file, a file behind the code's schema, a team event, an event that
does not exist — and the command then takes the usual path, with its migrations and messages.

>>> from weiqi.services.tournament import import_players

>>> from weiqi.services.events import create_event
>>> from weiqi.services.actor import Actor
>>> from weiqi.store.database import Database
>>> from weiqi.tournament.settings import EventSettings, System
>>> import tempfile, pathlib
>>> url = f"sqlite:///{pathlib.Path(tempfile.mkdtemp()) / 'e.sqlite3'}"
>>> db = Database(url); db.upgrade()
>>> ev = create_event(db, Actor.local(), "Club", EventSettings(system=System.SWISS, rounds=3))
>>> _ = import_players(db, Actor.local(), ev.id, "name,rank\\nA,5d\\nB,4d\\n")
>>> [(s.place, s.name, s.points) for s in sqlite_standings(url, None)]
[(1, 'A', 0), (1, 'B', 0)]
>>> sqlite_standings("sqlite://", None) is None  # not a file: the usual path
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple, Protocol

from weiqi.referee.signature import holds
from weiqi.rules.result import Result
from weiqi.tournament.namesakes import Person, labels
from weiqi.tournament.players import Entrant
from weiqi.tournament.ranks import Rank
from weiqi.tournament.records import Event, Game, Round
from weiqi.tournament.settings import settings_from_dict
from weiqi.tournament.standings import Value

if TYPE_CHECKING:
    import sqlite3

    from weiqi.services.read_models import StandingsRead


class LoadedPlayer(Protocol):
    """What the event's loading reads of a player: a stored row (``store.tournament.PlayerRow``)
    or :class:`PlayerColumns`."""

    @property
    def id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def licence(self) -> str: ...
    @property
    def rank(self) -> str | None: ...
    @property
    def rating(self) -> float | None: ...
    @property
    def club(self) -> str: ...
    @property
    def country(self) -> str: ...
    @property
    def region(self) -> str: ...
    @property
    def birth_date(self) -> date | None: ...
    @property
    def extra_json(self) -> str: ...
    @property
    def withdrawn_after(self) -> int | None: ...
    @property
    def joined_round(self) -> int: ...
    @property
    def warnings(self) -> int: ...
    @property
    def mcmahon_correction(self) -> int: ...


class PlayerColumns(NamedTuple):
    """A player's columns (table ``event_players``) as plain values."""

    id: int
    name: str
    licence: str
    rank: str | None
    rating: float | None
    club: str
    country: str
    region: str
    birth_date: date | None
    extra_json: str
    withdrawn_after: int | None
    joined_round: int
    warnings: int
    mcmahon_correction: int


@dataclass(frozen=True)
class StandingView:
    place: int
    name: str
    label: str
    """The name, with what tells a namesake apart (``weiqi.tournament.namesakes``)."""
    points: int
    tiebreaks: dict[str, Value]
    shared: bool
    by_lot: bool
    playoff: bool


#: One game's columns, in the order :func:`rounds_of` takes them.
GameColumns = tuple[int, int, int, int, "str | None", int, str, str]


def entrant(
    p: LoadedPlayer, ranks: dict[str, Rank] | None = None, absent: set[int] | None = None
) -> Entrant:
    """The core's entrant of a player row; ``ranks`` caches parsed rank codes across rows;
    ``absent``: the rounds the player sits out.

    >>> row = PlayerColumns(7, "张三", "", "5d", 2400.0, "北京", "CN", "", None, "{}",
    ...                     None, 1, 0, 0)
    >>> e = entrant(row, absent={2})
    >>> (e.id, e.rank.code, e.club, sorted(e.absent_rounds))
    ('7', '5d', '北京', [2])
    """
    rank = None
    if p.rank:
        rank = ranks.get(p.rank) if ranks is not None else None
        if rank is None:
            rank = Rank.parse(p.rank)
            if ranks is not None:
                ranks[p.rank] = rank
    return Entrant(
        id=str(p.id),
        name=p.name,
        rank=rank,
        rating=p.rating,
        club=p.club,
        country=p.country,
        region=p.region,
        birth_date=p.birth_date,
        withdrawn_after=p.withdrawn_after,
        joined_round=p.joined_round,
        absent_rounds=frozenset(absent or ()),
        mcmahon_correction=p.mcmahon_correction or 0,
        extra=extra_of(p.extra_json),
    )


def extra_of(text: str | None) -> tuple[tuple[str, str], ...]:
    """A player's other details (``extra_json``) as the entrant holds them.

    >>> extra_of('{"pin": 12345}'), extra_of("{}")
    ((('pin', '12345'),), ())
    """
    if not text or text == "{}":
        return ()
    return tuple((str(k), str(v)) for k, v in json.loads(text).items())


def rounds_of(
    seeds: Mapping[int, int | None],
    games: Iterable[GameColumns],
    byes: Iterable[tuple[int, int]],
) -> tuple[Round, ...]:
    """The rounds from their seeds (by number, in order), their games' columns (round number,
    board, black id, white id, result code, handicap, komi, label; by round and board) and their
    byes (round number, player id). Equal result codes and komi are parsed once: 10,000 players
    × 9 rounds are 45,000 games with a handful of distinct results."""
    by_round: dict[int, list[Game]] = {number: [] for number in seeds}
    results: dict[str, Result] = {}
    komis: dict[str, Fraction] = {}
    for number, board, black, white, code, handicap, komi, label in games:
        result = None
        if code:
            result = results.get(code)
            if result is None:
                result = results[code] = Result.parse(code)
        fraction = komis.get(komi)
        if fraction is None:
            fraction = komis[komi] = Fraction(komi)
        by_round[number].append(
            Game.of(number, board, str(black), str(white), result, handicap, fraction, label)
        )
    bye_ids: dict[int, list[str]] = {number: [] for number in seeds}
    for number, player_id in byes:
        bye_ids[number].append(str(player_id))
    return tuple(
        Round(number, tuple(by_round[number]), tuple(sorted(bye_ids[number])), seed)
        for number, seed in seeds.items()
    )


#: A board's columns with what its seal covers: the :data:`GameColumns`, then the board's id,
#: its confirmation, its seal and its record's head and warnings (``None`` without a record).
SealedColumns = tuple[
    int, int, int, int, str | None, int, str, str,
    int, bool, str | None, str | None, int | None, int | None,
]  # fmt: skip


def counted_games(
    key: bytes, boards: Iterable[SealedColumns]
) -> tuple[list[GameColumns], dict[str, int]]:
    """The games as the standings count them, and the warnings in their records (R-PEN-1) by
    player: a board whose seal does not hold (``weiqi.store.seals``: a result or a warning
    count rewritten in the database) counts as not played, without its warnings.

    >>> from weiqi.referee.signature import board_seal
    >>> key = b"k" * 32
    >>> seal = board_seal(key, "event_games", 9, (1, 2), "B+R", True, (0, 1), "h")
    >>> row = (1, 1, 1, 2, "B+R", 0, "15/4", "", 9, True, seal, "h", 0, 1)
    >>> counted_games(key, [row])
    ([(1, 1, 1, 2, 'B+R', 0, '15/4', '')], {'2': 1})
    >>> counted_games(key, [(*row[:4], "W+R", *row[5:])])  # rewritten behind the app's back
    ([(1, 1, 1, 2, None, 0, '15/4', '')], {})
    """
    games: list[GameColumns] = []
    in_games: dict[str, int] = {}
    for row in boards:
        number, board, black, white, code, handicap, komi, label = row[:8]
        gid, confirmed, seal, head, bw, ww = row[8:]
        warned = (bw or 0, ww or 0)
        if not holds(key, "event_games", gid, (black, white), code, confirmed, warned, head, seal):
            code, warned = None, (0, 0)
        if warned[0] or warned[1]:  # most boards have none
            for pid, n in ((black, warned[0]), (white, warned[1])):
                if n:
                    in_games[str(pid)] = in_games.get(str(pid), 0) + n
        games.append((number, board, black, white, code, handicap, komi, label))
    return games, in_games


def standing_views(event: Event, players: Mapping[str, LoadedPlayer]) -> list[StandingView]:
    """The standings of ``event`` with each player's name and label (``players`` by core id:
    every player of the event, so that namesakes are told apart)."""
    from weiqi.tournament.ranking import standings

    shown = labels(Person(p.id, p.name, p.club, p.birth_date, p.licence) for p in players.values())
    return [
        StandingView(
            s.place,
            players[s.id].name,
            shown[int(s.id)],
            s.points,
            dict(s.tiebreaks),
            s.shared,
            s.by_lot,
            s.playoff,
        )
        for s in standings(event)
    ]


# -- the SQLite reader ------------------------------------------------------------------------

_PLAYERS = (
    "SELECT id, name, licence, rank, rating, club, country, region, birth_date, extra_json,"
    " withdrawn_after, joined_round, warnings, mcmahon_correction"
    " FROM event_players WHERE event_id = ? ORDER BY id"
)
_ABSENCES = (
    "SELECT a.player_id, a.round FROM event_player_absences a"
    " JOIN event_players p ON p.id = a.player_id WHERE p.event_id = ?"
)
_ROUNDS = "SELECT number, seed FROM event_rounds WHERE event_id = ? ORDER BY number"
_GAMES = (
    "SELECT r.number, g.board, g.black_id, g.white_id, g.result, g.handicap, g.komi, g.label,"
    " g.id, g.confirmed, g.seal, c.head, c.black_warnings, c.white_warnings"
    " FROM event_games g JOIN event_rounds r ON r.id = g.round_id"
    " LEFT JOIN game_records c ON c.game_id = g.id WHERE r.event_id = ?"
    " ORDER BY r.number, g.board"
)
_BYES = (
    "SELECT r.number, b.player_id FROM event_byes b JOIN event_rounds r ON r.id = b.round_id"
    " WHERE r.event_id = ?"
)
_LATEST = (
    "SELECT MAX(s.event_id) FROM event_settings s"
    " LEFT JOIN league_divisions d ON d.event_id = s.event_id WHERE d.event_id IS NULL"
)


def _player(row: tuple[object, ...]) -> PlayerColumns:
    """A player's columns as SQLAlchemy would give them (SQLite keeps a date as text)."""
    p = PlayerColumns(*row)  # type: ignore[arg-type]
    born = p.birth_date
    return p._replace(birth_date=date.fromisoformat(born)) if isinstance(born, str) else p


def read_event(
    connection: sqlite3.Connection, event_id: int, key: bytes
) -> tuple[Event, dict[str, PlayerColumns]] | None:
    """The individual event ``event_id`` and its players by core id, read with plain queries,
    its boards counted as their seals under the record ``key`` allow; None when it is not one
    (no settings row, or a team event's)."""
    found = connection.execute(
        "SELECT settings_json FROM event_settings WHERE event_id = ? AND kind = 'individual'",
        (event_id,),
    ).fetchone()
    if found is None:
        return None
    settings = settings_from_dict(json.loads(found[0]))
    players = [_player(row) for row in connection.execute(_PLAYERS, (event_id,))]
    absent: dict[int, set[int]] = {}
    for player_id, number in connection.execute(_ABSENCES, (event_id,)):
        absent.setdefault(player_id, set()).add(number)
    ranks: dict[str, Rank] = {}
    entrants = tuple(entrant(p, ranks, absent.get(p.id)) for p in players)
    seeds = dict(connection.execute(_ROUNDS, (event_id,)).fetchall())
    counted, in_games = counted_games(key, connection.execute(_GAMES, (event_id,)))
    rounds = rounds_of(seeds, counted, connection.execute(_BYES, (event_id,)))
    warnings = {str(p.id): p.warnings for p in players if p.warnings}
    for pid, n in in_games.items():
        warnings[pid] = warnings.get(pid, 0) + n
    return Event(settings, entrants, rounds, warnings), {str(p.id): p for p in players}


@dataclass(frozen=True)
class StandingsSheet:
    """What the standings command prints: the event's name, the tie-breaks' codes in order
    (the table's columns) and the rows."""

    name: str
    tiebreak_codes: tuple[str, ...]
    rows: list[StandingView]


def sqlite_standings(url: str, event_id: int | None) -> list[StandingView] | None:
    """The standings of individual event ``event_id`` (None: the newest event) of the SQLite
    file of ``url``, read without SQLAlchemy; None when the usual path must answer (see the
    module's docstring)."""
    sheet = sqlite_standings_sheet(url, event_id)
    return None if sheet is None else sheet.rows


def sqlite_standings_sheet(url: str, event_id: int | None) -> StandingsSheet | None:
    """:func:`sqlite_standings` with the event's name and tie-break codes, for the table."""
    loaded = sqlite_event(url, event_id)
    if loaded is None:
        return None
    name, event, players = loaded
    return StandingsSheet(name, event.settings.tiebreak_codes, standing_views(event, players))


def sqlite_standings_read(url: str, event_id: int | None) -> StandingsRead | None:
    """The standings' read model (``weiqi standings --json``, the API's) read as
    :func:`sqlite_standings` reads them; None when the usual path must answer."""
    from weiqi.services.read_models import standings_read

    loaded = sqlite_event(url, event_id)
    return None if loaded is None else standings_read(*loaded)


def sqlite_event(
    url: str, event_id: int | None
) -> tuple[str, Event, dict[str, PlayerColumns]] | None:
    """The name, the core's event and the players by core id of individual event ``event_id``
    (None: the newest event) of the SQLite file of ``url``, read without SQLAlchemy; None when
    the usual path must answer (see the module's docstring)."""
    from weiqi.referee.signature import record_key
    from weiqi.store.plain import open_at_head, sqlite_secret

    connection = open_at_head(url)
    if connection is None:
        return None
    try:
        connection.execute("BEGIN")  # one snapshot for every query, as one transaction
        secret = sqlite_secret(connection, url)
        if secret is None:
            return None  # the site key is settled (or refused, with why) by the usual path
        if event_id is None:
            newest = [row[0] for row in connection.execute(_LATEST) if row[0] is not None]
            if not newest:
                return None
            event_id = max(newest)
        team = connection.execute(
            "SELECT 1 FROM event_settings WHERE event_id = ? AND kind = 'team'", (event_id,)
        ).fetchone()
        if team is not None:
            return None
        named = connection.execute("SELECT name FROM events WHERE id = ?", (event_id,)).fetchone()
        loaded = read_event(connection, event_id, record_key(secret))
    finally:
        connection.close()
    if loaded is None or named is None:
        return None
    event, players = loaded
    return str(named[0]), event, players
