"""SGF (FF[4]) game records: read and write, through sgfmill, into our own typed model.

The rest of the project never touches sgfmill: it gets an :class:`SgfGame` whose game information
is typed (komi in stones as a ``Fraction``, the result as a :class:`~weiqi.rules.result.Result`),
whose nodes form a tree that can be walked (variations are kept), and whose main line is the chain
of first children below the root.

Points are ``(row, col)`` tuples with row 0 at the BOTTOM and column 0 at the left, as GTP's A1
(and sgfmill) count them; ``None`` is a pass.

>>> game = read_sgf("(;GM[1]FF[4]SZ[9]KM[7.5]PB[柯洁]PW[AlphaGo];B[ee];W[];B[tt])")
>>> game.komi, game.black_player, [str(m) for m in game.moves()]
(Fraction(15, 4), '柯洁', ['B E5', 'W pass', 'B pass'])
>>> node = game.play(Color.WHITE, (0, 0), comment="警告: 黑方")
>>> b"W[ai]" in write_sgf(game)
True

Komi. SGF writes ``KM`` in points; we keep stones (one stone is two points), so ``KM[7.5]`` is
3¾ stones. Fox (野狐) and other Chinese servers write the komi as a whole number of hundredths
instead, ``KM[375]`` for 3¾ stones. No real komi exceeds 50 points, so a ``KM`` written as a
bare whole number above 50 (in absolute value) and a multiple of 25 is read as hundredths — of a
stone under Chinese rules or when ``RU`` is absent (that is what those servers write), of a point
under any other named rules (Japanese ``KM[650]`` is 6½ points) — and a note says so. Anything
else is points as the SGF spec says (``KM[51]`` is 51 points); we write ``KM[60.0]`` for a
whole komi above 50 points, so our own records never look like hundredths.

Encoding. ``CA`` is honoured. Files marked GB2312 or GBK are decoded as GB18030, their superset,
because Chinese software routinely writes GBK characters under a GB2312 label; but valid
non-ASCII UTF-8 under a Latin-1 or GB label is read as UTF-8 (Lizzie writes UTF-8 as
``CA[GB2312]``), with a note. Without ``CA`` the text is tried as UTF-8, then as GB18030 when
that gives plausible Chinese (CJK characters, mostly common ones), else it is Latin-1, the spec's
default (``Müller`` is not ``M黮ler``). A ``CA[UTF-8]`` file with a few broken characters (Fox
cuts names by bytes) is read with U+FFFD in their place and a note; when the declared charset
does not fit the bytes otherwise, UTF-8 and GB18030 are tried and a note says which one was
used. UTF-16 is recognised with or without a byte order mark. Records are written in UTF-8 with
``CA[UTF-8]`` unless asked otherwise.

Repeated root properties (``GM[1]GM[1]``, two ``KM``) count by their first value, with a note;
a ``PL`` that names neither colour is noted, as is SGF syntax left after the last game.

Errors. A file that cannot be read raises :class:`~weiqi.errors.InputError` naming the place:
line and column for broken syntax, the move (or node) and property for a bad value. Problems that
do not stop a record from being replayed — an unknown ``RE``, an ``OT`` of an unknown form, a
guessed charset — are kept in ``game.notes`` instead.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

from sgfmill import sgf_grammar, sgf_properties

from weiqi import __version__
from weiqi.errors import InputError
from weiqi.formats.overtime import Overtime, parse_overtime
from weiqi.messages import Msg
from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result, format_points
from weiqi.rules.vertex import COLUMNS, MAX_SIZE, MIN_SIZE

if TYPE_CHECKING:  # the clock is imported when a time control is asked for: check needs none
    from weiqi.clock.control import TimeControl

Point = tuple[int, int]
"""``(row, col)``, row 0 at the bottom (GTP orientation)."""


def format_point(point: Point | None) -> str:
    """A point in GTP notation (no column I); ``pass`` for ``None``.

    >>> format_point((3, 3)), format_point((0, 8)), format_point(None)
    ('D4', 'J1', 'pass')
    """
    if point is None:
        return "pass"
    row, col = point
    return f"{COLUMNS[col]}{row + 1}"


@dataclass(frozen=True)
class SgfMove:
    """A move of a record: the colour and its point, ``None`` for a pass."""

    color: Color
    point: Point | None

    @property
    def is_pass(self) -> bool:
        return self.point is None

    def __str__(self) -> str:
        return f"{self.color.value} {format_point(self.point)}"


@dataclass(eq=False)
class SgfNode:
    """One node of the game tree.

    ``extra`` holds every property this model does not name, as unescaped text values, so a
    record keeps its markup, labels and private properties when it is read and written back.
    Use :meth:`add_comment` and :meth:`set_property` to annotate a node (rulings, penalties).
    """

    move: SgfMove | None = None
    setup_black: list[Point] = field(default_factory=list)  # AB
    setup_white: list[Point] = field(default_factory=list)  # AW
    setup_empty: list[Point] = field(default_factory=list)  # AE
    comment: str | None = None  # C
    black_time_left: float | None = None  # BL, seconds
    white_time_left: float | None = None  # WL, seconds
    black_overtime_left: int | None = None  # OB: periods (byo-yomi) or stones (Canadian) left
    white_overtime_left: int | None = None  # OW
    extra: dict[str, list[str]] = field(default_factory=dict)
    children: list[SgfNode] = field(default_factory=list)

    @property
    def has_setup(self) -> bool:
        return bool(self.setup_black or self.setup_white or self.setup_empty)

    def add_comment(self, text: str) -> None:
        """Append a paragraph to the node's comment.

        >>> node = SgfNode()
        >>> node.add_comment("第57手 打劫违规"); node.add_comment("警告")
        >>> node.comment
        '第57手 打劫违规\\n警告'
        """
        self.comment = text if not self.comment else f"{self.comment}\n{text}"

    def set_property(self, identifier: str, *values: str) -> None:
        """Set a property this model does not name (``N``, ``GC``, a private ``XR`` …).

        >>> node = SgfNode(); node.set_property("N", "封盘")
        >>> node.extra
        {'N': ['封盘']}
        """
        if not sgf_grammar.is_valid_property_identifier(identifier):
            raise ValueError(f"not an SGF property name: {identifier!r}")
        if identifier in _MODELLED_NODE_PROPERTIES or identifier in _GAME_INFO_PROPERTIES:
            raise ValueError(f"{identifier} has its own field; set that instead")
        if not values:
            raise ValueError(f"{identifier} needs at least one value")
        self.extra[identifier] = list(values)

    def add_child(self, child: SgfNode | None = None) -> SgfNode:
        """Add a child (a new variation when the node already has one) and return it."""
        node = child if child is not None else SgfNode()
        self.children.append(node)
        return node


@dataclass(eq=False)
class SgfGame:
    """A game record: game information plus the tree of nodes below ``root``.

    ``komi`` is in stones; ``time_limit`` (TM) and the per-node times are in seconds; ``overtime``
    is the raw ``OT`` text (see :attr:`overtime_rule`); ``result_text`` is the raw ``RE`` as read,
    while ``result`` is what it means (``None`` when unknown or unreadable).
    """

    size: int = 19
    komi: Fraction | None = None
    handicap: int | None = None
    rules: str | None = "Chinese"
    result: Result | None = None
    result_text: str | None = None
    black_player: str | None = None
    white_player: str | None = None
    black_rank: str | None = None
    white_rank: str | None = None
    date: str | None = None
    event: str | None = None
    round: str | None = None
    time_limit: float | None = None
    overtime: str | None = None
    root: SgfNode = field(default_factory=SgfNode)
    notes: list[str] = field(default_factory=list)
    source: str | None = None

    def __post_init__(self) -> None:
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            raise InputError(
                "SZ", Msg("board size %(size)s is not between 2 and 25", size=self.size)
            )

    @property
    def overtime_rule(self) -> Overtime | None:
        """``OT`` read as an :class:`~weiqi.formats.overtime.Overtime`, ``None`` if unknown."""
        return parse_overtime(self.overtime) if self.overtime else None

    def time_control(self) -> TimeControl:
        """``TM`` and ``OT`` as the clock's :class:`~weiqi.clock.control.TimeControl`.

        The Chinese ``OT`` forms are understood too (they are rewritten to the form the clock
        reads); an ``OT`` of no known form is an :class:`InputError` naming it.

        >>> SgfGame(time_limit=3300, overtime="5次1分钟").time_control().format()
        '55m+5x60s'
        >>> SgfGame().time_control().format()
        'untimed'
        """
        rule = self.overtime_rule
        overtime = rule.to_sgf() if rule is not None else self.overtime
        time_limit = None if self.time_limit is None else f"{self.time_limit:g}"
        from weiqi.clock.notation import from_sgf

        return from_sgf(time_limit, overtime)

    def main_line(self) -> list[SgfNode]:
        """The nodes below the root along the first child of each node."""
        nodes = []
        node = self.root
        while node.children:
            node = node.children[0]
            nodes.append(node)
        return nodes

    def moves(self) -> list[SgfMove]:
        """The moves of the main line, in order; move number ``n`` is ``moves()[n - 1]``."""
        return [node.move for node in self.main_line() if node.move is not None]

    def last_node(self) -> SgfNode:
        """The end of the main line (the root when there are no moves)."""
        line = self.main_line()
        return line[-1] if line else self.root

    def play(
        self,
        color: Color,
        point: Point | None,
        *,
        comment: str | None = None,
        time_left: float | None = None,
        overtime_left: int | None = None,
    ) -> SgfNode:
        """Append a move to the main line and return its node.

        ``time_left`` and ``overtime_left`` are the mover's (``BL``/``OB`` for Black,
        ``WL``/``OW`` for White).
        """
        _check_point(point, self.size, "move")
        node = SgfNode(move=SgfMove(color, point), comment=comment)
        if color is Color.BLACK:
            node.black_time_left, node.black_overtime_left = time_left, overtime_left
        else:
            node.white_time_left, node.white_overtime_left = time_left, overtime_left
        return self.last_node().add_child(node)

    def iter_nodes(self) -> Iterator[SgfNode]:
        """Every node of the tree, depth first, variations after the main line's node."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


