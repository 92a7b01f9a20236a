"""Everything an event decides in advance (its 竞赛规程), as one frozen value.

Defaults are the written rules: game points 2/1/0 (R-SCORE-IND-1), round-robin ties by ``SB``
then ``WARN`` (R-RANK-RR), Swiss ties by method B ``SOS`` then ``WARN`` (R-RANK-SWISS), even games
with komi 3¾ stones (R-SCORE-3), shared places allowed (R-PLAYOFF).

>>> s = EventSettings(system=System.SWISS, rounds=9)
>>> s.tiebreak_codes
('SOS', 'WARN')
>>> EventSettings(system=System.SWISS, rounds=9, swiss_method="A").tiebreak_codes
('TOTAL', 'WARN')
>>> EventSettings(system=System.ROUND_ROBIN).tiebreak_codes
('SB', 'WARN')
>>> EventSettings(system=System.SWISS)
Traceback (most recent call last):
...
weiqi.errors.InvalidSetting: rounds: a Swiss event needs a number of rounds
>>> EventSettings.parse_tiebreaks("sos, sb,CUSS")
('SOS', 'SB', 'CUSS')
"""

from __future__ import annotations

import enum
import math
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, ClassVar, Final, Literal, Self, cast

from weiqi.clock.control import TimeControl, TimeSystem
from weiqi.clock.lag import LagPolicy
from weiqi.errors import InputError, InvalidSetting
from weiqi.i18n import N_
from weiqi.messages import Msg
from weiqi.rules.ruleset import CyclePolicy, HandicapPlacement, Ruleset, set_choices
from weiqi.tournament.ranks import Rank


class System(enum.Enum):
    """The competition systems of R-FMT-3, of either kind of event: an individual event plays
    one of :data:`INDIVIDUAL_SYSTEMS`, a team event one of :data:`TEAM_SYSTEMS` (a team Swiss is
    the individual Swiss on teams). Values are the names the command line, the API and the
    stored settings use; the earlier spelling with hyphens (``round-robin``) is read as the
    same name.

    >>> System.SWISS in TEAM_SYSTEMS, System.WINNER_STAYS_ON in INDIVIDUAL_SYSTEMS
    (True, False)
    """

    ROUND_ROBIN = "round_robin"
    DOUBLE_ROUND_ROBIN = "double_round_robin"
    KNOCKOUT = "knockout"
    DOUBLE_ELIMINATION = "double_elimination"
    SWISS = "swiss"
    SWISS_KNOCKOUT = "swiss_knockout"
    MCMAHON = "mcmahon"
    MATCH = "match"
    WINNER_STAYS_ON = "winner_stays_on"  # 擂台赛: teams send players one by one (teams only)

    @property
    def zh(self) -> str:
        return _SYSTEM_ZH[self]

    @property
    def en(self) -> str:
        """The English name: the msgid every page, table and form translates (the Chinese
        catalogue holds :attr:`zh` for it)."""
        return _SYSTEM_EN[self]

    @property
    def is_round_robin(self) -> bool:
        return self in (System.ROUND_ROBIN, System.DOUBLE_ROUND_ROBIN)

    @property
    def is_swiss(self) -> bool:
        return self in (System.SWISS, System.SWISS_KNOCKOUT, System.MCMAHON)


_SYSTEM_EN = {
    System.ROUND_ROBIN: N_("Round robin"),
    System.DOUBLE_ROUND_ROBIN: N_("Double round robin"),
    System.KNOCKOUT: N_("Knockout"),
    System.DOUBLE_ELIMINATION: N_("Double elimination"),
    System.SWISS: N_("Swiss system"),
    System.SWISS_KNOCKOUT: N_("Swiss with elimination"),
    System.MCMAHON: N_("McMahon system"),
    System.MATCH: N_("Match"),
    System.WINNER_STAYS_ON: N_("Winner stays on"),
}
_SYSTEM_ZH = {
    System.ROUND_ROBIN: "循环制",
    System.DOUBLE_ROUND_ROBIN: "双循环",
    System.KNOCKOUT: "淘汰制",
    System.DOUBLE_ELIMINATION: "双败淘汰",
    System.SWISS: "积分编排制",
    System.SWISS_KNOCKOUT: "积分编排加淘汰",
    System.MCMAHON: "麦克马洪制",
    System.MATCH: "多局决胜制",
    System.WINNER_STAYS_ON: "擂台赛",
}

INDIVIDUAL_SYSTEMS = tuple(s for s in System if s is not System.WINNER_STAYS_ON)
"""The systems an individual event plays."""
TEAM_SYSTEMS = (System.ROUND_ROBIN, System.SWISS, System.KNOCKOUT, System.WINNER_STAYS_ON)
"""The systems a team event plays (R-FMT-3 on teams)."""


def round_robin_rounds(entrants: int, cycles: int) -> int | None:
    """The rounds of a round robin of ``entrants`` players or teams (Berger tables: one round
    more for an odd number, each with a bye), per cycle; None for fewer than two. The one count
    of them, for both kinds.

    >>> round_robin_rounds(6, 1), round_robin_rounds(5, 2), round_robin_rounds(1, 1)
    (5, 10, None)
    """
    return (entrants - 1 + entrants % 2) * cycles if entrants > 1 else None


def check_system(system: System, allowed: tuple[System, ...], kind: Msg) -> None:
    """Refuse a ``system`` that the kind of event ``kind`` names does not play (one of
    ``allowed``): ``InvalidSetting`` on ``system``, naming the kind's systems.

    >>> check_system(System.SWISS, TEAM_SYSTEMS, Msg("a team event"))
    >>> check_system(System.SWISS, (System.KNOCKOUT,), Msg("a cup"))
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: system: a cup plays knockout, not swiss
    """
    if system not in allowed:
        choices = " | ".join(s.value for s in allowed)
        raise InvalidSetting(
            "system", Msg("%(kind)s plays %(choices)s, not %(value)s", kind=kind,
                          choices=choices, value=system.value),
        )  # fmt: skip


#: Tie-break codes an individual event may choose (see :mod:`weiqi.tournament.standings`, whose
#: registry also holds the team codes MP, GP and B1, B2, …, which a player has no values for).
TIEBREAK_CODES = ("SB", "WARN", "SOS", "TOTAL", "CUSS", "SOS-1", "SOSOS", "DE", "RATING")

KOMI_STONES = Fraction(15, 4)


class PlayMode(enum.Enum):
    """Where an event's games are played (issue #11): over the board, the referees entering
    the results (the default), or online, each published round's games opened in the game room
    and played there under the server's clock. The one setting that decides whether a game may
    start in the room (``services.live.start_game``)."""

    BOARD = "board"
    ONLINE = "online"


class GameStart(enum.Enum):
    """When an online game starts: once both players are in the room (the default), or at the
    round's start time whether or not they are, the clock of an absent player running as over
    the board (R-TIME-1, Art. 20). A round without a start time starts its games when both
    players are in the room either way."""

    PRESENT = "present"
    ROUND_START = "round_start"


#: The network-lag allowance of an online event by default (lichess-style, :class:`LagPolicy`):
#: each move adds 1 s to a player's quota, which holds at most 3 s.
LAG_GAIN = 1.0
LAG_CAP = 3.0
#: The largest allowance the settings take (seconds a move, seconds of quota).
LAG_GAIN_MAX = 10
LAG_CAP_MAX = 60


#: The longest time control setting a form or the API takes (``55m+5x60s`` has 9 characters).
MAX_TIME_CONTROL = 100


