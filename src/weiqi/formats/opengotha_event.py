"""What an OpenGotha file means for an event of ours, and back: settings, entrants, rounds.

:func:`to_event` maps a :class:`~weiqi.formats.opengotha.GothaFile` onto the core's values and
names everything it cannot map (a placement criterion we do not have, a team tournament's
teams, a result with no equivalent) in ``notes``, never dropping it silently.
:func:`to_gotha` writes an event back as an OpenGotha file; import → export → import gives
the same settings, players, games and results.

OpenGotha scores in half wins (its ``…2Value…`` parameters); our points are 2 a win, 1 a draw,
so its values are our points as they stand. Its McMahon scores count from ``genMMZero`` (30k
= 0), its standings count a round without a game as a virtual opponent with the player's own
start score, and its SOSM is handicap-adjusted: the settings of
:func:`weiqi.tournament.settings.egf_mcmahon` say the same.

>>> from weiqi.formats.opengotha import read_gotha
>>> doc = b'''<Tournament dataVersion="201"><Players>
... <Player name="Li" firstName="Wei" rank="3D" rating="2300" club="Bj" country="CN"
...   participating="11" smmsCorrection="0"/>
... <Player name="Wang" firstName="Fang" rank="2K" rating="1900" club="Sh" country="CN"
...   participating="10" smmsCorrection="0"/>
... </Players><Games>
... <Game blackPlayer="WANGFANG" whitePlayer="LIWEI" handicap="0" result="RESULT_WHITEWINS"
...   roundNumber="1" tableNumber="1"/></Games><TournamentParameterSet>
... <GeneralParameterSet name="Open" numberOfRounds="2" genMMBar="4D" genMMFloor="20K"
...   genMMZero="30K" genMMS2ValueAbsent="1" genMMS2ValueBye="2" genRoundDownNBWMMS="true"
...   komi="7.5" size="19"/>
... <PlacementParameterSet><PlacementCriteria><PlacementCriterion name="MMS" number="1"/>
... <PlacementCriterion name="SOSM" number="2"/></PlacementCriteria></PlacementParameterSet>
... </TournamentParameterSet></Tournament>'''
>>> ev = to_event(read_gotha(doc))
>>> ev.name, ev.settings.system.value, ev.settings.tiebreak_codes, ev.settings.absent_points
('Open', 'mcmahon', ('SOS',), 1)
>>> [(e.id, e.name, e.rank, sorted(e.absent_rounds)) for e in ev.entrants]
[('LIWEI', 'Li Wei', Rank('3d'), []), ('WANGFANG', 'Wang Fang', Rank('2k'), [2])]
>>> ev.rounds[0].games[0].result.to_code()
'W+'
>>> to_event(read_gotha(write_gotha(to_gotha(ev)))) == ev
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from weiqi.clock.control import TimeControl, TimeSystem
from weiqi.errors import InputError, InvalidSetting
from weiqi.formats.opengotha import (
    GothaFile,
    GothaGame,
    GothaPlayer,
    player_key,
    read_gotha,
    write_gotha,
)
from weiqi.messages import Msg
from weiqi.rules.color import Color
from weiqi.rules.result import Outcome, Reason, Result
from weiqi.tournament.details import EventDetails
from weiqi.tournament.players import Entrant
from weiqi.tournament.ranks import Rank
from weiqi.tournament.records import Game, Round
from weiqi.tournament.settings import (
    KOMI_STONES,
    EventSettings,
    McMahonSettings,
    SwissSettings,
    System,
)

__all__ = ["ImportedEvent", "read_gotha", "to_event", "to_gotha", "write_gotha"]

#: OpenGotha's placement criteria that are ours under another code (…W on wins, …M on McMahon
#: scores: our SOS sums whichever score the event ranks by).
CRITERIA: Mapping[str, str] = MappingProxyType(
    {
        "SOSW": "SOS",
        "SOSM": "SOS",
        "SOSOSW": "SOSOS",
        "SOSOSM": "SOSOS",
        "SOSWM1": "SOS-1",
        "SOSMM1": "SOS-1",
        "SODOSW": "SB",
        "SODOSM": "SB",
        "CUSSW": "CUSS",
        "CUSSM": "CUSS",
        "DC": "DE",
        "SDC": "DE",
        "RATING": "RATING",
        "Rating": "RATING",
    }
)
_BACK = {"SOS": "SOS%s", "SOSOS": "SOSOS%s", "SOS-1": "SOS%sM1", "SB": "SODOS%s", "CUSS": "CUSS%s"}

DETAILS = ("surname", "given_name", "egf_pin", "ffg_licence", "aga_id", "rating_origin")
"""The entrant's ``extra`` keys an OpenGotha player fills."""


