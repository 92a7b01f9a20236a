"""Languages of the user interface: 简体中文 first (the default), English second.

Messages are written in English in the code and templates (``_("Log in")``) and translated by
the Babel catalogues ``i18n/locales/<locale>/LC_MESSAGES/messages.po``. The ``.po`` files are
compiled in memory when first used, so nothing needs compiling at install time.

>>> translations("zh_CN").gettext("Log in")
'登录'
>>> translations("en").gettext("Log in")
'Log in'
>>> negotiate(cookie=None, accept_language="en-GB,en;q=0.9,zh;q=0.5")
'en'
>>> negotiate(cookie="zh_CN", accept_language="en")
'zh_CN'
>>> negotiate(cookie=None, accept_language=None)
'zh_CN'
"""

from __future__ import annotations

from functools import cache
from io import BytesIO
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LOCALES_DIR = Path(__file__).parent / "locales"
DEFAULT_LOCALE = "zh_CN"
LOCALES = ("zh_CN", "en")
# The name of each language in itself, for the switch in the page header.
LANGUAGE_NAMES = {"zh_CN": "中文", "en": "English"}
DOMAIN = "messages"


@cache
def translations(locale: str) -> Translations:
    """The compiled catalogue of ``locale`` (one of ``LOCALES``)."""
    if locale not in LOCALES:
        raise ValueError(f"unsupported locale {locale!r}")
    po = LOCALES_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"
    with po.open("rb") as f:
        catalog = read_po(f, locale=locale, domain=DOMAIN)
    mo = BytesIO()
    write_mo(mo, catalog)
    mo.seek(0)
    return Translations(fp=mo, domain=DOMAIN)


def _match(tag: str) -> str | None:
    try:
        wanted = Locale.parse(tag.strip().replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return None
    for locale in LOCALES:
        if Locale.parse(locale).language == wanted.language:
            return locale
    return None


def negotiate(cookie: str | None, accept_language: str | None) -> str:
    """The locale for a request: the ``lang`` cookie if valid, else the best ``Accept-Language``
    entry we have, else Chinese."""
    if cookie in LOCALES:
        return cookie
    if accept_language:
        ranked: list[tuple[float, int, str]] = []
        for i, part in enumerate(accept_language.split(",")):
            tag, _, params = part.partition(";")
            q = 1.0
            if params.strip().startswith("q="):
                try:
                    q = float(params.strip()[2:])
                except ValueError:
                    q = 0.0
            ranked.append((-q, i, tag))
        for neg_q, _i, tag in sorted(ranked):
            if neg_q < 0 and (locale := _match(tag)) is not None:
                return locale
    return DEFAULT_LOCALE


def N_(message: str) -> str:
    """Mark ``message`` for extraction into the catalogues without translating it yet (it is
    translated where it is shown)."""
    return message
