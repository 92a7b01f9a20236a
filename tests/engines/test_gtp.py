"""The GTP client against the real GNU Go and against tiny scripted engines."""

from __future__ import annotations

import asyncio
import sys
import time

import pytest

from tests.programs import GNUGO as GNU_GO
from weiqi.engines.gtp import (
    Engine,
    EngineError,
    EngineTerminated,
    EngineTimeout,
    SimpleEngine,
    parse_reply,
)
from weiqi.rules.color import Color
from weiqi.rules.result import Result

GNUGO = [GNU_GO, "--mode", "gtp", "--chinese-rules", "--situational-superko"]

# An engine without GTP ids in its replies, that sleeps on `slow` and exits on `die`.
SCRIPTED = r"""
import sys, time
for line in sys.stdin:
    words = line.split()
    if words and words[0].isdigit():
        words = words[1:]
    cmd = words[0] if words else ""
    if cmd == "slow":
        time.sleep(float(words[1]))
        print("= slept\n", flush=True)
    elif cmd == "die":
        sys.exit(3)
    elif cmd == "quit":
        print("=\n", flush=True)
        break
    elif cmd == "noise":
        print("some chatter outside a response", flush=True)
        print("= B+2.5  # a comment\n", flush=True)
    else:
        print("? unknown command\n", flush=True)
"""


def scripted() -> SimpleEngine:
    return SimpleEngine.popen([sys.executable, "-c", SCRIPTED], timeout=5)


def test_parse_reply_with_and_without_id() -> None:
    assert parse_reply(["=7"]).text == ""
    assert parse_reply(["=7"]).id == 7
    assert parse_reply(["?3 illegal move"]) == parse_reply(["?3 illegal move"])
    assert not parse_reply(["?3 illegal move"]).ok
    assert parse_reply(["= A1", "B2"]).text == "A1\nB2"


def test_failure_reply_is_engine_error_with_message() -> None:
    with scripted() as engine, pytest.raises(EngineError) as info:
        engine.command("frobnicate")
    assert info.value.engine_message == "unknown command"
    assert info.value.command == "frobnicate"


def test_noise_and_comments_are_ignored() -> None:
    with scripted() as engine:
        assert engine.command("noise") == "B+2.5"


def test_timeout_then_late_reply_is_dropped() -> None:
    with scripted() as engine:
        with pytest.raises(EngineTimeout):
            engine.command("slow 0.5", timeout=0.05)
        # the late "slept" belongs to the timed-out command; this one gets its own answer
        with pytest.raises(EngineError, match="unknown command"):
            engine.command("frobnicate")
        assert engine.command("noise") == "B+2.5"


def test_dead_process_is_detected() -> None:
    engine = scripted()
    try:
        with pytest.raises(EngineTerminated, match="code 3"):
            engine.command("die")
        assert not engine.alive
        assert engine.returncode == 3
        with pytest.raises(EngineTerminated):
            engine.command("noise")
    finally:
        engine.quit()


def test_missing_program_is_engine_error() -> None:
    with pytest.raises(EngineError, match="cannot start"):
        SimpleEngine.popen(["/nonexistent/engine"])


@pytest.mark.gnugo
def test_gnugo_identity_and_commands() -> None:
    with SimpleEngine.popen(GNUGO) as gnugo:
        assert gnugo.protocol_version() == 2
        assert gnugo.name() == "GNU Go"
        assert gnugo.version().startswith("3.")
        assert gnugo.known_command("final_status_list")
        assert not gnugo.known_command("frobnicate")
        assert "genmove" in gnugo.list_commands()


@pytest.mark.gnugo
def test_gnugo_play_undo_and_legality() -> None:
    with SimpleEngine.popen(GNUGO) as gnugo:
        gnugo.boardsize(9)
        gnugo.clear_board()
        gnugo.komi(7.5)
        gnugo.play(Color.BLACK, "e5")
        gnugo.play(Color.WHITE, "D4")
        assert gnugo.list_stones(Color.BLACK) == ["E5"]
        assert gnugo.list_stones(Color.WHITE) == ["D4"]
        assert not gnugo.is_legal(Color.BLACK, "E5")
        with pytest.raises(EngineError) as info:
            gnugo.play(Color.BLACK, "D4")
        assert info.value.engine_message == "illegal move"
        gnugo.undo()
        assert gnugo.list_stones(Color.WHITE) == []
        gnugo.play(Color.WHITE, "pass")
        move = gnugo.genmove(Color.BLACK)
        assert move == "pass" or move in gnugo.list_stones(Color.BLACK)
        with pytest.raises(EngineError, match="unacceptable size"):
            gnugo.boardsize(99)


