"""The host side of the bot protocol: an outside program seated as a bot (``cmd:COMMAND``).

``CommandBot`` starts the program the first time it must act, says ``hello``
with the seat, the rules and the seed, then sends the seat's observation each
time the seat is to act and reads back one action.  The host never hangs and
never trusts the program:

* every answer is awaited with a deadline (a reader thread feeds a queue; a
  writer thread does the writing, so a program that stops reading cannot block
  the host either);
* a program that answers garbage, an illegal action or an error, that is too
  slow, or that dies, is killed (its whole process group on POSIX) and a
  ``BotFailure`` names the position and what it said;
* the last lines it wrote to standard error are kept for the report.

* a line the program wrote before it was sent the message being answered (a second line for
  the previous move) is reported as left over from the previous move, not taken as the answer:
  the reader thread stamps each line with the time it arrived.

With ``reuse=True`` (the arena) a program that finished a game cleanly is kept
running and the next ``CommandBot`` of the same command says ``hello`` to it
again instead of starting a new process: ``hello`` starts a new game, with a
new seat and seed, and a bot must forget the previous one.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import queue
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from dehla.bots.base import Bot, make_bot
from dehla.engine.actions import Action, parse_action
from dehla.engine.observe import Observation
from dehla.errors import DehlaError
from dehla.play import BotFailure, legal_text
from dehla.protocol.messages import (
    DEFAULT_MOVE_TIMEOUT,
    DEFAULT_START_TIMEOUT,
    MAX_LINE,
    PROTOCOL,
    HostMessage,
    act_message,
    encode,
    hello_message,
    quit_message,
)

__all__ = ["CommandBot", "COMMAND_PREFIX", "make_player", "split_command", "stop_idle_processes"]

#: Bot names that start with this run an outside program: ``cmd:python examples/simple_bot.py``.
COMMAND_PREFIX = "cmd:"
_EOF = object()
_STDERR_LINES = 8
_QUIT_GRACE = 1.0


def split_command(command: str | Sequence[str]) -> list[str]:
    """The program and its arguments; a clear error when there is no such program."""
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise DehlaError(f"cannot read the bot command {command!r}: {error}") from None
    else:
        argv = [str(part) for part in command]
    if not argv:
        raise DehlaError("the bot command is empty; write cmd:PROGRAM [ARGUMENTS], e.g. 'cmd:python my_bot.py'")
    program = argv[0]
    if shutil.which(program) is None and not (os.sep in program and Path(program).is_file()):
        raise DehlaError(f"cannot run bot command {' '.join(argv)!r}: no program {program!r} found")
    return argv


class _Process:
    """One running bot program and the threads that talk to it."""

    def __init__(self, argv: list[str], cwd: str | None) -> None:
        try:
            self.popen = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                start_new_session=os.name == "posix",
            )
        except OSError as error:
            raise DehlaError(f"cannot start bot command {' '.join(argv)!r}: {error.strerror or error}") from None
        self.lines: queue.Queue[object] = queue.Queue()
        self.outgoing: queue.Queue[bytes | None] = queue.Queue()
        self.stderr_tail: deque[str] = deque(maxlen=_STDERR_LINES)
        self.write_error: str | None = None
        assert self.popen.stdout is not None and self.popen.stderr is not None and self.popen.stdin is not None
        threading.Thread(target=self._read, args=(self.popen.stdout,), daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, args=(self.popen.stderr,), daemon=True)
        self._stderr_reader.start()
        threading.Thread(target=self._write, args=(self.popen.stdin,), daemon=True).start()
        self._finalizer = weakref.finalize(self, _kill, self.popen)

    def _read(self, stream: IO[bytes]) -> None:
        try:
            while True:
                line = stream.readline(MAX_LINE)
                if not line:
                    break
                self.lines.put((time.monotonic(), line))
        except (OSError, ValueError):
            pass
        finally:
            self.lines.put(_EOF)

    def _read_stderr(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            for line in iter(lambda: stream.readline(MAX_LINE), b""):
                self.stderr_tail.append(line.decode("utf-8", "replace").rstrip())

    def _write(self, stream: IO[bytes]) -> None:
        while True:
            data = self.outgoing.get()
            if data is None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()
                return
            try:
                stream.write(data)
                stream.flush()
            except (OSError, ValueError) as error:
                self.write_error = str(error) or type(error).__name__
                return

    def send(self, message: HostMessage) -> float:
        """Queue ``message`` for the program; returns the time it was queued (no answer to it can be older)."""
        sent = time.monotonic()
        self.outgoing.put(encode(message).encode("utf-8"))
        return sent

    def receive(self, timeout: float) -> tuple[float, bytes] | None:
        """The next non-blank line and when it arrived, or ``None`` at the end of the output.

        Raises ``TimeoutError`` past ``timeout``.
        """
        while True:
            try:
                item = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise TimeoutError from None
            if item is _EOF:
                self.lines.put(_EOF)  # keep reporting the end
                return None
            assert isinstance(item, tuple)
            if item[1].strip():
                return item

    def exit_status(self, wait: float) -> int | None:
        try:
            return self.popen.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None

    def stderr_text(self) -> str:
        if self.popen.poll() is not None:
            self._stderr_reader.join(1.0)  # a process that exited: let its last error lines arrive first
        return " | ".join(line for line in self.stderr_tail if line)

    def stop(self, grace: float) -> None:
        """Ask the program to quit, then kill it (and its process group) if it has not."""
        if self.popen.poll() is None:
            self.send(quit_message())
            self.outgoing.put(None)
            if self.exit_status(grace) is None:
                _kill(self.popen)
        else:
            self.outgoing.put(None)
        self._finalizer.detach()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=grace)
        for stream in (self.popen.stdout, self.popen.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def kill(self) -> None:
        _kill(self.popen)
        self.outgoing.put(None)
        self._finalizer.detach()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=_QUIT_GRACE)

    def drain(self) -> None:
        """Forget any lines left over from an earlier game (a well-behaved bot leaves none)."""
        while True:
            try:
                item = self.lines.get_nowait()
            except queue.Empty:
                return
            if item is _EOF:
                self.lines.put(_EOF)
                return


_ProcessKey = tuple[tuple[str, ...], "str | None"]
#: Programs kept running between games for reuse (``CommandBot(reuse=True)``), by command and directory.
_IDLE: dict[_ProcessKey, list[_Process]] = {}
_IDLE_LOCK = threading.Lock()


def _take_idle(key: _ProcessKey) -> _Process | None:
    with _IDLE_LOCK:
        waiting = _IDLE.get(key, [])
        while waiting:
            process = waiting.pop(0)
            if process.popen.poll() is None:
                return process
            process.stop(0)
    return None


def _put_idle(key: _ProcessKey, process: _Process) -> None:
    with _IDLE_LOCK:
        _IDLE.setdefault(key, []).append(process)


def stop_idle_processes() -> None:
    """Stop every bot program kept for reuse (the arena calls this after each unit of work, and at exit)."""
    with _IDLE_LOCK:
        waiting = [process for processes in _IDLE.values() for process in processes]
        _IDLE.clear()
    for process in waiting:
        process.stop(_QUIT_GRACE)


atexit.register(stop_idle_processes)


def _kill(popen: subprocess.Popen[bytes]) -> None:
    """Kill a bot program that is still running, with any children in its own session."""
    if popen.poll() is not None:
        return
    try:
        if os.name == "posix":
            os.killpg(popen.pid, signal.SIGKILL)
        else:  # pragma: no cover - not tested off POSIX
            popen.kill()
    except (ProcessLookupError, PermissionError):
        with contextlib.suppress(OSError):
            popen.kill()


class CommandBot:
    """An outside program playing one seat over the bot protocol (``make_bot("cmd:python my_bot.py")``).

    The program starts on the first ``act`` (so a bot that never acts costs
    nothing) and stops on ``close()``; use it as a context manager or call
    ``close`` when the match is over.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        seed: int | None = None,
        move_timeout: float = DEFAULT_MOVE_TIMEOUT,
        start_timeout: float = DEFAULT_START_TIMEOUT,
        cwd: str | None = None,
        reuse: bool = False,
    ) -> None:
        self.argv = split_command(command)
        self.reuse = reuse
        text = command if isinstance(command, str) else shlex.join(self.argv)
        self.name = f"{COMMAND_PREFIX}{text}"
        self.seed = seed
        self.move_timeout = move_timeout
        self.start_timeout = start_timeout
        self.cwd = cwd
        self._process: _Process | None = None
        self._seat: int | None = None
        self._failure: BotFailure | None = None
        self.ready: dict[str, object] | None = None  # what the program answered to hello (any JSON object)

    # -- the Bot interface ----------------------------------------------------------------------

    def act(self, observation: Observation) -> Action:
        if self._failure is not None:
            raise self._failure
        try:
            process = self._started(observation)
            if observation.seat != self._seat:
                raise DehlaError(f"{self.name} plays seat {self._seat}, not seat {observation.seat}")
            sent = process.send(act_message(observation))
            line = self._answer(process, observation, self.move_timeout, "a move", sent)
            return self._action(line, observation)
        except BotFailure as failure:
            self._failure = failure
            if self._process is not None:
                self._process.kill()
            raise

    def close(self) -> None:
        """Tell the program to quit and make sure it has stopped (or, with ``reuse``, keep it for the next game)."""
        process, self._process = self._process, None
        if process is None:
            return
        if self.reuse and self._failure is None and process.popen.poll() is None:
            _put_idle(self._key, process)
        else:
            process.stop(_QUIT_GRACE)

    @property
    def _key(self) -> _ProcessKey:
        return (tuple(self.argv), self.cwd)

    def __enter__(self) -> CommandBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"CommandBot({self.name!r}, seed={self.seed})"

    # -- talking to the program -----------------------------------------------------------------

    def _started(self, observation: Observation) -> _Process:
        if self._process is not None:
            return self._process
        process = _take_idle(self._key) if self.reuse else None
        if process is not None:
            process.drain()
        else:
            try:
                process = _Process(self.argv, self.cwd)
            except DehlaError as error:
                raise BotFailure.at("died", self.name, observation, str(error)) from None
        self._process = process
        self._seat = observation.seat
        process.send(hello_message(observation.seat, observation.rules, self.seed))
        line = self._answer(process, observation, self.start_timeout, "hello")
        reply = self._json_object(line, observation, "its answer to hello")
        if "error" in reply:
            detail = f"refused to start: {reply['error']}"
            raise BotFailure.at("error", self.name, observation, detail, said=_text(line))
        protocol = reply.get("protocol", PROTOCOL)
        if protocol != PROTOCOL:
            raise BotFailure.at(
                "unreadable", self.name, observation, f"speaks {protocol!r}, not {PROTOCOL!r}", said=_text(line)
            )
        self.ready = reply
        return process

    def _answer(
        self, process: _Process, observation: Observation, timeout: float, what: str, sent: float | None = None
    ) -> bytes:
        """The program's answer; with ``sent`` (when the move was asked for), a line that arrived earlier fails."""
        try:
            received = process.receive(timeout)
        except TimeoutError:
            raise BotFailure.at(
                "timeout",
                self.name,
                observation,
                f"did not answer {what} within {timeout:g} second{'' if timeout == 1 else 's'}",
            ) from None
        if received is None:
            status = process.exit_status(_QUIT_GRACE)
            how = "closed its output" if status is None else f"exited with status {status}"
            if status is not None and status < 0:
                how = f"was killed by signal {-status}"
            detail = f"{how} instead of answering {what}"
            if process.write_error:
                detail += f" (it stopped reading: {process.write_error})"
            stderr = process.stderr_text()
            if stderr:
                detail += f"; its last error output: {stderr}"
            raise BotFailure.at("died", self.name, observation, detail)
        arrived, line = received
        if sent is not None and arrived < sent:
            raise BotFailure.at(
                "unreadable",
                self.name,
                observation,
                "wrote one line too many: this line was left over from the previous move, written before the host "
                f"asked for {what} (answer each message with exactly one line; write logs to standard error)",
                said=_text(line),
            )
        if len(line) >= MAX_LINE and not line.endswith(b"\n"):
            raise BotFailure.at(
                "unreadable", self.name, observation, f"answered a line longer than {MAX_LINE} bytes", said=_text(line)
            )
        return line

    def _json_object(self, line: bytes, observation: Observation, what: str) -> dict[str, object]:
        try:
            reply = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            reply = None
        if not isinstance(reply, dict):
            raise BotFailure.at(
                "unreadable", self.name, observation, f"{what} is not a JSON object on one line", said=_text(line)
            )
        return reply

    def _action(self, line: bytes, observation: Observation) -> Action:
        reply = self._json_object(line, observation, "its answer")
        if "error" in reply and "action" not in reply:
            detail = f"reported an error: {reply['error']}"
            raise BotFailure.at("error", self.name, observation, detail, said=_text(line))
        text = reply.get("action")
        if not isinstance(text, str):
            raise BotFailure.at(
                "unreadable", self.name, observation, 'its answer has no "action" text such as "10H"', said=_text(line)
            )
        try:
            action = parse_action(text)
        except DehlaError as error:
            raise BotFailure.at("unreadable", self.name, observation, str(error), said=_text(line)) from None
        if action not in observation.legal_actions:
            raise BotFailure.at(
                "illegal",
                self.name,
                observation,
                f"answered {text!r}, which is not legal now; legal were: {legal_text(observation)}",
                said=_text(line),
            )
        return action


def _text(line: bytes) -> str:
    return line.decode("utf-8", "replace").rstrip("\r\n")


def make_player(
    name: str, seed: int | None = None, *, move_timeout: float = DEFAULT_MOVE_TIMEOUT, reuse: bool = False
) -> Bot:
    """A registered bot by name (``make_bot``), or an outside program by ``cmd:COMMAND`` (a ``CommandBot``).

    This is how the doors that seat bots (``dehla play``, ``simulate``, ``arena``) fill a seat; a clear error lists
    the names otherwise.  A ``cmd:`` bot runs its program over the bot protocol from its first move, with
    ``move_timeout`` seconds a move (and, with ``reuse``, a program kept between games); call its ``close()``
    (or ``dehla.play.close_bots``) when the match is over.
    """
    if name.startswith(COMMAND_PREFIX):
        return CommandBot(name[len(COMMAND_PREFIX) :], seed, move_timeout=move_timeout, reuse=reuse)
    return make_bot(name, seed)


def python_command(script: str, *arguments: str) -> str:
    """A ``cmd:`` bot name that runs ``script`` with this Python (used by tests and examples)."""
    return COMMAND_PREFIX + shlex.join([sys.executable, script, *arguments])
