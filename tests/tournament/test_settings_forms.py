"""An event's settings form, individual or team, is read by the types the settings declare
(issue #10, typed forms): whatever settings an event holds, the form that shows them reads
back as the same settings. Each form used to list its fields, their defaults and parsers by
hand, beside the settings that declare them."""

from __future__ import annotations

import dataclasses
import enum
import typing
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from weiqi.errors import InvalidSetting
from weiqi.league.settings import TeamEventSettings
from weiqi.services import event_admin, team_admin
from weiqi.tournament.ranks import Rank
from weiqi.tournament.settings import SYSTEM_SETTINGS, EventSettings, System, settings_from_text

#: Values tried for each declared type (the settings refuse what does not go together).
_NUMBERS = st.integers(min_value=0, max_value=12)
_SECONDS = st.sampled_from([0.0, 0.5, 1.0, 2.5, 10.0])
_RANKS = st.sampled_from([Rank.parse(r) for r in ("20k", "1k", "1d", "5d", "9p")])


def _value(name: str, declared: object) -> st.SearchStrategy[object]:
    """A strategy for one field of a settings class, by its declared type."""
    args = typing.get_args(declared)
    if type(None) in args:
        (inner,) = (a for a in args if a is not type(None))
        return st.none() | _value(name, inner)
    if declared is bool:
        return st.booleans()
    if declared is int:
        return _NUMBERS
    if declared is float:
        return _SECONDS
    if declared is Rank:
        return _RANKS
    if declared is Fraction:
        return st.sampled_from([Fraction(15, 4), Fraction(7, 2), Fraction(0), Fraction(-1, 2)])
    if isinstance(declared, type) and issubclass(declared, enum.Enum):
        return st.sampled_from(list(declared))
    if typing.get_origin(declared) is typing.Literal:
        return st.sampled_from(typing.get_args(declared))
    if name == "tiebreaks":
        return st.sampled_from([("SOS", "SB"), ("SB", "WARN")])
    return st.just(())  # forbidden pairs: the form has none


def _settings(base: EventSettings | TeamEventSettings) -> st.SearchStrategy[object]:
    """Settings of ``base``'s kind: ``base`` with up to four fields changed to any value of
    their declared type (``None`` where the settings refuse the change)."""
    hints = typing.get_type_hints(type(base))
    names = [f.name for f in dataclasses.fields(base) if f.name != "schedule_published"]
    change = st.sampled_from(names).flatmap(
        lambda name: st.tuples(st.just(name), _value(name, hints[name]))
    )

    def made(changes: list[tuple[str, object]]) -> object:
        try:
            return dataclasses.replace(base, **dict(changes))  # type: ignore[arg-type]
        except (InvalidSetting, ValueError, TypeError):  # TypeError: another system's variant
            return None

    return st.lists(change, max_size=4).map(made)


#: A team event of each system's variant, whose settings the test changes.
_TEAM_EVENTS = [
    TeamEventSettings(),
    TeamEventSettings(system=System.ROUND_ROBIN, cycles=2),
    TeamEventSettings(system=System.SWISS, rounds=5),
    TeamEventSettings(system=System.KNOCKOUT),
    TeamEventSettings(system=System.WINNER_STAYS_ON, player_order="chosen"),
]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_TEAM_EVENTS).flatmap(_settings))
def test_r_fmt_1_a_team_events_settings_read_back_from_their_form(made: object) -> None:
    """R-FMT-1: every team setting — the team type, boards, foreign players, substitutes
    allowed / not / by the type's rule, the missing-lineup rule, the lag allowance — shows in
    the form and reads back as it was."""
    assume(isinstance(made, TeamEventSettings))
    assert isinstance(made, TeamEventSettings)
    assert team_admin.settings_from_form(team_admin.settings_form(made)) == made


#: An event of each individual system's variant, whose settings the test changes.
_EVENTS = [
    EventSettings(System.SWISS, rounds=5),
    EventSettings(System.MCMAHON, rounds=5, mcmahon_bar=Rank.parse("3d")),
    EventSettings(System.SWISS_KNOCKOUT, rounds=5, elimination_losses=2),
    EventSettings(System.ROUND_ROBIN),
    EventSettings(System.KNOCKOUT),
    EventSettings(System.DOUBLE_ELIMINATION),
    EventSettings(System.MATCH),
]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(_EVENTS).flatmap(_settings))
def test_r_fmt_3_an_individual_events_settings_read_back_from_their_form(made: object) -> None:
    """R-FMT-3: every individual setting the form shows reads back as it was, whatever the
    system; those it does not show (forbidden pairs) keep the event's. The form also shows
    the settings of the other systems (hidden), which the event does not hold: what it sends
    for them is not the organiser's choice (``SYSTEM_SETTINGS``), so a form read without the
    event's settings gives the same settings."""
    assume(isinstance(made, EventSettings))
    assert isinstance(made, EventSettings)
    form = event_admin.settings_form(made)
    assert {n for n in SYSTEM_SETTINGS if n != "player_order"} <= form.keys()
    assert event_admin.settings_from_form(form, made) == made
    if not made.forbidden_pairs:
        assert event_admin.settings_from_form(form) == made


def test_a_blank_or_unticked_field_reads_as_the_settings_say() -> None:
    """An empty number keeps the default (or is ``None`` where none is a value), an unticked
    box is ``False``, an unset yes-or-no is ``None``; a word where a number belongs is refused
    naming its field."""
    read = settings_from_text(
        TeamEventSettings,
        {"boards": "", "max_foreign": "", "substitutes": "", "rounds": "3"},
        checkboxes=("board_one_decides",),
    )
    assert read == {"board_one_decides": False, "max_foreign": None, "substitutes": None,
                    "rounds": 3}  # fmt: skip
    with pytest.raises(InvalidSetting) as refused:
        team_admin.settings_from_form({"substitutes": "maybe"})
    assert refused.value.field == "substitutes"
    with pytest.raises(InvalidSetting) as refused:
        event_admin.settings_from_form({"system": System.SWISS.value, "rounds": "五"})
    assert refused.value.field == "rounds"