_SGF_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def on_board(point: Point, size: int) -> bool:
    """Whether ``point`` lies on a ``size``×``size`` board.

    >>> on_board((0, 18), 19), on_board((-7, 25), 19)
    (True, False)
    """
    row, col = point
    return 0 <= row < size and 0 <= col < size


def sgf_point(point: Point | None, size: int) -> str:
    """The SGF coordinate of a point (``""`` for a pass), also for a point off the board as
    :func:`read_sgf` keeps it with ``keep_off_board``.

    >>> sgf_point((18, 0), 19), sgf_point((-7, 25), 19), sgf_point(None, 19)
    ('aa', 'zz', '')
    """
    if point is None:
        return ""
    row, col = point
    return _SGF_LETTERS[col] + _SGF_LETTERS[size - 1 - row]


def _check_point(point: Point | None, size: int, what: str) -> None:
    if point is not None and not on_board(point, size):
        raise InputError(
            what, Msg("point %(point)s is off the %(size)s×%(size)s board", point=point, size=size)
        )


# -- reading --------------------------------------------------------------------------------------

_MODELLED_NODE_PROPERTIES = frozenset({"B", "W", "AB", "AW", "AE", "C", "BL", "WL", "OB", "OW"})
_GAME_INFO_PROPERTIES = frozenset(
    {"FF", "GM", "CA", "AP", "SZ", "KM", "HA", "RU", "RE", "PB", "PW", "BR", "WR", "DT", "EV", "RO"}
    | {"TM", "OT"}
)
_MOVE_PROPERTIES = ("B", "W", "BL", "WL", "OB", "OW")
_TEXT_FIELDS = {
    "PB": "black_player",
    "PW": "white_player",
    "BR": "black_rank",
    "WR": "white_rank",
    "DT": "date",
    "EV": "event",
    "RO": "round",
    "RU": "rules",
    "OT": "overtime",
}
_CHARSET_ALIASES = {"gb2312": "gb18030", "gbk": "gb18030", "cp936": "gb18030", "euc_cn": "gb18030"}
_CA_RE = re.compile(rb"(?<![A-Za-z])CA\s*\[\s*([A-Za-z0-9_.:\- ]*?)\s*\]")


