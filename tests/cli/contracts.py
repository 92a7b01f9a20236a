"""Run ``weiqi`` as a user does — through :func:`weiqi.cli.main`, where errors become one line
and exit 2 — in-process, so the acceptance tests of issues #2, #3 and #5 stay fast."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import pytest

from weiqi.cli import main


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str

    def one_line_error(self, *fragments: str) -> str:
        """The single ``error: …`` line, checked to name every fragment; no traceback."""
        assert self.code == 2, (self.code, self.out, self.err)
        lines = self.err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), self.err
        assert "Traceback" not in self.out + self.err
        for fragment in fragments:
            assert fragment in lines[0], (fragment, lines[0])
        return lines[0]


def weiqi(capsys: pytest.CaptureFixture[str], *args: str) -> Run:
    """``weiqi ARGS`` with its exit code, standard output and standard error."""
    argv = sys.argv
    sys.argv = ["weiqi", *args]
    code: int = 0
    try:
        main()
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    finally:
        sys.argv = argv
    captured = capsys.readouterr()
    return Run(code, captured.out, captured.err)
