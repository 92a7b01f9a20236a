"""A GTP engine that thinks ``DELAY`` seconds before each move: ``python slow_gtp.py DELAY
ENGINE ARGS…`` relays GTP to the real engine (GNU Go) and waits before answering ``genmove``,
as a player who takes their time does — without spending the CPU a stronger level would (the
kill test runs 40 of them on two cores). Only the thinking time is the relay's; every move is
the engine's."""

from __future__ import annotations

import subprocess
import sys
import time


def main() -> None:
    delay = float(sys.argv[1])
    engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)  # fmt: skip
    assert engine.stdin is not None and engine.stdout is not None
    for line in sys.stdin:
        words = line.split()
        if "genmove" in words[:2]:
            time.sleep(delay)
        engine.stdin.write(line)
        engine.stdin.flush()
        while True:  # the answer: up to and including its empty line
            answer = engine.stdout.readline()
            sys.stdout.write(answer)
            if not answer or answer == "\n":
                break
        sys.stdout.flush()
        if words[:1] == ["quit"] or words[1:2] == ["quit"]:
            break
    engine.wait(timeout=5)


if __name__ == "__main__":
    main()