def read_sgf(
    data: bytes | str, *, source: str = "file.sgf", keep_off_board: bool = False
) -> SgfGame:
    """Read the first game of an SGF file.

    ``data`` is the file's bytes (decoded by its ``CA``) or text already decoded. ``source``
    names the file in error messages.

    A move on a point off the board (``B[zz]`` on 19×19) is an error, unless ``keep_off_board``:
    a checker that reports such a move as illegal gets it as an :class:`SgfMove` whose ``point``
    lies outside ``0 <= row, col < size`` (``sgf_point`` names it again); it must then test
    :func:`on_board` before using the point.

    >>> read_sgf(b"(;SZ[9];B[ee];W[zz])", source="g.sgf")
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: g.sgf, move 2: bad point 'zz' in W[zz]
    >>> read_sgf("(;SZ[9];B[ee]", source="g.sgf")
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: g.sgf, line 1, column 14: the file ends inside the game; expected ')'
    """
    notes: list[str] = []
    if isinstance(data, str):
        raw = data.removeprefix("\ufeff").encode("utf-8")
    elif data.isascii() and not _needs_decoding(data, notes):
        raw = bytes(data)  # the same text in any charset a CA names here: no copies
    else:
        raw = _decode(bytes(data), source, notes).encode("utf-8")
    if raw.count(b";") > MAX_NODES:
        # sgfmill holds every token of the file at once (hundreds of bytes each) and we a node
        # object per node: refuse a tree too big to hold before building any of it. Each node
        # starts with ";" (one in a comment counts too: no real record comes near the limit).
        raise InputError(
            source, f"the file has more than {MAX_NODES:,} nodes, the most this reader holds"
        )
    try:
        coarse, end = sgf_grammar._parse_sgf_game(raw, 0)
    except ValueError as exc:
        raise _locate_syntax_error(raw, source, str(exc)) from None
    if coarse is None:
        raise _locate_syntax_error(raw, source, "no SGF data found")
    note_tail(raw, end, notes, more="the file holds more than one game; the first was read")
    game = _Builder(source, notes, keep_off_board=keep_off_board).build(coarse)
    return game


#: The most nodes :func:`read_sgf` builds into a tree (about 1 kB each in memory).
MAX_NODES = 500_000
_SYNTAX_CHARS_RE = re.compile(rb"[()\[\];]")


def note_tail(raw: bytes, end: int, notes: list[str], *, more: str | None) -> bool:
    """After the game ending at ``end``: whether another game follows (noted as ``more`` if
    given); else note left-over SGF syntax (a broken or cut record), while plain text such as
    a download banner stays silent."""
    if _START_RE.search(raw, end) is not None:
        if more is not None:
            notes.append(more)
        return True
    tail = raw[end:]
    if _SYNTAX_CHARS_RE.search(tail) is not None:
        shown = tail.strip()[:20].decode("utf-8", errors="replace")
        notes.append(f"text after the last game was ignored: {shown!r}")
    return False


