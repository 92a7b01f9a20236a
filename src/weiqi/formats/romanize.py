"""Chinese names in pinyin the way the EGF lists Chinese players (issue #14).

The European rating list writes a Chinese player as surname then given name, each in pinyin
without tone marks, the given name's syllables run together and capitalised once: 柯洁 is
``Ke Jie``, 张小龙 ``Zhang Xiaolong``, 欧阳修 ``Ouyang Xiu``. OpenGotha writes such names as
``? ??`` (its file encoding has no Chinese); :func:`egf_name` gives what the list expects.

* The surname is the first character, or the first two when they are a compound surname
  (欧阳 司马 诸葛 上官 东方 皇甫 尉迟 公孙 慕容 令狐 长孙 宇文 司徒 夏侯 轩辕 端木 …, simplified
  and traditional) and a given name follows.
* A character read one way as a surname and another in words is read as a surname: 单 Shan (not
  Dan), 曾 Zeng (not Ceng), 解 Xie, 仇 Qiu, 朴 Piao, 区 Ou, 查 Zha, 乐 Yue, 翟 Zhai, 缪 Miao,
  盖 Ge, 秘 Bi, 种 Chong, 覃 Qin, 於 Yu, 柁 Tuo, 长孙 Zhangsun, 尉迟 Yuchi, 万俟 Moqi, 单于
  Chanyu… The given name is read by :mod:`pypinyin` (its phrase dictionary chooses between the
  readings of a character in a given name).
* ü is written ``yu`` by default: 吕 ``Lyu``, 女 ``Nyu``, 略 ``Lyue``. That is the spelling of the
  People's Republic's passports (the machine-readable zone has no ü; older passports used
  ``LV`` or ``LU``), so it is how a Chinese player's name reaches a European registration desk
  and the rating list, and it is plain ASCII, which the EGF table and every rating program read;
  it is also what go4go's database of professionals uses. ``umlaut="ü"`` gives the textbook
  pinyin ``Lü`` (Latin-1 and Latin-9 both have ü), for a list that prefers it. ``Lu`` is never
  written: it is a different surname (陆, 卢, 鲁).
* A name already in Latin letters is kept as it is (``Zhang Wei`` → ``("Zhang", "Wei")``: one
  string is taken surname first, as the EGF table writes it). Pass ``given_name`` when the two
  are known apart. Chinese characters inside a Latin name are romanized in place.
* Nothing becomes ``?``; a character no rule knows is kept as it is (for the file writer to
  refuse by name, see :func:`weiqi.formats.egf.encode`).

Not handled: Taiwanese and Hong Kong spellings (Wade–Giles, Cantonese: 周俊勳 is Chou Chun-hsun
in the EGD, here Zhou Junxun) and Korean or Japanese names written in Chinese characters (朴廷桓
is Park Junghwan, here Piao Tinghuan): they need the player's own spelling, which a rating list
import fills in.

>>> egf_name("张伟"), egf_name("欧阳修"), egf_name("张小龙"), egf_name("单嘉玲")
(('Zhang', 'Wei'), ('Ouyang', 'Xiu'), ('Zhang', 'Xiaolong'), ('Shan', 'Jialing'))
>>> egf_name("吕"), egf_name("吕", umlaut="ü")
(('Lyu', ''), ('Lü', ''))
>>> egf_name("Zhang Wei"), egf_name("Vannier", "Rémi"), egf_name("王", "Alice")
(('Zhang', 'Wei'), ('Vannier', 'Rémi'), ('Wang', 'Alice'))
>>> ascii_name("Łukasz Żółw"), latin_text("北京围棋赛 2024")
(('Lukasz', 'Zolw'), 'Beijing Wei Qi Sai 2024')
"""

from __future__ import annotations

import unicodedata
from typing import Literal

from pypinyin import Style, lazy_pinyin
from pypinyin.seg.simpleseg import seg

Umlaut = Literal["yu", "ü"]

