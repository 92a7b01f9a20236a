"""Why each pair, in plain words (issue #13): the read model of a round's pairing explanation
that the organisers' round page and ``weiqi round pair --explain`` both show — the columns, a
row of phrases a board, and the legend of the words used. Phrases are message values
(:class:`~weiqi.messages.Msg`, msgids in the catalogues), rendered in the reader's language in
one place each (the page's ``say``, the command line's ``render``); nothing here is English
text to be shown as it is.

>>> from weiqi.i18n import render
>>> from weiqi.services.event_admin import ExplanationView
>>> e = ExplanationView(1, "李明", "王芳", 2, 1, "BW", "WBB", 1, 4, 1, 0, True, False, "")
>>> row = board_why(e)
>>> [render(m, "zh_CN") for m in row.black.lines]
['2 分', '排位第 1', '执黑 1 局、执白 1 局', '上局执白']
>>> [n.code for n in row.notes]
['paired_down_black', 'color_rule_broken']
>>> [render(n.phrase, "en") for n in row.notes]
['Black has more points: paired down', 'Colour rule broken']
>>> row.ideal, board_why(e.__class__(2, "A", "B", 0, 0, "", "", 2, 3, 0, 0, False, False, "")).ideal
(False, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from weiqi.i18n import N_
from weiqi.messages import Msg

if TYPE_CHECKING:
    from weiqi.services.event_admin import ExplanationView
    from weiqi.tournament.records import RoundTotals

COLUMNS = (
    N_("Board"),
    N_("Black"),
    N_("White"),
    N_("Score gap"),
    N_("Distance from the ideal opponent"),
    N_("Notes"),
)
"""The explanation table's column heads (msgids)."""

NOTES = {
    "paired_down_black": N_("Black has more points: paired down"),
    "paired_down_white": N_("White has more points: paired down"),
    "handicap": N_("Handicap: %(n)s stones"),
    "color_rule_broken": N_("Colour rule broken"),
    "same_club": N_("Same club"),
    "by_hand": N_("Changed by hand"),
}
"""A board's notes by code (the ``--json`` value), with their phrase's msgid."""

IDEAL = N_("The ideal pair")
"""A board without a note, a score gap or a distance from the ideal opponent."""

_DISTANCE = (
    N_("Distance from the ideal opponent"),
    N_(
        "how far the opponent is from the one the seeding method would choose; 0 is the ideal "
        "opponent"
    ),
)

LEGEND = (
    (
        N_("Points"),
        N_(
            "the points a player had before this round (in a McMahon event, with the start "
            "score); players with the same points form a score group"
        ),
    ),
    (
        N_("Seeding place"),
        N_("the player's place in this round's order: by points, then by rank or rating"),
    ),
    (
        N_("Black 2, White 1"),
        N_(
            "how many games the player has had with Black and with White so far, and the "
            "colour of the last one"
        ),
    ),
    (
        N_("Score gap"),
        N_(
            "the difference between the two players' points; 0 means they are in the same "
            "score group"
        ),
    ),
    (
        N_("Paired down"),
        N_(
            "a player meets someone with fewer points, because the players of their own score "
            "group could not all be paired with each other"
        ),
    ),
    _DISTANCE,
    (
        N_("Colour rule broken"),
        N_(
            "a player gets one colour a third time in a row, or three more games with one "
            "colour than with the other"
        ),
    ),
    (N_("Same club"), N_("both players are from the same club")),
    (
        N_("Changed by hand"),
        N_("the chief referee made or moved this pair by hand; the reasons are listed above"),
    ),
)
"""The words of the explanation and what they mean (term, meaning; msgids)."""

NO_CHOICE = N_("This system pairs by its fixed table or bracket; there is no choice to explain.")
"""What stands instead of the table for a system that chooses no pair (round robin, knockout)."""

# A team event's round explains its matches with the same systems' reasons (Black is the home
# team to them, ``league.team_rounds``), in a team's words: match points, home and away.
TEAM_COLUMNS = (N_("No."), N_("Home team"), N_("Away team"), *COLUMNS[3:])
"""A team round's explanation table's column heads (msgids)."""