@dataclass(frozen=True)
class ImportedEvent:
    """An event as an OpenGotha file describes it (its time control in its settings, its days
    and venue in ``details``); ``notes`` name what could not be mapped."""

    name: str
    settings: EventSettings
    entrants: tuple[Entrant, ...]
    rounds: tuple[Round, ...]
    notes: tuple[Msg, ...] = field(default=(), compare=False)
    confirmed: bool = True
    details: EventDetails = field(default_factory=EventDetails)


def _flag(attrs: Mapping[str, str], key: str) -> bool:
    return attrs.get(key, "false") == "true"


def _number(attrs: Mapping[str, str], key: str, default: int, what: str) -> int:
    text = attrs.get(key, "")
    if not text:
        return default
    try:
        return int(text)
    except ValueError:
        raise InputError(
            Msg("%(what)s %(key)s", what=what, key=key),
            Msg("%(value)s is not a whole number", value=repr(text)),
        ) from None


#: OpenGotha's complementary time systems: what follows its ``basicTime`` minutes.
_SUDDEN_DEATH, _BYO_YOMI, _CANADIAN, _FISCHER = "SUDDENDEATH", "STDBYOYOMI", "CANBYOYOMI", "FISCHER"


def _time_control(g: Mapping[str, str], notes: list[Msg]) -> TimeControl | None:
    """The time control of a ``GeneralParameterSet``: ``basicTime`` minutes, then sudden death,
    a byo-yomi period of ``stdByoYomiTime`` seconds for every move (OpenGotha's standard
    byo-yomi), ``nbMovesCanTime`` moves in ``canByoYomiTime`` seconds (Canadian) or
    ``fischerTime`` seconds a move (Fischer). None where the file states no time."""
    where = "GeneralParameterSet"
    system = g.get("complementaryTimeSystem", "")
    if "basicTime" not in g and not system:
        return None
    main = 60.0 * _number(g, "basicTime", 0, where)
    try:
        if system in ("", _SUDDEN_DEATH):
            return TimeControl.absolute(main) if main else None
        if system == _BYO_YOMI:
            return TimeControl.byo_yomi(main, 1, _number(g, "stdByoYomiTime", 30, where))
        if system == _CANADIAN:
            moves = _number(g, "nbMovesCanTime", 15, where)
            return TimeControl.canadian(main, moves, _number(g, "canByoYomiTime", 300, where))
        if system == _FISCHER:
            return TimeControl.fischer(main, _number(g, "fischerTime", 10, where))
    except InvalidSetting as err:
        raise InputError(Msg("%(what)s %(key)s", what=where, key=err.field), err.reason) from None
    notes.append(Msg("time system %(code)s has no equivalent; left out", code=system))
    return None


def _details(g: Mapping[str, str]) -> EventDetails:
    """The days (``beginDate``, ``endDate``) and venue (``location``) of a
    ``GeneralParameterSet``."""
    where = "GeneralParameterSet"
    days = []
    for key in ("beginDate", "endDate"):
        text = g.get(key, "")
        try:
            days.append(date.fromisoformat(text) if text else None)
        except ValueError:
            raise InputError(
                Msg("%(what)s %(key)s", what=where, key=key),
                Msg("write a date like 2027-05-01"),
            ) from None
    try:
        return EventDetails(days[0], days[1], g.get("location", ""))
    except InvalidSetting as err:
        raise InputError(Msg("%(what)s %(key)s", what=where, key=err.field), err.reason) from None


