"""Errors in an input file name it one way everywhere: ``FILE, line N: reason`` (issue #5:
bad rows are reported by line number and nothing is half-recorded)."""

from __future__ import annotations

import pytest

from weiqi.errors import InputError
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()


def test_r_fmt_3_round_results_errors_have_one_form(db: Database) -> None:
    """R-FMT-3 (round results CSV): a bad row and a missing board read alike."""
    ev = create_event(db, LOCAL, "E", EventSettings(system=System.ROUND_ROBIN)).id
    t.import_players(db, LOCAL, ev, "name\nA\nB\nC\nD\n")
    t.pair_round(db, LOCAL, ev)
    with pytest.raises(InputError) as bad:
        t.record_results(db, LOCAL, ev, 1, "board,result\n1,B+R\n2,B+0.3\n", "r.csv")
    assert bad.value.message.startswith("r.csv, line 3: result 'B+0.3'")
    with pytest.raises(InputError) as missing:
        t.record_results(db, LOCAL, ev, 1, "board,result\n1,B+R\n9,W+R\n", "r3.csv")
    assert missing.value.message == "r3.csv, line 3: round 1 has no board 9"
    with pytest.raises(InputError) as header:
        t.record_results(db, LOCAL, ev, 1, "board\n1\n", "r4.csv")
    assert header.value.message.startswith("r4.csv, line 1: ")
    with pytest.raises(InputError) as players:
        t.import_players(db, LOCAL, ev, "name,rank\nE,5d\nF,99x\n", "p.csv")
    assert players.value.message.startswith("p.csv, line 3: ")
