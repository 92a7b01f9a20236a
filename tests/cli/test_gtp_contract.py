"""Issues #2 and #3, ``weiqi gtp``: the commands the issues list, the answers they fix, and bad
options as one line (the engine itself is tested in tests/engines)."""

from __future__ import annotations

import io

import pytest

from tests.cli.contracts import weiqi

ISSUE_2 = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "is_legal",
    "list_stones",
    "final_score",
    "final_status_list",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "loadsgf",
    "printsgf",
    "showboard",
]
ISSUE_3 = ["time_settings", "kgs-time_settings", "time_left"]


def gtp(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], script: str, *opts: str
) -> list[str]:
    """The answers (without the trailing blank line) to the lines of ``script``."""
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    run = weiqi(capsys, "gtp", *opts)
    assert run.code == 0, run.err
    return run.out.split("\n\n")[:-1]


def test_gtp_lists_every_command_of_the_issues(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (listed,) = gtp(monkeypatch, capsys, "list_commands\n")
    assert set(ISSUE_2 + ISSUE_3) <= set(listed.removeprefix("= ").splitlines())


def test_gtp_answers_in_gnu_gos_form(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = (
        "boardsize 9\nclear_board\nkomi 7.5\nplay B D4\nplay W D4\nis_legal W D4\n"
        "is_legal W E5\nlist_stones black\nplay W E5\nfinal_score\nfinal_status_list dead\n"
        "play B I5\nquit\n"
    )
    assert gtp(monkeypatch, capsys, script) == [
        "= ", "= ", "= ", "= ", "? illegal move", "= 0", "= 1", "= D4", "= ",
        "= W+7.5", "= ", "? invalid coordinate", "= ",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("opts", "fragment"),
    [
        (["--size", "26"], "board_size"),
        (["--size", "99999999999999999999"], "board_size"),
        (["--komi", "abc"], "komi"),
        (["--komi", "1e999"], "komi"),
    ],
)
def test_gtp_bad_options_are_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    opts: list[str],
    fragment: str,
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    weiqi(capsys, "gtp", *opts).one_line_error(fragment)