def time_control_value(text: str, field: str = N_("time_control")) -> TimeControl | None:
    """A time control as typed (``1h incl 5x1m``, see :meth:`TimeControl.parse`); ``None``
    for empty (the event announces none). Anything else is ``InvalidSetting`` naming
    ``field``.

    >>> time_control_value(" 90m ").format(), time_control_value("")
    ('1h30m', None)
    >>> time_control_value("five minutes")
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: time_control: cannot read the duration 'five minutes'
    """
    text = text.strip()
    if not text:
        return None
    if len(text) > MAX_TIME_CONTROL:
        raise InvalidSetting(
            field, Msg("must have at most %(limit)s characters", limit=MAX_TIME_CONTROL)
        )
    try:
        return TimeControl.parse(text)
    except InvalidSetting as err:
        raise InvalidSetting(field, err.reason) from None


def describe_time_control(tc: TimeControl | None, locale: str) -> str:
    """A time control as an event's announcement states it (Chinese for ``zh_CN``); empty for
    none.

    >>> describe_time_control(TimeControl.parse("90m"), "en"), describe_time_control(None, "en")
    ('absolute time, 90 min', '')
    """
    if tc is None:
        return ""
    return tc.describe_zh() if locale == "zh_CN" else tc.describe_en()


@dataclass(frozen=True, kw_only=True)
class PlaySettings:
    """How every game of an event is played: its board, komi and repeated-position rule,
    under what time control, where (over the board or online), when an online game starts and
    how much network lag it forgives. One declaration of them for individual
    (:class:`EventSettings`) and team events (``league.settings.TeamEventSettings``) and a
    league season (``league.season.SeasonSettings``, which gives them to its divisions), read
    by the one rule of the game room (``services.live``) and printed on the event's sheets and
    slips. Keyword arguments only; each kind checks them with :meth:`_check_play`.

    >>> s = EventSettings(System.ROUND_ROBIN, time_control="1h incl 5x60s", komi=Fraction(13, 2))
    >>> s.time_control.format(), describe_time_control(s.time_control, "zh_CN"), s.ruleset.komi
    ('55m+5x60s', '基本时限55分，读秒5次，每次60秒', Fraction(13, 2))
    """

    board_size: int = 19
    """The size of every board (R-BOARD-1: 19 unless the event says otherwise)."""
    komi: Fraction = KOMI_STONES
    """The komi of every even game (R-SCORE-3: 3¾ stones unless the event says otherwise)."""
    cycle: CyclePolicy = CyclePolicy.BAN
    """What a repeated position other than a simple ko does (R-KO-2)."""
    play: PlayMode = PlayMode.BOARD
    """Over the board or online (:class:`PlayMode`)."""
    game_start: GameStart = GameStart.PRESENT
    """When an online game starts (:class:`GameStart`)."""
    lag_gain: float = LAG_GAIN
    """Online games forgive network lag out of a per-move quota (:attr:`lag`): ``lag_gain``
    seconds a move, at most ``lag_cap``; 0 forgives nothing."""
    lag_cap: float = LAG_CAP
    time_control: TimeControl | None = None
    """The time control of every game (R-TIME-1), ``None`` when the event announces none;
    given as its settings string too (``"1h incl 5x60s"``)."""

    def _check_play(self) -> None:
        """Check the play settings (once the choices are read): the lag allowance, the time
        control, the board size and komi as one game's rules take them (``InvalidSetting``
        naming the setting); the komi is kept as a fraction."""
        self._check_lag()
        self._check_time_control()
        object.__setattr__(self, "komi", self.ruleset.komi)

    @property
    def ruleset(self) -> Ruleset:
        """The rules of every game: board size, komi and cycle policy (an individual event's
        adds its handicap placement) — the one place a game's ``Ruleset`` comes from.

        >>> from weiqi.league.settings import TeamEventSettings
        >>> r = TeamEventSettings(board_size=13, komi=Fraction(7, 2), cycle="draw").ruleset
        >>> r.board_size, r.komi, r.cycle.value
        (13, Fraction(7, 2), 'draw')
        """
        return Ruleset(board_size=self.board_size, komi=self.komi, cycle=self.cycle)

    def _check_time_control(self) -> None:
        """Read a time control given as its settings string; refuse anything else by name."""
        given: object = self.time_control
        if isinstance(given, str):
            object.__setattr__(self, "time_control", time_control_value(given))
        elif given is not None and not isinstance(given, TimeControl):
            raise InvalidSetting("time_control", Msg("must be text"))

    @property
    def game_time_control(self) -> TimeControl | None:
        """The time control an online game's clock runs under: the event's, ``None`` when it
        has none or plays untimed.

        >>> EventSettings(System.ROUND_ROBIN, time_control="untimed").game_time_control is None
        True
        """
        tc = self.time_control
        return None if tc is None or tc.system is TimeSystem.UNTIMED else tc

    @property
    def lag(self) -> LagPolicy | None:
        """The allowance for network lag of the event's online games: ``lag_gain`` seconds of
        quota a move, at most ``lag_cap`` (:class:`~weiqi.clock.lag.LagPolicy`, as lichess
        does). ``None`` over the board — the written rules have no lag — or with a gain or a
        cap of 0.

        >>> EventSettings(System.ROUND_ROBIN, play="online").lag
        LagPolicy(gain=1.0, cap=3.0, initial=None)
        >>> EventSettings(System.ROUND_ROBIN).lag is None  # over the board
        True
        >>> EventSettings(System.ROUND_ROBIN, play="online", lag_gain=0).lag is None
        True
        """
        if not self.online or self.lag_gain == 0 or self.lag_cap == 0:
            return None
        return LagPolicy(gain=float(self.lag_gain), cap=float(self.lag_cap))

    def _check_lag(self) -> None:
        """``InvalidSetting`` naming ``lag_gain`` or ``lag_cap`` unless both are seconds within
        their bounds and the cap holds at least one move's gain; each is kept as a float."""
        for name, most in (("lag_gain", LAG_GAIN_MAX), ("lag_cap", LAG_CAP_MAX)):
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
                or not 0 <= value <= most
            ):
                raise InvalidSetting(
                    name, Msg("must be a number of seconds between 0 and %(most)s", most=most)
                )
            object.__setattr__(self, name, float(value))
        if 0 < self.lag_cap < self.lag_gain:
            gain = f"{self.lag_gain:g}"  # 1.5, not 1.50
            raise InvalidSetting(
                "lag_cap", Msg("must hold at least one move's allowance (%(gain)s s)", gain=gain)
            )

    @property
    def online(self) -> bool:
        """Whether the event's games are played in the game room (the one rule: the room
        starts no game of an event played over the board).

        >>> board, online = (EventSettings(System.ROUND_ROBIN, play=p) for p in ("board", "online"))
        >>> board.online, online.online, online.play
        (False, True, <PlayMode.ONLINE: 'online'>)
        """
        return self.play is PlayMode.ONLINE


def seconds_setting(field: str, text: str) -> float:
    """A number of seconds typed in a form (``1``, ``0.5``; a decimal comma too), checked
    for bounds by the settings; anything else is ``InvalidSetting`` naming ``field``.

    >>> seconds_setting("lag_cap", " 2,5 ")
    2.5
    >>> seconds_setting("lag_gain", "1 s")
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: lag_gain: must be a number of seconds, such as 1 or 0.5
    """
    try:
        return float(text.strip().replace(",", "."))
    except ValueError:
        raise InvalidSetting(field, Msg("must be a number of seconds, such as 1 or 0.5")) from None