@pytest.mark.gnugo
def test_gnugo_scoring_commands() -> None:
    """A white stone in Black's area is dead; GNU Go's score comes back as a Result."""
    with SimpleEngine.popen(GNUGO) as gnugo:
        gnugo.boardsize(9)
        gnugo.clear_board()
        gnugo.komi(0)
        for vertex in ["C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9"]:
            gnugo.play(Color.BLACK, vertex)
        for vertex in ["D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9", "A5"]:
            gnugo.play(Color.WHITE, vertex)
        assert gnugo.final_status_list("dead") == ["A5"]
        assert "A5" not in gnugo.final_status_list("alive")
        assert "C5" in gnugo.final_status_list("alive")
        # columns A–C are Black's (27 with A5 taken off), D–J White's (54)
        assert gnugo.final_score() == Result.parse("W+27")
        with pytest.raises(ValueError):
            gnugo.final_status_list("sleeping")


@pytest.mark.gnugo
def test_gnugo_handicap_and_time() -> None:
    with SimpleEngine.popen(GNUGO) as gnugo:
        gnugo.boardsize(19)
        gnugo.clear_board()
        assert sorted(gnugo.fixed_handicap(4)) == ["D16", "D4", "Q16", "Q4"]
        gnugo.clear_board()
        gnugo.time_settings(600, 30, 5)
        gnugo.time_left(Color.BLACK, 590, 0)


@pytest.mark.gnugo
def test_gnugo_batch_is_pipelined() -> None:
    with SimpleEngine.popen(GNUGO) as gnugo:
        gnugo.boardsize(9)
        gnugo.play(Color.BLACK, "E5")
        lines = [f"is_legal w {c}{r}" for c in "ABCDEFGHJ" for r in range(1, 10)]
        start = time.perf_counter()
        replies = gnugo.command_batch(lines * 20)
        elapsed = time.perf_counter() - start
        assert len(replies) == 81 * 20
        assert [r.text for r in replies[:81]].count("0") == 1
        assert elapsed < 5
        assert not gnugo.command_batch(["play b E5", "play b A1"])[0].ok
        with pytest.raises(EngineError, match="illegal move"):
            gnugo.commands(["play w A2", "play b E5"])


@pytest.mark.gnugo
def test_gnugo_genmove_timeout_recovers() -> None:
    with SimpleEngine.popen([*GNUGO, "--level", "10"]) as gnugo:
        gnugo.boardsize(19)
        gnugo.play(Color.BLACK, "Q16")
        with pytest.raises(EngineTimeout):
            gnugo.genmove(Color.WHITE, timeout=0.001)
        assert gnugo.list_stones(Color.BLACK) == ["Q16"]


@pytest.mark.gnugo
def test_gnugo_killed_process_is_detected() -> None:
    gnugo = SimpleEngine.popen(GNUGO)
    try:
        gnugo.engine.process.kill()
        with pytest.raises(EngineTerminated):
            for _ in range(50):  # the reader may need a moment to see the end of the pipe
                gnugo.name()
                time.sleep(0.02)
    finally:
        gnugo.quit()


@pytest.mark.gnugo
def test_async_engine() -> None:
    async def main() -> list[str]:
        async with await Engine.popen(GNUGO) as gnugo:
            await gnugo.boardsize(5)
            await gnugo.play(Color.BLACK, "C3")
            return await gnugo.list_stones(Color.BLACK)

    assert asyncio.run(main()) == ["C3"]


def test_quit_kills_an_engine_that_does_not_exit() -> None:
    deaf = [sys.executable, "-c", "import sys, time\nfor line in sys.stdin:\n    time.sleep(60)"]
    engine = SimpleEngine.popen(deaf, timeout=5)
    start = time.perf_counter()
    engine.quit(timeout=0.3)
    assert time.perf_counter() - start < 5
    assert engine.returncode is not None and engine.returncode < 0  # killed by a signal
    with pytest.raises(EngineTerminated):
        engine.name()