COMPOUND_SURNAMES: dict[str, str] = {
    "欧阳": "ouyang", "歐陽": "ouyang",
    "司马": "sima", "司馬": "sima",
    "诸葛": "zhuge", "諸葛": "zhuge",
    "上官": "shangguan",
    "东方": "dongfang", "東方": "dongfang",
    "皇甫": "huangfu",
    "尉迟": "yuchi", "尉遲": "yuchi",
    "公孙": "gongsun", "公孫": "gongsun",
    "慕容": "murong",
    "令狐": "linghu",
    "长孙": "zhangsun", "長孫": "zhangsun",
    "宇文": "yuwen",
    "司徒": "situ",
    "夏侯": "xiahou",
    "轩辕": "xuanyuan", "軒轅": "xuanyuan",
    "端木": "duanmu",
    "澹台": "tantai", "澹臺": "tantai",
    "万俟": "moqi", "萬俟": "moqi",
    "闻人": "wenren", "聞人": "wenren",
    "赫连": "helian", "赫連": "helian",
    "独孤": "dugu", "獨孤": "dugu",
    "南宫": "nangong", "南宮": "nangong",
    "西门": "ximen", "西門": "ximen",
    "百里": "baili",
    "呼延": "huyan",
    "申屠": "shentu",
    "钟离": "zhongli", "鍾離": "zhongli",
    "濮阳": "puyang", "濮陽": "puyang",
    "太史": "taishi",
    "公冶": "gongye",
    "宗政": "zongzheng",
    "淳于": "chunyu",
    "单于": "chanyu", "單于": "chanyu",
    "拓跋": "tuoba",
    "司空": "sikong",
    "仲孙": "zhongsun", "仲孫": "zhongsun",
    "公羊": "gongyang",
    "亓官": "qiguan",
    "巫马": "wuma", "巫馬": "wuma",
}  # fmt: skip
"""Two-character surnames and their surname readings (simplified and traditional)."""

SURNAME_READINGS: dict[str, str] = {
    "单": "shan", "單": "shan",
    "曾": "zeng",
    "解": "xie",
    "仇": "qiu",
    "朴": "piao", "樸": "piao",
    "区": "ou", "區": "ou",
    "查": "zha",
    "乐": "yue", "樂": "yue",
    "翟": "zhai",
    "缪": "miao", "繆": "miao",
    "盖": "ge", "蓋": "ge",
    "秘": "bi",
    "种": "chong", "種": "chong",
    "覃": "qin",
    "於": "yu",
    "柁": "tuo",
    "员": "yun", "員": "yun",
    "黑": "he",
    "能": "nai",
    "繁": "po",
    "句": "gou",
    "折": "she",
    "召": "shao",
    "祭": "zhai",
    "车": "che", "車": "che",
    "薄": "bo",
    "柏": "bai",
    "宓": "fu",
    "臧": "zang",
    "隗": "wei",
    "尉": "wei",
    "都": "du",
    "过": "guo", "過": "guo",
    "纪": "ji", "紀": "ji",
    "那": "na",
    "沈": "shen",
    "任": "ren",
    "华": "hua", "華": "hua",
    "瞿": "qu",
    "阚": "kan", "闞": "kan",
    "洗": "xian",
    "冼": "xian",
    "谌": "chen", "諶": "chen",
    "燕": "yan",
    "叶": "ye", "葉": "ye",
    "万": "wan", "萬": "wan",
    "伯": "bo",
    "蔺": "lin", "藺": "lin",
    "粘": "nian",
    "宁": "ning", "寧": "ning",
    "相": "xiang",
    "重": "chong",
    "角": "jue",
    "长": "chang", "長": "chang",
    "朝": "chao",
    "占": "zhan",
    "卜": "bu",
    "褚": "chu",
    "塔": "ta",
    "郇": "huan",
    "厍": "she", "厙": "she",
}  # fmt: skip
"""Characters whose reading as a surname is not their first reading elsewhere (and a few whose
first reading pypinyin might take from a neighbouring character)."""

