"""Issue #15: each ``weiqi`` command loads only what it uses.

The guard is which modules a command imports, not how long it takes: every command runs as a
user runs it (``python -m weiqi …`` in a fresh interpreter) and reports ``sys.modules`` at exit.
The light commands (``--help``, ``check``, ``score``, ``gtp``, ``clock``, ``nigiri``) must not
import the database, the web server or the services; no command imports the command groups it
does not belong to. And the lazy root still shows what the eager one did: the same ``--help``,
every group's own ``--help``, and a table that matches what the modules register.
"""

from __future__ import annotations

import json
import os
import pkgutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import weiqi
import weiqi.cli
from weiqi.cli import COMMANDS, app, module_commands

SRC = Path(__file__).resolve().parents[2] / "src"
RECORD = "(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[gc];B[cg];W[gg];B[];W[])"

#: Never on the path of a command that needs no database and no web server.
HEAVY = (
    "sqlalchemy",
    "alembic",
    "fastapi",
    "starlette",
    "uvicorn",
    "jinja2",
    "psycopg",
    "redis",
    "argon2",
    "weiqi.store",
    "weiqi.services",
    "weiqi.server",
)
#: Never on the path of a database command either.
WEB = ("fastapi", "starlette", "uvicorn", "weiqi.server")

_PROBE = textwrap.dedent(
    """
    import atexit, json, runpy, sys
    out = sys.argv[1]
    atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
    sys.argv = ["weiqi", *sys.argv[2:]]
    runpy.run_module("weiqi", run_name="__main__", alter_sys=True)
    """
)


def imported_by(tmp_path: Path, *args: str, stdin: str = "") -> set[str]:
    """The modules ``python -m weiqi ARGS`` has imported when it exits (it must exit 0)."""
    out = tmp_path / "modules.json"
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(out), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(out.read_text()))


def loaded(modules: set[str], prefixes: tuple[str, ...]) -> list[str]:
    """The modules among ``modules`` that are one of ``prefixes`` or inside one."""
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in prefixes))


def cli_modules(modules: set[str]) -> set[str]:
    """Which command modules of ``weiqi.cli`` were imported."""
    return {m.removeprefix("weiqi.cli.") for m in modules if m.startswith("weiqi.cli.")}


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "one.sgf"
    path.write_text(RECORD, encoding="utf-8")
    return path


LIGHT = [
    pytest.param(("--help",), "", set(), id="help"),
    pytest.param(("check", "{record}"), "", {"game_check"}, id="check"),
    pytest.param(("check", "--json", "{record}"), "", {"game_check"}, id="check-json"),
    pytest.param(("score", "{record}"), "", {"game_check"}, id="score"),
    pytest.param(("gtp",), "boardsize 9\nplay b E5\ngenmove w\nquit\n", {"game"}, id="gtp"),
    pytest.param(("clock", "show", "60m incl 5x60s"), "", {"clock"}, id="clock-show"),
    pytest.param(("clock", "callouts", "60", "--periods", "3"), "", {"clock"}, id="callouts"),
    pytest.param(
        ("nigiri", "张三 5d 1990-03-01", "李四 3d 1995-07-02", "--guess", "odd", "--seed", "7"),
        "",
        {"referee"},
        id="nigiri",
    ),
    pytest.param(("version",), "", {"version"}, id="version"),
    pytest.param(("check", "--help"), "", {"game_check"}, id="check-help"),
]


@pytest.mark.parametrize(("args", "stdin", "own"), LIGHT)
def test_light_commands_import_no_database_web_or_services(
    tmp_path: Path, record: Path, args: tuple[str, ...], stdin: str, own: set[str]
) -> None:
    """``weiqi --help``, ``check``, ``score``, ``gtp``, ``clock``, ``nigiri`` (issue #15): no
    SQLAlchemy, FastAPI/Starlette, uvicorn, store, services or server; only their own module of
    ``weiqi.cli`` (``inputs`` is the shared helper of the database groups, also not wanted)."""
    argv = [a.format(record=record) for a in args]
    modules = imported_by(tmp_path, *argv, stdin=stdin)
    assert loaded(modules, HEAVY) == []
    assert cli_modules(modules) == own
    # plain values (a file, a word, a whole number, a choice) need no pydantic validator
    assert loaded(modules, ("pydantic", "pydantic_core")) == []
    if args[-1] != "--help" or len(args) == 1:  # a command's own help page is rich's layout
        assert loaded(modules, ("rich",)) == []  # plain tables (weiqi.text_table)


