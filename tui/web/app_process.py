"""The server's handle on the app process of one session of ``plyscope serve``.

``SessionProcess`` is textual-serve's ``AppService`` (which relays the app's screen to the page and
the page's keys to the app) with the process started with no shell in between (the command
``plyscope.tui.commands.serve.session_command`` makes) before a page asks for it (``started``: a spare, which
starts the app and waits), given its page later (``give``: the page's screen size, then the relay),
its stderr kept rather than printed, ended at once when its page goes (SIGTERM, then SIGKILL after
``TERM_SECONDS``) even while it is still starting, and why it ended said to the page in one line.
"""

from __future__ import annotations

import asyncio
import contextlib
import shlex
import signal
from collections.abc import Awaitable, Callable

from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from plyscope.tui.crash import MEMORY_SIGNS
from plyscope.tui.web.spare import size_line

TERM_SECONDS = 0.5
"""How long an app process asked to end (SIGTERM) is given before it is killed (SIGKILL): its page is gone,
so nothing is waited for but a save being written."""
STDERR_KEPT_BYTES = 8192
"""The end of an app process's stderr the server keeps, to say why it failed (its last line)."""
MEMORY_SIGNALS = (signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS)
"""How a process that failed to allocate inside compiled code (numba, LLVM) may die instead."""
SESSION_ENVIRONMENT = {"MALLOC_ARENA_MAX": "2"}
"""Added to each app process's environment: the C library keeps two heaps for its threads rather than one
reserved (64 MB of address space) per thread, so that the memory limit leaves the tree what it measures."""


def out_of_memory(returncode: int | None, stderr: str) -> bool:
    """Whether an app process that ended with ``returncode``, having written ``stderr``, ran out of its address space
    (what it wrote says so, ``MEMORY_SIGNS``, or compiled code died of it, ``MEMORY_SIGNALS``)."""
    if returncode == 0:
        return False
    return any(sign in stderr for sign in MEMORY_SIGNS) or (
        returncode is not None and -returncode in [int(number) for number in MEMORY_SIGNALS]
    )


def ended_words(returncode: int | None, stderr: str, memory_mb: int) -> str | None:
    """Why an app process that ended by itself did, for its page; ``None`` when it simply quit (``q``)."""
    if returncode == 0:
        return None
    if out_of_memory(returncode, stderr):
        return f"plyscope: this session reached its memory limit of {memory_mb:,} MB and ended"
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    last = lines[-1] if lines else f"exit status {returncode}"
    last = last.split("; the full traceback is in ", 1)[0].removeprefix("plyscope explore: ")
    return f"plyscope: this session ended: {last}"


