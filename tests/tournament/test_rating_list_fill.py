"""Issue #14, rating lists: an event's players filled from an EGD or FFG list by PIN or by
name, on SQLite and PostgreSQL — rank, rating, club, country and PIN where the list has them; a
name two entries share reported as ambiguous, never guessed; one transaction; a dry run
changes nothing; only those who manage players may."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import select

from weiqi.errors import InvalidSetting, NotFound, PermissionDenied
from weiqi.formats.rating_lists import read_rating_list
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.rating_lists import Change, fill_from_rating_list
from weiqi.services.tournament import (
    import_players,
    pair_round,
    show_round,
)
from weiqi.store.database import Database
from weiqi.store.tournament import PlayerRow
from weiqi.tournament.settings import EventSettings, System

DATA = Path(__file__).parent.parent / "data" / "rating_lists"
EGD = read_rating_list((DATA / "allworld_lp.html").read_bytes(), "egd").players
FFG = read_rating_list((DATA / "ech_ffg_V3.txt").read_bytes(), "ffg").players
LOCAL = Actor.local()

PLAYERS = """name,rank,rating,club,country,birth_date,egf_pin,ffg_licence
欧阳修,1d,,上海,CN,,,
张伟,3k,,,,,,
Jörg Müller,10k,,,,,,
Boyang Li,1k,,,,,,
Wang Fang,9d,2820,Beij,CN,,18030015,
Dai J.,5d,,,,,18030006,
Chen Wei,2k,,,,,,
Nobody Known,5k,,,,,,
Unlisted Licence,,,,,,,9999999
"""
"""Each a case: a Chinese name in characters (pinyin, surname first; 张伟 is twice in the
list), a European name given name first, accents; a player already up to date; a PIN under
another spelling; a name three entries share; nobody; a licence the list lacks."""


def _event(db: Database) -> int:
    event = create_event(db, LOCAL, "Open", EventSettings(system=System.SWISS, rounds=3)).id
    import_players(db, LOCAL, event, PLAYERS)
    return event


def _rows(db: Database) -> dict[str, PlayerRow]:
    with db.transaction() as session:
        return {p.name: p for p in session.scalars(select(PlayerRow))}


def test_fill_by_pin_then_name_reports_matched_ambiguous_and_not_found(db: Database) -> None:
    event = _event(db)
    report = fill_from_rating_list(db, LOCAL, event, EGD, by="both")
    matched = {m.player: m for m in report.matched}
    assert sorted(matched) == ["Boyang Li", "Dai J.", "Jörg Müller", "Wang Fang", "欧阳修"]
    assert matched["Dai J."].by == "pin" and matched["欧阳修"].by == "name"
    assert matched["欧阳修"].entry == "Ouyang Xiu"
    assert matched["欧阳修"].changes == (
        Change("rank", "1d", "3d"),
        Change("rating", "", "2242"),
        Change("club", "上海", "Guan"),
        Change("egf_pin", "", "18030012"),
    )
    assert matched["Wang Fang"].changes == () and matched["Wang Fang"].by == "pin"
    ambiguous = {a.player: a for a in report.ambiguous}
    assert sorted(ambiguous) == ["Chen Wei", "张伟"]
    assert ambiguous["Chen Wei"].count == 3
    assert ambiguous["张伟"].candidates == (
        "Zhang Wei (18030016, CN, Beij, 2d)",
        "Zhang Wei (18030017, CN, Shan, 1d)",
    )
    assert sorted(report.not_found) == ["Nobody Known", "Unlisted Licence"]
    rows = _rows(db)
    ouyang = rows["欧阳修"]
    assert (ouyang.name, ouyang.rank, ouyang.rating, ouyang.club, ouyang.country) == (
        "欧阳修",  # the name is never changed
        "3d",
        2242.0,
        "Guan",
        "CN",
    )
    assert json.loads(ouyang.extra_json) == {
        "egf_pin": "18030012",
        "ffg_licence": "",
        "rating_origin": "EGF",
    }
    assert rows["Dai J."].rank == "8d" and rows["Jörg Müller"].rank == "5k"
    assert rows["Boyang Li"].club == "75Op"  # given name first, matched Li Boyang
    assert rows["张伟"].rank == "3k" and rows["Chen Wei"].rating is None  # not guessed


def test_fill_again_changes_nothing_and_by_pin_alone_finds_the_pins(db: Database) -> None:
    event = _event(db)
    fill_from_rating_list(db, LOCAL, event, EGD)
    again = fill_from_rating_list(db, LOCAL, event, EGD)
    assert again.changed == 0 and len(again.matched) == 5
    by_pin = fill_from_rating_list(db, LOCAL, event, EGD, by="pin")
    # the fill stored the PINs, so every player matched before is found by PIN now
    assert sorted(m.player for m in by_pin.matched) == sorted(m.player for m in again.matched)
    assert all(m.by == "pin" for m in by_pin.matched)


def test_by_name_ignores_pins_and_by_pin_ignores_names(db: Database) -> None:
    event = _event(db)
    by_pin = fill_from_rating_list(db, LOCAL, event, EGD, by="pin", dry_run=True)
    assert [m.player for m in by_pin.matched] == ["Wang Fang", "Dai J."]
    by_name = fill_from_rating_list(db, LOCAL, event, EGD, by="name", dry_run=True)
    assert "Dai J." in by_name.not_found and len(by_name.matched) == 4


def test_a_dry_run_reports_the_same_and_changes_nothing(db: Database) -> None:
    event = _event(db)
    before = {n: (r.rank, r.rating, r.club, r.extra_json) for n, r in _rows(db).items()}
    dry = fill_from_rating_list(db, LOCAL, event, EGD, dry_run=True)
    assert dry.dry_run and dry.changed == 4
    after = {n: (r.rank, r.rating, r.club, r.extra_json) for n, r in _rows(db).items()}
    assert after == before
    real = fill_from_rating_list(db, LOCAL, event, EGD)
    assert (real.matched, real.ambiguous, real.not_found) == (
        dry.matched,
        dry.ambiguous,
        dry.not_found,
    )


def test_ffg_list_fills_by_licence_and_keeps_what_it_lacks(db: Database) -> None:
    event = create_event(db, LOCAL, "Tournoi", EventSettings(system=System.SWISS, rounds=3)).id
    import_players(
        db,
        LOCAL,
        event,
        "name,rank,club,country,ffg_licence\nDai Junhua,6d,Paris,FR,0043006\n"
        "Pierrette Abraham,12k,Bayeux,FR,\nZHANG Wei,2k,,,\n",
    )
    report = fill_from_rating_list(db, LOCAL, event, FFG)
    assert {m.player: m.by for m in report.matched} == {
        "Dai Junhua": "pin",
        "Pierrette Abraham": "name",
        "ZHANG Wei": "name",
    }
    rows = _rows(db)
    assert (rows["Dai Junhua"].rank, rows["Dai Junhua"].rating, rows["Dai Junhua"].club) == (
        "8d",
        2754.0,
        "91Or",
    )
    # -9999 (not rated): rank and rating stay; the licence and club are filled
    abraham = rows["Pierrette Abraham"]
    assert (abraham.rank, abraham.rating, abraham.club) == ("12k", None, "14Ba")
    assert json.loads(abraham.extra_json)["ffg_licence"] == "0700133"
    assert "rating_origin" not in json.loads(abraham.extra_json)
    assert json.loads(rows["ZHANG Wei"].extra_json)["rating_origin"] == "FFG"


def test_after_pairing_the_fill_is_allowed_and_paired_rounds_stay(db: Database) -> None:
    event = _event(db)
    pair_round(db, LOCAL, event)
    before = show_round(db, event, 1)
    report = fill_from_rating_list(db, LOCAL, event, EGD)
    assert report.changed == 4 and _rows(db)["Dai J."].rank == "8d"
    assert show_round(db, event, 1) == before  # the ranks count from the next pairing


def test_only_those_who_manage_players_may(db: Database) -> None:
    event = _event(db)
    before = {n: r.rank for n, r in _rows(db).items()}
    with pytest.raises(PermissionDenied):
        fill_from_rating_list(db, Actor(user_id=None, username=""), event, EGD)
    with pytest.raises(PermissionDenied):
        fill_from_rating_list(db, Actor(user_id=None, username=""), event, EGD, dry_run=True)
    assert {n: r.rank for n, r in _rows(db).items()} == before
    with pytest.raises(NotFound):
        fill_from_rating_list(db, LOCAL, event + 99, EGD)
    with pytest.raises(InvalidSetting, match="by: 'club' is not one of pin, name, both"):
        fill_from_rating_list(db, LOCAL, event, EGD, by="club")  # type: ignore[arg-type]