def _decode(data: bytes, source: str, notes: list[str]) -> str:
    m = _CA_RE.search(data)
    declared = m.group(1).decode("ascii") if m else None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        # Windows "Unicode" text: without this it read as no SGF game at all.
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            raise InputError(source, Msg("starts as UTF-16 text but is not valid UTF-16")) from None
        notes.append("the file is UTF-16 text (byte order mark); read as UTF-16")
        return text.removeprefix("\ufeff")
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
        declared = "UTF-8"  # the byte order mark outranks a CA
    elif m is None and b"\x00" in data[:4096]:
        utf16 = _utf16_without_bom(data)
        if utf16 is not None:
            notes.append(f"the file is {utf16[0].upper()} text without a byte order mark")
            return utf16[1]
    codec = _known_codec(declared, notes) if declared else None
    if codec is not None:
        codec = _CHARSET_ALIASES.get(codec, codec)
        if codec in {"iso8859-1", "gb18030"} and not data.isascii() and _decodes(data, "utf-8"):
            # Latin-1 decodes any bytes and GB18030 most UTF-8, so a mislabelled UTF-8 file
            # would silently turn into mojibake (Lizzie writes UTF-8 under CA[GB2312]); valid
            # non-ASCII UTF-8 is almost never meant as anything else.
            notes.append(f"CA[{declared}] but the text is UTF-8; read as UTF-8")
            return data.decode("utf-8")
        try:
            return data.decode(codec)
        except UnicodeDecodeError as exc:
            if codec == "utf-8" and _mostly_utf8(data):
                # Fox cuts player names by bytes: one broken character, the moves are ASCII.
                line = data.count(b"\n", 0, exc.start) + 1
                notes.append(
                    f"line {line}, byte {exc.start}: not UTF-8 text as CA[{declared}] says; "
                    "the broken characters were replaced by \ufffd"
                )
                return data.decode("utf-8", errors="replace")
            for guess in ("utf-8", "gb18030"):
                if guess != codec and _decodes(data, guess):
                    notes.append(f"CA[{declared}] does not fit the bytes; read as {guess.upper()}")
                    return data.decode(guess)
            line = data.count(b"\n", 0, exc.start) + 1
            raise InputError(
                Msg(
                    "%(source)s, line %(line)s, byte %(start)s",
                    source=source,
                    line=line,
                    start=exc.start,
                ),
                Msg("not %(declared)s text as CA[%(declared)s] says", declared=declared),
            ) from None
    if _decodes(data, "utf-8"):
        return data.decode("utf-8")
    if _decodes(data, "gb18030") and _plausible_gb(data.decode("gb18030")):
        notes.append("no CA; the text was read as GB18030")
        return data.decode("gb18030")
    notes.append("no CA; the text was read as ISO-8859-1")
    return data.decode("latin-1")


def _utf16_without_bom(data: bytes) -> tuple[str, str] | None:
    """UTF-16 text without a byte order mark: the codec and the text, when decoding it as
    little- or big-endian UTF-16 gives an SGF game (``(;``)."""
    for codec in ("utf-16-le", "utf-16-be"):
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if _START_TEXT_RE.search(text[:4096]) is not None:
            return codec, text
    return None


def _mostly_utf8(data: bytes) -> bool:
    """Whether undecodable UTF-8 is a few broken characters in otherwise UTF-8 text: at least
    as many well-formed multi-byte characters as broken sequences."""
    text = data.decode("utf-8", errors="replace")
    broken = text.count("\ufffd") - data.decode("utf-8", errors="ignore").count("\ufffd")
    good = sum(1 for ch in text if ch > "\x7f" and ch != "\ufffd")
    return 0 < broken <= good


def _plausible_gb(text: str) -> bool:
    """Whether GB18030-decoded text looks like Chinese: every non-ASCII character a CJK
    ideograph or CJK punctuation, and at least two thirds of them common ones (in GB2312).
    Latin-1 accents read as GB give rare ideographs: ``Müller`` would be ``M黮ler``."""
    common = rare = 0
    for ch in text:
        if ch <= "\x7f":
            continue
        if not (
            "\u4e00" <= ch <= "\u9fff" or "\u3000" <= ch <= "\u303f" or "\uff00" <= ch <= "\uffef"
        ):
            return False
        try:
            ch.encode("gb2312")
        except UnicodeEncodeError:
            rare += 1
        else:
            common += 1
    return common >= 2 * rare


def _needs_decoding(data: bytes, notes: list[str]) -> bool:
    """Whether ASCII bytes need :func:`_decode` anyway: NUL bytes (UTF-16 without a byte
    order mark) or a ``CA`` naming a charset that is not ASCII-compatible; notes an unknown
    ``CA`` as :func:`_decode` does."""
    if b"\x00" in data:
        return True
    m = _CA_RE.search(data)
    if m is None:
        return False
    declared = m.group(1).decode("ascii")
    if not declared:
        return False
    codec = _known_codec(declared, notes)
    return codec is not None and b"(".decode(codec, errors="replace") != "("


def _known_codec(declared: str, notes: list[str]) -> str | None:
    """The codec a ``CA`` names, or ``None`` (noted) when Python knows no such charset.

    >>> notes: list[str] = []
    >>> _known_codec("GB2312", notes), _known_codec("Klingon", notes), notes
    ('gb2312', None, ['CA[Klingon] is not a known charset; the charset was guessed'])
    """
    try:
        return codecs.lookup(declared).name
    except LookupError:
        notes.append(f"CA[{declared}] is not a known charset; the charset was guessed")
        return None


def _decodes(data: bytes, codec: str) -> bool:
    try:
        data.decode(codec)
    except UnicodeDecodeError:
        return False
    return True


@dataclass(frozen=True)
class _Place:
    """Where a node sits, for error messages: its move number along its path, whether it is on
    the main line."""

    move_number: int
    main_line: bool
    is_root: bool = False

    def describe(self, has_move: bool) -> str:
        if self.is_root:
            return "root node"
        if has_move:
            where = f"move {self.move_number}"
        elif self.move_number == 0:
            where = "node before the first move"
        else:
            where = f"node after move {self.move_number}"
        return where if self.main_line else f"{where} (in a variation)"


ROOT_PLACE = _Place(0, True, is_root=True)


