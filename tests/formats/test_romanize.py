"""Chinese names in pinyin as the EGF lists Chinese players (issue #14: an event of Chinese
players exports with pinyin names checked against known transliterations, never ``?``)."""

from __future__ import annotations

import pytest

from weiqi.formats.egf import ENCODING
from weiqi.formats.romanize import (
    COMPOUND_SURNAMES,
    ascii_name,
    egf_name,
    latin_text,
    split_han_name,
)

# Chinese professionals as the English-language Go press and rating lists spell them.
PLAYERS = {
    "张伟": ("Zhang", "Wei"),  # the example
    "柯洁": ("Ke", "Jie"),
    "古力": ("Gu", "Li"),
    "常昊": ("Chang", "Hao"),
    "聂卫平": ("Nie", "Weiping"),
    "芈昱廷": ("Mi", "Yuting"),
    "时越": ("Shi", "Yue"),
    "檀啸": ("Tan", "Xiao"),
    "辜梓豪": ("Gu", "Zihao"),
    "杨鼎新": ("Yang", "Dingxin"),
    "马晓春": ("Ma", "Xiaochun"),
    "俞斌": ("Yu", "Bin"),
    "陈耀烨": ("Chen", "Yaoye"),
    "周睿羊": ("Zhou", "Ruiyang"),
    "江维杰": ("Jiang", "Weijie"),
    "唐韦星": ("Tang", "Weixing"),
    "范廷钰": ("Fan", "Tingyu"),
    "连笑": ("Lian", "Xiao"),
    "党毅飞": ("Dang", "Yifei"),
    "许嘉阳": ("Xu", "Jiayang"),
    "谢尔豪": ("Xie", "Erhao"),
    "李轩豪": ("Li", "Xuanhao"),
    "范蕴若": ("Fan", "Yunruo"),
    "刘星": ("Liu", "Xing"),
    "彭荃": ("Peng", "Quan"),
    "孔杰": ("Kong", "Jie"),
    "朴文垚": ("Piao", "Wenyao"),
    "邱峻": ("Qiu", "Jun"),
    "於之莹": ("Yu", "Zhiying"),
    "芮乃伟": ("Rui", "Naiwei"),
    "华学明": ("Hua", "Xueming"),
    "王汝南": ("Wang", "Runan"),
    "陈祖德": ("Chen", "Zude"),
    "吴清源": ("Wu", "Qingyuan"),
    "曹大元": ("Cao", "Dayuan"),
    "刘小光": ("Liu", "Xiaoguang"),
    "钱宇平": ("Qian", "Yuping"),
    "罗洗河": ("Luo", "Xihe"),
    "胡耀宇": ("Hu", "Yaoyu"),
    "王檄": ("Wang", "Xi"),
    "黄奕中": ("Huang", "Yizhong"),
    "谢赫": ("Xie", "He"),
    "童梦成": ("Tong", "Mengcheng"),
    "柁嘉熹": ("Tuo", "Jiaxi"),
    "陶欣然": ("Tao", "Xinran"),
    "王晨星": ("Wang", "Chenxing"),
    "鲁佳": ("Lu", "Jia"),
    "宋容慧": ("Song", "Ronghui"),
    "周泓余": ("Zhou", "Hongyu"),
    "吴依铭": ("Wu", "Yiming"),
    "丁浩": ("Ding", "Hao"),
    "王星昊": ("Wang", "Xinghao"),
    "廖元赫": ("Liao", "Yuanhe"),
    "屠晓宇": ("Tu", "Xiaoyu"),
    "杨楷文": ("Yang", "Kaiwen"),
    "李钦诚": ("Li", "Qincheng"),
    "赵晨宇": ("Zhao", "Chenyu"),
    "华以刚": ("Hua", "Yigang"),
    "张璇": ("Zhang", "Xuan"),
    # Traditional characters give the same pinyin.
    "柯潔": ("Ke", "Jie"),
    "聶衛平": ("Nie", "Weiping"),
}

# Surnames read otherwise than the same character in a word (单 dan/shan, 曾 ceng/zeng …).
SURNAMES = {
    "单雄信": ("Shan", "Xiongxin"),
    "单嘉玲": ("Shan", "Jialing"),
    "曾国藩": ("Zeng", "Guofan"),
    "解缙": ("Xie", "Jin"),
    "仇英": ("Qiu", "Ying"),
    "朴": ("Piao", ""),
    "区": ("Ou", ""),
    "查良镛": ("Zha", "Liangyong"),
    "乐毅": ("Yue", "Yi"),
    "翟": ("Zhai", ""),
    "缪": ("Miao", ""),
    "覃": ("Qin", ""),
    "單雄信": ("Shan", "Xiongxin"),
}

