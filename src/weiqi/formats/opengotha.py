"""OpenGotha tournament files (``.xml``, data version 201): read and write them as values.

OpenGotha keeps a whole event in one XML document: ``<Players>`` (each with name, first name,
rank, rating, club, country, EGF PIN, FFG licence and a participation flag per round),
``<Games>`` (round, table, Black, White, handicap, result), ``<ByePlayers>``, optionally
``<Teams>``, and ``<TournamentParameterSet>`` (general, handicap, placement and pairing
parameters). Games name their players by a key, the name and first name upper-cased.

This module only reads and writes the file: :func:`read_gotha` gives a :class:`GothaFile`,
:func:`write_gotha` writes one back (every parameter it read, so that a file read and written
is the same tournament to OpenGotha). What the file means for an event of ours — settings,
entrants, rounds — is :mod:`weiqi.formats.opengotha_event`.

>>> doc = b'''<?xml version="1.0" encoding="UTF-8"?>
... <Tournament dataVersion="201"><Players>
... <Player name="Li" firstName="Wei" rank="3D" rating="2300" club="Bj" country="CN"
...   egfPin="" participating="11" registeringStatus="FIN" smmsCorrection="0"/>
... <Player name="Wang" firstName="Fang" rank="2K" rating="1900" club="Sh" country="CN"
...   egfPin="" participating="11" registeringStatus="FIN" smmsCorrection="0"/>
... </Players><Games>
... <Game blackPlayer="WANGFANG" whitePlayer="LIWEI" handicap="0" knownColor="true"
...   result="RESULT_WHITEWINS" roundNumber="1" tableNumber="1"/>
... </Games><TournamentParameterSet>
... <GeneralParameterSet name="Open" numberOfRounds="2"/>
... </TournamentParameterSet></Tournament>'''
>>> t = read_gotha(doc)
>>> [p.key for p in t.players], t.games[0].result, t.general["numberOfRounds"]
(['LIWEI', 'WANGFANG'], 'RESULT_WHITEWINS', '2')
>>> read_gotha(write_gotha(t)) == t
True
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from weiqi.errors import InputError
from weiqi.messages import Msg

MAX_FILE_BYTES = 20 * 1024 * 1024
"""The largest file read: a 2,000-player event with 10 rounds is about 2 MB."""

RESULTS = (
    "RESULT_UNKNOWN",
    "RESULT_WHITEWINS",
    "RESULT_BLACKWINS",
    "RESULT_EQUAL",
    "RESULT_BOTHWIN",
    "RESULT_BOTHLOSE",
    "RESULT_WHITEWINS_BYDEF",
    "RESULT_BLACKWINS_BYDEF",
    "RESULT_EQUAL_BYDEF",
    "RESULT_BOTHWIN_BYDEF",
    "RESULT_BOTHLOSE_BYDEF",
)
"""OpenGotha's result codes (``_BYDEF``: by default, the game was not played)."""

Attributes = Mapping[str, str]


def _frozen(attrs: Mapping[str, str]) -> Attributes:
    return MappingProxyType(dict(attrs))


def player_key(name: str, first_name: str) -> str:
    """The key by which OpenGotha's games name a player.

    >>> player_key("Nemo", "André"), player_key("le Galiard", "Jean-François")
    ('NEMOANDRÉ', 'LEGALIARDJEAN-FRANÇOIS')
    """
    return (name + first_name).replace(" ", "").upper()


@dataclass(frozen=True)
class GothaPlayer:
    """One ``<Player>``: ``attributes`` holds every attribute as the file wrote it."""

    attributes: Attributes

    def get(self, name: str, default: str = "") -> str:
        return self.attributes.get(name, default)

    @property
    def name(self) -> str:
        return self.get("name")

    @property
    def first_name(self) -> str:
        return self.get("firstName")

    @property
    def key(self) -> str:
        return player_key(self.name, self.first_name)

    @property
    def participating(self) -> str:
        """One ``1``/``0`` per round: whether the player takes part in it."""
        return self.get("participating")

    def participates_in(self, round_number: int) -> bool:
        flags = self.participating
        return round_number > len(flags) or flags[round_number - 1] == "1"


@dataclass(frozen=True)
class GothaGame:
    """One ``<Game>``."""

    round: int
    table: int
    black: str
    white: str
    handicap: int
    result: str
    known_color: bool = True


@dataclass(frozen=True)
class GothaTeam:
    """One ``<Team>``: its name, number and members as ``(round, board, player key)``."""

    name: str
    number: int
    boards: tuple[tuple[int, int, str], ...] = ()