def _time_attributes(tc: TimeControl | None) -> dict[str, str]:
    """``tc`` as a ``GeneralParameterSet`` states it (inverse of :func:`_time_control` for
    what OpenGotha can hold: a byo-yomi's number of periods and a moves-per-period's carrying
    over are not among it); nothing for no time control or an untimed one."""
    if tc is None or tc.system is TimeSystem.UNTIMED:
        return {}
    out = {"basicTime": str(round(tc.main_time / 60))}
    if tc.system is TimeSystem.BYO_YOMI:
        out |= {"complementaryTimeSystem": _BYO_YOMI, "stdByoYomiTime": _seconds(tc.period_time)}
    elif tc.system is TimeSystem.MOVES_PER_PERIOD:
        out |= {"complementaryTimeSystem": _CANADIAN, "nbMovesCanTime": str(tc.moves),
                "canByoYomiTime": _seconds(tc.period_time)}  # fmt: skip
    elif tc.system is TimeSystem.FISCHER:
        out |= {"complementaryTimeSystem": _FISCHER, "fischerTime": _seconds(tc.increment)}
    else:
        out["complementaryTimeSystem"] = _SUDDEN_DEATH
    return out


def _seconds(value: float) -> str:
    return str(round(value))


def _rank(text: str, what: Msg) -> Rank:
    try:
        return Rank.parse(text)
    except InputError as err:
        raise InputError(what, err.msg) from None


def _settings(t: GothaFile, notes: list[Msg]) -> EventSettings:
    g = t.general
    criteria = t.placement or ("MMS", "SOSM", "SOSOSM")
    first, rest = criteria[0], criteria[1:]
    if first not in ("MMS", "NBW"):
        notes.append(
            Msg(
                "placement by %(code)s first is not ours; ranked by McMahon score",
                code=first,
            )
        )
    mcmahon = first != "NBW"
    codes: list[str] = []
    for code in rest:
        ours = CRITERIA.get(code)
        if ours is None:
            notes.append(Msg("placement criterion %(code)s has no equivalent; left out", code=code))
        elif ours not in codes:
            codes.append(ours)
    if "SDC" in rest:
        notes.append(Msg("SDC (simplified direct confrontation) is ranked as direct encounter"))
    prefix = "genMMS2" if mcmahon else "genNBW2"
    rounds = _number(g, "numberOfRounds", 1, "GeneralParameterSet")
    absent = _number(g, prefix + "ValueAbsent", 0, "GeneralParameterSet")
    if _flag(g, "genCountNotPlayedGamesAsHalfPoint") and absent == 0:
        absent = 1
    h = t.handicap
    ceiling = _number(h, "hdCeiling", 0, "HandicapParameterSet")
    komi_text = g.get("komi", "")
    try:
        komi = Fraction(komi_text) / 2 if komi_text else KOMI_STONES
    except ValueError:
        raise InputError(
            Msg("GeneralParameterSet komi"), Msg("%(value)s is not a number", value=komi_text)
        ) from None
    bar = g.get("genMMBar")
    floor = g.get("genMMFloor")
    zero = g.get("genMMZero")
    threshold = h.get("hdNoHdRankThreshold")
    where = Msg("GeneralParameterSet")
    pairing = t.parameters.get("PairingParameterSet", MappingProxyType({}))
    avoid = _number(pairing, "paiSeAvoidSameGeo", 0, "PairingParameterSet") > 0
    gap = _number(pairing, "paiSePreferMMSDiffRatherThanSameClub", 0, "PairingParameterSet")
    country_gap = _number(
        pairing, "paiSePreferMMSDiffRatherThanSameCountry", 0, "PairingParameterSet"
    )
    common: dict[str, Any] = dict(
        rounds=rounds,
        tiebreaks=tuple(codes),
        bye_points=_number(g, prefix + "ValueBye", 2, "GeneralParameterSet"),
        absent_points=absent,
        round_down_scores=_flag(g, "genRoundDownNBWMMS"),
        unplayed_sos="own_start",
        sos_handicap=mcmahon,
        color_policy="handicap" if ceiling > 0 else "even",
        handicap_max=min(max(ceiling, 0), 9),
        handicap_reduction=max(0, _number(h, "hdCorrection", 0, "HandicapParameterSet")),
        handicap_threshold=_rank(threshold, Msg("HandicapParameterSet")) if threshold else None,
        handicap_basis="mcmahon" if _flag(h, "hdBasedOnMMS") else "rank",
        komi=komi,
        avoid_same_club=avoid,
        club_score_gap=min(max(gap, 0), 10) if avoid else 0,
        avoid_same_region=avoid,
        region_score_gap=min(max(country_gap, 0), 10) if avoid else 0,
        board_size=_number(g, "size", 19, "GeneralParameterSet"),
        time_control=_time_control(g, notes),
    )
    if not mcmahon:
        return SwissSettings(System.SWISS, **common)
    return McMahonSettings(
        System.MCMAHON,
        mcmahon_bar=_rank(bar, where) if bar else Rank.parse("9d"),
        mcmahon_floor=_rank(floor, where) if floor else None,
        mcmahon_zero=_rank(zero, where) if zero else None,
        **common,
    )