TEAM_NOTES = {
    "paired_down_home": N_("The home team has more match points: paired down"),
    "paired_down_away": N_("The away team has more match points: paired down"),
    "home_away_rule_broken": N_("Home/away rule broken"),
}
"""A match's notes by code (the ``--json`` value), with their phrase's msgid."""

_PHRASES = {**NOTES, **TEAM_NOTES}

TEAM_LEGEND = (
    (
        N_("Match points"),
        N_(
            "the match points a team had before this round; teams with the same match points "
            "form a score group"
        ),
    ),
    (
        N_("Seeding place"),
        N_("the team's place in this round's order: by match points, then as the teams are listed"),
    ),
    (
        N_("Home 2, away 1"),
        N_(
            "how many matches the team has played as the home team and as the away team so far, "
            "and which it was in the last one"
        ),
    ),
    (
        N_("Score gap"),
        N_(
            "the difference between the two teams' match points; 0 means they are in the same "
            "score group"
        ),
    ),
    (
        N_("Paired down"),
        N_(
            "a team meets one with fewer match points, because the teams of its own score group "
            "could not all be paired with each other"
        ),
    ),
    _DISTANCE,
    (
        N_("Home/away rule broken"),
        N_(
            "a team is the home team (or the away team) a third time in a row, or three times "
            "more often than the other"
        ),
    ),
)
"""The words of a team round's explanation and what they mean (term, meaning; msgids)."""


@dataclass(frozen=True)
class Words:
    """The words of an explanation table for one kind of event (the page's column heads and
    legend).

    >>> TEAM_WORDS.columns[1], INDIVIDUAL_WORDS.columns[1]
    ('Home team', 'Black')
    """

    columns: tuple[str, ...]
    legend: tuple[tuple[str, str], ...]
    totals: tuple[str, str, str, str, str]
    """The labels of a round's totals (``RoundTotals``' games, score gaps, floats, colour
    rule broken, same club; ``""``: not shown)."""
    ideal: str = IDEAL


INDIVIDUAL_WORDS = Words(
    COLUMNS,
    LEGEND,
    (
        N_("Games"),
        N_("Score gaps (sum / largest)"),
        N_("Floats"),
        N_("Colour rule broken"),
        N_("Same-club games"),
    ),
)
TEAM_WORDS = Words(
    TEAM_COLUMNS,
    TEAM_LEGEND,
    (N_("Matches"), N_("Score gaps (sum / largest)"), N_("Paired down"),
     N_("Home/away rule broken"), ""),
)  # fmt: skip


@dataclass(frozen=True)
class SideWhy:
    """One player of a board: name, points before the round, seeding place, colours so far;
    or one team of a match (``team``): its match points, and Black for home, White for away.

    >>> [str(m) for m in SideWhy("黑龙", 2, 1, "BW", team=True).lines]
    ['match points 2', 'seeding place 1', 'home 1, away 1', 'last match away']
    """

    name: str
    points: int
    seeding_place: int
    colors: str
    """The colours of the player's games so far, oldest first (``"BWB"``)."""
    team: bool = False

    @property
    def black_games(self) -> int:
        return self.colors.count("B")

    @property
    def white_games(self) -> int:
        return self.colors.count("W")

    @property
    def last_color(self) -> str | None:
        return self.colors[-1] if self.colors else None

    @property
    def lines(self) -> tuple[Msg, ...]:
        """The phrases under the player's (the team's) name."""
        # (one msgid a call: the catalogue's extractor joins the two of a conditional)
        if self.team:
            points, none = Msg("match points %(n)s", n=self.points), Msg("no match yet")
        else:
            points, none = Msg("%(n)s points", n=self.points), Msg("no game yet")
        head = (points, Msg("seeding place %(n)s", n=self.seeding_place))
        if not self.colors:
            return (*head, none)
        black = self.last_color == "B"
        if self.team:
            sides = Msg("home %(h)s, away %(a)s", h=self.black_games, a=self.white_games)
            last = Msg("last match home") if black else Msg("last match away")
        else:
            sides = Msg("Black %(b)s, White %(w)s", b=self.black_games, w=self.white_games)
            last = Msg("last game Black") if black else Msg("last game White")
        return (*head, sides, last)

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "points": self.points,
            "seeding_place": self.seeding_place,
            "black_games": self.black_games,
            "white_games": self.white_games,
            "last_color": self.last_color,
        }