@cache
def _presenter(size: int) -> sgf_properties.Presenter:
    """sgfmill's property reader for a board size (read-only here, so shared)."""
    return sgf_properties.Presenter(size, "UTF-8")


class _Builder:
    def __init__(self, source: str, notes: list[str], *, keep_off_board: bool = False):
        self.source = source
        self.keep_off_board = keep_off_board
        self.notes = notes
        self.size = 19
        self.presenter = _presenter(19)

    def error(self, place: str, reason: str) -> InputError:
        return InputError(Msg("%(source)s, %(place)s", source=self.source, place=place), reason)

    def root(self, props: dict[str, list[bytes]]) -> tuple[SgfGame, dict[str, list[bytes]] | None]:
        """The game with its information and root node from the root's properties, and the
        properties of a move the root held (to be read as the first node below it)."""
        root_props = dict(props)
        move_props = None
        if "B" in root_props or "W" in root_props:
            # The root holds the game; a move there becomes the first node below it.
            move_props = {i: root_props.pop(i) for i in _MOVE_PROPERTIES if i in root_props}
            self.notes.append("the root node holds a move; it is read as the first move")
        self.size = self._size(root_props)
        self.presenter = _presenter(self.size)
        game = SgfGame(size=self.size, rules=None, notes=self.notes, source=self.source)
        self._game_info(game, root_props)
        game.root = self.node(root_props, ROOT_PLACE)
        return game, move_props

    def build(self, coarse: sgf_grammar.Coarse_game_tree) -> SgfGame:
        game, move_props = self.root(coarse.sequence[0])
        if move_props is not None:
            coarse.sequence.insert(1, move_props)
        root_place = ROOT_PLACE
        # Walk the coarse tree without recursion: records run to hundreds of nodes deep.
        stack: list[tuple[sgf_grammar.Coarse_game_tree, SgfNode, _Place, int]] = [
            (coarse, game.root, root_place, 1)
        ]
        while stack:
            tree, parent, place, index = stack.pop()
            for props in tree.sequence[index:]:
                place = self._child_place(parent, place, props)
                parent = parent.add_child(self.node(props, place))
            # Pushed in reverse so the first variation is attached (and numbered) first.
            for child_tree in reversed(tree.children):
                stack.append((child_tree, parent, place, 0))
        return game

    def _child_place(self, parent: SgfNode, place: _Place, props: dict[str, list[bytes]]) -> _Place:
        # ``place`` is the parent's; a child continues the main line only as its first child.
        number = place.move_number + (1 if ("B" in props or "W" in props) else 0)
        return _Place(number, place.main_line and not parent.children)

    # -- root ---------------------------------------------------------------------------------

    def _size(self, props: dict[str, list[bytes]]) -> int:
        values = props.get("SZ")
        if values is None:
            return 19
        text = values[0].decode("utf-8").strip()
        if ":" in text:
            raise self.error("root node", f"SZ[{text}]: rectangular boards are not supported")
        try:
            size = int(text)
        except ValueError:
            raise self.error("root node", f"SZ[{text}] is not a board size") from None
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise self.error("root node", f"SZ[{text}]: board size must be 2 to 25")
        return size

    def _game_info(self, game: SgfGame, props: dict[str, list[bytes]]) -> None:
        """Move the game-information properties of the root into ``game`` (removing them from
        ``props``, whose remainder becomes the root node)."""
        text: dict[str, str] = {}
        for ident in [i for i in props if i in _GAME_INFO_PROPERTIES]:
            values = props.pop(ident)
            if len(values) > 1:
                # GM[1]GM[1] or two KM: sgfmill merges repeated properties into one list; each
                # of these has one value, so the first counts (as GNU Go reads it).
                shown = self._raw(values)
                first = self._simpletext(values[:1])
                self.notes.append(
                    f"root node: {ident}{_short(shown)} has {len(values)} values; "
                    f"the first, {ident}[{_short(first)}], was used"
                )
                values = values[:1]
            text[ident] = self._simpletext(values)
        gm = text.get("GM")
        if gm is not None and gm.strip() != "1":
            raise self.error("root node", f"GM[{gm}]: not a game of Go (GM[1])")
        for ident, attribute in _TEXT_FIELDS.items():
            if ident in text:
                setattr(game, attribute, text[ident])
        if "HA" in text:
            game.handicap = self._handicap(text["HA"])
        if "KM" in text:
            game.komi = self._komi(text["KM"], game.rules)
        if "TM" in text:
            game.time_limit = self._seconds("TM", text["TM"], "root node", props)
        if "RE" in text:
            game.result_text = text["RE"]
            game.result = self._result(text["RE"])
        if game.overtime is not None and parse_overtime(game.overtime) is None:
            self.notes.append(f"OT[{game.overtime}]: overtime of an unknown form; kept as text")

    def _simpletext(self, values: list[bytes]) -> str:
        return ", ".join(sgf_grammar.simpletext_value(v).decode("utf-8") for v in values)

    def _handicap(self, text: str) -> int:
        try:
            handicap = int(text.strip())
        except ValueError:
            raise self.error("root node", f"HA[{text}] is not a number of stones") from None
        if handicap < 0 or handicap > self.size * self.size:
            raise self.error("root node", f"HA[{text}] is not a number of handicap stones")
        return handicap

    def _komi(self, text: str, rules: str | None) -> Fraction:
        cleaned = text.strip().replace(",", ".")
        try:
            value = Fraction(cleaned)
        except (ValueError, ZeroDivisionError):
            raise self.error("root node", f"KM[{text}] is not a number") from None
        if _looks_like_hundredths(cleaned, value):
            if _is_chinese_rules(rules):
                stones = value / 100
                self.notes.append(
                    f"KM[{text}] read as hundredths of a stone: komi {format_points(stones)} stones"
                )
                return stones
            points = value / 100
            self.notes.append(
                f"KM[{text}] read as hundredths of a point under RU[{rules}]: komi "
                f"{format_points(points)} points"
            )
            return points / 2
        return value / 2

    def _result(self, text: str) -> Result | None:
        if text.strip() in {"", "?"}:
            return None
        try:
            return Result.parse(text)
        except InputError:
            pass
        zh = _parse_result_zh(text)
        if zh is None:
            self.notes.append(f"RE[{text}]: not a result this program reads; kept as text")
        return zh

    def _seconds(
        self, ident: str, text: str, place: str, keep: dict[str, list[bytes]]
    ) -> float | None:
        try:
            value = float(text.strip())
        except ValueError:
            value = -1.0
        if value < 0 or value != value or value == float("inf"):
            self.notes.append(f"{place}: {ident}[{text}] is not a number of seconds; kept as text")
            keep[ident] = [text.encode("utf-8")]
            return None
        return value

    # -- nodes --------------------------------------------------------------------------------

    def node(self, props: dict[str, list[bytes]], place: _Place) -> SgfNode:
        """One node from its properties (values raw, as sgfmill's tokeniser gives them)."""
        node = SgfNode()
        colors = [c for c in ("B", "W") if c in props]
        where = place.describe(bool(colors))
        if len(colors) == 2:
            raise self.error(where, "a node holds both B and W moves")
        if colors:
            ident = colors[0]
            values = props[ident]
            shown = self._raw(values)
            if len(values) != 1:
                raise self.error(where, f"{ident}{shown}: a move has exactly one point")
            try:
                point = self.presenter.interpret(ident, values)
            except ValueError:
                point = self._off_board(values[0])
                if point is None:
                    raise self.error(
                        where, f"bad point {values[0].decode('utf-8')!r} in {ident}{shown}"
                    ) from None
            node.move = SgfMove(Color(ident), point)
        node.setup_black = self._points("AB", props, where)
        node.setup_white = self._points("AW", props, where)
        node.setup_empty = self._points("AE", props, where)
        if "PL" in props and self._simpletext(props["PL"]).strip().upper() not in {"B", "W"}:
            self.notes.append(
                f"{where}: PL{_short(self._raw(props['PL']))} names neither B nor W; ignored"
            )
        if "C" in props:
            node.comment = "\n".join(sgf_grammar.text_value(v).decode("utf-8") for v in props["C"])
        keep: dict[str, list[bytes]] = {}
        node.black_time_left = self._time_left("BL", props, where, keep)
        node.white_time_left = self._time_left("WL", props, where, keep)
        node.black_overtime_left = self._count_left("OB", props, where, keep)
        node.white_overtime_left = self._count_left("OW", props, where, keep)
        for name, values in props.items():
            if name not in _MODELLED_NODE_PROPERTIES:
                node.extra[name] = [sgf_grammar.text_value(v).decode("utf-8") for v in values]
        for name, values in keep.items():
            node.extra[name] = [v.decode("utf-8") for v in values]
        return node

    def _off_board(self, value: bytes) -> Point | None:
        text = value.decode("utf-8").strip()
        if not self.keep_off_board or len(text) != 2 or not all(c in _SGF_LETTERS for c in text):
            return None
        return self.size - 1 - _SGF_LETTERS.index(text[1]), _SGF_LETTERS.index(text[0])

    def _raw(self, values: list[bytes]) -> str:
        return "".join(f"[{v.decode('utf-8')}]" for v in values)

    def _points(self, ident: str, props: dict[str, list[bytes]], where: str) -> list[Point]:
        values = props.get(ident)
        if values is None:
            return []
        try:
            points: set[Point] = self.presenter.interpret(ident, values)
        except ValueError:
            bad = next((v for v in values if not self._point_list_ok(ident, v)), b"".join(values))
            raise self.error(
                where, f"bad point {bad.decode('utf-8')!r} in {ident}{self._raw(values)}"
            ) from None
        return sorted(points)

    def _point_list_ok(self, ident: str, value: bytes) -> bool:
        try:
            self.presenter.interpret(ident, [value])
        except ValueError:
            return False
        return True

    def _time_left(
        self, ident: str, props: dict[str, list[bytes]], where: str, keep: dict[str, list[bytes]]
    ) -> float | None:
        if ident not in props:
            return None
        return self._seconds(ident, self._simpletext(props[ident]), where, keep)

    def _count_left(
        self, ident: str, props: dict[str, list[bytes]], where: str, keep: dict[str, list[bytes]]
    ) -> int | None:
        if ident not in props:
            return None
        text = self._simpletext(props[ident])
        try:
            count = int(text.strip())
        except ValueError:
            count = -1
        if count < 0:
            self.notes.append(f"{where}: {ident}[{text}] is not a count; kept as text")
            keep[ident] = props[ident]
            return None
        return count