def _entrant(p: GothaPlayer, rounds: int, played: set[tuple[str, int]]) -> Entrant:
    what = Msg("player %(name)s %(first)s", name=p.name, first=p.first_name)
    rank = (
        _rank(p.get("rank") or p.get("grade"), what) if (p.get("rank") or p.get("grade")) else None
    )
    rating = p.get("rating")
    cjk = any("\u3400" <= ch <= "\u9fff" for ch in p.name + p.first_name)
    name = (p.name + p.first_name) if cjk else f"{p.name} {p.first_name}".strip()
    absent = frozenset(
        r for r in range(1, rounds + 1) if not p.participates_in(r) and (p.key, r) not in played
    )
    extra = {
        "surname": p.name,
        "given_name": p.first_name,
        "egf_pin": p.get("egfPin"),
        "ffg_licence": p.get("ffgLicence"),
        "aga_id": p.get("agaId"),
        "rating_origin": p.get("ratingOrigin"),
    }
    try:
        correction = int(p.get("smmsCorrection") or 0)
        rating_value = float(rating) if rating else None
    except ValueError:
        raise InputError(what, Msg("rating and smmsCorrection must be numbers")) from None
    return Entrant(
        id=p.key,
        name=name,
        rank=rank,
        rating=rating_value,
        club=p.get("club"),
        country=p.get("country"),
        absent_rounds=absent,
        mcmahon_correction=correction,
        extra=tuple((k, v) for k, v in extra.items() if v),
    )


def _by_default_note(g: GothaGame, what: Msg) -> Msg:
    return Msg("round %(round)s table %(table)s: %(what)s", round=g.round, table=g.table, what=what)


def _result(g: GothaGame, notes: list[Msg]) -> Result | None:
    code = g.result
    if code == "RESULT_UNKNOWN":
        return None
    by_default = code.endswith("_BYDEF")
    base = code.removesuffix("_BYDEF")
    if base == "RESULT_WHITEWINS":
        return Result.win(Color.WHITE, Reason.FORFEIT if by_default else Reason.UNSPECIFIED)
    if base == "RESULT_BLACKWINS":
        return Result.win(Color.BLACK, Reason.FORFEIT if by_default else Reason.UNSPECIFIED)
    if base == "RESULT_EQUAL":
        if by_default:
            notes.append(_by_default_note(g, Msg("a draw by default is entered as a draw")))
        return Result.draw()
    if base == "RESULT_BOTHLOSE":
        return Result.both_lose()
    if base == "RESULT_BOTHWIN":
        if by_default:
            notes.append(_by_default_note(g, Msg("both win by default is entered as both win")))
        return Result.both_win()
    raise AssertionError(code)  # read_gotha accepts only the codes of RESULTS