def test_a_database_command_loads_its_group_only(tmp_path: Path) -> None:
    """``weiqi event create`` opens the database but not the web server, and none of the other
    command groups (league, team, users, …)."""
    db = tmp_path / "e.sqlite3"
    modules = imported_by(
        tmp_path, "event", "create", "--db", str(db), "--name", "x", "--system", "round_robin"
    )
    assert "sqlalchemy" in modules  # the guard sees what a command really imports
    assert loaded(modules, WEB) == []
    assert cli_modules(modules) == {"event", "inputs"}


@pytest.mark.parametrize("as_json", [("--json",), ()], ids=["json", "table"])
def test_standings_of_an_sqlite_file_load_no_sqlalchemy(
    tmp_path: Path, as_json: tuple[str, ...]
) -> None:
    """``weiqi standings [--json]`` of an SQLite file at the code's schema reads it without
    SQLAlchemy or Alembic and without the services it does not use, and the table is laid out
    without rich (issue #15: 10,000 players × 9 rounds ≤ 1 s; rich took 6 s for that table);
    ``tests/tournament/test_plain_standings.py`` shows the answer is the same."""
    db = tmp_path / "e.sqlite3"
    imported_by(
        tmp_path, "event", "create", "--db", str(db), "--name", "x", "--system", "swiss",
        "--rounds", "3",
    )  # fmt: skip
    imported_by(tmp_path, "player", "import", "--db", str(db), str(_players_csv(tmp_path)))
    modules = imported_by(tmp_path, "standings", "--db", str(db), *as_json)
    assert loaded(modules, ("sqlalchemy", "alembic", "rich", "pydantic", *WEB)) == []
    # --json prints the API's read model (issue #10), itself free of SQLAlchemy and pydantic
    read_model = ["weiqi.services.read_models"] if as_json else []
    assert loaded(modules, ("weiqi.services",)) == [
        "weiqi.services",
        "weiqi.services.actor",
        "weiqi.services.event_rows",
        *read_model,
    ]
    assert cli_modules(modules) == {"event", "inputs"}


def _players_csv(tmp_path: Path) -> Path:
    path = tmp_path / "players.csv"
    path.write_text("name,rank\nA,5d\nB,4d\nC,3d\n", encoding="utf-8")
    return path