def _short(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters for a note."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _looks_like_hundredths(text: str, value: Fraction) -> bool:
    # Fox writes only quarter stones (375, 325, 0) or half points (650); we write ``51.0``
    # for a (senseless) whole komi above 50 points, so our own files never match.
    return text.lstrip("+-").isdigit() and abs(value) > 50 and value % 25 == 0


def _is_chinese_rules(rules: str | None) -> bool:
    if rules is None or not rules.strip():
        return True
    key = rules.strip().lower()
    return "chinese" in key or "中国" in key or key in {"cn", "china", "zh", "cwa"}


_ZH_RESULT_RE = re.compile(
    r"(?P<who>[黑白])(?:方)?(?:"
    r"(?P<resign>中盘胜)|(?P<time>超时胜)|(?P<forfeit>不战胜)"
    r"|胜(?P<whole>\d+)?(?:又)?(?P<frac>\d+/\d+)?子"
    r"|胜(?P<points>\d+(?:\.\d+)?)目)"
)


def _parse_result_zh(text: str) -> Result | None:
    """Chinese results as Chinese software writes ``RE``: ``黑中盘胜``, ``白胜1又1/4子``,
    ``黑胜3/4子``, ``白超时胜``, ``和棋`` (handled by ``Result.parse``)."""
    m = _ZH_RESULT_RE.fullmatch(text.strip().replace(" ", ""))
    if m is None:
        return None
    winner = Color.BLACK if m.group("who") == "黑" else Color.WHITE
    if m.group("resign"):
        return Result.win(winner, Reason.RESIGNATION)
    if m.group("time"):
        return Result.win(winner, Reason.TIME)
    if m.group("forfeit"):
        return Result.win(winner, Reason.FORFEIT)
    if m.group("points"):
        margin = Fraction(m.group("points")) / 2
    else:
        if not m.group("whole") and not m.group("frac"):
            return None
        margin = Fraction(int(m.group("whole") or 0)) + Fraction(m.group("frac") or 0)
    if margin <= 0:
        return None
    return Result.by_count(winner, margin)


# -- syntax errors --------------------------------------------------------------------------------

_START_RE = re.compile(rb"\(\s*;")
_START_TEXT_RE = re.compile(r"\(\s*;")
_IDENT_RE = re.compile(rb"\s*[A-Za-z]{1,64}")


def _locate_syntax_error(
    raw: bytes, source: str, sgfmill_reason: str, start: int = 0
) -> InputError:
    """Turn sgfmill's terse parse error into one naming the line and column.

    sgfmill's tokeniser yields tokens without positions; their positions follow from the token
    contents (tokens are separated by whitespace only), and replaying the parser's checks over
    them finds the first token it refused.
    """
    if _START_RE.search(raw, start) is None:
        return InputError(source, Msg("no SGF game found: expected '(;' to start one"))
    tokens, end = sgf_grammar.tokenise(raw, start)
    positions = _token_positions(raw, tokens, start)

    def at(offset: int, reason: str) -> InputError:
        line, column = _line_column(raw, offset)
        return InputError(
            Msg(
                "%(source)s, line %(line)s, column %(column)s",
                source=source,
                line=line,
                column=column,
            ),
            reason,
        )

    open_trees = 0
    sequence_open = False  # inside a game tree, before its variations
    nodes_in_sequence = 0
    node_open = False
    previous = ""
    for index, (kind, token) in enumerate(tokens):
        position = positions[index]
        if kind == "V":
            if previous not in {"I", "V"}:
                return at(position, "a property value '[…]' without a property name before it")
        elif kind == "I":
            name = token.decode("ascii")
            if index + 1 >= len(tokens) or tokens[index + 1][0] != "V":
                if index + 1 < len(tokens):
                    return at(position, f"property {name} has no value; expected '[' after it")
            elif not node_open:
                return at(position, f"property {name} outside a node; expected ';' before it")
        elif token == b";":
            if not sequence_open:
                return at(position, "a node ';' after ')'; expected '(' or ')'")
            nodes_in_sequence += 1
            node_open = True
        else:
            if sequence_open and nodes_in_sequence == 0:
                return at(position, "an empty game tree; expected ';' after '('")
            sequence_open = False
            node_open = False
            if token == b"(":
                open_trees += 1
                sequence_open = True
                nodes_in_sequence = 0
            else:
                open_trees -= 1
        previous = kind
    rest = raw[end:]
    stripped = rest.lstrip()
    offset = end + (len(rest) - len(stripped))
    if stripped.startswith(b"["):
        return at(offset, "a property value '[' that is never closed by ']'")
    if stripped:
        shown = stripped[:1].decode("utf-8", errors="replace")
        if stripped[0] >= 0x80:
            shown = stripped[:4].decode("utf-8", errors="ignore")[:1]
        return at(
            offset,
            f"unexpected {shown!r}; expected a property name, '[', ';', '(' or ')'",
        )
    if open_trees > 0:
        return at(len(raw), "the file ends inside the game; expected ')'")
    return InputError(
        source, Msg("cannot read the SGF: %(sgfmill_reason)s", sgfmill_reason=sgfmill_reason)
    )


def _token_positions(raw: bytes, tokens: list[tuple[str, bytes]], begin: int = 0) -> list[int]:
    start = _START_RE.search(raw, begin)
    assert start is not None
    offset = start.start()
    positions = []
    for kind, token in tokens:
        while raw[offset : offset + 1].isspace():
            offset += 1
        positions.append(offset)
        if kind == "I":
            m = _IDENT_RE.match(raw, offset)
            assert m is not None
            offset = m.end()
        elif kind == "V":
            offset += len(token) + 2
        else:
            offset += 1
    return positions


def _line_column(raw: bytes, offset: int) -> tuple[int, int]:
    before = raw[:offset].decode("utf-8", errors="replace")
    line = before.count("\n") + 1
    column = len(before) - (before.rfind("\n") + 1) + 1
    return line, column


# -- writing --------------------------------------------------------------------------------------


def write_sgf(game: SgfGame, *, encoding: str = "UTF-8") -> bytes:
    """Write a record as FF[4] SGF in ``encoding`` (UTF-8 unless asked, e.g. ``GB18030`` for
    old Chinese software), komi in points, passes as ``B[]``.

    >>> game = SgfGame(size=9, komi=Fraction(15, 4), black_player="古力", white_player="李世石")
    >>> _ = game.play(Color.BLACK, (4, 4))
    >>> print(write_sgf(game).decode(), end="")  # doctest: +ELLIPSIS
    (;FF[4]AP[weiqi:...]CA[UTF-8]GM[1]KM[7.5]PB[古力]PW[李世石]RU[Chinese]
    SZ[9];B[ee])
    """
    try:
        charset = sgf_properties.normalise_charset_name(encoding)
    except LookupError:
        raise InputError(
            "encoding", Msg("unknown charset %(encoding)s", encoding=repr(encoding))
        ) from None
    presenter = sgf_properties.Presenter(game.size, "UTF-8")
    root = _node_properties(game.root, game.size, presenter, "root node")
    root.update(_game_info_properties(game, charset))
    tree = sgf_grammar.Coarse_game_tree()
    tree.sequence.append(root)
    # Iterative, like the reader: one coarse sequence per run of single children.
    stack: list[tuple[sgf_grammar.Coarse_game_tree, SgfNode, int]] = [(tree, game.root, 0)]
    while stack:
        coarse, node, moves = stack.pop()
        while len(node.children) == 1:
            node = node.children[0]
            moves += node.move is not None
            coarse.sequence.append(_node_properties(node, game.size, presenter, f"move {moves}"))
        for child in node.children:
            child_tree = sgf_grammar.Coarse_game_tree()
            child_moves = moves + (child.move is not None)
            child_tree.sequence.append(
                _node_properties(child, game.size, presenter, f"move {child_moves}")
            )
            coarse.children.append(child_tree)
            stack.append((child_tree, child, child_moves))
    data: bytes = sgf_grammar.serialise_game_tree(tree, wrap=79)
    if charset == "UTF-8":
        return data
    try:
        return data.decode("utf-8").encode(charset)
    except UnicodeEncodeError as exc:
        raise InputError(
            "encoding",
            Msg(
                "%(object)s cannot be written in %(charset)s",
                object=repr(exc.object[exc.start : exc.end]),
                charset=charset,
            ),
        ) from None


def _text(value: str) -> bytes:
    escaped: bytes = sgf_grammar.escape_text(value.encode("utf-8"))
    return escaped


def _game_info_properties(game: SgfGame, charset: str) -> dict[str, list[bytes]]:
    props: dict[str, list[bytes]] = {
        "FF": [b"4"],
        "GM": [b"1"],
        "CA": [charset.encode("ascii")],
        "AP": [f"weiqi:{__version__}".encode()],
        "SZ": [str(game.size).encode()],
    }
    if game.komi is not None:
        props["KM"] = [_komi_points_text(game.komi).encode()]
    if game.handicap is not None:
        props["HA"] = [str(game.handicap).encode()]
    result = game.result.to_sgf() if game.result is not None else game.result_text
    if result is not None:
        props["RE"] = [_text(result)]
    for ident, attribute in _TEXT_FIELDS.items():
        value = getattr(game, attribute)
        if value is not None:
            props[ident] = [_text(value)]
    if game.time_limit is not None:
        props["TM"] = [sgf_properties.serialise_real(game.time_limit)]
    return props


def _komi_points_text(stones: Fraction) -> str:
    points = format_points(stones * 2)
    # A bare whole number above 50 would read back as Fox-style hundredths.
    return f"{points}.0" if points.lstrip("-").isdigit() and abs(stones * 2) > 50 else points


def _node_properties(
    node: SgfNode, size: int, presenter: sgf_properties.Presenter, where: str
) -> dict[str, list[bytes]]:
    props: dict[str, list[bytes]] = {}
    for ident, values in node.extra.items():
        if ident in _GAME_INFO_PROPERTIES or ident in _MODELLED_NODE_PROPERTIES or not values:
            continue
        props[ident] = [_text(v) for v in values]
    if node.move is not None:
        _check_point(node.move.point, size, where)
        point = node.move.point
        props[node.move.color.value] = [
            b"" if point is None else presenter.serialise("B", point)[0]
        ]
    for ident, points in (
        ("AB", node.setup_black),
        ("AW", node.setup_white),
        ("AE", node.setup_empty),
    ):
        if points:
            for point in points:
                _check_point(point, size, f"{where}, {ident}")
            props[ident] = presenter.serialise(ident, points)
    if node.comment is not None:
        props["C"] = [_text(node.comment)]
    for ident, seconds in (("BL", node.black_time_left), ("WL", node.white_time_left)):
        if seconds is not None:
            props[ident] = [sgf_properties.serialise_real(seconds)]
    for ident, count in (("OB", node.black_overtime_left), ("OW", node.white_overtime_left)):
        if count is not None:
            props[ident] = [str(count).encode()]
    return props
