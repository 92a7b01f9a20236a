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
    (
        N_("Distance from the ideal opponent"),
        N_(
            "how far the opponent is from the one the seeding method would choose; 0 is the "
            "ideal opponent"
        ),
    ),
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


@dataclass(frozen=True)
class SideWhy:
    """One player of a board: name, points before the round, seeding place, colours so far."""

    name: str
    points: int
    seeding_place: int
    colors: str
    """The colours of the player's games so far, oldest first (``"BWB"``)."""

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
        """The phrases under the player's name."""
        head = (
            Msg("%(n)s points", n=self.points),
            Msg("seeding place %(n)s", n=self.seeding_place),
        )
        if not self.colors:
            return (*head, Msg("no game yet"))
        last = Msg("last game Black") if self.last_color == "B" else Msg("last game White")
        return (
            *head,
            Msg("Black %(b)s, White %(w)s", b=self.black_games, w=self.white_games),
            last,
        )

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


def board_why(e: ExplanationView) -> BoardWhy:
    """The row of one board's explanation."""
    notes: list[Note] = []
    if e.score_black > e.score_white:
        notes.append(Note("paired_down_black", Msg(NOTES["paired_down_black"])))
    elif e.score_white > e.score_black:
        notes.append(Note("paired_down_white", Msg(NOTES["paired_down_white"])))
    if e.handicap:
        notes.append(Note("handicap", Msg(NOTES["handicap"], n=e.handicap)))
    for code, flag in (
        ("color_rule_broken", e.color_violation),
        ("same_club", e.same_club),
        ("by_hand", e.by_hand),
    ):
        if flag:
            notes.append(Note(code, Msg(NOTES[code])))
    return BoardWhy(
        e.board,
        SideWhy(e.black, e.score_black, e.seed_black, e.colors_black),
        SideWhy(e.white, e.score_white, e.seed_white, e.colors_white),
        e.score_gap,
        e.seeding_deviation,
        tuple(notes),
    )


def board_whys(explanations: Iterable[ExplanationView]) -> tuple[BoardWhy, ...]:
    """The rows of a round's explanation, board by board."""
    return tuple(board_why(e) for e in explanations)


def totals_rows(totals: RoundTotals) -> tuple[tuple[str, str], ...]:
    """A round's totals as (label msgid, value) rows.

    >>> from weiqi.tournament.records import RoundTotals
    >>> totals_rows(RoundTotals(4, 2, 1, 1, 0, 0))[1]
    ('Score gaps (sum / largest)', '2 / 1')
    """
    return (
        (N_("Games"), str(totals.games)),
        (N_("Score gaps (sum / largest)"), f"{totals.score_gap_sum} / {totals.score_gap_max}"),
        (N_("Floats"), str(totals.floats)),
        (N_("Colour rule broken"), str(totals.color_violations)),
        (N_("Same-club games"), str(totals.same_club_games)),
    )