def to_event(t: GothaFile) -> ImportedEvent:
    """The event the file describes. Bad values raise ``InputError`` naming the element."""
    notes: list[Msg] = []
    settings = _settings(t, notes)
    played = {(key, g.round) for g in t.games for key in (g.black, g.white)}
    played |= {(key, rnd) for rnd, key in t.byes}
    count = max([settings.rounds or 1] + [g.round for g in t.games] + [rnd for rnd, _ in t.byes])
    entrants = tuple(_entrant(p, count, played) for p in t.players)
    if any(p.get("registeringStatus", "FIN") != "FIN" for p in t.players):
        notes.append(Msg("players with a preliminary registration are entered as players"))
    if t.teams:
        notes.append(
            Msg(
                "the file's %(count)s teams are not imported (individual standings only)",
                count=len(t.teams),
            )
        )
    if any(not g.known_color for g in t.games):
        notes.append(Msg("games with unknown colours are entered with Black as the file has it"))
    last = max([g.round for g in t.games] + [rnd for rnd, _ in t.byes], default=0)
    rounds = []
    for number in range(1, last + 1):
        games = sorted((g for g in t.games if g.round == number), key=lambda g: g.table)
        tables = [g.table for g in games]
        renumber = len(set(tables)) != len(tables) or any(n < 1 for n in tables)
        rounds.append(
            Round(
                number,
                tuple(
                    Game(
                        number,
                        i if renumber else g.table,
                        g.black,
                        g.white,
                        _result(g, notes),
                        g.handicap,
                        settings.komi if g.handicap == 0 else Fraction(0),
                    )
                    for i, g in enumerate(games, start=1)
                ),
                tuple(sorted(key for rnd, key in t.byes if rnd == number)),
            )
        )
    return ImportedEvent(
        t.general.get("name") or t.general.get("shortName") or "OpenGotha",
        settings,
        entrants,
        tuple(rounds),
        tuple(notes),
        details=_details(t.general),
    )


# -- writing back ---------------------------------------------------------------------------

_RESULT_CODES = {
    (Outcome.WIN, Color.WHITE): "RESULT_WHITEWINS",
    (Outcome.WIN, Color.BLACK): "RESULT_BLACKWINS",
}


def _code(result: Result | None) -> str:
    if result is None or result.outcome in (Outcome.REPLAY,):
        return "RESULT_UNKNOWN"
    if result.outcome is Outcome.DRAW:
        return "RESULT_EQUAL"
    if result.outcome is Outcome.BOTH_LOSE:
        return "RESULT_BOTHLOSE"
    if result.outcome is Outcome.BOTH_WIN:
        return "RESULT_BOTHWIN"
    if result.outcome is Outcome.NO_RESULT:
        return "RESULT_UNKNOWN"
    code = _RESULT_CODES[(result.outcome, result.winner)]  # type: ignore[index]
    return code + "_BYDEF" if result.reason is Reason.FORFEIT else code


def _rank_code(rank: Rank | None) -> str:
    return rank.code.upper() if rank is not None else "30K"


