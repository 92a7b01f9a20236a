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

Messages with arguments (:class:`weiqi.messages.Msg`) are translated and formatted here and
nowhere else — pages, the API and the command line all call :func:`render`:

>>> from fractions import Fraction
>>> render(Msg("komi %(stones)s", stones=Fraction(15, 4)), "zh_CN")
'贴3又3/4子'
>>> render(Msg("komi %(stones)s", stones=Fraction(15, 4)), "en")
'komi 3.75'
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from fractions import Fraction
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from weiqi.messages import Arg, Msg
from weiqi.rules.color import Color
from weiqi.rules.result import Result, format_points, format_stones_zh

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


def environment_locale(environ: Mapping[str, str]) -> str:
    """The command line's language: ``WEIQI_LANG`` (``zh_CN`` or ``en``), else the first of
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that names a language we have, else Chinese (as a
    page without a choice is). ``C``/``POSIX`` name none.

    >>> environment_locale({"LANG": "en_GB.UTF-8"}), environment_locale({"LANG": "C.UTF-8"})
    ('en', 'zh_CN')
    >>> environment_locale({"WEIQI_LANG": "zh_CN", "LC_ALL": "en_US.UTF-8"})
    'zh_CN'
    """
    for name in ("WEIQI_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "").split(".")[0].split("@")[0]
        if value and value not in ("C", "POSIX") and (locale := _match(value)) is not None:
            return locale
    return DEFAULT_LOCALE


def N_(message: str) -> str:
    """Mark ``message`` for extraction into the catalogues without translating it yet (it is
    translated where it is shown)."""
    return message


def _fraction(value: Fraction, locale: str) -> str:
    if locale == "zh_CN":
        return format_stones_zh(value) if value >= 0 else "-" + format_stones_zh(-value)
    return format_points(value) if value.denominator in (1, 2, 4, 8) else str(value)


def render_value(value: Arg, locale: str) -> str:
    """One message argument (a result, a fraction of a stone, a colour, a message …) as
    :func:`render` writes it in ``locale``.

    >>> render_value(Result.parse("W+0.5"), "zh_CN"), render_value(Result.parse("W+0.5"), "en")
    ('白胜1/4子', 'W+0.5')
    """
    if isinstance(value, Msg):
        return render(value, locale)
    if isinstance(value, Result):
        return value.to_zh() if locale == "zh_CN" else value.to_code()
    if isinstance(value, Color):
        return value.zh if locale == "zh_CN" else value.en
    named = getattr(value, "zh", None), getattr(value, "en", None)
    if isinstance(named[0], str) and isinstance(named[1], str):  # an enum named in both languages
        return named[0] if locale == "zh_CN" else named[1]
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, Fraction):
        return _fraction(value, locale)
    if value is None:
        return "—"
    return str(value)


def render(msg: Msg, locale: str) -> str:
    """``msg`` in ``locale``: its id looked up in the catalogue (an id the catalogue does not
    know is shown as it is, in English), each argument formatted for the locale (a value with
    ``zh`` and ``en`` names, such as an infraction's kind, in that language).

    >>> from weiqi.rules.result import Result
    >>> m = Msg("entered from the result sheet: %(result)s", result=Result.parse("B+1.5"))
    >>> render(m, "en"), render(m, "zh_CN")
    ('entered from the result sheet: B+1.5', '按记录表录入：黑胜3/4子')
    """
    text = translations(locale).gettext(msg.id)
    if not msg.args:
        return text
    values = {k: render_value(v, locale) for k, v in msg.args.items()}
    try:
        return text % values
    except (KeyError, ValueError, TypeError):  # a catalogue entry with a broken placeholder
        return msg.id % values


def json_args(msg: Msg) -> dict[str, Any]:
    """The arguments of ``msg`` as JSON values, for the API's ``{code, args, message}``: a
    fraction as ``"15/4"``, a colour as ``"B"``, a result as its code (``"B+1.5"``), a nested
    message as ``{"code", "args"}``.

    >>> json_args(Msg("%(a)s %(b)s", a=Fraction(15, 4), b=Color.BLACK))
    {'a': '15/4', 'b': 'B'}
    """
    out: dict[str, Any] = {}
    for key, value in msg.args.items():
        if isinstance(value, Msg):
            out[key] = {"code": value.id, "args": json_args(value)}
        elif isinstance(value, Result):
            out[key] = value.to_code()
        elif isinstance(value, Enum):
            out[key] = value.value
        elif isinstance(value, str | int | float | bool) or value is None:
            out[key] = value
        else:  # a Fraction as "15/4"; anything else as its text
            out[key] = str(value)
    return out