def _is_bracket(system: System, elimination_losses: int | None) -> bool:
    return system is System.DOUBLE_ELIMINATION or (
        system is System.KNOCKOUT and (elimination_losses or 1) == 1
    )


def default_tiebreaks(
    system: System, swiss_method: str = "B", elimination_losses: int | None = None
) -> tuple[str, ...]:
    """The rules' tie-breaks of a system (the one definition; ``tiebreak_codes`` and the
    settings form use it): none for a bracket, which ranks by how far players came; a Swiss
    by its ranking method (R-RANK-SWISS); the rest as a round robin (R-RANK-RR).

    >>> default_tiebreaks(System.KNOCKOUT), default_tiebreaks(System.KNOCKOUT, "B", 2)
    ((), ('SB', 'WARN'))
    >>> default_tiebreaks(System.MCMAHON, "A")
    ('TOTAL', 'WARN')
    """
    if _is_bracket(system, elimination_losses):
        return ()
    if system.is_swiss:
        return ("TOTAL", "WARN") if swiss_method == "A" else ("SOS", "WARN")
    return ("SB", "WARN")


def default_tiebreak_table(max_losses: int = 10) -> dict[str, list[str]]:
    """``default_tiebreaks`` of every choice the settings form offers, keyed
    ``"system/method/losses"`` (losses empty when not set), for the form's script.

    >>> table = default_tiebreak_table()
    >>> table["knockout/B/"], table["knockout/B/3"], table["swiss/A/"]
    ([], ['SB', 'WARN'], ['TOTAL', 'WARN'])
    """
    return {
        f"{system.value}/{method}/{losses or ''}": list(default_tiebreaks(system, method, losses))
        for system in INDIVIDUAL_SYSTEMS
        for method in ("A", "B")
        for losses in (None, *range(1, max_losses + 1))
    }


class SystemVariants:
    """What makes a kind's settings one typed variant per system: ``Kind(system, …)`` makes
    the system's variant (``VARIANTS``, on the kind's base class) and refuses a setting only
    another variant holds, naming it and the systems of the kind that read it. Both kinds of
    event are made so (:class:`EventSettings`, ``league.settings.TeamEventSettings``).

    The base's ``DEFAULT_SYSTEM`` is the system of a value made without one; a variant made
    without arguments is a copy being restored (pickle), made as itself.

    >>> type(EventSettings(System.MATCH, best_of=5)).__name__
    'MatchSettings'
    >>> EventSettings(System.ROUND_ROBIN, mcmahon_bar=Rank.parse("3d"))
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: mcmahon_bar: applies to mcmahon only, not to round_robin
    """

    #: The systems of the kind (on its base) or of the variant.
    SYSTEMS: ClassVar[tuple[System, ...]]
    #: The kind's variant of each of its systems, set on its base once they are declared.
    VARIANTS: ClassVar[Mapping[System, type[Any]]] = {}
    DEFAULT_SYSTEM: ClassVar[System | None] = None

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        given = args[0] if args else kwargs.get("system")
        if given is None:
            if cls.DEFAULT_SYSTEM is None or cls in cls.VARIANTS.values():
                return super().__new__(cls)
            given = cls.DEFAULT_SYSTEM
        system = _system_named(given)
        variant = cls.VARIANTS.get(system, cls) if system is not None else cls
        if not issubclass(variant, cls):  # dataclasses.replace with another family's system
            raise TypeError(f"{cls.__name__} does not hold a {variant.__name__}")
        held = _own_fields(variant)
        for name in kwargs.keys() - held:
            if any(name in _own_fields(v) for v in cls.VARIANTS.values()):
                raise _not_read(name, system, _kind(cls).SYSTEMS)
        return super().__new__(variant)

    @property
    def cycle_count(self) -> int:
        """The cycles the event plays: a round robin's (its variant's), one otherwise."""
        return 1


def _kind(cls: type) -> type[SystemVariants]:
    """The base class of the kind of settings ``cls`` (a base or a variant) is of: the class
    its variants are set on. A settings class without variants is its own."""
    for base in cls.__mro__:
        if "VARIANTS" in vars(base) and base is not SystemVariants:
            return cast(type[SystemVariants], base)
    return cast(type[SystemVariants], cls)


K = typing.TypeVar("K", bound=SystemVariants)


