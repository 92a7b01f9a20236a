"""An individual event's settings are one typed variant per system (issue #10): each system's
own settings live on its variant only, so a setting of another system cannot be held, and
the one table of which system reads which setting is read from the variants (R-FMT-3)."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from weiqi.errors import InvalidSetting
from weiqi.league.settings import (
    StageSettings,
    TeamEventSettings,
    TeamRoundRobinSettings,
    TeamSwissSettings,
    team_settings_from_dict,
)
from weiqi.league.winner_stays_on import PlayerOrder
from weiqi.tournament.ranks import Rank
from weiqi.tournament.settings import (
    INDIVIDUAL_SYSTEMS,
    SYSTEM_SETTINGS,
    VARIANTS,
    DoubleEliminationSettings,
    EventSettings,
    KnockoutSettings,
    MatchSettings,
    McMahonSettings,
    RoundRobinSettings,
    SwissKnockoutSettings,
    SwissSettings,
    System,
    check_applies,
    settings_from_dict,
    settings_text,
    settings_to_dict,
)

BAR = Rank.parse("3d")

#: The smallest settings of each individual system, and the variant it makes.
MADE = {
    System.ROUND_ROBIN: ({}, RoundRobinSettings),
    System.DOUBLE_ROUND_ROBIN: ({}, RoundRobinSettings),
    System.KNOCKOUT: ({}, KnockoutSettings),
    System.DOUBLE_ELIMINATION: ({}, DoubleEliminationSettings),
    System.SWISS: ({"rounds": 5}, SwissSettings),
    System.SWISS_KNOCKOUT: ({"rounds": 5, "elimination_losses": 2}, SwissKnockoutSettings),
    System.MCMAHON: ({"rounds": 5, "mcmahon_bar": BAR}, McMahonSettings),
    System.MATCH: ({}, MatchSettings),
}


@pytest.mark.parametrize("system", INDIVIDUAL_SYSTEMS, ids=lambda s: s.value)
def test_each_system_makes_its_own_variant_and_reads_back_as_it_R_FMT_3(system: System) -> None:
    """R-FMT-3: every individual system has a variant; what the store keeps of it is its
    own settings only, and reads back as the same value."""
    given, variant = MADE[system]
    settings = EventSettings(system, **given)
    assert type(settings) is variant and VARIANTS[system] is variant
    stored = settings_to_dict(settings)
    assert set(stored) == {f.name for f in dataclasses.fields(variant)}
    assert settings_from_dict(stored) == settings


def test_a_setting_of_another_system_cannot_be_held() -> None:
    """A Swiss holds no best-of and no McMahon bar: given one, it is refused naming the setting
    and the systems that read it; a Swiss has no such attribute to read by mistake."""
    with pytest.raises(InvalidSetting) as err:
        EventSettings(System.SWISS, rounds=5, best_of=5)
    assert err.value.field == "best_of" and "match" in str(err.value)
    with pytest.raises(InvalidSetting) as err:
        EventSettings(System.ROUND_ROBIN, mcmahon_bar=BAR)
    assert err.value.field == "mcmahon_bar" and "mcmahon" in str(err.value)
    swiss = EventSettings(System.SWISS, rounds=5)
    assert not hasattr(swiss, "best_of") and not hasattr(swiss, "mcmahon_bar")
    assert not hasattr(EventSettings(System.KNOCKOUT), "cycles")


def test_each_variant_checks_its_own_settings() -> None:
    with pytest.raises(InvalidSetting, match="best_of"):
        EventSettings(System.MATCH, best_of=4)
    with pytest.raises(InvalidSetting, match="mcmahon_bar"):
        EventSettings(System.MCMAHON, rounds=5)
    with pytest.raises(InvalidSetting, match="elimination_losses"):
        EventSettings(System.SWISS_KNOCKOUT, rounds=5)
    with pytest.raises(InvalidSetting, match="elimination_losses"):
        EventSettings(System.DOUBLE_ELIMINATION, elimination_losses=3)
    with pytest.raises(InvalidSetting, match="cycles"):
        EventSettings(System.DOUBLE_ROUND_ROBIN, cycles=3)
    with pytest.raises(InvalidSetting, match="system"):  # a team system has no variant here
        EventSettings(System.WINNER_STAYS_ON)


def test_the_derived_values_are_each_variants_own() -> None:
    knockout, k2 = (
        EventSettings(System.KNOCKOUT),
        EventSettings(System.KNOCKOUT, elimination_losses=2),
    )
    assert (knockout.is_bracket, knockout.losses_to_eliminate, knockout.tiebreak_codes) == (
        True,
        1,
        (),
    )
    assert (k2.is_bracket, k2.losses_to_eliminate, k2.tiebreak_codes) == (False, 2, ("SB", "WARN"))
    double = EventSettings(System.DOUBLE_ELIMINATION)
    assert (double.is_bracket, double.losses_to_eliminate, double.tiebreak_codes) == (True, 2, ())
    swiss_a = EventSettings(System.SWISS, rounds=5, swiss_method="A")
    assert (swiss_a.tiebreak_codes, swiss_a.losses_to_eliminate, swiss_a.is_bracket) == (
        ("TOTAL", "WARN"), None, False)  # fmt: skip
    assert (
        EventSettings(System.SWISS_KNOCKOUT, rounds=5, elimination_losses=3).losses_to_eliminate
        == 3
    )
    assert EventSettings(System.DOUBLE_ROUND_ROBIN).cycle_count == 2
    assert EventSettings(System.ROUND_ROBIN, cycles=3).cycle_count == 3
    assert EventSettings(System.MATCH).cycle_count == 1


def test_stored_settings_of_another_system_are_read_as_the_events_own() -> None:
    """A value stored under another system (before the variants, every setting was kept) is
    read without it: the event's settings are its system's."""
    stored = {**settings_to_dict(EventSettings(System.MATCH, best_of=5)), "system": "swiss",
              "rounds": 5, "mcmahon_bar": "3d", "cycles": 2}  # fmt: skip
    read = settings_from_dict(stored)
    assert type(read) is SwissSettings and read.rounds == 5


def test_what_an_organiser_types_for_another_system_is_refused_unless_it_is_the_default() -> None:
    swiss = EventSettings(System.SWISS, rounds=5)
    check_applies(swiss, {"system": "swiss", "rounds": 5, "best_of": 3, "mcmahon_bar": None})
    with pytest.raises(InvalidSetting) as err:
        check_applies(swiss, {"system": "swiss", "rounds": 5, "mcmahon_bar": "3d"})
    assert err.value.field == "mcmahon_bar"
    # a change keeps what was stored before under the earlier system, as it was
    before = EventSettings(System.MATCH, best_of=5)
    check_applies(swiss, {"system": "swiss", "rounds": 5, "best_of": 5}, before)
    with pytest.raises(InvalidSetting, match="best_of"):
        check_applies(swiss, {"system": "swiss", "rounds": 5, "best_of": 7}, before)


def test_the_form_shows_every_systems_settings_at_their_defaults() -> None:
    shown = settings_text(EventSettings(System.MCMAHON, rounds=5, mcmahon_bar=BAR))
    assert (shown["mcmahon_bar"], shown["best_of"], shown["cycles"]) == ("3d", "3", "1")
    assert (shown["grand_final_reset"], shown["elimination_losses"]) == ("on", "")


def test_the_table_of_settings_by_system_is_read_from_the_variants() -> None:
    assert SYSTEM_SETTINGS == {  # noqa: SIM300 (the table under test first)
        "cycles": {System.ROUND_ROBIN, System.DOUBLE_ROUND_ROBIN},
        "swiss_method": {System.SWISS, System.SWISS_KNOCKOUT, System.MCMAHON},
        "pairing_method": {System.SWISS, System.SWISS_KNOCKOUT, System.MCMAHON, System.KNOCKOUT},
        "elimination_losses": {System.KNOCKOUT, System.SWISS_KNOCKOUT, System.DOUBLE_ELIMINATION},
        "grand_final_reset": {System.DOUBLE_ELIMINATION},
        "best_of": {System.MATCH},
        "mcmahon_bar": {System.MCMAHON},
        "mcmahon_floor": {System.MCMAHON},
        "mcmahon_zero": {System.MCMAHON},
        "player_order": {System.WINNER_STAYS_ON},
    }


def test_a_variant_copies_as_itself() -> None:
    settings = EventSettings(System.MCMAHON, rounds=5, mcmahon_bar=BAR, komi=3)
    for copied in (pickle.loads(pickle.dumps(settings)), copy.deepcopy(settings),
                   dataclasses.replace(settings, rounds=6)):  # fmt: skip
        assert type(copied) is McMahonSettings and copied.mcmahon_bar == BAR
    assert dataclasses.replace(settings, rounds=6).rounds == 6
    # the system changed to another family's is a new value, not a copy
    with pytest.raises(TypeError):
        dataclasses.replace(EventSettings(System.MATCH), system=System.ROUND_ROBIN)


def test_a_team_events_settings_are_one_variant_per_system_too_R_FMT_1() -> None:
    """R-FMT-1: a team round robin holds its cycles, a 擂台赛 its players' order; a team Swiss
    holds neither, and the stored settings read back as the same variant."""
    rr, stage = TeamEventSettings(cycles=2), TeamEventSettings(system="winner_stays_on")
    swiss = TeamEventSettings(system=System.SWISS, rounds=5)
    assert (type(rr), rr.cycle_count, rr.planned_rounds(4)) == (TeamRoundRobinSettings, 2, 6)
    assert type(stage) is StageSettings and stage.player_order is PlayerOrder.FIXED
    assert type(swiss) is TeamSwissSettings and swiss.cycle_count == 1
    assert not hasattr(swiss, "cycles") and not hasattr(swiss, "player_order")
    with pytest.raises(InvalidSetting) as err:
        TeamEventSettings(system=System.KNOCKOUT, player_order="chosen")
    assert err.value.field == "player_order" and "winner_stays_on" in str(err.value)
    knockout = TeamEventSettings(system="knockout")
    for made in (rr, stage, swiss, knockout):
        assert team_settings_from_dict(settings_to_dict(made)) == made
    # stored under another system: read without what this one does not hold
    for made in (rr, swiss, knockout):
        assert team_settings_from_dict({**settings_to_dict(made), "player_order": "chosen"}) == made
    for made in (stage, swiss, knockout):
        assert team_settings_from_dict({**settings_to_dict(made), "cycles": 2}) == made
    assert pickle.loads(pickle.dumps(swiss)) == swiss
    assert settings_text(swiss)["cycles"] == "1"  # the form shows a round robin's default


def test_the_table_of_settings_by_system_says_what_each_team_variant_holds() -> None:
    """The one table lists a team variant's own settings with its system: ``league.settings``
    declares the team variants into it as the individual ones are."""
    base = {f.name for f in dataclasses.fields(TeamEventSettings)}
    own = {
        (name, system)
        for system, variant in TeamEventSettings.VARIANTS.items()
        for name in {f.name for f in dataclasses.fields(variant)} - base
    }
    assert own == {("cycles", System.ROUND_ROBIN), ("player_order", System.WINNER_STAYS_ON)}
    assert all(system in SYSTEM_SETTINGS[name] for name, system in own)
