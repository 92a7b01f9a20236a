"""Issue #14, rating lists: the EGD "allworld" list, the FFG échelle and an FFG ``.tou`` file
read as values from files in their real layouts (``tests/data/rating_lists/``): Chinese
players in pinyin, 8d/9d and professional grades, placeholders and broken lines skipped and
counted, never the end of the list; a file of another layout is refused."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from weiqi.errors import InputError
from weiqi.formats import rating_lists
from weiqi.formats.rating_lists import (
    RatedPlayer,
    name_key,
    rank_of_rating,
    read_egd,
    read_rating_list,
)
from weiqi.tournament.ranks import Rank

DATA = Path(__file__).parent.parent / "data" / "rating_lists"
EGD = (DATA / "allworld_lp.html").read_bytes()
FFG = (DATA / "ech_ffg_V3.txt").read_bytes()
TOU = (DATA / "printemps-2025.tou").read_bytes()


def _by_pin(players: tuple[RatedPlayer, ...]) -> dict[str, RatedPlayer]:
    return {p.egf_pin: p for p in players}


def test_egd_list_reads_every_player_and_counts_the_odd_lines() -> None:
    listed = read_rating_list(EGD, "egd", "allworld_lp.html")
    assert listed.source == "egd" and listed.date == "12 Mar 2025"
    assert len(listed.players) == 25
    # (undefined), Anonymous#0023, a GoR "12x4", a line cut after the country, "_ _"
    assert listed.skipped == 5 and listed.skipped_lines == (27, 32, 41, 47, 56)
    pins = _by_pin(listed.players)
    assert pins["18030002"] == RatedPlayer(
        "Chen", "Yiming", Rank.parse("9p"), 2938.0, "Beij", "CN", "18030002", "", "EGF"
    )
    assert (pins["18030001"].rank, pins["18030015"].rank) == (Rank.parse("8d"), Rank.parse("9d"))
    assert pins["18030014"].rank == Rank.parse("5p")
    # "xxx"/"xxxx" is no club, "XX" no country; "_" is a space inside a name
    assert (pins["18030001"].club, pins["18030019"].country) == ("", "")
    assert pins["14013153"].surname == "Abd el Fatah"
    assert pins["16825590"].given_name == "Barbara van"
    assert (pins["10825090"].surname, pins["10825090"].given_name) == ("Abramov", "")
    assert pins["18030011"].name == "Müller Jörg"  # UTF-8, as the EGD writes it
    # a grade no rank scale has ("0k") leaves the rank unknown, the GoR still read
    assert (pins["18030021"].rank, pins["18030021"].rating) == (None, 1975.0)


def test_egd_list_reads_the_same_zipped() -> None:
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("allworld_lp.html", EGD)
    assert read_rating_list(packed.getvalue(), "egd") == read_rating_list(EGD, "egd")


def test_a_zip_of_two_files_or_a_broken_zip_is_refused() -> None:
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("a.html", EGD)
        archive.writestr("b.html", EGD)
    with pytest.raises(InputError, match="must hold one list; this one holds 2 files"):
        read_rating_list(packed.getvalue(), "egd", "two.zip")
    with pytest.raises(InputError, match="not a ZIP archive"):
        read_rating_list(b"PK\x03\x04broken", "egd", "broken.zip")


def test_a_list_over_the_size_limit_is_refused_packed_or_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(rating_lists, "MAX_LIST_BYTES", 2048)
    with pytest.raises(InputError, match="larger than"):
        read_rating_list(EGD, "egd", "big.html")
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("allworld_lp.html", EGD)  # packs to under 2 kB
    assert len(packed.getvalue()) < 2048
    with pytest.raises(InputError, match="larger than"):
        read_rating_list(packed.getvalue(), "egd", "bomb.zip")


def test_ffg_echelle_gives_ratings_on_the_egf_scale_and_ranks_from_them() -> None:
    listed = read_rating_list(FFG, "ffg", "ech_ffg_V3.txt")
    assert listed.date == "10/03/2025 07:09:39"
    assert len(listed.players) == 24
    assert listed.skipped == 2 and listed.skipped_lines == (8, 14)  # "abc", a cut line
    by_name = {p.name: p for p in listed.players}
    dai = by_name["DAI Junhua"]
    assert (dai.rating, dai.rank, dai.ffg_licence, dai.club, dai.rating_origin) == (
        2754.0,
        Rank.parse("8d"),
        "0043006",
        "91Or",
        "FFG",
    )
    # Latin-1 accents; no licence for a foreigner; -9999 is not rated
    assert by_name["ABELA Jérôme"].rank == Rank.parse("8k")
    assert by_name["AAGAARD Søren"].ffg_licence == ""
    assert (by_name["ABRAHAM Pierrette"].rating, by_name["ABRAHAM Pierrette"].rank) == (None, None)
    assert by_name["DE LA FONTAINE Jean"].surname == "DE LA FONTAINE"
    assert by_name["NAKAMURA Taro"].rank == Rank.parse("9d")  # 850: the top of the scale
    assert by_name["ZHU Yunqi"].country == ""


def test_tou_file_gives_rank_licence_and_club() -> None:
    listed = read_rating_list(TOU, "tou", "printemps-2025.tou")
    assert listed.date == "05/04/2025" and listed.skipped == 1
    got = [(p.name, p.rank, p.ffg_licence, p.club, p.rating) for p in listed.players]
    assert got[1] == ("Dai Junhua", Rank.parse("8d"), "0043006", "91Or", None)
    assert got[5] == ("Nakamura Taro", Rank.parse("1p"), "", "", None)  # no licence, no club
    assert got[6] == ("Abela Jérôme", Rank.parse("10k"), "9327901", "92Co", None)  # Latin-9


@pytest.mark.parametrize(
    ("data", "fmt", "layout"),
    [(FFG, "egd", "EGD list"), (EGD, "ffg", "FFG list"), (EGD, "tou", "FFG tournament file")],
)
def test_a_file_of_another_layout_is_refused_by_name(data: bytes, fmt: str, layout: str) -> None:
    with pytest.raises(InputError, match=f"list.txt: no player line in the {layout}'s layout"):
        read_rating_list(data, fmt, "list.txt")  # type: ignore[arg-type]


def test_a_line_with_a_control_character_is_skipped_not_stored() -> None:
    text = (
        " 1  Li Wei  CN  Bj  3d  --  2300  4  T1\n 2  Wang\x00Fang  CN  Bj  3d  --  2300  4  T1\n"
    )
    listed = read_egd(text)
    assert [p.name for p in listed.players] == ["Li Wei"] and listed.skipped_lines == (2,)


def test_many_odd_lines_are_counted_but_only_the_first_line_numbers_kept() -> None:
    good = " 1  Li Wei  CN  Bj  3d  --  2300  4  T1\n"
    listed = read_egd(good + " 2 broken\n" * 100)
    assert listed.skipped == 100 and len(listed.skipped_lines) == rating_lists.SKIPPED_SHOWN


def test_ranks_of_ratings_follow_the_egd_buckets() -> None:
    assert [rank_of_rating(g).code for g in (2050, 2149.9, 2150, 2049, 1950, 1949)] == [
        "1d",
        "1d",
        "2d",
        "1k",
        "1k",
        "2k",
    ]


def test_name_keys_ignore_case_accents_and_separators_and_read_chinese_in_pinyin() -> None:
    assert name_key("Müller", "Jörg") == name_key("MULLER", "jorg")
    assert name_key("Sawicki-Hughes", "Jan") == name_key("Sawicki Hughes Jan")
    assert name_key("欧阳", "修") == name_key("Ouyang", "Xiu")
    assert name_key("Li", "Wei") != name_key("Wei", "Li")