def to_gotha(event: ImportedEvent) -> GothaFile:
    """``event`` as an OpenGotha file (data version 201)."""
    s = event.settings
    rounds = max(s.rounds or 1, len(event.rounds))
    played = {(p, rnd.number) for rnd in event.rounds for g in rnd.games for p in g.players}
    played |= {(p, rnd.number) for rnd in event.rounds for p in rnd.byes}
    keys: dict[str, str] = {}
    players = []
    for e in event.entrants:
        extra = dict(e.extra)
        surname = extra.get("surname", e.name)
        given = extra.get("given_name", "")
        keys[e.id] = player_key(surname, given)
        flags = "".join(
            "0" if r in e.absent_rounds and (e.id, r) not in played else "1"
            for r in range(1, max(rounds, 20) + 1)
        )
        players.append(
            GothaPlayer(
                MappingProxyType(
                    {
                        "agaExpirationDate": "",
                        "agaId": extra.get("aga_id", ""),
                        "club": e.club,
                        "country": e.country,
                        "egfPin": extra.get("egf_pin", ""),
                        "ffgLicence": extra.get("ffg_licence", ""),
                        "ffgLicenceStatus": "",
                        "firstName": given,
                        "grade": _rank_code(e.rank),
                        "name": surname,
                        "participating": flags,
                        "rank": _rank_code(e.rank),
                        "rating": str(int(e.rating)) if e.rating is not None else "",
                        "ratingOrigin": extra.get("rating_origin", ""),
                        "registeringStatus": "FIN",
                        "smmsCorrection": str(e.mcmahon_correction),
                    }
                )
            )
        )
    games = tuple(
        GothaGame(g.round, g.board, keys[g.black], keys[g.white], g.handicap, _code(g.result))
        for rnd in event.rounds
        for g in rnd.games
    )
    byes = tuple((rnd.number, keys[p]) for rnd in event.rounds for p in rnd.byes)
    mcmahon = s.system is System.MCMAHON
    general = {
        "name": event.name,
        "shortName": event.name,
        "numberOfRounds": str(rounds),
        "komi": str(float(s.komi * 2)),
        "size": str(s.board_size),
        "genMMS2ValueAbsent": str(s.absent_points),
        "genMMS2ValueBye": str(s.bye_points),
        "genNBW2ValueAbsent": str(s.absent_points),
        "genNBW2ValueBye": str(s.bye_points),
        "genRoundDownNBWMMS": "true" if s.round_down_scores else "false",
        "genCountNotPlayedGamesAsHalfPoint": "false",
        **_time_attributes(s.time_control),
    }
    d = event.details
    for key, day in (("beginDate", d.start_date), ("endDate", d.end_date)):
        if day is not None:
            general[key] = day.isoformat()
    if d.venue:
        general["location"] = d.venue
    # a rank we do not set is left out, so that reading the file back leaves it unset
    starts = (
        (
            ("genMMBar", s.mcmahon_bar),
            ("genMMFloor", s.mcmahon_floor),
            ("genMMZero", s.mcmahon_zero),
        )
        if isinstance(s, McMahonSettings)
        else ()
    )
    for key, rank in starts:
        if rank is not None:
            general[key] = _rank_code(rank)
    handicap = {
        "hdBasedOnMMS": "true" if s.handicap_basis == "mcmahon" else "false",
        "hdCeiling": str(s.handicap_max if s.color_policy == "handicap" else 0),
        "hdCorrection": str(s.handicap_reduction),
    }
    if s.handicap_threshold is not None:
        handicap["hdNoHdRankThreshold"] = _rank_code(s.handicap_threshold)
    suffix = "M" if mcmahon else "W"
    placement = ["MMS" if mcmahon else "NBW"]
    for code in s.tiebreak_codes:
        if code in _BACK:
            placement.append(_BACK[code] % suffix)
        elif code == "DE":
            placement.append("DC")
        elif code == "RATING":
            placement.append("Rating")
    return GothaFile(
        root=MappingProxyType({"dataVersion": "201"}),
        players=tuple(players),
        games=games,
        byes=byes,
        parameters=MappingProxyType(
            {
                "GeneralParameterSet": MappingProxyType(general),
                "HandicapParameterSet": MappingProxyType(handicap),
                "PlacementParameterSet": MappingProxyType({}),
                "PairingParameterSet": MappingProxyType(
                    {
                        "paiSeAvoidSameGeo": (
                            "100000000000" if s.avoid_same_club or s.avoid_same_region else "0"
                        ),
                        "paiSePreferMMSDiffRatherThanSameClub": str(s.club_score_gap),
                        "paiSePreferMMSDiffRatherThanSameCountry": str(s.region_score_gap),
                    }
                ),
            }
        ),
        placement=tuple(placement),
    )