def eager_app() -> typer.Typer:
    """The root as it was before lazy loading: every module's commands registered up front."""
    eager = typer.Typer(
        name="weiqi",
        help=app.info.help,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    eager.callback()(lambda: None)
    for info in sorted(pkgutil.iter_modules(weiqi.cli.__path__), key=lambda m: m.name):
        module = __import__(f"weiqi.cli.{info.name}", fromlist=["register"])
        register = getattr(module, "register", None)
        if register is not None:
            register(eager)
    return eager


def test_the_table_names_every_command_its_module_and_help_line() -> None:
    """:data:`weiqi.cli.COMMANDS` is what the modules register: each module's commands, no more
    and no fewer, each with the help line its module gives it."""
    modules = {
        info.name
        for info in pkgutil.iter_modules(weiqi.cli.__path__)
        if hasattr(__import__(f"weiqi.cli.{info.name}", fromlist=["register"]), "register")
    }
    assert modules == {entry.module for entry in COMMANDS.values()}
    for module in sorted(modules):
        built = module_commands(module)
        expected = {name for name, entry in COMMANDS.items() if entry.module == module}
        assert set(built) == expected, module
        for name, command in built.items():
            assert (command.short_help or command.help) == COMMANDS[name].help, name


def test_help_lists_every_command_as_the_eager_root_did() -> None:
    """``weiqi --help`` lists every command the eager root did, in the same order, each with
    its whole help line (plain text: rich's layout of the page cost half its start)."""
    runner = CliRunner()
    lazy = runner.invoke(app, ["--help"], terminal_width=100)
    eager = runner.invoke(eager_app(), ["--help"], terminal_width=100)
    assert lazy.exit_code == eager.exit_code == 0
    listed = [line.split()[0] for line in lazy.output.split("Commands:")[1].splitlines()
              if line.startswith("  ") and not line.startswith("   ")]  # fmt: skip
    assert listed == list(COMMANDS)
    flat = " ".join(lazy.output.split())
    for name, entry in COMMANDS.items():
        assert f" {name} {' '.join(entry.help.split())}" in flat
        assert f" {name} " in eager.output
    assert "Run Go (围棋) competitions" in lazy.output and "Usage:" in lazy.output


def test_help_imports_no_rich(tmp_path: Path) -> None:
    assert loaded(imported_by(tmp_path, "--help"), ("rich", "pydantic")) == []


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_has_its_own_help(name: str) -> None:
    """``weiqi NAME --help`` loads NAME's module and shows the same page as before."""
    runner = CliRunner()
    lazy = runner.invoke(app, [name, "--help"], terminal_width=100)
    eager = runner.invoke(eager_app(), [name, "--help"], terminal_width=100)
    assert lazy.exit_code == eager.exit_code == 0, lazy.output
    assert lazy.output == eager.output


def test_a_command_missing_from_the_table_still_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Merged without its line in the table, a new command is not listed but still found."""
    monkeypatch.delitem(COMMANDS, "version")
    result = CliRunner().invoke(app, ["version"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == weiqi.__version__


def test_a_mistyped_command_is_still_suggested() -> None:
    result = CliRunner().invoke(app, ["chek", "x.sgf"])
    assert result.exit_code == 2
    assert "check" in result.output


@pytest.mark.parametrize(
    ("annotation", "value"),
    [
        (str, "张三 5d"),
        (str, " padded "),
        (int, "7"),
        (int, "+12"),
        (int, "-0"),
        (int, "007"),
        (int, 19),
        (float, "60"),
        (float, "-0.25"),
        (float, 60.0),
        (Path, "a//b/"),
        (Path, ""),
        (list[str], ("x.sgf", "y.sgf")),
    ],
)
def test_plain_values_convert_as_typers_own_adapter_does(annotation: object, value: object) -> None:
    """The values ``weiqi.cli`` converts without pydantic (issue #15: 0.1 s of every light
    command's start) come out as typer's pydantic adapter makes them."""
    from typer._coercion import build_runtime_param, resolve_type_descriptor
    from typer.models import OptionInfo

    from weiqi.cli import _DEFER, _plain_value

    descriptor = resolve_type_descriptor(annotation, OptionInfo())
    ours = _plain_value(annotation, descriptor.parameter_info, value, None, None)
    typers = build_runtime_param(descriptor)._coerce_value(value, param=None, ctx=None)
    assert ours is not _DEFER
    assert ours == typers and type(ours) is type(typers)


@pytest.mark.parametrize(
    ("annotation", "value"),
    [(int, " 7"), (int, "1_000"), (int, "x"), (float, "1e3"), (float, "inf"), (str, 5)],
)
def test_other_values_are_left_to_typer(annotation: object, value: object) -> None:
    """Anything else goes to typer's adapter, so its result and its message stay typer's."""
    from typer.models import OptionInfo

    from weiqi.cli import _DEFER, _plain_value

    assert _plain_value(annotation, OptionInfo(), value, None, None) is _DEFER


def test_a_bad_value_gets_typers_own_message(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["nigiri", "A 5d", "B 3d", "--guess", "odd", "--seed", "x"])
    assert result.exit_code == 2
    assert "Invalid value for '--seed'" in result.output
    assert "valid integer" in result.output