@dataclass(frozen=True)
class EventSettings(SystemVariants, PlaySettings):
    """The settings of one individual event; invalid values raise ``InvalidSetting``.

    A value is always one of the typed variants of its system (:data:`VARIANTS`), which holds
    the settings that system reads and no other: a :class:`RoundRobinSettings` has its
    ``cycles``, a :class:`McMahonSettings` its bar, floor and zero, a :class:`MatchSettings`
    its ``best_of``. ``EventSettings(system, …)`` makes the system's variant; a setting
    another system reads is refused, naming it and the systems that read it.

    >>> s = EventSettings(System.MCMAHON, rounds=5, mcmahon_bar=Rank.parse("3d"))
    >>> type(s).__name__, s.mcmahon_bar, isinstance(s, SwissSettings)
    ('McMahonSettings', Rank('3d'), True)
    >>> EventSettings(System.SWISS, rounds=5, best_of=5)
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: best_of: applies to match only, not to swiss

    Scoring of special results:

    - a bye scores ``bye_points`` (default a win) and adds 0 to the player's SOS (the bye has
      no opponent whose points could count);
    - both lose (双方均负) scores ``points_loss`` for each and counts as played for pairing
      (R-DRAW-LOT: we pair on it directly instead of drawing lots);
    - no result (无胜负) scores ``no_result_points`` each and counts as played;
    - replay (重赛): with ``replay_points`` None the game is outstanding until the replay's result
      replaces it; with a number, each player scores that many;
    - a forfeit scores as a win/loss; with ``forfeit_in_sos`` False a forfeit (不战) game is left
      out of both players' SOS/SB/SOSOS sums, so nobody's tie-break profits from an absence.

    A round without a game or a bye (a player absent from one round, not withdrawn) scores
    ``absent_points`` (default 0). McMahon as EGF events play it (:func:`egf_mcmahon` sets these
    together, with :class:`McMahonSettings`'s zero rank; the defaults are the Chinese rules'):

    - ``round_down_scores``: half points (an absent round's, a draw's) are rounded down to whole
      wins in the scores the standings show and sum;
    - ``unplayed_sos``: a round without a game (bye, absence, a round nobody played) counts in
      SOS a virtual opponent holding the player's own start score (``own_start``), or nothing;
    - ``sos_handicap``: in a handicap game the opponent's score counts in SOS less the handicap
      for Black and plus it for White (the stones given are worth a win each);
    - ``club_score_gap``: with ``avoid_same_club``, a pairing across clubs is preferred to a
      same-club game while the score gap it costs is at most this many wins (OpenGotha's
      "prefer an MMS difference rather than the same club"; 0: the club only breaks ties);
      ``region_score_gap`` the same for the region (or country) with ``avoid_same_region``;
    - ``handicap_threshold``: games between players both at or above this rank are even;
      ``handicap_basis`` reads the handicap from ranks or from McMahon scores.

    ``first_round`` pairs a Swiss's round 1 top half against bottom half (``halves``: 1 v n/2+1),
    1 v n, 2 v n−1 … (``fold``: a team Swiss's first round, as its later rounds), or by lot;
    round robins and brackets read it as seeding order (``halves``, ``fold``) or a lot.

    ``schedule_published``: a round robin's whole schedule (轮次表) is public in advance; set
    by the organisers' "publish the schedule" action only (a settings change keeps it).
    """

    system: System
    rounds: int | None = None
    tiebreaks: tuple[str, ...] | None = None
    points_win: int = 2
    points_draw: int = 1
    points_loss: int = 0
    bye_points: int = 2
    no_result_points: int = 0
    replay_points: int | None = None
    forfeit_in_sos: bool = True
    top_score: Literal["full", "achieved"] = "full"
    shared_places: bool = True
    tie_resolution: Literal["lot", "playoff"] = "lot"
    first_round: Literal["halves", "fold", "lot"] = "halves"
    color_policy: Literal["even", "handicap"] = "even"
    handicap_reduction: int = 0
    handicap_max: int = 9
    avoid_same_club: bool = False
    club_score_gap: int = 0
    avoid_same_region: bool = False
    region_score_gap: int = 0
    forbidden_pairs: tuple[tuple[str, str], ...] = ()
    late_entry_points: int = 0
    absent_points: int = 0
    round_down_scores: bool = False
    unplayed_sos: Literal["none", "own_start"] = "none"
    sos_handicap: bool = False
    handicap_threshold: Rank | None = None
    handicap_basis: Literal["rank", "mcmahon"] = "rank"
    seed: int = 0
    handicap_placement: HandicapPlacement = HandicapPlacement.FIXED
    schedule_published: bool = False
    #: Live play (issue #11): seconds a player may be disconnected before the referee console
    #: alerts the referees; ``None``: the clock simply runs, as the rules say (the console
    #: still shows who is connected).
    disconnect_alert: int | None = None
    #: The colours of an online event's even games: as paired, or by nigiri (猜先, R-COLOR-1)
    #: that the server draws when the game opens in the room.
    online_colors: Literal["paired", "nigiri"] = "paired"

    def __post_init__(self) -> None:
        set_choices(self, declared_choices(type(self)))
        check_system(self.system, self.SYSTEMS, Msg("an individual event"))
        self._check_play()
        self._validate()

    #: The systems a variant's settings are of (every individual one's, on the base: a
    #: system without a variant of its own is refused by name).
    SYSTEMS: ClassVar[tuple[System, ...]] = INDIVIDUAL_SYSTEMS

    def _validate(self) -> None:
        """Refuse what no system allows; each variant adds its own settings' checks."""
        s = self.system
        if self.rounds is not None and not 1 <= self.rounds <= 100:
            raise InvalidSetting("rounds", Msg("must be between 1 and 100"))
        if s.is_swiss and self.rounds is None:
            raise InvalidSetting("rounds", Msg("a Swiss event needs a number of rounds"))
        if not self.points_win > self.points_draw >= self.points_loss >= 0:
            raise InvalidSetting("points", Msg("need win > draw >= loss >= 0"))
        for name in ("bye_points", "no_result_points", "late_entry_points", "absent_points"):
            value = getattr(self, name)
            if not 0 <= value <= self.points_win:
                raise InvalidSetting(
                    name, Msg("must be between 0 and %(points_win)s", points_win=self.points_win)
                )
        if self.replay_points is not None and not 0 <= self.replay_points <= self.points_win:
            raise InvalidSetting(
                "replay_points",
                Msg("must be between 0 and %(points_win)s", points_win=self.points_win),
            )
        if self.top_score not in ("full", "achieved"):
            raise InvalidSetting("top_score", Msg("must be 'full' or 'achieved'"))
        if self.tie_resolution not in ("lot", "playoff"):
            raise InvalidSetting("tie_resolution", Msg("must be 'lot' or 'playoff'"))
        if self.first_round not in ("halves", "fold", "lot"):
            raise InvalidSetting("first_round", Msg("must be 'halves', 'fold' or 'lot'"))
        if self.unplayed_sos not in ("none", "own_start"):
            raise InvalidSetting("unplayed_sos", Msg("must be 'none' or 'own_start'"))
        if self.handicap_basis not in ("rank", "mcmahon"):
            raise InvalidSetting("handicap_basis", Msg("must be 'rank' or 'mcmahon'"))
        if self.online_colors not in ("paired", "nigiri"):
            raise InvalidSetting("online_colors", Msg("must be 'paired' or 'nigiri'"))
        if self.color_policy not in ("even", "handicap"):
            raise InvalidSetting("color_policy", Msg("must be 'even' or 'handicap'"))
        if not -50 <= self.komi <= 50:
            raise InvalidSetting("komi", Msg("must be between -50 and 50"))
        if not 0 <= self.handicap_max <= 9:
            raise InvalidSetting("handicap_max", Msg("must be between 0 and 9"))
        if self.handicap_reduction < 0:
            raise InvalidSetting("handicap_reduction", Msg("must be 0 or more"))
        for name in ("club_score_gap", "region_score_gap"):
            if not 0 <= getattr(self, name) <= 10:
                raise InvalidSetting(name, Msg("must be between 0 and 10"))
        if self.handicap_reduction > 100:  # a rank scale spans some 40 steps
            raise InvalidSetting("handicap_reduction", Msg("must be at most 100"))
        if self.disconnect_alert is not None and not 0 <= self.disconnect_alert <= 3600:
            raise InvalidSetting("disconnect_alert", Msg("must be between 0 and 3600"))
        if abs(self.seed) >= 10**15:  # round_seed (seed × 1000 + round) is a 64-bit column
            raise InvalidSetting("seed", Msg("must be below 10^15 in size"))
        ruleset = self.ruleset  # the board size and komi as one game's rules allow them
        if (
            self.color_policy == "handicap"
            and ruleset.handicap_placement is HandicapPlacement.FIXED
        ):
            from weiqi.rules.handicap import max_fixed_handicap

            most = max_fixed_handicap(self.board_size)
            if self.handicap_max > max(most, 1):
                raise InvalidSetting(
                    "handicap_max",
                    Msg(
                        "at most %(most)s fixed stones on %(size)s×%(size)s",
                        most=most,
                        size=self.board_size,
                    ),
                )
        for code in self.tiebreaks or ():
            if code not in TIEBREAK_CODES:
                raise InvalidSetting("tiebreaks", Msg("unknown code %(code)s", code=repr(code)))
        if self.tiebreaks is not None and len(set(self.tiebreaks)) != len(self.tiebreaks):
            raise InvalidSetting("tiebreaks", Msg("a code appears twice"))
        if self.tiebreaks and "TOTAL" in self.tiebreaks[1:]:
            raise InvalidSetting(
                "tiebreaks", Msg("TOTAL ranks before points, so it must come first")
            )
        for a, b in self.forbidden_pairs:
            if a == b:
                raise InvalidSetting("forbidden_pairs", Msg("%(a)s paired with itself", a=a))

    # -- derived values ----------------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        """The rules of the event's games (board size, komi, cycle policy, handicap placement),
        the one place a game's ``Ruleset`` comes from.

        >>> EventSettings(System.ROUND_ROBIN, board_size=13).ruleset.par
        Fraction(169, 2)
        """
        return Ruleset(
            board_size=self.board_size,
            komi=self.komi,
            cycle=self.cycle,
            handicap_placement=self.handicap_placement,
        )

    @property
    def tiebreak_codes(self) -> tuple[str, ...]:
        """The event's tie-breaks, or the rules' defaults for its system: none for a bracket,
        which ranks by how far players came (``weiqi.tournament.ranking``).

        >>> EventSettings(system=System.KNOCKOUT).tiebreak_codes
        ()
        >>> EventSettings(system=System.KNOCKOUT, tiebreaks=("SOS",)).tiebreak_codes
        ('SOS',)
        """
        if self.tiebreaks is not None:
            return self.tiebreaks
        return self._default_tiebreaks()

    def _default_tiebreaks(self) -> tuple[str, ...]:
        """The rules' tie-breaks of the system (a variant passes what it adds to them)."""
        return default_tiebreaks(self.system)

    @property
    def is_bracket(self) -> bool:
        """Single or double elimination: every game needs a winner (a playoff settles a draw,
        R-PLAYOFF) and the standings rank by how far players came, not by points.

        >>> EventSettings(system=System.KNOCKOUT).is_bracket
        True
        >>> EventSettings(system=System.KNOCKOUT, elimination_losses=2).is_bracket
        False
        """
        return _is_bracket(self.system, None)

    def planned_rounds(self, players: int) -> int | None:
        """The rounds the event plays with ``players`` starting players: its number of rounds,
        or a round robin's schedule (one round more for an odd number, per cycle); None when
        the system does not say in advance (a knockout goes on until its final). A team
        event's settings answer the same question (``TeamEventSettings.planned_rounds``).

        >>> s = EventSettings(System.ROUND_ROBIN)
        >>> s.planned_rounds(5), s.planned_rounds(1)
        (5, None)
        >>> EventSettings(System.SWISS, rounds=7).planned_rounds(9)
        7
        >>> EventSettings(System.DOUBLE_ROUND_ROBIN).planned_rounds(4)
        6
        """
        if self.system.is_round_robin:
            return round_robin_rounds(players, self.cycle_count)
        return self.rounds

    @property
    def losses_to_eliminate(self) -> int | None:
        """K of "out after K losses", or None for systems without elimination."""
        return None

    @staticmethod
    def parse_tiebreaks(text: str) -> tuple[str, ...]:
        """Parse a comma-separated list of codes such as ``SOS,SB,CUSS``."""
        codes = tuple(c.strip().upper() for c in text.split(",") if c.strip())
        for code in codes:
            if code not in TIEBREAK_CODES:
                known = ", ".join(TIEBREAK_CODES)
                raise InvalidSetting(
                    "tiebreaks",
                    Msg("unknown code %(code)s (known: %(known)s)", code=repr(code), known=known),
                )
        return codes