_SEPARATORS = " \t\u3000·・"
_LATIN_EXTRA = {
    "Ł": "L", "ł": "l", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h", "ı": "i", "Ŋ": "Ng", "ŋ": "ng",
    "ŀ": "l", "Ŀ": "L", "ĸ": "k", "ſ": "s",
}  # fmt: skip
"""Letters NFKD does not decompose into a base letter and a mark."""
_ASCII_EXTRA = {
    "ß": "ss", "Æ": "Ae", "æ": "ae", "Ø": "O", "ø": "o", "Œ": "Oe", "œ": "oe", "Þ": "Th",
    "þ": "th", "Ð": "D", "ð": "d",
}  # fmt: skip
"""Latin-1 letters that ASCII spells with other letters."""
_LATIN9 = "iso-8859-15"


def is_han(char: str) -> bool:
    """Whether ``char`` is a Chinese character (CJK unified ideographs and their extensions).

    >>> is_han("张"), is_han("張"), is_han("a"), is_han("の")
    (True, True, False, False)
    """
    code = ord(char)
    return (
        0x4E00 <= code <= 0x9FFF
        or 0x3400 <= code <= 0x4DBF
        or 0xF900 <= code <= 0xFAFF
        or 0x20000 <= code <= 0x3134F
        or char == "〇"
    )


def split_han_name(name: str) -> tuple[str, str]:
    """A Chinese name cut into surname and given name (in characters).

    >>> [split_han_name(name) for name in ("欧阳修", "张伟", "司马", "王")]
    [('欧阳', '修'), ('张', '伟'), ('司', '马'), ('王', '')]
    """
    if len(name) >= 3 and name[:2] in COMPOUND_SURNAMES:
        return name[:2], name[2:]
    return name[:1], name[1:]


def egf_name(name: str, given_name: str | None = None, *, umlaut: Umlaut = "yu") -> tuple[str, str]:
    """``(surname, given name)`` as the EGF writes them; see the module for the rules.

    With ``given_name`` the two are romanized apart (``name`` is the surname); without it a
    Chinese name is cut by :func:`split_han_name` and any other name at its first space.

    >>> egf_name("诸葛亮"), egf_name("长孙无忌"), egf_name("曾", "庆红"), egf_name("柯潔")
    (('Zhuge', 'Liang'), ('Zhangsun', 'Wuji'), ('Zeng', 'Qinghong'), ('Ke', 'Jie'))
    >>> egf_name("  聂 卫平 "), egf_name("李Alex"), egf_name("女"), egf_name("")
    (('Nie', 'Weiping'), ('Li', 'Alex'), ('Nyu', ''), ('', ''))
    """
    text = unicodedata.normalize("NFC", name).strip(_SEPARATORS)
    if given_name is not None:
        given = unicodedata.normalize("NFC", given_name).strip(_SEPARATORS)
        return _surname(text, umlaut), _given(given, umlaut)
    words = _words(text)
    if not words:
        return "", ""
    if len(words) == 1 and all(is_han(c) for c in words[0]):
        surname, given = split_han_name(words[0])
        return _surname(surname, umlaut), _given(given, umlaut)
    first = words[0]
    if len(words) == 1 and is_han(first[0]) and not all(is_han(c) for c in first):
        # 李Alex: a Chinese surname run straight into a Latin given name.
        han = next(i for i, c in enumerate(first) if not is_han(c))
        return _surname(first[:han], umlaut), _given(first[han:], umlaut)
    return _surname(first, umlaut), " ".join(_given(w, umlaut) for w in words[1:])