@dataclass(frozen=True)
class Note:
    """A note of a board: its code (one of :data:`NOTES`) and its phrase."""

    code: str
    phrase: Msg


@dataclass(frozen=True)
class BoardWhy:
    """One board's row of the explanation."""

    board: int
    black: SideWhy
    white: SideWhy
    score_gap: int
    seeding_deviation: int
    notes: tuple[Note, ...]

    @property
    def ideal(self) -> bool:
        return not self.notes and not self.score_gap and not self.seeding_deviation

    def as_json(self) -> dict[str, Any]:
        return {
            "board": self.board,
            "black": self.black.as_json(),
            "white": self.white.as_json(),
            "score_gap": self.score_gap,
            "seeding_deviation": self.seeding_deviation,
            "notes": [n.code for n in self.notes],
            "ideal": self.ideal,
        }


def board_why(e: ExplanationView, *, team: bool = False) -> BoardWhy:
    """The row of one board's explanation (of one match's, ``team``: Black is the home team,
    ``board`` the match's number).

    >>> from weiqi.services.event_admin import ExplanationView
    >>> e = ExplanationView(2, "黑龙", "白虎", 1, 2, "B", "W", 2, 1, 1, 0, True, False, "")
    >>> [str(n.phrase) for n in board_why(e, team=True).notes]
    ['The away team has more match points: paired down', 'Home/away rule broken']
    """
    notes: list[Note] = []
    side = ("home", "away") if team else ("black", "white")
    if e.score_black != e.score_white:
        code = f"paired_down_{side[0] if e.score_black > e.score_white else side[1]}"
        notes.append(Note(code, Msg(_PHRASES[code])))
    if e.handicap:
        notes.append(Note("handicap", Msg(NOTES["handicap"], n=e.handicap)))
    broken = "home_away_rule_broken" if team else "color_rule_broken"
    for code, flag in ((broken, e.color_violation), ("same_club", e.same_club),
                       ("by_hand", e.by_hand)):  # fmt: skip
        if flag:
            notes.append(Note(code, Msg(_PHRASES[code])))
    return BoardWhy(
        e.board,
        SideWhy(e.black, e.score_black, e.seed_black, e.colors_black, team),
        SideWhy(e.white, e.score_white, e.seed_white, e.colors_white, team),
        e.score_gap,
        e.seeding_deviation,
        tuple(notes),
    )


def board_whys(
    explanations: Iterable[ExplanationView], *, team: bool = False
) -> tuple[BoardWhy, ...]:
    """The rows of a round's explanation, board by board (match by match, ``team``)."""
    return tuple(board_why(e, team=team) for e in explanations)


def totals_rows(
    totals: RoundTotals, words: Words = INDIVIDUAL_WORDS
) -> tuple[tuple[str, str], ...]:
    """A round's totals as (label msgid, value) rows, in ``words`` (a team round has no
    same-club count).

    >>> from weiqi.tournament.records import RoundTotals
    >>> totals_rows(RoundTotals(4, 2, 1, 1, 0, 0))[1]
    ('Score gaps (sum / largest)', '2 / 1')
    >>> [label for label, _ in totals_rows(RoundTotals(2, 0, 0, 0, 1, 0), TEAM_WORDS)]
    ['Matches', 'Score gaps (sum / largest)', 'Paired down', 'Home/away rule broken']
    """
    values = (
        str(totals.games),
        f"{totals.score_gap_sum} / {totals.score_gap_max}",
        str(totals.floats),
        str(totals.color_violations),
        str(totals.same_club_games),
    )
    return tuple((label, v) for label, v in zip(words.totals, values, strict=True) if label)