# -- the variants: each system's own settings -----------------------------------------------


@dataclass(frozen=True)
class RoundRobinSettings(EventSettings):
    """A round robin's settings: how many ``cycles`` it plays (a double round robin two).

    >>> EventSettings(System.ROUND_ROBIN, cycles=3).planned_rounds(4)
    9
    """

    SYSTEMS: ClassVar[tuple[System, ...]] = (System.ROUND_ROBIN, System.DOUBLE_ROUND_ROBIN)
    cycles: int = 1

    def _validate(self) -> None:
        super()._validate()
        if not 1 <= self.cycles <= 10:
            raise InvalidSetting("cycles", Msg("must be between 1 and 10"))
        if self.system is System.DOUBLE_ROUND_ROBIN and self.cycles not in (1, 2):
            raise InvalidSetting("cycles", Msg("a double round robin has 2 cycles"))

    @property
    def cycle_count(self) -> int:
        return 2 if self.system is System.DOUBLE_ROUND_ROBIN else self.cycles


@dataclass(frozen=True)
class KnockoutSettings(EventSettings):
    """A knockout's settings: out after ``elimination_losses`` losses (one, the bracket, by
    default); with two or more it is paired as a Swiss, by ``pairing_method``."""

    SYSTEMS: ClassVar[tuple[System, ...]] = (System.KNOCKOUT,)
    elimination_losses: int | None = None
    pairing_method: Literal["fold", "slip"] = "fold"

    def _validate(self) -> None:
        super()._validate()
        _check_losses(self.elimination_losses)
        _check_pairing(self.pairing_method)

    def _default_tiebreaks(self) -> tuple[str, ...]:
        return default_tiebreaks(self.system, elimination_losses=self.elimination_losses)

    @property
    def is_bracket(self) -> bool:
        return _is_bracket(self.system, self.elimination_losses)

    @property
    def losses_to_eliminate(self) -> int:
        return self.elimination_losses or 1


@dataclass(frozen=True)
class DoubleEliminationSettings(EventSettings):
    """A double elimination's settings: whether the winners' bracket champion who loses the
    grand final plays it again (``grand_final_reset``). Out after two losses, always."""

    SYSTEMS: ClassVar[tuple[System, ...]] = (System.DOUBLE_ELIMINATION,)
    elimination_losses: int | None = None
    grand_final_reset: bool = True

    def _validate(self) -> None:
        super()._validate()
        if self.elimination_losses not in (None, 2):
            raise InvalidSetting("elimination_losses", Msg("double elimination is out after 2"))

    @property
    def losses_to_eliminate(self) -> int:
        return 2


@dataclass(frozen=True)
class SwissSettings(EventSettings):
    """A Swiss's settings: its ranking method (``swiss_method``: A by total score, B by SOS,
    R-RANK-SWISS) and how a score group is split (``pairing_method``)."""

    SYSTEMS: ClassVar[tuple[System, ...]] = (System.SWISS,)
    swiss_method: Literal["A", "B"] = "B"
    pairing_method: Literal["fold", "slip"] = "fold"

    def _validate(self) -> None:
        super()._validate()
        if self.swiss_method not in ("A", "B"):
            raise InvalidSetting("swiss_method", Msg("must be A (total score) or B (SOS)"))
        _check_pairing(self.pairing_method)

    def _default_tiebreaks(self) -> tuple[str, ...]:
        return default_tiebreaks(self.system, self.swiss_method)


@dataclass(frozen=True)
class SwissKnockoutSettings(SwissSettings):
    """A Swiss with elimination: a Swiss's settings, and out after ``elimination_losses``
    losses (required)."""

    SYSTEMS: ClassVar[tuple[System, ...]] = (System.SWISS_KNOCKOUT,)
    elimination_losses: int | None = None

    def _validate(self) -> None:
        super()._validate()
        _check_losses(self.elimination_losses)
        if self.elimination_losses is None:
            raise InvalidSetting("elimination_losses", Msg("Swiss with elimination needs K losses"))

    @property
    def losses_to_eliminate(self) -> int | None:
        return self.elimination_losses


@dataclass(frozen=True)
class McMahonSettings(SwissSettings):
    """A McMahon event: a Swiss's settings and its start scores — the bar (required), the
    floor (None: the lowest rank entered) and ``mcmahon_zero``, the rank whose start score is 0
    (OpenGotha's 30k; None counts from the floor: it moves every score by the same amount, so
    places do not change)."""

    SYSTEMS: ClassVar[tuple[System, ...]] = (System.MCMAHON,)
    mcmahon_bar: Rank | None = None
    mcmahon_floor: Rank | None = None
    mcmahon_zero: Rank | None = None

    def _validate(self) -> None:
        super()._validate()
        if self.mcmahon_bar is None:
            raise InvalidSetting("mcmahon_bar", Msg("a McMahon event needs a bar rank"))
        if (
            self.mcmahon_floor is not None
            and self.mcmahon_floor.strength > self.mcmahon_bar.strength
        ):
            raise InvalidSetting("mcmahon_floor", Msg("the floor must be below the bar"))
        if (
            self.mcmahon_zero is not None
            and self.mcmahon_floor is not None
            and self.mcmahon_zero.strength > self.mcmahon_floor.strength
        ):
            raise InvalidSetting("mcmahon_zero", Msg("the zero rank must not be above the floor"))


