"""A GTP v2 client: Go engines (GNU Go, KataGo, our own ``weiqi gtp``) as players.

Modelled on python-chess's ``chess.engine``: :class:`Engine` is an asyncio client of one engine
process, :class:`SimpleEngine` a blocking wrapper that runs the same client on an event loop in a
background thread, for scripts and tests::

    with SimpleEngine.popen(["/usr/games/gnugo", "--mode", "gtp", "--chinese-rules"]) as gnugo:
        gnugo.boardsize(9)
        gnugo.clear_board()
        gnugo.play(Color.BLACK, "E5")
        reply = gnugo.genmove(Color.WHITE)   # "C3", "pass" or "resign"

Vertices are GTP strings (``"D4"``, ``"pass"``), upper-cased as engines answer them; turning them
into board points is the caller's business (``weiqi.rules.vertex``), so the client stays
independent of any board size.

Commands carry GTP ids and are matched to their replies in order, so several may be in flight at
once (:meth:`Engine.command_batch` writes a whole batch before reading, which makes thousands of
``is_legal`` queries cheap). A command that times out raises :class:`EngineTimeout`; its late reply
is read and dropped, so the next command still gets its own answer. An engine's ``? message``
becomes :class:`EngineError` with that message; an engine that exits, or whose pipe breaks,
fails every pending command with :class:`EngineTerminated`.

>>> parse_reply(["=12 D4"])
GtpReply(ok=True, text='D4', id=12)
>>> parse_reply(["? illegal move"])
GtpReply(ok=False, text='illegal move', id=None)
>>> clean_line("= A1 B2 # a comment\\r")
'= A1 B2'
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import threading
from collections.abc import Coroutine, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from weiqi.errors import WeiqiError
from weiqi.rules.color import Color
from weiqi.rules.result import Result

T = TypeVar("T")

#: Seconds a command may take unless the call or the engine says otherwise.
DEFAULT_TIMEOUT = 30.0

#: What ``final_status_list`` accepts (GTP v2 §6.3.4).
STATUSES = ("alive", "dead", "seki")


class EngineError(WeiqiError):
    """The engine answered ``? message`` (``message`` is the engine's text), or could not run."""

    def __init__(self, message: str, command: str | None = None):
        self.engine_message = message
        self.command = command
        super().__init__(f"{command}: {message}" if command else message)


class EngineTimeout(EngineError):
    """The engine did not answer within the timeout."""


class EngineTerminated(EngineError):
    """The engine process has exited (or its pipes broke)."""


@dataclass(frozen=True)
class GtpReply:
    """One GTP response: success (``=``) or failure (``?``), its text, and the id it echoed."""

    ok: bool
    text: str
    id: int | None = None


def clean_line(raw: str) -> str:
    """Preprocess a line as GTP v2 §2.3 says: drop CR and comments, tabs become spaces."""
    line = raw.replace("\r", "").replace("\t", " ")
    hash_at = line.find("#")
    if hash_at >= 0:
        line = line[:hash_at]
    return line.rstrip()


def parse_reply(lines: Sequence[str]) -> GtpReply:
    """Parse the lines of one response (first line starts with ``=`` or ``?``).

    >>> parse_reply(["= A1 B2", "C3"]).text
    'A1 B2\\nC3'
    """
    head = lines[0]
    ok = head[0] == "="
    rest = head[1:]
    digits = len(rest) - len(rest.lstrip("0123456789"))
    reply_id = int(rest[:digits]) if digits else None
    first = rest[digits:].strip()
    text = "\n".join([first, *lines[1:]]).strip()
    return GtpReply(ok, text, reply_id)


def _color(color: Color) -> str:
    return "b" if color is Color.BLACK else "w"


def _vertex(text: str) -> str:
    """Normalise an engine's vertex: ``d4`` → ``D4``, ``PASS`` → ``pass``."""
    word = text.strip()
    low = word.lower()
    if low in {"pass", "resign"}:
        return low
    return word.upper()


def _vertices(text: str) -> list[str]:
    return [_vertex(word) for word in text.split()]


class Engine:
    """An asyncio GTP client of one engine process. Create it with :meth:`popen`."""

    def __init__(self, process: asyncio.subprocess.Process, *, timeout: float | None):
        self.process = process
        self.timeout = timeout
        self._pending: collections.deque[tuple[str, asyncio.Future[GtpReply]]] = collections.deque()
        self._next_id = 0
        self._terminated: EngineTerminated | None = None
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        self._reader = asyncio.ensure_future(self._read_stdout())
        self._stderr_reader = asyncio.ensure_future(self._read_stderr())

    @classmethod
    async def popen(
        cls,
        command: Sequence[str],
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        cwd: str | None = None,
    ) -> Engine:
        """Start an engine process speaking GTP on its stdin/stdout."""
        try:
            process = await asyncio.create_subprocess_exec(
                *command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=cwd,
            )
        except OSError as exc:
            raise EngineError(f"cannot start {command[0]!r}: {exc.strerror or exc}") from None
        return cls(process, timeout=timeout)

    # -- the wire -----------------------------------------------------------------------------

    async def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        while line := await self.process.stderr.readline():
            self._stderr_tail.append(line.decode("utf-8", "replace").rstrip())

    async def _read_stdout(self) -> None:
        assert self.process.stdout is not None
        block: list[str] = []
        try:
            while raw := await self.process.stdout.readline():
                line = clean_line(raw.decode("utf-8", "replace"))
                if not line.strip():
                    if block:
                        self._deliver(parse_reply(block))
                        block = []
                    continue
                if block or line[0] in "=?":
                    block.append(line)
                # anything else outside a response is noise some engines print; GTP says ignore
        finally:
            returncode = await self._wait_exit()
            tail = "; ".join(line for line in self._stderr_tail if line)
            why = f"engine exited with code {returncode}" + (f" ({tail})" if tail else "")
            self._fail_all(EngineTerminated(why))

    async def _wait_exit(self) -> int | None:
        try:
            return await asyncio.wait_for(self.process.wait(), 2.0)
        except TimeoutError:
            return self.process.returncode

    def _deliver(self, reply: GtpReply) -> None:
        # Replies come in the order of the commands; a command that timed out keeps its place in
        # the queue (its future cancelled) so that its late reply is consumed here and dropped.
        if self._pending:
            _, future = self._pending.popleft()
            if not future.done():
                future.set_result(reply)

    def _fail_all(self, error: EngineTerminated) -> None:
        self._terminated = error
        while self._pending:
            line, future = self._pending.popleft()
            if not future.done():
                future.set_exception(EngineTerminated(error.engine_message, line))

    def _send(self, line: str) -> asyncio.Future[GtpReply]:
        if "\n" in line or not line.strip():
            raise ValueError(f"not one GTP command: {line!r}")
        if self._terminated is not None:
            raise EngineTerminated(self._terminated.engine_message, line)
        assert self.process.stdin is not None
        self._next_id += 1
        future: asyncio.Future[GtpReply] = asyncio.get_running_loop().create_future()
        self._pending.append((line, future))
        try:
            self.process.stdin.write(f"{self._next_id} {line}\n".encode())
        except (BrokenPipeError, ConnectionResetError, RuntimeError) as exc:
            self._pending.pop()
            raise EngineTerminated(f"cannot write to the engine: {exc}", line) from None
        return future

    async def _await(
        self, line: str, future: asyncio.Future[GtpReply], timeout: float | None
    ) -> GtpReply:
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except TimeoutError:
            future.cancel()
            raise EngineTimeout(f"no answer within {timeout:g} s", line) from None

    async def _drain(self, line: str) -> None:
        assert self.process.stdin is not None
        try:
            await self.process.stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise EngineTerminated(f"cannot write to the engine: {exc}", line) from None

    async def reply(self, line: str, *, timeout: float | None = None) -> GtpReply:
        """Send one command and return its reply, success or failure, without raising on ``?``."""
        future = self._send(line)
        await self._drain(line)
        return await self._await(line, future, timeout if timeout is not None else self.timeout)

    async def command(self, line: str, *, timeout: float | None = None) -> str:
        """Send one raw command (``"level 3"``); its text, or :class:`EngineError` for ``?``."""
        reply = await self.reply(line, timeout=timeout)
        if not reply.ok:
            raise EngineError(reply.text, line)
        return reply.text

    async def command_batch(
        self, lines: Iterable[str], *, timeout: float | None = None
    ) -> list[GtpReply]:
        """Send many commands at once and return every reply in order (``?`` replies included).

        The timeout applies to the whole batch."""
        sent = [(line, self._send(line)) for line in lines]
        if sent:
            await self._drain(sent[-1][0])
        limit = timeout if timeout is not None else self.timeout
        loop = asyncio.get_running_loop()
        deadline = None if limit is None else loop.time() + limit
        replies = []
        for line, future in sent:
            left = None if deadline is None else max(0.0, deadline - loop.time())
            try:
                replies.append(await self._await(line, future, left))
            except EngineTimeout:
                for _, rest in sent:
                    rest.cancel()
                raise EngineTimeout(f"no answer within {limit:g} s", line) from None
        return replies

    async def commands(self, lines: Iterable[str], *, timeout: float | None = None) -> list[str]:
        """Like :meth:`command_batch`, raising :class:`EngineError` for the first ``?`` reply."""
        batch = list(lines)
        replies = await self.command_batch(batch, timeout=timeout)
        for line, reply in zip(batch, replies, strict=True):
            if not reply.ok:
                raise EngineError(reply.text, line)
        return [reply.text for reply in replies]

    # -- typed commands -----------------------------------------------------------------------

    async def protocol_version(self) -> int:
        return int(await self.command("protocol_version"))

    async def name(self) -> str:
        return await self.command("name")

    async def version(self) -> str:
        return await self.command("version")

    async def known_command(self, name: str) -> bool:
        return await self.command(f"known_command {name}") == "true"

    async def list_commands(self) -> list[str]:
        return (await self.command("list_commands")).split()

    async def boardsize(self, size: int) -> None:
        await self.command(f"boardsize {size}")

    async def clear_board(self) -> None:
        await self.command("clear_board")

    async def komi(self, points: float) -> None:
        """Komi in points, as GTP counts it (3¾ stones = 7.5 points)."""
        await self.command(f"komi {points:g}")

    async def play(self, color: Color, vertex: str) -> None:
        """Play ``vertex`` (``"D4"`` or ``"pass"``); an illegal move raises :class:`EngineError`."""
        await self.command(f"play {_color(color)} {vertex}")

    async def genmove(self, color: Color, *, timeout: float | None = None) -> str:
        """The engine's move for ``color`` (played on its board): vertex, ``pass`` or ``resign``."""
        return _vertex(await self.command(f"genmove {_color(color)}", timeout=timeout))

    async def undo(self) -> None:
        await self.command("undo")

    async def is_legal(self, color: Color, vertex: str) -> bool:
        return await self.command(f"is_legal {_color(color)} {vertex}") == "1"

    async def list_stones(self, color: Color) -> list[str]:
        return _vertices(await self.command(f"list_stones {_color(color)}"))

    async def final_score(self, *, timeout: float | None = None) -> Result:
        """The engine's result of the position (``B+1.5``, ``0`` …) as a :class:`Result`."""
        return Result.parse(await self.command("final_score", timeout=timeout))

    async def final_status_list(self, status: str, *, timeout: float | None = None) -> list[str]:
        """Stones with ``status`` (``alive``, ``dead`` or ``seki``), all groups flattened."""
        if status not in STATUSES:
            raise ValueError(f"status must be one of {', '.join(STATUSES)}")
        return _vertices(await self.command(f"final_status_list {status}", timeout=timeout))

    async def fixed_handicap(self, stones: int) -> list[str]:
        return _vertices(await self.command(f"fixed_handicap {stones}"))

    async def place_free_handicap(self, stones: int) -> list[str]:
        return _vertices(await self.command(f"place_free_handicap {stones}"))

    async def set_free_handicap(self, vertices: Sequence[str]) -> None:
        await self.command("set_free_handicap " + " ".join(vertices))

    async def time_settings(self, main_time: int, byo_yomi_time: int, byo_yomi_stones: int) -> None:
        """Canadian byo-yomi as GTP v2 knows it; ``byo_yomi_stones`` 0 means no byo-yomi."""
        await self.command(f"time_settings {main_time} {byo_yomi_time} {byo_yomi_stones}")

    async def time_left(self, color: Color, seconds: int, stones: int) -> None:
        await self.command(f"time_left {_color(color)} {seconds} {stones}")

    async def showboard(self) -> str:
        return await self.command("showboard")

    # -- life cycle ---------------------------------------------------------------------------

    @property
    def returncode(self) -> int | None:
        """The exit code once the process has exited, else ``None``."""
        return self.process.returncode

    @property
    def alive(self) -> bool:
        return self._terminated is None and self.process.returncode is None

    async def quit(self, *, timeout: float = 5.0) -> None:
        """Say ``quit``, wait for the process to exit, and kill it if it does not."""
        if self.alive:
            with contextlib.suppress(EngineError):
                await self.command("quit", timeout=timeout)
        try:
            await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        await self._close_pipes()

    async def kill(self) -> None:
        if self.process.returncode is None:
            self.process.kill()
        await self.process.wait()
        await self._close_pipes()

    async def _close_pipes(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        for task in (self._reader, self._stderr_reader):
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(task, 2.0)

    async def __aenter__(self) -> Engine:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.quit()


class SimpleEngine:
    """A blocking :class:`Engine`: the client runs on an event loop in a background thread.

    >>> import shutil, pytest
    >>> if not shutil.which("/usr/games/gnugo"):
    ...     pytest.skip("needs GNU Go")
    >>> with SimpleEngine.popen(["/usr/games/gnugo", "--mode", "gtp"]) as gnugo:
    ...     gnugo.boardsize(9)
    ...     gnugo.play(Color.BLACK, "E5")
    ...     gnugo.list_stones(Color.BLACK), gnugo.is_legal(Color.WHITE, "E5")
    (['E5'], False)
    """

    def __init__(self, engine: Engine, loop: asyncio.AbstractEventLoop, thread: threading.Thread):
        self.engine = engine
        self._loop = loop
        self._thread = thread
        self._closed = False

    @classmethod
    def popen(
        cls,
        command: Sequence[str],
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        cwd: str | None = None,
    ) -> SimpleEngine:
        loop = asyncio.new_event_loop()
        thread = threading.Thread(target=loop.run_forever, name="gtp-engine", daemon=True)
        thread.start()
        future = asyncio.run_coroutine_threadsafe(
            Engine.popen(command, timeout=timeout, cwd=cwd), loop
        )
        try:
            engine = future.result()
        except BaseException:
            loop.call_soon_threadsafe(loop.stop)
            thread.join()
            loop.close()
            raise
        return cls(engine, loop, thread)

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        if self._closed:
            coro.close()
            raise EngineTerminated("the engine has been closed")
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    @property
    def timeout(self) -> float | None:
        return self.engine.timeout

    @timeout.setter
    def timeout(self, seconds: float | None) -> None:
        self.engine.timeout = seconds

    @property
    def returncode(self) -> int | None:
        return self.engine.returncode

    @property
    def alive(self) -> bool:
        return self.engine.alive

    def reply(self, line: str, *, timeout: float | None = None) -> GtpReply:
        return self._run(self.engine.reply(line, timeout=timeout))

    def command(self, line: str, *, timeout: float | None = None) -> str:
        return self._run(self.engine.command(line, timeout=timeout))

    def command_batch(
        self, lines: Iterable[str], *, timeout: float | None = None
    ) -> list[GtpReply]:
        return self._run(self.engine.command_batch(list(lines), timeout=timeout))

    def commands(self, lines: Iterable[str], *, timeout: float | None = None) -> list[str]:
        return self._run(self.engine.commands(list(lines), timeout=timeout))

    def protocol_version(self) -> int:
        return self._run(self.engine.protocol_version())

    def name(self) -> str:
        return self._run(self.engine.name())

    def version(self) -> str:
        return self._run(self.engine.version())

    def known_command(self, name: str) -> bool:
        return self._run(self.engine.known_command(name))

    def list_commands(self) -> list[str]:
        return self._run(self.engine.list_commands())

    def boardsize(self, size: int) -> None:
        self._run(self.engine.boardsize(size))

    def clear_board(self) -> None:
        self._run(self.engine.clear_board())

    def komi(self, points: float) -> None:
        self._run(self.engine.komi(points))

    def play(self, color: Color, vertex: str) -> None:
        self._run(self.engine.play(color, vertex))

    def genmove(self, color: Color, *, timeout: float | None = None) -> str:
        return self._run(self.engine.genmove(color, timeout=timeout))

    def undo(self) -> None:
        self._run(self.engine.undo())

    def is_legal(self, color: Color, vertex: str) -> bool:
        return self._run(self.engine.is_legal(color, vertex))

    def list_stones(self, color: Color) -> list[str]:
        return self._run(self.engine.list_stones(color))

    def final_score(self, *, timeout: float | None = None) -> Result:
        return self._run(self.engine.final_score(timeout=timeout))

    def final_status_list(self, status: str, *, timeout: float | None = None) -> list[str]:
        return self._run(self.engine.final_status_list(status, timeout=timeout))

    def fixed_handicap(self, stones: int) -> list[str]:
        return self._run(self.engine.fixed_handicap(stones))

    def place_free_handicap(self, stones: int) -> list[str]:
        return self._run(self.engine.place_free_handicap(stones))

    def set_free_handicap(self, vertices: Sequence[str]) -> None:
        self._run(self.engine.set_free_handicap(vertices))

    def time_settings(self, main_time: int, byo_yomi_time: int, byo_yomi_stones: int) -> None:
        self._run(self.engine.time_settings(main_time, byo_yomi_time, byo_yomi_stones))

    def time_left(self, color: Color, seconds: int, stones: int) -> None:
        self._run(self.engine.time_left(color, seconds, stones))

    def showboard(self) -> str:
        return self._run(self.engine.showboard())

    def quit(self, *, timeout: float = 5.0) -> None:
        """End the engine (``quit``, then kill if needed) and stop the background loop."""
        if self._closed:
            return
        try:
            self._run(self.engine.quit(timeout=timeout))
        finally:
            self._closed = True
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._loop.close()

    close = quit

    def kill(self) -> None:
        if self._closed:
            return
        try:
            self._run(self.engine.kill())
        finally:
            self._closed = True
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._loop.close()

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()
