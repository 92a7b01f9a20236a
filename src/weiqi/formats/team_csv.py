"""Teams and rosters from CSV: one row per player, all or nothing.

Columns (a header row, any order, English or Chinese names): ``team`` (队名), ``name`` (姓名),
``rank`` (段位) are required; ``rating`` (等级分), ``nationality`` (国籍), ``id`` (编号),
``foreign`` (外援), ``protected`` (保护), ``captain`` (队长), ``club`` (俱乐部), ``coach`` (教练),
``birth_date`` (出生日期, YYYY-MM-DD) are optional. Without a ``foreign`` column, a
``home_nationality`` marks every player of another nationality as foreign. Without an ``id``
the player's id is the name (``weiqi.league.team.free_code``); two players may share a name when
their teams or birth dates tell them apart — two 张伟 of two teams are namesakes, the same name
and birth date twice in one team is the same player twice and refused.

Every bad row is reported with its line number, and nothing is imported unless every row is good.

>>> text = '''team,name,rank,rating,nationality,coach
... Jiangsu,Mi Yuting,9p,2750,CN,Zhang
... Jiangsu,Kim Jiseok,9p,2720,KR,Zhang
... Tianjin,Tang Weixing,9p,2650,CN,Liu
... '''
>>> for t in parse_team_csv(text, home_nationality="CN"):
...     print(t.team_id, t.coach, [(e.player_id, e.foreign) for e in t.roster])
Jiangsu Zhang [('Mi Yuting', False), ('Kim Jiseok', True)]
Tianjin Liu [('Tang Weixing', False)]
>>> [[e.player_id for e in t.roster] for t in parse_team_csv("team,name,rank\\nA,x,9p\\nB,x,3p\\n")]
[['x'], ['x (B)']]
>>> try:
...     parse_team_csv("team,name,rank\\nA,x,9p\\nA,y,12d\\nA,x,3p\\n")
... except RowsRejected as err:
...     [(line, str(why)) for line, why in err.problems]
[(3, 'rank 12d: level must be 1..9'), (4, 'player x already on line 2')]
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING

from weiqi.errors import InputError, InvalidSetting, RowsRejected
from weiqi.formats.players_csv import parse_birth_date
from weiqi.league.team import RosterEntry, Team, free_code
from weiqi.messages import Msg
from weiqi.text import check_upload, clean_name
from weiqi.tournament.ranks import Rank

if TYPE_CHECKING:
    from _csv import Reader

_ALIASES = {
    "team": ("team", "队名", "队", "球队"),
    "name": ("name", "姓名", "棋手"),
    "rank": ("rank", "段位"),
    "rating": ("rating", "等级分"),
    "nationality": ("nationality", "国籍"),
    "id": ("id", "player_id", "编号"),
    "foreign": ("foreign", "外援"),
    "protected": ("protected", "保护"),
    "captain": ("captain", "队长"),
    "club": ("club", "俱乐部"),
    "coach": ("coach", "教练"),
    "birth_date": ("birth_date", "birthdate", "出生日期"),
}
_REQUIRED = ("team", "name", "rank")
# Stored as they are (weiqi.text.clean_name: one line, nothing invisible, at most 200 characters).
_TEXT_COLUMNS = ("team", "name", "id", "club", "coach", "nationality")
_TRUE = {"1", "y", "yes", "true", "是", "√"}
_FALSE = {"", "0", "n", "no", "false", "否"}


@dataclass
class _TeamDraft:
    first_line: int
    club: str = ""
    coach: str = ""
    captain: str = ""
    entries: list[RosterEntry] = field(default_factory=list)


def _flag(value: str) -> bool | None:
    v = value.strip().lower()
    if v in _TRUE:
        return True
    if v in _FALSE:
        return False
    return None


def parse_roster_rating(text: str) -> int:
    """A roster player's rating as a CSV row or the roster form gives it: a whole number, 0 or
    more, empty for none (0); anything else raises ``InputError`` naming ``rating``.

    >>> parse_roster_rating("2450"), parse_roster_rating("")
    (2450, 0)
    >>> parse_roster_rating("-3")
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: rating: rating -3 is negative
    """
    text = text.strip()
    if not text:
        return 0
    try:
        rating = int(text)
    except ValueError:
        raise InputError(
            "rating", Msg("rating '%(cell)s' is not a whole number", cell=text)
        ) from None
    if rating < 0:
        raise InputError("rating", Msg("rating %(rating)s is negative", rating=rating))
    return rating


def data_rows(reader: Reader) -> Iterator[tuple[int, list[str]]]:
    r"""The rows a CSV ``reader`` has left (after its header), each with the line it starts
    on — a quoted cell may span lines — and the blank rows skipped.

    >>> reader = csv.reader(io.StringIO('team\n\n"A\nB"\nC\n'))
    >>> header = next(reader)
    >>> list(data_rows(reader))
    [(3, ['A\nB']), (5, ['C'])]
    """
    line = reader.line_num
    for row in reader:
        start, line = line + 1, reader.line_num
        if any(cell.strip() for cell in row):
            yield start, row


def _columns(header: list[str], source: str) -> dict[str, int]:
    names = [h.strip().lstrip("\ufeff").lower() for h in header]
    index: dict[str, int] = {}
    problems: list[tuple[int, Msg]] = []
    for i, raw in enumerate(names):
        key = next((k for k, names_ in _ALIASES.items() if raw in names_), None)
        if key is None:
            problems.append((1, Msg("unknown column '%(strip)s'", strip=str(header[i].strip()))))
        elif key in index:
            problems.append((1, Msg("column '%(key)s' given twice", key=str(key))))
        else:
            index[key] = i
    for key in _REQUIRED:
        if key not in index:
            problems.append((1, Msg("missing column '%(key)s'", key=str(key))))
    if problems:
        raise RowsRejected(source, problems)
    return index


def parse_team_csv(
    text: str,
    source: str = "teams.csv",
    home_nationality: str | None = None,
    *,
    lines_before: int = 0,
) -> list[Team]:
    """Teams in order of first appearance, players in file order; see the module doc.
    ``lines_before``: how many lines of ``text`` the reader does not count (a form's roster
    made into a file with a header), taken off every line number reported."""
    text = check_upload(source, text)
    # NFC once for the whole file: every cell is then stored as clean_name would store it.
    reader = csv.reader(io.StringIO(unicodedata.normalize("NFC", text.lstrip("\ufeff"))))
    try:
        header = next(reader)
    except StopIteration:
        raise RowsRejected(source, [(1, "the file is empty; expected a header row")]) from None
    col = _columns(header, source)
    problems: list[tuple[int, Msg]] = []
    teams: dict[str, _TeamDraft] = {}
    seen_ids: dict[str, int] = {}
    seen_players: dict[tuple[str, str, date | None], int] = {}
    for start, row in data_rows(reader):
        if len(row) > len(header):
            problems.append(
                (
                    start,
                    Msg("%(row)s cells for %(header)s columns", row=len(row), header=len(header)),
                )
            )
            continue

        def cell(key: str, row: list[str] = row) -> str:
            i = col.get(key)
            return row[i].strip() if i is not None and i < len(row) else ""

        before = len(problems)
        for key in _TEXT_COLUMNS:
            try:
                clean_name(key, cell(key), required=False)
            except InvalidSetting as err:
                problems.append((start, err.msg))
        if len(problems) > before:
            continue
        team_name, name = cell("team"), cell("name")
        if not team_name:
            problems.append((start, Msg("no team")))
        if not name:
            problems.append((start, Msg("no player name")))
        rank: Rank | None = None
        try:
            rank = Rank.parse(cell("rank"))
        except InputError as err:
            problems.append((start, err.msg))
        rating = 0
        try:
            rating = parse_roster_rating(cell("rating"))
        except InputError as err:
            problems.append((start, err.reason))
        nationality = cell("nationality")
        flags: dict[str, bool] = {}
        for key in ("foreign", "protected", "captain"):
            value = _flag(cell(key))
            if value is None:
                problems.append(
                    (
                        start,
                        Msg("%(key)s '%(key2)s': expected yes or no", key=key, key2=str(cell(key))),
                    )
                )
            flags[key] = bool(value)
        if "foreign" not in col and home_nationality is not None:
            flags["foreign"] = bool(nationality) and nationality.upper() != home_nationality.upper()
        born: date | None = None
        try:
            born = parse_birth_date(cell("birth_date"))
        except InputError as err:
            problems.append((start, err.reason))
        identity = (team_name, name, born)
        pid = cell("id")
        # the same player twice: the same id, or (no id) the same name, team and birth date
        seen_at = seen_ids.get(pid) if pid else seen_players.get(identity) if name else None
        if seen_at is not None:
            problems.append(
                (
                    start,
                    Msg(
                        "player %(pid)s already on line %(seen_ids)s",
                        pid=pid or name,
                        seen_ids=seen_at - lines_before,
                    ),
                )
            )
        elif name:
            pid = pid or free_code(name, team_name, seen_ids, born)
            seen_ids[pid] = start
            seen_players.setdefault(identity, start)
        if len(problems) > before or rank is None:
            continue
        draft = teams.setdefault(team_name, _TeamDraft(start))
        for key in ("club", "coach"):
            given = cell(key)
            known = getattr(draft, key)
            if given and known and given != known:
                problems.append(
                    (
                        start,
                        Msg(
                            "%(key)s '%(given)s' differs from '%(known)s' given for %(team_name)s",
                            key=key,
                            given=str(given),
                            known=str(known),
                            team_name=team_name,
                        ),
                    )
                )
            elif given:
                setattr(draft, key, given)
        if flags["captain"]:
            if draft.captain:
                problems.append(
                    (
                        start,
                        Msg(
                            "%(team_name)s already has captain %(captain)s",
                            team_name=team_name,
                            captain=draft.captain,
                        ),
                    )
                )
            else:
                draft.captain = pid
        draft.entries.append(
            RosterEntry(
                pid, name, rank, rating, nationality, flags["foreign"], flags["protected"], born
            )
        )
    if problems:
        shifted = [(max(n - lines_before, 1), why) for n, why in problems]
        raise RowsRejected(source, sorted(shifted, key=lambda p: p[0]))
    if not teams:
        raise RowsRejected(source, [(reader.line_num, "no players")])
    return [
        Team(tid, tid, tuple(d.entries), club=d.club, coach=d.coach, captain=d.captain)
        for tid, d in teams.items()
    ]
