"""A setting that is not one of its choices — in the ruleset or in an event's settings — is
refused by one rule (``rules.ruleset.set_choices``), naming the field and the choices in the
reader's language; the event's copy of the rule answered in English on Chinese pages."""

from __future__ import annotations

import pytest

from weiqi.errors import InvalidSetting
from weiqi.i18n import render
from weiqi.rules.ruleset import CyclePolicy, Ruleset
from weiqi.tournament.settings import EventSettings, GameStart, System


def test_a_choice_not_offered_is_refused_in_chinese_for_the_ruleset_and_the_event() -> None:
    with pytest.raises(InvalidSetting) as event:
        EventSettings(System.SWISS, rounds=5, game_start="at_noon")  # type: ignore[arg-type]
    assert render(event.value.msg, "zh_CN") == (
        "对局的开始：'at_noon'不是present | round_start之一"
    )
    with pytest.raises(InvalidSetting) as ruleset:
        Ruleset(cycle="ko")  # type: ignore[arg-type]
    assert render(ruleset.value.msg, "zh_CN").startswith("循环局面：'ko'不是ban | ")
    ok = EventSettings(System.SWISS, rounds=5, game_start="round_start")  # type: ignore[arg-type]
    assert ok.game_start is GameStart.ROUND_START
    assert Ruleset(cycle="draw").cycle is CyclePolicy.DRAW  # type: ignore[arg-type]
