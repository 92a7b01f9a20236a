"""Write the hand-made records of the archive benchmark's corpus (``bench/data/archive/``).

    PYTHONPATH=src python bench/make_archive_records.py

Each record is a function of its seed, so the files are the same on every run. Together with the
GNU Go games of ``bench/data/gnugo-19x19/`` they make the corpus of ``bench/archive.py``; these
exercise what GNU Go's records lack: handicap and setup stones, White moving first without
``PL``, variations, comments, times left on every move, Fox's komi in hundredths, charsets
(GB2312, Latin-1 without ``CA``) and a collection of several games in one file.
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from weiqi.formats.sgf import SgfGame, SgfMove, SgfNode, write_sgf  # noqa: E402
from weiqi.rules.board import Board  # noqa: E402
from weiqi.rules.color import Color  # noqa: E402

OUT = ROOT / "bench/data/archive"
SIZE = 19


def random_line(
    rng: random.Random, board: Board, color: Color, moves: int
) -> list[tuple[Color, tuple[int, int] | None]]:
    """``moves`` random legal moves from ``board`` (which is played on), ``color`` first."""
    line: list[tuple[Color, tuple[int, int] | None]] = []
    for _ in range(moves):
        empties = board.empty_points()
        rng.shuffle(empties)
        point = next((p for p in empties if board.is_legal(color, p)), None)
        board.move(color, point)
        line.append((color, None if point is None else divmod(point, SIZE)))
        color = color.opponent
    return line


def decorated_game(
    seed: int,
    moves: int,
    *,
    black: list[tuple[int, int]] = (),  # type: ignore[assignment]
    white: list[tuple[int, int]] = (),  # type: ignore[assignment]
    first: Color = Color.BLACK,
    times: bool = True,
    variations: int = 3,
    chinese: bool = True,
    **info: object,
) -> SgfGame:
    rng = random.Random(seed)
    board = Board(SIZE)
    if black or white:
        board.setup(
            [r * SIZE + c for r, c in black], [r * SIZE + c for r, c in white], to_move=first
        )
    game = SgfGame(size=SIZE, **info)  # type: ignore[arg-type]
    game.root.setup_black = list(black)
    game.root.setup_white = list(white)
    branch_at = {moves * (i + 1) // (variations + 1) for i in range(variations)}
    left = {Color.BLACK: 3600.0, Color.WHITE: 3600.0}
    color = first
    for number in range(1, moves + 1):
        parent = game.last_node()
        if number in branch_at:
            # A variation: another answer to the previous move, a few moves deep.
            trial = board.copy()
            current = parent
            for k, (c, p) in enumerate(random_line(rng, trial, color, 4)):
                child = current.add_child(SgfNode(move=SgfMove(c, p)))
                if k == 0:
                    child.comment = "变化图" if chinese else "variation"
                current = child
        ((_, point),) = random_line(rng, board, color, 1)
        left[color] -= rng.uniform(2, 40)
        node = SgfNode(
            move=SgfMove(color, point),
            comment=(comment(rng, number) if chinese else f"move {number}")
            if number % 10 == 0
            else None,
        )
        if times:
            if color is Color.BLACK:
                node.black_time_left = round(left[color], 1)
            else:
                node.white_time_left = round(left[color], 1)
        parent.children.insert(0, node)  # the main line is the first child
        color = color.opponent
    return game


def comment(rng: random.Random, number: int) -> str:
    return f"第{number}手：{rng.choice(['好棋', '缓手', '疑问手', '妙手'])}"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    star = [(3, 3), (15, 15), (3, 15), (15, 3)]
    records: dict[str, bytes] = {}
    records["handicap-gb2312.sgf"] = write_sgf(
        decorated_game(
            1,
            230,
            black=star,
            first=Color.WHITE,
            handicap=4,
            komi=Fraction(0),
            black_player="古力",
            white_player="常昊",
            event="让子棋",
        ),
        encoding="GB2312",
    )
    four = decorated_game(
        2,
        240,
        black=[(15, 15), (3, 3)],
        white=[(15, 3), (3, 15)],
        first=Color.WHITE,
        black_player="过百龄",
        white_player="汪汉生",
        event="座子棋",
        result_text="黑胜",
    )
    records["four-stones-white-first.sgf"] = write_sgf(four)
    fox = write_sgf(
        decorated_game(3, 260, black_player="星阵", white_player="绝艺", overtime="3x30 byo-yomi")
    )
    records["fox-komi.sgf"] = fox.replace(b"RU[Chinese]", b"KM[375]RU[Chinese]")
    latin = decorated_game(
        4, 180, black_player="Müller", white_player="Gérard", variations=1, chinese=False
    )
    latin_text = write_sgf(latin, encoding="ISO-8859-1").replace(b"CA[ISO-8859-1]", b"")
    records["latin1-no-ca.sgf"] = latin_text
    collection = [
        write_sgf(decorated_game(10 + i, 200 + 10 * i, times=False, variations=1)).strip()
        for i in range(5)
    ]
    records["collection.sgf"] = b"\n".join(collection) + b"\n"
    problem = decorated_game(
        20,
        12,
        black=[(18, 0), (18, 1), (17, 1), (16, 2), (16, 0), (15, 1)],
        white=[(18, 2), (17, 2), (17, 3), (16, 3), (15, 2), (14, 1), (15, 0)],
        first=Color.WHITE,
        times=False,
        variations=4,
    )
    problem.root.comment = "白先，黑如何应？"
    records["problem-white-first.sgf"] = write_sgf(problem)
    for name, data in records.items():
        (OUT / name).write_bytes(data)
        print(f"{name}: {len(data):,} bytes")


if __name__ == "__main__":
    main()
