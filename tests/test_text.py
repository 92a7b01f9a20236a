"""The one validator of names and notes (weiqi.text): NFC, each forbidden class, lengths (#16)."""

from __future__ import annotations

import pytest

from weiqi.errors import InputError, InvalidSetting
from weiqi.text import (
    MAX_NAME_LENGTH,
    MAX_NOTE_LENGTH,
    check_entrants,
    check_upload,
    clean_name,
    clean_note,
    in_id_range,
)

INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u202e", "\u202a", "\u2066",
             "\u2067", "\u2068", "\u2069", "\u00ad", "\u061c"]  # fmt: skip


def reason(err: pytest.ExceptionInfo[InvalidSetting]) -> str:
    return err.value.reason.id


def test_names_are_nfc_and_stripped() -> None:
    assert clean_name("name", " Le\u0301a\u3000") == "L\u00e9a"  # ideographic space stripped
    assert clean_name("name", "李 明") == "李 明"  # an inner space is part of the name


@pytest.mark.parametrize("c", INVISIBLE)
def test_invisible_and_bidi_characters_are_refused(c: str) -> None:
    for text in (f"李{c}明", f"{c}李明"):
        with pytest.raises(InvalidSetting) as err:
            clean_name("name", text)
        assert reason(err) == "must not contain invisible characters (%(code)s)"
        assert err.value.reason.args["code"] == f"U+{ord(c):04X}"
        assert err.value.field == "name"
        with pytest.raises(InvalidSetting):
            clean_note("note", text)


@pytest.mark.parametrize(
    "c", ["\n", "\r", "\t", "\x00", "\x07", "\x7f", "\u0085", "\u2028", "\u2029"]
)
def test_control_characters_and_line_breaks_are_refused_in_names(c: str) -> None:
    with pytest.raises(InvalidSetting) as err:
        clean_name("club", f"北{c}京")
    assert reason(err) == "must be one line without control characters"
    assert err.value.field == "club"


def test_notes_may_have_lines_and_tabs_but_no_other_control() -> None:
    assert clean_note("note", " first\n\tsecond\r\n") == "first\n\tsecond"
    for c in ("\x00", "\x1b", "\u2028"):
        with pytest.raises(InvalidSetting) as err:
            clean_note("note", f"a{c}b")
        assert reason(err) == "must not contain control characters (%(code)s)"


def test_lone_surrogates_are_not_text() -> None:
    for text in ("\ud800", "a\udfffb"):
        with pytest.raises(InvalidSetting) as err:
            clean_name("name", text)
        assert reason(err) == "contains a character that is not text (%(code)s)"
        with pytest.raises(InvalidSetting):
            clean_note("note", text)
        with pytest.raises(InputError):
            check_upload("players.csv", f"name\n{text}\n")


def test_lengths() -> None:
    assert clean_name("name", "李" * MAX_NAME_LENGTH) == "李" * MAX_NAME_LENGTH
    with pytest.raises(InvalidSetting) as err:
        clean_name("name", "李" * (MAX_NAME_LENGTH + 1))
    assert err.value.reason.args["limit"] == MAX_NAME_LENGTH
    with pytest.raises(InvalidSetting):
        clean_note("note", "n" * (MAX_NOTE_LENGTH + 1))
    assert clean_note("note", "n" * MAX_NOTE_LENGTH) == "n" * MAX_NOTE_LENGTH
    # NFC first: a decomposed name of 200 letters plus marks is 200 characters
    assert len(clean_name("name", "e\u0301" * MAX_NAME_LENGTH)) == MAX_NAME_LENGTH


def test_empty_names() -> None:
    with pytest.raises(InvalidSetting) as err:
        clean_name("name", "   ")
    assert reason(err) == "must not be empty"
    assert clean_name("club", "  ", required=False) == ""


def test_uploads_entrants_and_ids() -> None:
    with pytest.raises(InputError):
        check_upload("x.csv", "é" * 600, max_bytes=1024)  # 1,200 bytes of UTF-8
    assert check_upload("x.csv", "é" * 500, max_bytes=1024)
    check_entrants(10_000)  # issue #15's big events; #16's limit
    with pytest.raises(InvalidSetting):
        check_entrants(10_001)
    assert in_id_range(2**63 - 1) and not in_id_range(2**63) and not in_id_range(-1)
