"""The message catalogues: Chinese complete, and in step with the code (run ``make i18n``)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from weiqi.i18n import LOCALES, LOCALES_DIR, negotiate, translations

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"%\(\w+\)s")


def catalogue(locale: str) -> Catalog:
    with (LOCALES_DIR / locale / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=locale)


def test_every_message_has_a_chinese_translation() -> None:
    untranslated = [m.id for m in catalogue("zh_CN") if m.id and (not m.string or m.fuzzy)]
    assert untranslated == []


@pytest.mark.parametrize("locale", LOCALES)
def test_translations_keep_their_placeholders(locale: str) -> None:
    for m in catalogue(locale):
        if m.id and m.string:
            assert sorted(PLACEHOLDER.findall(str(m.string))) == sorted(
                PLACEHOLDER.findall(str(m.id))
            )


def test_catalogues_are_up_to_date_with_the_sources(tmp_path: Path) -> None:
    """Fails when a string was added or removed without ``make i18n``."""
    pot = tmp_path / "messages.pot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "extract",
            "-F",
            "babel.cfg",
            "-k",
            "translate:2",
            "-k",
            "Msg",
            "--no-location",
            "-o",
            str(pot),
            ".",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    with pot.open("rb") as f:
        wanted = {m.id for m in read_po(f) if m.id}
    for locale in LOCALES:
        assert {m.id for m in catalogue(locale) if m.id} == wanted, locale


def test_chinese_is_the_default_and_english_is_the_source_language() -> None:
    assert negotiate(None, None) == "zh_CN"
    assert negotiate("xx", "de-DE,de;q=0.9") == "zh_CN"
    assert negotiate(None, "zh-TW,zh;q=0.9,en;q=0.8") == "zh_CN"
    assert negotiate(None, "fr;q=1.0, en;q=0.5") == "en"
    assert negotiate(None, "en;q=0, zh;q=0.1") == "zh_CN"
    assert translations("en").gettext("Organiser") == "Organiser"
    assert translations("zh_CN").gettext("Chief referee") == "裁判长"


def test_every_action_has_a_msgid_for_the_403_page() -> None:
    """A new ``Action`` goes into ``server/errors.ACTION_MSGIDS`` (then ``make i18n``)."""
    from weiqi.server.errors import ACTION_MSGIDS
    from weiqi.services.permissions import Action

    assert {a.value for a in Action} <= set(ACTION_MSGIDS)
    zh = translations("zh_CN")
    assert all(zh.gettext(a.value) != a.value for a in Action)
