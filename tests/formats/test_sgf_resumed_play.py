"""A game that resumed after a dispute with the claimant to move, who had also passed last
(R-END-3), exports as SGF that our own reader replays: the turn is given in a node of its own
(``PL``), not two moves of one colour in a row that ``weiqi check`` calls wrong-turn (found by
the bots' online Swiss). ``check``, ``score`` (the general replay) and the writer agree."""

from __future__ import annotations

from tests.referee.scripts import BLACK, WALLS, WHITE, B, new_game, play, pt
from weiqi.formats.sgf import read_sgf
from weiqi.formats.sgf_check import check_sgf
from weiqi.formats.sgf_referee import record_to_sgf, write_sgf
from weiqi.formats.sgf_replay import replay
from weiqi.referee.events import Dispute, MarkDead, Pass
from weiqi.rules.vertex import format_vertex


def test_r_end_3_play_resumed_by_the_last_passer_replays_from_its_sgf() -> None:
    rec, clock = new_game()
    play(rec, clock, [*WALLS, "A1"])
    rec.append(Pass(), WHITE, clock())
    rec.append(Pass(), BLACK, clock())  # Black passed last
    rec.append(MarkDead((pt("D5"),)), BLACK, clock())  # Black says White's D5 is dead
    rec.append(Dispute((pt("D5"),), claimant=B), WHITE, clock())  # White says it lives
    assert rec.state.to_move is B  # the claimant moves first (R-END-3)
    play(rec, clock, ["B1", "E1", "A2"])
    data = write_sgf(record_to_sgf(rec))
    assert b"PL[B]" in data and "续弈".encode() in data
    (checked,) = check_sgf(data, source="resumed.sgf")
    assert checked.error is None and checked.failure is None, checked
    assert checked.moves == len(WALLS) + 1 + 2 + 3
    replayed = replay(read_sgf(data))
    assert replayed.error is None
    stones = {
        format_vertex(p, 5): "BW"[v - 1] for p, v in enumerate(replayed.board.stones_bytes()) if v
    }
    assert stones == rec.state.stone_map()


def test_a_game_without_a_dispute_has_no_turn_node() -> None:
    rec, clock = new_game()
    play(rec, clock, [*WALLS, "A1"])
    rec.append(Pass(), WHITE, clock())
    rec.append(Pass(), BLACK, clock())
    assert b"PL[" not in write_sgf(record_to_sgf(rec))