@dataclass(frozen=True)
class GothaFile:
    """A whole OpenGotha tournament file.

    ``parameters`` holds each element under ``<TournamentParameterSet>`` and
    ``<TeamTournamentParameterSet>`` by tag (``GeneralParameterSet``, ``HandicapParameterSet``,
    ``PairingParameterSet`` …) with its attributes; placement criteria are in ``placement``
    (``MMS``, ``SOSM`` …, without the ``NULL`` fillers) and ``team_placement``.
    """

    root: Attributes
    players: tuple[GothaPlayer, ...]
    games: tuple[GothaGame, ...]
    byes: tuple[tuple[int, str], ...] = ()
    teams: tuple[GothaTeam, ...] = ()
    parameters: Mapping[str, Attributes] = field(default_factory=lambda: MappingProxyType({}))
    placement: tuple[str, ...] = ()
    team_placement: tuple[str, ...] = ()

    @property
    def general(self) -> Attributes:
        return self.parameters.get("GeneralParameterSet", _frozen({}))

    @property
    def handicap(self) -> Attributes:
        return self.parameters.get("HandicapParameterSet", _frozen({}))

    def player(self, key: str) -> GothaPlayer:
        for p in self.players:
            if p.key == key:
                return p
        raise InputError(Msg("player %(key)s", key=key), Msg("no such player in the file"))


# -- reading --------------------------------------------------------------------------------


def _int(value: str | None, what: Msg) -> int:
    try:
        return int(value or "")
    except ValueError:
        raise InputError(what, Msg("%(value)s is not a whole number", value=repr(value))) from None


_PARAMETER_SETS = ("TournamentParameterSet", "TeamTournamentParameterSet")
_CRITERIA = {"PlacementParameterSet": "placement", "TeamPlacementParameterSet": "team_placement"}


