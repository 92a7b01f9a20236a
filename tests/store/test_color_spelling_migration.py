"""Migration 0028 on SQLite and PostgreSQL: the keys stored with the spelling ``colour`` are
spelled ``color``, as every name in the code now is (issue #10: one spelling of colour/color).

A database holds an individual event whose settings set both keys that were spelled
``colour`` (``color_policy``, ``online_colors``) and a Swiss whose round 3 has its pairing
explanation and a hand edit with a colour-rule warning. It is taken back to 0027 — where the
stored JSON says ``colour`` again, as the code of that time wrote it — and up again: the
settings, the explanation, the totals and the edit's warning read as before, and no stored
settings or explanation says ``colour``."""

from __future__ import annotations

import pytest
from alembic import command

from weiqi.errors import InvalidSetting
from weiqi.services import event_admin, round_edits, tournament
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.round_edits import EditKind, RoundEdit
from weiqi.store.database import Database
from weiqi.store.migrate import alembic_config, current_revision, head_revision
from weiqi.tournament.settings import (
    EventSettings,
    PlayMode,
    System,
    settings_from_dict,
    settings_to_dict,
)

LOCAL = Actor.local()

#: What the code of 0027 stored, and what it is stored as now.
OLD_KEYS = (
    '"colour_policy"',
    '"online_colours"',
    '"colours_black"',
    '"colours_white"',
    '"colour_violation"',
    '"colour_violations"',
    '"colours"',
    '"kind": "colour"',
)
NEW_KEYS = (
    '"color_policy"',
    '"online_colors"',
    '"colors_black"',
    '"colors_white"',
    '"color_violation"',
    '"color_violations"',
    '"colors"',
    '"kind": "color"',
)


def _swiss_with_a_colour_warning(db: Database) -> int:
    """A Swiss of eight whose round 3 is paired, then edited by hand so that a player who had
    one colour twice would have it a third time in a row (a warning, kept with the edit)."""
    event = create_event(db, LOCAL, "颜色规则", EventSettings(System.SWISS, rounds=4)).id
    rows = "\n".join(f"棋手{i},{9 - i}k" for i in range(8))
    event_admin.import_players(db, LOCAL, event, "姓名,段位\n" + rows + "\n")
    for number in (1, 2):
        for p in event_admin.pair_next_round(db, LOCAL, event).pairings:
            tournament.record_result(db, LOCAL, event, number, p.board, "B+R")
    third = event_admin.pair_next_round(db, LOCAL, event)
    ids = round_edits.player_ids(db, event)
    history: dict[str, str] = {}
    for number in (1, 2):
        for p in event_admin.round_detail(db, LOCAL, event, number).pairings:
            history[p.black] = history.get(p.black, "") + "B"
            history[p.white] = history.get(p.white, "") + "W"
    # a board whose two players both change colour, one of them into a third in a row
    board = next(p for p in third.pairings if history[p.white] == "BB" or history[p.black] == "WW")
    swap = RoundEdit(EditKind.SWAP, ids[board.black], ids[board.white])
    round_edits.apply_edit(db, LOCAL, event, 3, swap, "棋手要求换色")
    return event


def _stored(db: Database, *events: int) -> str:
    """The stored settings and round explanations of ``events``, as one text."""
    ids = ", ".join(str(e) for e in events)
    with db.engine.connect() as connection:
        settings = connection.exec_driver_sql(
            f"SELECT settings_json FROM event_settings WHERE event_id IN ({ids}) ORDER BY event_id"
        ).scalars()
        explanations = connection.exec_driver_sql(
            f"SELECT explanation_json FROM event_rounds WHERE event_id IN ({ids}) "
            "ORDER BY event_id, number"
        ).scalars()
        return "\n".join([*settings, *explanations])


def _facts(db: Database, settings_event: int, swiss: int) -> object:
    third = event_admin.round_detail(db, LOCAL, swiss, 3)
    return (
        tournament.tournament_info(db, settings_event).settings,
        third.explanations,
        third.totals,
        [(e.description, e.reason, e.warnings) for e in third.edits],
        [event_admin.round_detail(db, LOCAL, swiss, n).explanations for n in (1, 2)],
    )


def test_0028_spells_the_stored_colour_keys_color_and_back(database_url: str) -> None:
    db = Database(database_url)
    db.upgrade()
    settings = EventSettings(
        System.SWISS,
        rounds=5,
        color_policy="handicap",
        play=PlayMode.ONLINE,
        online_colors="nigiri",
    )
    settings_event = create_event(db, LOCAL, "让子网络赛", settings).id
    swiss = _swiss_with_a_colour_warning(db)
    before = _facts(db, settings_event, swiss)
    third = event_admin.round_detail(db, LOCAL, swiss, 3)
    (edit,) = third.edits
    assert "a third time in a row" in str(edit.warnings[0])
    assert third.totals is not None and third.totals.color_violations >= 1
    now = _stored(db, settings_event, swiss)
    assert all(key in now for key in NEW_KEYS) and "colour" not in now

    with db.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0027")
    assert current_revision(db.engine) == "0027"
    then = _stored(db, settings_event, swiss)
    assert all(key in then for key in OLD_KEYS)
    assert not any(key in then for key in NEW_KEYS)

    db.upgrade()
    assert current_revision(db.engine) == head_revision()
    assert _stored(db, settings_event, swiss) == now
    assert _facts(db, settings_event, swiss) == before


def test_the_earlier_spelling_of_a_setting_is_read_as_the_one_now() -> None:
    """A settings object written for an earlier release (``colour_policy``) still loads, as
    the key spelled now; an unknown key is still refused by the name it was given."""
    old = settings_from_dict({"system": "swiss", "rounds": 5, "colour_policy": "handicap"})
    assert old.color_policy == "handicap"
    assert settings_to_dict(old)["color_policy"] == "handicap"
    assert "colour_policy" not in settings_to_dict(old)
    with pytest.raises(InvalidSetting) as refused:
        settings_from_dict({"system": "swiss", "rounds": 5, "colours_policy": "handicap"})
    assert refused.value.field == "colours_policy"