@dataclass(frozen=True)
class MatchSettings(EventSettings):
    """A match's settings: best of ``best_of`` games (3, 5 or 7)."""

    SYSTEMS: ClassVar[tuple[System, ...]] = (System.MATCH,)
    best_of: int = 3

    def _validate(self) -> None:
        super()._validate()
        if self.best_of not in (3, 5, 7):
            raise InvalidSetting("best_of", Msg("a match is best of 3, 5 or 7 games"))


V = typing.TypeVar("V", bound=SystemVariants)


def variant_of(settings: SystemVariants, variant: type[V]) -> V:
    """``settings`` as ``variant``, which the caller's system plays under (a match's best-of,
    a double elimination's reset, a 擂台赛's players' order), either kind; another variant is a
    ``TypeError``: the caller was given another system's event.

    >>> variant_of(EventSettings(System.MATCH, best_of=5), MatchSettings).best_of
    5
    """
    if not isinstance(settings, variant):
        raise TypeError(f"{variant.__name__} expected, not {type(settings).__name__}")
    return settings


def _check_losses(losses: int | None) -> None:
    if losses is not None and not 1 <= losses <= 10:
        raise InvalidSetting("elimination_losses", Msg("must be between 1 and 10"))


def _check_pairing(method: str) -> None:
    if method not in ("fold", "slip"):
        raise InvalidSetting("pairing_method", Msg("must be 'fold' or 'slip'"))


#: The settings only some systems read, each with those systems; every other system ignores
#: them. They are the variants' own fields, entered by :func:`declare_variants` for either
#: kind (a team event's ``cycles`` are its round robin's, its ``player_order`` its 擂台赛's,
#: once ``league.settings`` declares them). A value other than the default given for another
#: system is a mistake the organiser is told of (:func:`check_applies`), and the settings
#: forms show each setting with its systems only.
SYSTEM_SETTINGS: dict[str, frozenset[System]] = {}


def declare_variants(kind: type[K], *variants: type[K]) -> dict[System, type[K]]:
    """Make ``variants`` the variants of the settings ``kind`` (each for its ``SYSTEMS``), and
    enter the settings each holds beyond the kind's in :data:`SYSTEM_SETTINGS`: the one table
    of which system reads which setting, for both kinds."""
    declared = {system: v for v in variants for system in v.SYSTEMS}
    kind.VARIANTS = declared
    shared = _own_fields(kind)
    for v in variants:
        for name in sorted(_own_fields(v) - shared):
            SYSTEM_SETTINGS[name] = SYSTEM_SETTINGS.get(name, frozenset()) | frozenset(v.SYSTEMS)
    return declared


def _own_fields(variant: type) -> frozenset[str]:
    """The names of a settings class's fields (every one a keyword of its constructor)."""
    return frozenset(f.name for f in fields(variant))


def _system_named(value: object) -> System | None:
    """The system a constructor was given (its value's text too, earlier spelling included);
    None for one that names none, which the settings refuse by name."""
    if isinstance(value, System):
        return value
    try:
        return System(str(value).replace("-", "_"))
    except ValueError:
        return None


#: Each individual system's variant of the settings.
VARIANTS: Final = declare_variants(
    EventSettings,
    RoundRobinSettings,
    KnockoutSettings,
    DoubleEliminationSettings,
    SwissSettings,
    SwissKnockoutSettings,
    McMahonSettings,
    MatchSettings,
)


def _not_read(
    name: str, system: System | None, among: tuple[System, ...] = INDIVIDUAL_SYSTEMS
) -> InvalidSetting:
    """The refusal of setting ``name`` given for a ``system`` that does not read it, naming
    the systems of ``among`` that do."""
    readers = " | ".join(s.value for s in systems_reading(name, among))
    named = system.value if system is not None else "?"
    return InvalidSetting(
        name, Msg("applies to %(systems)s only, not to %(system)s", systems=readers, system=named)
    )


def systems_reading(
    name: str, among: tuple[System, ...] = INDIVIDUAL_SYSTEMS
) -> tuple[System, ...]:
    """The systems ``among`` (an individual event's by default) that read setting ``name``, in
    their order (every one for a setting all of them read): what the settings form shows it
    with.

    >>> [s.value for s in systems_reading("best_of")]
    ['match']
    >>> [s.value for s in systems_reading("cycles", TEAM_SYSTEMS)]
    ['round_robin']
    >>> len(systems_reading("komi")) == len(INDIVIDUAL_SYSTEMS)
    True
    """
    found = SYSTEM_SETTINGS.get(name)
    return tuple(s for s in among if found is None or s in found)


def check_applies(
    settings: PlaySettings,
    given: Mapping[str, object] | None = None,
    before: PlaySettings | None = None,
) -> None:
    """Refuse a setting that ``settings``'s system does not read (:data:`SYSTEM_SETTINGS`) set
    to another value than its default — or, for a change, than it had ``before`` (a value
    stored earlier, under another system, is left as it was): ``InvalidSetting`` naming it
    and the systems of the event's kind that read it. Either kind of event; asked of what an
    organiser types (``given``, the settings as JSON values: an individual event's value holds
    its system's settings only; by default the value's own), not of stored settings.

    >>> check_applies(EventSettings(System.MATCH, best_of=5))
    >>> swiss = EventSettings(System.SWISS, rounds=5)
    >>> check_applies(swiss, {"system": "swiss", "rounds": 5, "best_of": 3})  # the default
    >>> check_applies(swiss, {"system": "swiss", "rounds": 5, "best_of": 5})
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: best_of: applies to match only, not to swiss
    """
    kind = _kind(type(settings))
    among = kind.SYSTEMS
    values = (
        settings_values(kind, given)
        if given is not None
        else {f.name: getattr(settings, f.name) for f in fields(cast(Any, settings))}
    )
    defaults = _defaults(kind)
    system: System = getattr(settings, "system")  # noqa: B009 (either kind's settings have one)
    for name, systems in SYSTEM_SETTINGS.items():
        if name not in values or name not in defaults or system in systems:
            continue
        # compared as JSON holds them: what was typed may be a choice's text, not its value
        value, default = _json_value(values[name]), _json_value(defaults[name])
        unchanged = (
            _json_value(getattr(before, name, defaults[name])) if before is not None else default
        )
        if value != unchanged and value != default:
            raise _not_read(name, system, among)


def _defaults(kind: type) -> dict[str, object]:
    """The default of each field of the settings class ``kind``, or of any of its variants."""
    return {f.name: f.default for c in _classes(kind) for f in fields(c)}


def _classes(kind: type) -> tuple[type, ...]:
    """The settings class ``kind`` and, for the base of a kind, its variants."""
    found: Mapping[System, type] = vars(kind).get("VARIANTS", {})
    return (kind, *found.values())