def read_gotha(data: bytes) -> GothaFile:
    """Read an OpenGotha file; what is wrong is named (the element, the player, the game).

    Documents with a DTD or entities are refused (an XML bomb is never expanded).

    >>> read_gotha(b"<Tournament><Games><Game roundNumber='x'/></Games></Tournament>")
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: game 1: 'x' is not a whole number
    >>> read_gotha(b"<Event/>")
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: file: not an OpenGotha tournament (its root is <Event>)
    """
    if len(data) > MAX_FILE_BYTES:
        raise InputError(
            Msg("file"), Msg("larger than %(mb)s MB", mb=MAX_FILE_BYTES // (1024 * 1024))
        )
    if b"<!DOCTYPE" in data[:4096].upper() or b"<!ENTITY" in data.upper():
        raise InputError(Msg("file"), Msg("a document type or entity is not allowed"))
    try:
        root = ET.fromstring(data)
    except ET.ParseError as err:
        line, column = err.position
        raise InputError(
            Msg("line %(line)s, column %(column)s", line=line, column=column),
            Msg("not well-formed XML"),
        ) from None
    if root.tag != "Tournament":
        raise InputError(
            Msg("file"), Msg("not an OpenGotha tournament (its root is <%(tag)s>)", tag=root.tag)
        )
    players = tuple(GothaPlayer(_frozen(p.attrib)) for p in root.iterfind("Players/Player"))
    games = []
    for i, g in enumerate(root.iterfind("Games/Game"), start=1):
        what = Msg("game %(i)s", i=i)
        result = g.get("result", "RESULT_UNKNOWN")
        if result not in RESULTS:
            raise InputError(what, Msg("unknown result %(result)s", result=repr(result)))
        games.append(
            GothaGame(
                round=_int(g.get("roundNumber"), what),
                table=_int(g.get("tableNumber", "0"), what),
                black=g.get("blackPlayer", ""),
                white=g.get("whitePlayer", ""),
                handicap=_int(g.get("handicap", "0"), what),
                result=result,
                known_color=g.get("knownColor", "true") == "true",
            )
        )
    byes = tuple(
        (_int(b.get("roundNumber"), Msg("bye %(i)s", i=i)), b.get("player", ""))
        for i, b in enumerate(root.iterfind("ByePlayers/ByePlayer"), start=1)
    )
    teams = tuple(
        GothaTeam(
            t.get("teamName", ""),
            _int(t.get("teamNumber", "0"), Msg("team %(name)s", name=t.get("teamName", ""))),
            tuple(
                (
                    _int(b.get("roundNumber"), Msg("team %(name)s", name=t.get("teamName"))),
                    _int(b.get("boardNumber"), Msg("team %(name)s", name=t.get("teamName"))),
                    b.get("player", ""),
                )
                for b in t.iterfind("Board")
            ),
        )
        for t in root.iterfind("Teams/Team")
    )
    parameters: dict[str, Attributes] = {}
    criteria: dict[str, tuple[str, ...]] = {"placement": (), "team_placement": ()}
    for set_tag in _PARAMETER_SETS:
        for element in root.iterfind(set_tag + "/*"):
            parameters[element.tag] = _frozen(element.attrib)
            if element.tag in _CRITERIA:
                ordered = sorted(
                    element.iterfind("PlacementCriteria/PlacementCriterion"),
                    key=lambda c: int(c.get("number", "0") or 0),
                )
                criteria[_CRITERIA[element.tag]] = tuple(
                    c.get("name", "") for c in ordered if c.get("name", "NULL") != "NULL"
                )
    out = GothaFile(
        root=_frozen(root.attrib),
        players=players,
        games=tuple(games),
        byes=byes,
        teams=teams,
        parameters=MappingProxyType(parameters),
        placement=criteria["placement"],
        team_placement=criteria["team_placement"],
    )
    _check_references(out)
    return out


def _check_references(t: GothaFile) -> None:
    keys = [p.key for p in t.players]
    seen: set[str] = set()
    for p in t.players:
        if p.key in seen:
            raise InputError(
                Msg("player %(name)s %(first)s", name=p.name, first=p.first_name),
                Msg("appears twice"),
            )
        seen.add(p.key)
    known = set(keys)
    for i, g in enumerate(t.games, start=1):
        for key in (g.black, g.white):
            if key not in known:
                raise InputError(
                    Msg("game %(i)s (round %(round)s)", i=i, round=g.round),
                    Msg("names an unknown player %(key)s", key=repr(key)),
                )
    for rnd, key in t.byes:
        if key not in known:
            raise InputError(
                Msg("bye of round %(round)s", round=rnd),
                Msg("names an unknown player %(key)s", key=repr(key)),
            )


# -- writing --------------------------------------------------------------------------------


def _element(tag: str, attrs: Mapping[str, str]) -> ET.Element:
    # OpenGotha writes attributes in alphabetical order; so do we, so that files compare
    return ET.Element(tag, {k: attrs[k] for k in sorted(attrs)})


def write_gotha(t: GothaFile) -> bytes:
    """The file as OpenGotha writes it (UTF-8, one element a line, attributes sorted)."""
    root = _element("Tournament", t.root)
    players = ET.SubElement(root, "Players")
    for p in t.players:
        players.append(_element("Player", p.attributes))
    games = ET.SubElement(root, "Games")
    for g in t.games:
        games.append(
            _element(
                "Game",
                {
                    "blackPlayer": g.black,
                    "handicap": str(g.handicap),
                    "knownColor": "true" if g.known_color else "false",
                    "result": g.result,
                    "roundNumber": str(g.round),
                    "tableNumber": str(g.table),
                    "whitePlayer": g.white,
                },
            )
        )
    if t.byes:
        byes = ET.SubElement(root, "ByePlayers")
        for rnd, key in t.byes:
            byes.append(_element("ByePlayer", {"player": key, "roundNumber": str(rnd)}))
    if t.teams:
        teams = ET.SubElement(root, "Teams")
        for one in t.teams:
            te = _element("Team", {"teamName": one.name, "teamNumber": str(one.number)})
            for rnd, board, key in one.boards:
                te.append(
                    _element(
                        "Board",
                        {"boardNumber": str(board), "player": key, "roundNumber": str(rnd)},
                    )
                )
            teams.append(te)
    sets: dict[str, list[str]] = {"TournamentParameterSet": [], "TeamTournamentParameterSet": []}
    for tag in t.parameters:
        holder_tag = "TeamTournamentParameterSet" if tag.startswith("Team") else None
        sets[holder_tag or "TournamentParameterSet"].append(tag)
    for set_tag, tags in sets.items():
        if not tags:
            continue
        holder = ET.SubElement(root, set_tag)
        for tag in tags:
            element = _element(tag, t.parameters[tag])
            if tag in _CRITERIA:
                names = t.placement if tag == "PlacementParameterSet" else t.team_placement
                crit = ET.SubElement(element, "PlacementCriteria")
                for n, name in enumerate((*names, *["NULL"] * max(0, 6 - len(names))), 1):
                    ET.SubElement(crit, "PlacementCriterion", {"name": name, "number": str(n)})
            holder.append(element)
    ET.indent(root, space="")
    body = ET.tostring(root, encoding="unicode", short_empty_elements=True)
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + body + "\n").encode()