def ascii_name(name: str, given_name: str | None = None) -> tuple[str, str]:
    """:func:`egf_name` in plain ASCII, for a list that takes nothing else: diacritics dropped
    (``Rémi`` → ``Remi``, ``ü`` → ``u``), ``ß`` → ``ss``, ``ø`` → ``o``, ``æ`` → ``ae``.

    >>> ascii_name("吕", "洞宾"), ascii_name("Müller", "Jörg"), ascii_name("Søgaard Æbelø")
    (('Lyu', 'Dongbin'), ('Muller', 'Jorg'), ('Sogaard', 'Aebelo'))
    """
    surname, given = egf_name(name, given_name, umlaut="yu")
    return latin_text(surname, ascii=True), latin_text(given, ascii=True)


def latin_text(text: str, *, ascii: bool = False) -> str:
    """``text`` with every character the EGF file cannot hold replaced by Latin letters: Chinese
    in pinyin (a run of characters cut into words by pypinyin's dictionary, each word
    capitalised), accented letters outside Latin-9 (or, with ``ascii``, outside ASCII) without
    their accents, full-width forms by their ASCII form. Anything else is kept.

    >>> latin_text("Łódź"), latin_text("Łódź", ascii=True), latin_text("中国围棋协会（上海）")
    ('Lódz', 'Lodz', 'Zhongguo Wei Qi Xiehui (Shanghai)')
    """
    out: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            words = [_syllables("".join(w), "yu").capitalize() for w in seg("".join(run))]
            if out and out[-1][-1:].isalnum():
                out.append(" ")
            out.append(" ".join(words))
            run.clear()

    for char in text:
        if is_han(char):
            run.append(char)
            continue
        latin = _latin_char(char, ascii)
        if run:
            flush()
            if latin[:1].isalnum() or latin[:1] in "([":
                out.append(" ")
        out.append(latin)
    flush()
    return "".join(out)


def _latin_char(char: str, ascii: bool) -> str:
    if char.isascii() or (not ascii and _encodable(char)):
        return char
    if ascii and char in _ASCII_EXTRA:
        return _ASCII_EXTRA[char]
    if char in _LATIN_EXTRA:
        return _LATIN_EXTRA[char]
    wide = unicodedata.normalize("NFKC", char)
    if wide != char and (wide.isascii() or (not ascii and _encodable(wide))):
        return wide
    base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    if base and base != char and (base.isascii() or (not ascii and _encodable(base))):
        return base
    return char


def _encodable(text: str) -> bool:
    try:
        text.encode(_LATIN9)
    except UnicodeEncodeError:
        return False
    return True


def _words(text: str) -> list[str]:
    for sep in _SEPARATORS[1:]:
        text = text.replace(sep, " ")
    return text.split()


def _syllables(han: str, umlaut: Umlaut) -> str:
    """The pinyin of ``han`` (Chinese characters, maybe with Latin runs), syllables joined."""
    parts = lazy_pinyin(han, style=Style.NORMAL, v_to_u=True)
    return "".join(_umlaut(p, umlaut) for p in parts)


def _umlaut(syllable: str, umlaut: Umlaut) -> str:
    return syllable if umlaut == "ü" else syllable.replace("ü", "yu")


def _surname(text: str, umlaut: Umlaut) -> str:
    if not text or not is_han(text[0]):
        return _given(text, umlaut)
    if text in COMPOUND_SURNAMES:
        return COMPOUND_SURNAMES[text].capitalize()
    head = SURNAME_READINGS.get(text[0])
    if head is not None:
        rest = _syllables(text[1:], umlaut) if len(text) > 1 else ""
        return (_umlaut(head, umlaut) + rest).capitalize()
    return _syllables(text, umlaut).capitalize()


def _given(text: str, umlaut: Umlaut) -> str:
    """A given name: Chinese runs in pinyin, capitalised once; Latin letters kept."""
    if not any(is_han(c) for c in text):
        return text
    out: list[str] = []
    run: list[str] = []
    for char in text + "\0":
        if is_han(char):
            run.append(char)
            continue
        if run:
            syllables = _syllables("".join(run), umlaut)
            out.append(syllables.capitalize() if not out else syllables)
            run.clear()
        if char != "\0":
            out.append(char)
    return "".join(out)