def egf_mcmahon(
    rounds: int, bar: Rank, floor: Rank | None = None, **overrides: object
) -> EventSettings:
    """The "EGF McMahon" preset: McMahon as European events play it (OpenGotha's defaults).

    A bye scores a win and an absent round half a win, rounded down in the scores; start scores
    count from 30k; a round without a game counts the player's own start score in SOS; SOS is
    handicap-adjusted; handicaps come from McMahon scores less one, even from 1d up, at most 9.

    >>> s = egf_mcmahon(5, Rank.parse("4d"), Rank.parse("20k"))
    >>> s.system.value, s.absent_points, s.mcmahon_zero, s.tiebreak_codes
    ('mcmahon', 1, Rank('30k'), ('SOS', 'SOSOS'))
    >>> egf_mcmahon(5, Rank.parse("4d"), absent_points=0).absent_points
    0
    """
    preset: dict[str, object] = {
        "system": System.MCMAHON,
        "rounds": rounds,
        "mcmahon_bar": bar,
        "mcmahon_floor": floor,
        "mcmahon_zero": Rank.parse("30k"),
        "tiebreaks": ("SOS", "SOSOS"),
        "bye_points": 2,
        "absent_points": 1,
        "round_down_scores": True,
        "unplayed_sos": "own_start",
        "sos_handicap": True,
        "color_policy": "handicap",
        "handicap_reduction": 1,
        "handicap_threshold": Rank.parse("1d"),
        "handicap_basis": "mcmahon",
        "komi": Fraction(15, 4),
        "avoid_same_club": True,
        "club_score_gap": 3,
        "avoid_same_region": True,
        "region_score_gap": 1,
    }
    preset.update(overrides)
    return EventSettings(**preset)  # type: ignore[arg-type]


def settings_to_dict(settings: object) -> dict[str, object]:
    """A JSON-ready dict of a settings value — an individual or a team event's, a league
    season's (enums by value, fractions and ranks as text): what the store keeps and the API
    shows.

    >>> d = settings_to_dict(EventSettings(system=System.SWISS, rounds=5))
    >>> d["system"], d["komi"], d["tiebreaks"]
    ('swiss', '15/4', None)
    >>> settings_from_dict(d) == EventSettings(system=System.SWISS, rounds=5)
    True
    """
    fs = fields(settings)  # type: ignore[arg-type]  # every settings value is a dataclass
    return {f.name: _json_value(getattr(settings, f.name)) for f in fs}