COMPOUNDS = {
    "欧阳修": ("Ouyang", "Xiu"),
    "司马光": ("Sima", "Guang"),
    "诸葛亮": ("Zhuge", "Liang"),
    "上官婉儿": ("Shangguan", "Waner"),
    "东方朔": ("Dongfang", "Shuo"),
    "皇甫谧": ("Huangfu", "Mi"),
    "尉迟恭": ("Yuchi", "Gong"),
    "公孙胜": ("Gongsun", "Sheng"),
    "慕容复": ("Murong", "Fu"),
    "令狐冲": ("Linghu", "Chong"),
    "长孙无忌": ("Zhangsun", "Wuji"),
    "宇文泰": ("Yuwen", "Tai"),
    "司徒雷登": ("Situ", "Leideng"),
    "夏侯惇": ("Xiahou", "Dun"),
    "轩辕明": ("Xuanyuan", "Ming"),
    "端木赐": ("Duanmu", "Ci"),
    "万俟卨": ("Moqi", "Xie"),
    "歐陽修": ("Ouyang", "Xiu"),
}


@pytest.mark.parametrize(("name", "expected"), sorted(PLAYERS.items()))
def test_real_players(name: str, expected: tuple[str, str]) -> None:
    """Issue #14: 姓 first, given name run together and capitalised once."""
    assert egf_name(name) == expected


def test_at_least_forty_real_players() -> None:
    assert len(PLAYERS) >= 40


@pytest.mark.parametrize(("name", "expected"), sorted(SURNAMES.items()))
def test_surname_readings(name: str, expected: tuple[str, str]) -> None:
    assert egf_name(name) == expected


@pytest.mark.parametrize(("name", "expected"), sorted(COMPOUNDS.items()))
def test_compound_surnames(name: str, expected: tuple[str, str]) -> None:
    assert egf_name(name) == expected


def test_every_compound_surname_is_two_characters_and_taken_whole() -> None:
    for surname, reading in COMPOUND_SURNAMES.items():
        assert len(surname) == 2
        assert split_han_name(surname + "明") == (surname, "明")
        assert egf_name(surname + "明") == (reading.capitalize(), "Ming")


def test_a_two_character_name_starting_like_a_compound_is_surname_and_given() -> None:
    """司马 alone is 司 Ma (a compound surname needs a given name after it)."""
    assert egf_name("司马") == ("Si", "Ma")


def test_u_umlaut_is_yu_by_default_and_u_umlaut_on_request() -> None:
    """Issue #14: 吕 → Lyu (passport spelling, the default) or Lü; never Lu (陆 卢 鲁)."""
    assert egf_name("吕洞宾") == ("Lyu", "Dongbin")
    assert egf_name("吕洞宾", umlaut="ü") == ("Lü", "Dongbin")
    assert egf_name("陆", "敏全") == ("Lu", "Minquan")
    assert egf_name("张", "女") == ("Zhang", "Nyu")
    assert egf_name("张", "略", umlaut="ü") == ("Zhang", "Lüe")
    assert ascii_name("吕", "洞宾") == ("Lyu", "Dongbin")


def test_given_name_apart_and_spaces() -> None:
    assert egf_name("张", "小龙") == ("Zhang", "Xiaolong")
    assert egf_name("张 小龙") == ("Zhang", "Xiaolong")
    assert egf_name("欧阳 修") == ("Ouyang", "Xiu")
    assert egf_name("张　小龙") == ("Zhang", "Xiaolong")  # ideographic space


def test_latin_names_unchanged() -> None:
    assert egf_name("Zhang Wei") == ("Zhang", "Wei")
    assert egf_name("Vannier", "Rémi") == ("Vannier", "Rémi")
    assert egf_name("le Galiard", "Jean-François") == ("le Galiard", "Jean-François")
    assert egf_name("Minieri Davide") == ("Minieri", "Davide")
    assert egf_name("Vannier") == ("Vannier", "")


def test_mixed_names() -> None:
    assert egf_name("王", "Alice") == ("Wang", "Alice")
    assert egf_name("Smith", "小明") == ("Smith", "Xiaoming")
    assert egf_name("李Alex") == ("Li", "Alex")
    assert egf_name("Li 小龙") == ("Li", "Xiaolong")


def test_never_a_question_mark_and_always_latin9() -> None:
    """OpenGotha writes ``? ??``; every name here is writable in the file's encoding."""
    for name in [*PLAYERS, *SURNAMES, *COMPOUNDS, "𠀀明", "〇一"]:
        surname, given = egf_name(name)
        text = f"{surname} {given}"
        assert "?" not in text
        text.encode(ENCODING)
        assert all(c.isascii() for c in text), text


def test_ascii_and_latin_text() -> None:
    assert ascii_name("Müller", "Jörg") == ("Muller", "Jorg")
    assert ascii_name("Łukasz Żółw") == ("Lukasz", "Zolw")
    assert latin_text("Šimon") == "Šimon"  # Latin-9 has Š
    assert latin_text("Šimon", ascii=True) == "Simon"
    assert latin_text("Dvořák") == "Dvorák"
    assert latin_text("ＡＢＣ１２") == "ABC12"
    assert latin_text("北京围棋赛") == "Beijing Wei Qi Sai"