class SessionProcess(AppService):
    """The app process of one session: textual-serve's ``AppService`` (the relay of the app's screen to the page
    and of the page's keys to the app, in its packet format), with the process started with no shell, as a
    spare (``started``) given its page later (``give``), its stderr kept rather than printed, and ``stop``
    ending it at once.  ``ended`` is set once the process has gone (reaped): the session's slot is free from
    then on."""

    def __init__(self, command: list[str], memory_mb: int) -> None:
        super().__init__(
            shlex.join(command),
            write_bytes=_nowhere,
            write_str=_nowhere,
            close=self._exiting,
            download_manager=DownloadManager(),
        )
        self.argv = command
        self.memory_mb = memory_mb
        self.stderr = b""
        """The end of the app's stderr (at most ``STDERR_KEPT_BYTES``)."""
        self.ended = asyncio.Event()
        """Set once the process has ended and been reaped."""
        self.stopped = False
        """Whether ``stop`` ended it (its page went, or the server ended the session): nobody to tell why."""
        self.shown = asyncio.Event()
        """Set once the app, given its page, has started drawing on it (its first frame is drawn)."""
        self._errors: asyncio.Task[None] | None = None
        """Reads the app's stderr, from its start."""

    @classmethod
    async def started(cls, command: list[str], memory_mb: int, screen: tuple[int, int] = (80, 24)) -> SessionProcess:
        """A new app process running ``command`` (``plyscope.tui.commands.serve.session_command``), a spare: it starts
        the app on a screen of ``screen`` cells (columns, rows: a page of that size is shown at once, another once the
        app is laid out again), then waits to be given a page (``give``); its stderr is kept from now on.  ``OSError``
        if it cannot be started."""
        spare = cls(command, memory_mb)
        process = await spare._open_app_process(*screen)
        assert process.stderr is not None
        spare._errors = asyncio.create_task(spare._keep_stderr(process.stderr))
        return spare

    @property
    def gone(self) -> bool:
        """Whether the process has ended already (a spare that failed as it loaded, or was killed)."""
        return self._process is not None and self._process.returncode is not None

    async def give(
        self,
        width: int,
        height: int,
        write_bytes: Callable[[bytes], Awaitable[None]],
        write_str: Callable[[str], Awaitable[None]],
    ) -> None:
        """Give the spare its page: the page's screen (``width`` x ``height`` cells), then the relay of its
        output to ``write_bytes`` and ``write_str`` (the page's websocket) until it ends."""
        self.remote_write_bytes = write_bytes
        self.remote_write_str = write_str
        with contextlib.suppress(ConnectionError, RuntimeError):  # it has just ended: the relay sees it end
            self.stdin.write(size_line(width, height))
            await self.stdin.drain()
        self._task = asyncio.create_task(self.run())

    async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
        """Start the app: ``argv`` itself, no shell in between (ending it ends the app, not a shell)."""
        environment = {**self._build_environment(width=width, height=height), **SESSION_ENVIRONMENT}
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def _exiting(self) -> None:
        """The app said it is exiting (textual-serve then closes the page): its process ends next, and ``run``
        sees it end and reaps it; the server closes the page then, saying why."""

    async def run(self) -> None:
        """Relay the app's output until it ends; then reap it and read the rest of its stderr."""
        process = self._process
        assert process is not None and process.stdout is not None
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError, ValueError):
            await self._relay(process.stdout)  # until the app ends, or the page goes while a frame is sent
        await process.wait()
        if self._errors is not None:
            await self._errors
        self.ended.set()

    async def _relay(self, stdout: asyncio.StreamReader) -> None:
        """textual-serve's protocol: a line ``__GANGLION__``, then packets (a type byte, a length, the payload)."""
        while (line := await stdout.readline()) and line != b"__GANGLION__\n":
            pass  # anything printed before the app took its screen over
        self.shown.set()  # (a spare's app writes the line once drawn on its page's screen)
        handlers: dict[bytes, Callable[[bytes], Awaitable[None]]] = {
            b"D": self.on_data,
            b"M": self.on_meta,
            b"P": self.on_packed,
        }
        while True:
            kind = await stdout.readexactly(1)
            size = int.from_bytes(await stdout.readexactly(4), "big")
            payload = await stdout.readexactly(size)
            handler = handlers.get(kind)
            if handler is not None:
                await handler(payload)

    async def _keep_stderr(self, stderr: asyncio.StreamReader) -> None:
        while chunk := await stderr.read(4096):
            self.stderr = (self.stderr + chunk)[-STDERR_KEPT_BYTES:]

    @property
    def out_of_memory(self) -> bool:
        """Whether the app ended by itself for want of memory (its address space, ``memory_mb``)."""
        if self.stopped or self._process is None:
            return False
        return out_of_memory(self._process.returncode, self.stderr.decode("utf-8", "replace"))

    def why_ended(self) -> str | None:
        """Why the app ended by itself, in one line for its page (``None``: it quit, or ``stop`` ended it)."""
        if self.stopped or self._process is None:
            return None
        return ended_words(self._process.returncode, self.stderr.decode("utf-8", "replace"), self.memory_mb)

    def error_line(self) -> str | None:
        """The app's last line on stderr when it failed by itself (for the server's terminal), else ``None``."""
        if self.stopped or self._process is None or self._process.returncode in (0, None):
            return None
        lines = [line.strip() for line in self.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
        return lines[-1] if lines else f"exit status {self._process.returncode}"

    def pause(self) -> None:
        """Stop the process where it is (SIGSTOP), a spare still starting: its CPU time goes to the sessions."""
        self._signal(signal.SIGSTOP)

    def resume(self) -> None:
        """Let a ``pause``d process go on (SIGCONT)."""
        self._signal(signal.SIGCONT)

    def _signal(self, number: int) -> None:
        process = self._process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(number)

    async def stop(self) -> None:
        """End the app process now (SIGTERM; SIGKILL after ``TERM_SECONDS``), even while it is still starting or
        paused, and wait until it has been reaped.  The relay is stopped too: a page that reads nothing cannot hold
        it."""
        process = self._process
        if process is not None and process.returncode is None:
            self.stopped = True
            self.resume()  # (a stopped process would keep the SIGTERM pending)
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
            try:
                await asyncio.wait_for(process.wait(), TERM_SECONDS)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
        for task in (self._task, self._errors):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self.ended.set()


async def _nowhere(data: bytes | str) -> None:
    """Where a spare's output would go before it has a page (it writes none: it waits for one)."""