def _json_value(value: object) -> object:
    """A setting's value as JSON holds it (enums by value, fractions, ranks and time controls
    as text)."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, Rank):
        return value.code
    if isinstance(value, TimeControl):
        return value.format()
    if isinstance(value, tuple):
        return [list(v) if isinstance(v, tuple) else v for v in value]
    return value


def settings_from_dict(data: dict[str, object]) -> EventSettings:
    """Inverse of :func:`settings_to_dict` for an individual event; unknown keys and values of
    the wrong type are refused with an ``InvalidSetting`` naming the setting (a JSON body may
    hold anything).

    >>> settings_from_dict({})
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: system: is required
    >>> settings_from_dict({"system": "swiss", "rounds": "five"})
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: rounds: must be a whole number
    """
    if "system" not in data:
        raise InvalidSetting("system", Msg("is required"))
    return variant_from_dict(EventSettings, data)


def variant_from_dict(kind: type[K], data: object) -> K:
    """The settings of ``kind`` (a kind's base class) from JSON values, made as the variant of
    their system (the kind's default when none is given). What only another system's variant
    holds is left out — a value stored under an earlier system, or a form's hidden field:
    what an organiser types is checked for it by :func:`check_applies`. An unknown key or a
    value of the wrong type is ``InvalidSetting`` naming the setting.

    >>> type(variant_from_dict(EventSettings, {"system": "match", "cycles": 2})).__name__
    'MatchSettings'
    """
    kwargs = settings_values(kind, data)
    system = kwargs.get("system", kind.DEFAULT_SYSTEM)
    own = _own_fields(kind.VARIANTS.get(cast(System, system), kind))
    return kind(**{k: v for k, v in kwargs.items() if k in own})


#: Settings keys as an earlier release spelled them, read as their names now: a script or a
#: settings object copied from an older response still loads (the stored ones were renamed by
#: migration 0028).
RENAMED_SETTINGS: Final = {"colour_policy": "color_policy", "online_colours": "online_colors"}


def settings_values(kind: type, data: object) -> dict[str, object]:
    """The keyword arguments of the settings class ``kind`` (a frozen dataclass) in a dict of
    JSON values, each of the type its field declares; the class checks the rest (choices,
    bounds). An unknown key or a value of the wrong type is ``InvalidSetting`` naming the
    setting.

    >>> settings_values(EventSettings, {"rounds": 5, "komi": "7/2"})
    {'rounds': 5, 'komi': Fraction(7, 2)}
    >>> settings_values(EventSettings, {"colour_policy": "handicap"})  # the earlier spelling
    {'color_policy': 'handicap'}
    >>> settings_values(EventSettings, {"color": "black"})
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: color: unknown setting
    """
    if not isinstance(data, dict):
        raise InvalidSetting("settings", Msg("must be an object of settings"))
    types = _field_types(kind)
    kwargs: dict[str, object] = {}
    for given, value in data.items():
        key = RENAMED_SETTINGS.get(given, given)
        if key not in types:
            raise InvalidSetting(str(given), Msg("unknown setting"))
        kwargs[key] = _setting_value(key, value, types[key])
    return kwargs


def settings_from_text(
    kind: type, form: Mapping[str, str], checkboxes: Iterable[str] = ()
) -> dict[str, object]:
    """The settings of ``kind`` that a form's text fields give, as the JSON values
    :func:`settings_values` takes: each field of ``kind`` the form has, read by the type the
    settings declare for it — a whole number, seconds (:func:`seconds_setting`), ``yes`` /
    ``no`` / empty for a yes-or-no that may be unset, a choice by its value, a rank as
    written, the komi as people write it (:func:`parse_komi`). A field left empty is left out
    (its default, or the value it is merged over), unless empty is itself a value: ``None`` of
    an optional number or rank. ``checkboxes`` are the yes-or-no fields the form shows as
    boxes: a browser sends no unticked box, so one absent is ``False``. Lists (tie-breaks) are
    the form's own to read; other keys (the event's name, its details) are not settings and
    are passed over. A number that is not one is ``InvalidSetting`` naming its field.

    >>> settings_from_text(EventSettings, {"rounds": "5", "seed": "", "lag_cap": "2,5",
    ...                                    "mcmahon_bar": "", "name": "春季赛"}, ["shared_places"])
    {'shared_places': False, 'rounds': 5, 'lag_cap': 2.5, 'mcmahon_bar': None}
    >>> settings_from_text(EventSettings, {"rounds": "five"})
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: rounds: must be a whole number
    """
    types = _field_types(kind)
    out: dict[str, object] = {name: False for name in checkboxes if name not in form}
    for key, raw in form.items():
        if key not in types or key in _LISTS:
            continue
        declared, optional = _unwrapped(types[key])
        text = raw.strip()
        if declared is bool:
            out[key] = _yes_or_no(key, text) if optional else bool(text)
        elif not text:
            if optional:
                out[key] = None
        elif declared is int:
            try:
                out[key] = int(text)
            except ValueError:
                raise InvalidSetting(key, Msg("must be a whole number")) from None
        elif declared is float:
            out[key] = seconds_setting(key, text)
        elif declared is Fraction:
            out[key] = str(parse_komi(text))
        else:  # a choice's value or a rank, as written (the settings check it)
            out[key] = text
    return out


def settings_text(settings: object) -> dict[str, str]:
    """The form fields showing ``settings`` (inverse of :func:`settings_from_text`): a number
    as written (``1``, not ``1.0``), a choice by its value, a box ``on`` or empty, an unset
    yes-or-no empty, the komi as people write it (``3¾``), nothing as empty. Lists are the
    form's own to show.

    An individual event's form shows every system's settings, each with its systems: the
    settings another system reads show their defaults.

    >>> f = settings_text(EventSettings(System.SWISS, rounds=5, lag_gain=0.5))
    >>> f["rounds"], f["lag_gain"], f["shared_places"], f["mcmahon_bar"], f["komi"]
    ('5', '0.5', 'on', '', '3¾')
    >>> f["best_of"], f["grand_final_reset"]  # a match's and a double elimination's
    ('3', 'on')
    """
    kind = _kind(type(settings))
    types = _field_types(kind)
    shown = {**_defaults(kind), **{f.name: getattr(settings, f.name) for f in fields(settings)}}  # type: ignore[arg-type]
    out: dict[str, str] = {}
    for key, typed in shown.items():
        declared, optional = _unwrapped(types[key])
        value = _json_value(typed)
        if key in _LISTS:
            continue
        if value is None:
            out[key] = ""
        elif declared is Fraction:
            out[key] = format_komi(cast(Fraction, typed))
        elif isinstance(value, bool) and optional:
            out[key] = "yes" if value else "no"
        elif isinstance(value, bool):
            out[key] = "on" if value else ""
        elif isinstance(value, float):
            out[key] = f"{value:g}"
        else:
            out[key] = str(value)
    return out


def parse_komi(text: str) -> Fraction:
    """Komi in stones as people write it: ``3¾``, ``3 3/4``, ``15/4``, ``3.75``, ``-2.5``.

    >>> [str(parse_komi(t)) for t in ("3¾", "3 3/4", "15/4", "3.75", "0", "-½")]
    ['15/4', '15/4', '15/4', '15/4', '0', '-1/2']
    """
    raw = text.strip().replace("¾", " 3/4").replace("½", " 1/2").replace("¼", " 1/4")
    sign = -1 if raw.startswith("-") else 1
    parts = raw.lstrip("-").split()
    try:
        value = sum((Fraction(p) for p in parts), Fraction(0))
    except (ValueError, ZeroDivisionError):
        raise InvalidSetting("komi", Msg("write it like 3¾, 15/4 or 3.75")) from None
    if not parts:
        raise InvalidSetting("komi", Msg("must not be empty"))
    return sign * value


def format_komi(value: Fraction) -> str:
    """``Fraction(15, 4)`` → ``3¾``.

    >>> format_komi(Fraction(15, 4)), format_komi(Fraction(13, 2)), format_komi(Fraction(-1, 2))
    ('3¾', '6½', '-½')
    """
    sign = "-" if value < 0 else ""
    whole, part = divmod(abs(value), 1)
    glyph = {Fraction(0): "", Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}
    if part in glyph:
        return f"{sign}{int(whole) or ('' if glyph[part] else '0')}{glyph[part]}"
    return f"{sign}{abs(value)}"


def _yes_or_no(key: str, text: str) -> bool | None:
    """A yes-or-no that may be unset, as a form's choice gives it (``yes``, ``no``, empty)."""
    if text not in ("yes", "no", ""):
        raise InvalidSetting(key, Msg("unknown value %(text)s", text=repr(text)))
    return {"yes": True, "no": False}.get(text)


#: The settings that are lists, which a form shows and reads as fields of their own.
_LISTS = frozenset({"tiebreaks", "forbidden_pairs"})


#: The largest integer a setting may hold: what a 64-bit JSON reader or database column keeps.
_MAX_INT = 2**63 - 1


def declared_choices(kind: type) -> tuple[tuple[str, type[enum.Enum]], ...]:
    """The fields of the settings class ``kind`` that are a choice (an enumeration), as
    ``set_choices`` takes them: the settings' types say which, once.

    >>> [name for name, _ in declared_choices(EventSettings)]
    ['cycle', 'play', 'game_start', 'system', 'handicap_placement']
    """
    own = _own_fields(kind)  # a kind's base: not its variants' (their values have them)
    return tuple(
        (name, declared)
        for name, declared in _field_types(kind).items()
        if name in own and isinstance(declared, type) and issubclass(declared, enum.Enum)
    )


_FIELD_TYPES: dict[type, dict[str, object]] = {}


def _unwrapped(declared: object) -> tuple[object, bool]:
    """A field's declared type without its ``None`` (``int | None`` → ``int``), and whether
    ``None`` is one of its values."""
    args = typing.get_args(declared)
    if type(None) not in args:
        return declared, False
    (inner,) = (a for a in args if a is not type(None))
    return inner, True


def _field_types(kind: type) -> dict[str, object]:
    """The declared types of the fields of ``kind`` — of :class:`EventSettings`, those of all
    its variants — read once: every stored settings value is read through them."""
    found = _FIELD_TYPES.get(kind)
    if found is None:
        found = {}
        for c in _classes(kind):
            found.update(typing.get_type_hints(c))
        _FIELD_TYPES[kind] = found
    return found


def _whole(key: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidSetting(key, Msg("must be a whole number"))
    if not -_MAX_INT <= value <= _MAX_INT:
        raise InvalidSetting(key, Msg("is out of range"))
    return value


def _text(key: str, value: object) -> str:
    if not isinstance(value, str):
        raise InvalidSetting(key, Msg("must be text"))
    return value


def _setting_value(key: str, value: object, kind: object) -> object:
    """One setting of a dict as a field declared ``kind`` takes it, or
    ``InvalidSetting(key, …)``."""
    kind, optional = _unwrapped(kind)
    if value is None and optional:
        return None
    if key == "system" and isinstance(value, str):
        # an individual system's earlier spelling (round-robin) is the same name, either kind's
        value = value.replace("-", "_")
    if kind is System:
        try:
            return System(value)
        except ValueError:
            names = ", ".join(s.value for s in System)
            raise InvalidSetting(
                "system",
                Msg("unknown system %(value)s (%(names)s)", value=repr(value), names=names),
            ) from None
    if key == "komi":
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise InvalidSetting(key, Msg("must be a number of stones, such as 15/4"))
        try:
            return Fraction(str(value))
        except (ValueError, ZeroDivisionError):  # also digits beyond Python's int-string limit
            raise InvalidSetting(key, Msg("must be a number of stones, such as 15/4")) from None
    if kind is TimeControl:
        return time_control_value(_text(key, value), key)
    if kind is Rank:
        try:
            return Rank.parse(_text(key, value))
        except InputError as err:
            raise InvalidSetting(key, err.msg) from None
    if key == "tiebreaks":
        if not isinstance(value, list | tuple):
            raise InvalidSetting(key, Msg("must be a list of codes"))
        return tuple(_text(key, v) for v in value)
    if key == "forbidden_pairs":
        if not isinstance(value, list | tuple) or not all(
            isinstance(p, list | tuple) and len(p) == 2 for p in value
        ):
            raise InvalidSetting(key, Msg("must be a list of pairs of names"))
        return tuple((_text(key, a), _text(key, b)) for a, b in value)
    if kind is bool:
        if not isinstance(value, bool):
            raise InvalidSetting(key, Msg("must be true or false"))
        return value
    if kind is int:
        return _whole(key, value)
    if kind is float:  # seconds (the lag allowance): whole or not, checked by the class
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InvalidSetting(key, Msg("must be a number"))
        return value
    # a Literal of words or an enumeration (cycle, handicap_placement): checked by the class
    return _text(key, value)
