"""The ``weiqi`` command line.

Each module of this package adds its commands through a ``register(app)`` function, so areas
(games, events, teams, the server) keep their commands beside each other without one file that
everybody edits. Errors of the core become one clear line and a non-zero exit here, in one place.

A module is imported only when one of its commands runs (or its own ``--help`` is asked for):
``weiqi check`` never loads the database, the services or the web server. :data:`COMMANDS` names
each top-level command, the module that registers it and its help line, which ``weiqi --help``
lists without importing anything; a new command is one more line there
(``tests/cli/test_lazy_commands.py`` checks the table against what the modules register).

Usage::

    weiqi --help
    weiqi check game.sgf
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, NamedTuple

import typer
from typer.core import TyperCommand, TyperGroup

from weiqi.errors import WeiqiError


class CommandEntry(NamedTuple):
    """Where a top-level command lives (a module of this package) and its line in ``--help``."""

    module: str
    help: str


#: Every top-level command, in the order ``weiqi --help`` lists them.
COMMANDS: dict[str, CommandEntry] = {
    "standings": CommandEntry(
        "event",
        "The standings (名次): points, then the event's tie-breaks (a team event: match\n"
        "points, game points, board 1, board 2, …).",
    ),
    "gtp": CommandEntry(
        "game",
        "Speak GTP v2 on stdin/stdout: a referee under the Chinese rules, and a weak player.",
    ),
    "check": CommandEntry(
        "game_check",
        "Check SGF records: each game's first illegal move (a directory: all its .sgf files).",
    ),
    "score": CommandEntry(
        "game_check", "Count the final position of a record (area counting, 数子法)."
    ),
    "match": CommandEntry(
        "match", "Play one game between two GTP engines; our rules judge every move."
    ),
    "bot": CommandEntry(
        "bot",
        "Play as an entrant of an online event with a GTP engine: every game the event\n"
        "gives it, round after round, until it has no more (or --rounds, --once); reconnects\n"
        "after a network error.",
    ),
    "nigiri": CommandEntry(
        "referee", "猜先 (nigiri): who holds, the guess, the count and the colours, from a seed."
    ),
    "serve": CommandEntry(
        "serve",
        "Start the web application. Migrates the database first; on the first run prints the\n"
        "administrator's one-time password (or uses $WEIQI_ADMIN_PASSWORD).",
    ),
    "version": CommandEntry("version", "Print the version of weiqi."),
    "clock": CommandEntry("clock", "Time controls and byo-yomi call-outs (读秒)."),
    "db": CommandEntry("db", "Database migrations (Alembic, shipped in weiqi/store/migrations)."),
    "event": CommandEntry("event", "Events (赛会), individual or team."),
    "player": CommandEntry("event", "Players of an individual event."),
    "round": CommandEntry("event", "Rounds (轮次): pairing (编排) and results."),
    "import": CommandEntry("interchange", "Read events from other programs' files (OpenGotha)."),
    "export": CommandEntry(
        "interchange", "Write events as other programs' files (OpenGotha, EGF results)."
    ),
    "league": CommandEntry("league", "League seasons (联赛): divisions, calendar, table."),
    "draft": CommandEntry("league", "The transfer draft (摘牌) after a season."),
    "record": CommandEntry("referee", "Game records (对局记录): check, show, export."),
    "team": CommandEntry(
        "team", "What team events have: teams, coaches, lineups, board records, 擂台赛."
    ),
    "users": CommandEntry("users", "Accounts and per-event roles (裁判长, 裁判员, …)."),
}


Command = TyperCommand | TyperGroup

_DEFER = object()
_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


def _plain_value(annotation: Any, info: Any, value: Any, param: Any, ctx: Any) -> Any:
    """What typer's pydantic adapter makes of a command-line ``value``, where that is plain (a
    ``str`` or a list of them, a number in plain digits, a ``Path``, an enum's value, a
    ``parser``'s answer, a default of the command's own), computed without pydantic;
    ``_DEFER`` for everything else and on any error, so that the adapter itself answers, with
    its own message.

    >>> from typer.models import OptionInfo
    >>> _plain_value(int, OptionInfo(), "+12", None, None)
    12
    >>> _plain_value(int, OptionInfo(), "1_000", None, None) is _DEFER
    True
    """
    from typer._param_types import coerce_cli_choice, coerce_cli_path

    if info.parser is not None:
        return info.parser(value)
    if annotation == list[str] and isinstance(value, (list, tuple)):
        return list(value) if all(isinstance(v, str) for v in value) else _DEFER
    bounded = info.min is not None or info.max is not None or info.clamp
    if annotation in (str, int, float) and type(value) is annotation and not bounded:
        return value  # a default of the command's own
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return coerce_cli_choice(
            value, choices=list(annotation), case_sensitive=info.case_sensitive, ctx=ctx
        )
    if not isinstance(value, str):
        return _DEFER
    if annotation is str:
        return value
    if annotation is int and _WHOLE.fullmatch(value) and not bounded:
        return int(value)
    if annotation is float and _DECIMAL.fullmatch(value) and not bounded:
        return float(value)
    if annotation is Path and info.path_type in (None, Path) and not info.allow_dash:
        return coerce_cli_path(Path(value), info, path_type=Path, param=param, ctx=ctx)
    return _DEFER


def _light_coercion() -> None:
    """Let typer convert plain parameter values without building a pydantic validator for
    each: typer 0.29 builds one per parameter on first use (``--help`` included), which costs a
    light command a third of its start (pydantic's import and schema building, 0.1–0.16 s CPU
    of ``weiqi nigiri`` or ``weiqi standings``, issue #15). A value :func:`_plain_value` does not
    know (a list, a float, a date, a bad value) goes to typer's own adapter, built then, so the
    results and the error messages stay typer's. Under another typer nothing changes."""
    try:
        from typer._coercion import RuntimeParam, build_runtime_param
        from typer.core import _TyperParameter
    except ImportError:  # not typer 0.29's coercion: nothing to spare
        return
    if getattr(_TyperParameter, "_weiqi_light", False):
        return

    @dataclass(frozen=True)
    class Plain(RuntimeParam):
        descriptor: Any = None
        built: list[Any] = field(default_factory=list)

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if not self.built:
                try:
                    quick = _plain_value(self.annotation, self.parameter_info, value, param, ctx)
                except Exception:  # typer's adapter raises it again, in its own words
                    quick = _DEFER
                if quick is not _DEFER:
                    return quick
                self.built.append(build_runtime_param(self.descriptor))
            return self.built[0]._coerce_value(value, param=param, ctx=ctx)

    typer_get = _TyperParameter.get_runtime_param

    def get_runtime_param(self: Any) -> Any:
        if self._runtime_param is None:
            d = self.type_descriptor
            plain = not (d.is_list or d.is_tuple) or d.annotation == list[str]
            if d.file_annotation is None and plain:
                self._runtime_param = Plain(d.parameter_info, d.annotation, d)
        return typer_get(self)

    setattr(_TyperParameter, "get_runtime_param", get_runtime_param)  # noqa: B010
    setattr(_TyperParameter, "_weiqi_light", True)  # noqa: B010


_light_coercion()


def module_commands(module: str) -> dict[str, Command]:
    """Import ``weiqi.cli.MODULE`` and build the commands its ``register`` adds, by name.

    >>> sorted(module_commands("version"))
    ['version']
    """
    sub = typer.Typer()
    importlib.import_module(f"{__name__}.{module}").register(sub)
    built = {}
    for name, command in typer.main.get_group(sub).commands.items():
        assert isinstance(command, Command), command
        built[name] = command
    return built


class LazyCommand(TyperCommand):
    """A top-level command whose module is not imported yet: a name and a help line for the
    listing of ``weiqi --help``; :class:`LazyGroup` swaps in the real command when it runs."""

    def __init__(self, name: str, entry: CommandEntry) -> None:
        super().__init__(name, help=entry.help)
        self.module = entry.module


class LazyGroup(TyperGroup):
    """The root ``weiqi`` group: lists :data:`COMMANDS` without importing them, and imports a
    command's module (all of its commands at once) only when that command is resolved.

    >>> group = typer.main.get_command(app)
    >>> isinstance(group, LazyGroup), type(group.commands["serve"]).__name__
    (True, 'LazyCommand')
    >>> group.list_commands(None)[:3]
    ['standings', 'gtp', 'check']
    """

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        for name, entry in COMMANDS.items():
            self.commands.setdefault(name, LazyCommand(name, entry))
        self._all_loaded = False

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """``weiqi --help`` as plain text: rich's layout of it imported rich's help module
        (0.08 s of CPU, half of the page's start; issue #15). Each command's whole help line
        is shown, folded to the terminal's width."""
        super(TyperGroup, self).format_help(ctx, formatter)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, " ".join((command.help or "").split())))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The command named ``cmd_name``. A name the table lacks (a command a module registers
        but nobody added to :data:`COMMANDS`; the table's test fails until it is) is looked for
        in every module, as before lazy loading, so it still runs; only then is it unknown."""
        command = super().get_command(ctx, cmd_name)
        if command is None and not self._all_loaded:
            self._all_loaded = True
            import pkgutil  # only here: a light command's start does without it

            for info in pkgutil.iter_modules(__path__):
                module = importlib.import_module(f"{__name__}.{info.name}")
                if hasattr(module, "register"):
                    for name, built in module_commands(info.name).items():
                        self.commands.setdefault(name, built)
            command = super().get_command(ctx, cmd_name)
        return command

    def resolve_command(
        self,
        ctx: Any,  # the click Context typer vendors (typer._click), not a public name
        args: list[str],
    ) -> tuple[str | None, Any, list[str]]:
        """The command ``args`` names, its module imported first if it was not yet."""
        name, command, rest = super().resolve_command(ctx, args)
        if isinstance(command, LazyCommand):
            loaded = module_commands(command.module)
            self.commands.update(loaded)
            command = loaded[command.name or ""]
        return name, command, rest


app = typer.Typer(
    name="weiqi",
    cls=LazyGroup,
    help="Run Go (围棋) competitions under the Chinese Weiqi Competition Rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Run Go (围棋) competitions under the Chinese Weiqi Competition Rules."""


def main() -> None:
    """Entry point of the ``weiqi`` script: run the app, turning our errors into one line in
    the command line's language (``WEIQI_LANG``, else the locale's, else Chinese: the language
    ``round pair --explain`` speaks, :func:`weiqi.i18n.environment_locale`)."""
    try:
        app()
    except WeiqiError as err:
        print(error_line(err), file=sys.stderr)
        raise SystemExit(2) from None


def error_line(err: WeiqiError, environ: Mapping[str, str] | None = None) -> str:
    """The one line an error prints, in the command line's language.

    >>> from weiqi.errors import NotFound
    >>> from weiqi.messages import Msg
    >>> missing = NotFound(Msg("round %(number)s is not paired", number=2))
    >>> error_line(missing, {"WEIQI_LANG": "en"}), error_line(missing, {"LANG": "C.UTF-8"})
    ('error: round 2 is not paired', '错误：第2轮尚未编排')
    """
    # loaded here: the catalogues are for the error path, not every command's start-up
    from weiqi.i18n import environment_locale, render
    from weiqi.messages import Msg

    locale = environment_locale(os.environ if environ is None else environ)
    return render(Msg("error: %(message)s", message=err.msg), locale)
