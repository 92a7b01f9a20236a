"""What the bot tests share: ``weiqi`` as a user runs it, and ``weiqi bot`` processes."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import IO, Any

from tests.programs import GNUGO
from tests.server.conftest import SRC
from weiqi.cli import main

ENV = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONUNBUFFERED": "1"}
#: GNU Go at a fixed level: given a time control (``time_settings``, as the bot sends it) GNU Go
#: raises its level while it has time to spare, up to ``--max-level`` (default above 10), and
#: took 20–30 s of thinking a 9×9 game at "level 1"; held at its level it plays one in 1–2 s.
GNUGO_1 = f"{GNUGO} --mode gtp --chinese-rules --level 1 --max-level 1"
GNUGO_3 = f"{GNUGO} --mode gtp --chinese-rules --level 3 --max-level 3"
WEIQI_GTP = f"{sys.executable} -m weiqi gtp"


def weiqi(*args: str) -> str:
    """Run ``weiqi ARGS`` as a user would; its output (a failure fails the test)."""
    done = subprocess.run(
        [sys.executable, "-m", "weiqi", *args], capture_output=True, text=True, env=ENV,
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def weiqi_json(*args: str) -> Any:
    """``weiqi ARGS --json``, read."""
    return json.loads(weiqi(*args, "--json"))


def weiqi_here(*args: str) -> str:
    """``weiqi ARGS`` run in this process, through the script's entry point
    (``weiqi.cli.main``, as ``tests/cli/contracts.py`` runs it): the same command and output
    without a new interpreter's start, about 1 s a command on the shared cores. For the set-up
    of a test whose subject is not the command line (a failure fails the test)."""
    argv, out, err = sys.argv, io.StringIO(), io.StringIO()
    sys.argv = ["weiqi", *args]
    code: int | str | None = 0
    try:
        with redirect_stdout(out), redirect_stderr(err):
            main()
    except SystemExit as exit_:
        code = exit_.code
    finally:
        sys.argv = argv
    assert code in (0, None), err.getvalue()
    return out.getvalue()


def weiqi_here_json(*args: str) -> Any:
    """``weiqi ARGS --json`` in this process (:func:`weiqi_here`), read."""
    return json.loads(weiqi_here(*args, "--json"))


def start_bot(
    server: str, token: str, engine: str, log: IO[str], *more: str
) -> subprocess.Popen[str]:
    """``weiqi bot`` in a subprocess (``token`` empty: none given; ``more``: other options):
    its stdout piped (the count of games it played at the end), its log into ``log``."""
    command = ["bot", "--server", server, "--engine", engine, *more]
    if token:
        command += ["--token", token]
    return subprocess.Popen(
        [sys.executable, "-m", "weiqi", *command],
        stdout=subprocess.PIPE, stderr=log, text=True, env=ENV,
    )  # fmt: skip


def play_one_game_each(server: str, tokens: list[str], folder: Path, timeout: float = 120) -> None:
    """A GNU Go ``weiqi bot`` for each code, each to play one game: every one exits 0 having
    said so (their logs ``bot0.log``, … in ``folder``); any still running is killed."""
    logs = [(folder / f"bot{i}.log").open("w") for i in range(len(tokens))]
    bots: list[subprocess.Popen[str]] = []
    try:
        bots = [start_bot(server, t, GNUGO_1, f) for t, f in zip(tokens, logs, strict=True)]
        for bot in bots:
            out, _ = bot.communicate(timeout=timeout)
            assert bot.returncode == 0 and out.strip() == "1 game(s) played"
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
                bot.wait()
        for f in logs:
            f.close()


def players_csv(path: Path, names: list[str]) -> Path:
    path.write_text("name,rank\n" + "".join(f"{n},{i}d\n" for i, n in enumerate(names, 1)))
    return path


def two_player_event(folder: Path, name: str, *options: str) -> tuple[str, int, list[str]]:
    """An online 9×9 round robin of 甲 (3d) and 乙 (1d) on a new SQLite file of ``folder``,
    under 2m+3x10s with more ``event create`` ``options``, round 1 paired and published: the
    database's URL, the event's id and the two players' invitation tokens."""
    db = f"sqlite:///{folder / 'weiqi.sqlite3'}"
    ev = weiqi_here_json(
        "event", "create", "--db", db, "--name", name, "--system", "round_robin",
        "--play", "online", "--size", "9", "--time", "2m+3x10s", *options,
    )["id"]  # fmt: skip
    (folder / "p.csv").write_text("name,rank\n甲,3d\n乙,1d\n", "utf-8")
    weiqi_here("player", "import", "--db", db, str(folder / "p.csv"))
    weiqi_here("round", "pair", "--db", db)
    weiqi_here("round", "publish", "--db", db, "--round", "1")
    tokens = [weiqi_here_json("player", "invite", "--db", db, n)["token"] for n in ("甲", "乙")]
    return db, int(ev), tokens
