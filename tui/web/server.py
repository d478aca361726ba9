"""The web server of ``plyscope serve``: textual-serve's, with a cap on the sessions open at once.

Each browser tab that opens the page gets its own app process (textual-serve's model: the
page's websocket starts ``plyscope explore ...`` and relays its screen). When ``max_sessions``
are open, the next page is answered with a page that says so (503), and a websocket opened
anyway is closed at once with that reason, which the page shows; no process is started. A
slot frees when its tab closes or its app quits.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import ipaddress
import signal
import socket
from collections.abc import Callable
from pathlib import Path

import aiohttp_jinja2
from aiohttp import WSCloseCode, web
from textual_serve.server import Server

from engine.errors import UserError

TEMPLATES = Path(__file__).resolve().parent / "templates"
LOOPBACK_NAMES = ("localhost", "localhost.", "ip6-localhost")
SHUTDOWN_SECONDS = 5.0
"""How long open sessions are given to close when the server stops."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine only (127.0.0.0/8, ::1, localhost): nobody else can reach it."""
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def exposure_warning(host: str) -> str | None:
    """The one-line warning ``plyscope serve --host HOST`` prints, or ``None`` for a loopback address."""
    if is_loopback(host):
        return None
    return (
        f"plyscope serve: warning: listening on {host}: anyone who can reach it can open the explorer "
        "and run searches on this machine"
    )


def refusal(max_sessions: int) -> str:
    """What a browser tab is told when every session is taken."""
    taken = "the one session is" if max_sessions == 1 else f"all {max_sessions} sessions are"
    return f"plyscope: {taken} in use; close a tab or try later"


def page_url(host: str, port: int) -> str:
    """The address to open for a server on ``host``: the machine's name for a wildcard address."""
    if host in ("", "0.0.0.0", "::"):
        host = socket.gethostname()
    elif ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}"


class PlyscopeServer(Server):
    """textual-serve's server with at most ``max_sessions`` app processes, quiet, and stopped cleanly."""

    def __init__(
        self,
        command: str,
        *,
        host: str,
        port: int,
        max_sessions: int,
        public_url: str | None = None,
        say: Callable[[str], None] = print,
    ) -> None:
        super().__init__(
            command, host=host, port=port, title="plyscope", public_url=public_url, templates_path=TEMPLATES
        )
        self.given_url = public_url
        """``--public-url``; without it each page's addresses are those its browser reached (any interface)."""
        self.max_sessions = max_sessions
        self.say = say
        self.sessions: set[asyncio.Task[object]] = set()
        """The websocket handlers running, one per open session (each owns an app process)."""
        self.url = public_url or page_url(host, port)

    @property
    def full(self) -> bool:
        return len(self.sessions) >= self.max_sessions

    def initialize_logging(self) -> None:
        """No request log: the terminal shows sessions opening and closing, and app errors."""

    async def on_startup(self, app: web.Application) -> None:
        """No banner: ``run`` prints the address once the port is bound."""

    async def on_shutdown(self, app: web.Application) -> None:
        """Close every session (each app is told to quit) so that the server stops promptly."""
        for task in list(self.sessions):
            task.cancel()
        if self.sessions:
            await asyncio.wait(list(self.sessions), timeout=SHUTDOWN_SECONDS)

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page, or when every session is taken a page that says so (status 503)."""
        if self.full:
            self.say(f"plyscope serve: refused a page: {self.max_sessions} of {self.max_sessions} sessions in use")
            context = {"message": refusal(self.max_sessions)}
            return aiohttp_jinja2.render_template("busy.html", request, context, status=503)
        # the page's websocket and static addresses: --public-url, else the address this browser used
        self.public_url = self.given_url or str(request.url.origin())
        response: web.StreamResponse = await super().handle_index(request)
        return response

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One session: an app process while the websocket is open; refused with a reason when full."""
        if self.full:
            websocket = web.WebSocketResponse()
            await websocket.prepare(request)
            await websocket.close(code=WSCloseCode.TRY_AGAIN_LATER, message=refusal(self.max_sessions).encode())
            self.say(f"plyscope serve: refused a session: {self.max_sessions} of {self.max_sessions} in use")
            return websocket
        task = asyncio.current_task()
        assert task is not None
        self.sessions.add(task)
        self.say(f"plyscope serve: session opened ({len(self.sessions)} of {self.max_sessions} in use)")
        try:
            return await super().handle_websocket(request)
        finally:
            self.sessions.discard(task)
            self.say(f"plyscope serve: session closed ({len(self.sessions)} of {self.max_sessions} in use)")

    def run(self, ready: Callable[[str], None]) -> int:
        """Serve until Ctrl-C (``KeyboardInterrupt``, after the sessions are closed) or SIGTERM (0)."""
        return asyncio.run(self._serve(ready))

    async def _serve(self, ready: Callable[[str], None]) -> int:
        runner = web.AppRunner(await self._make_app(), access_log=None, shutdown_timeout=SHUTDOWN_SECONDS)
        await runner.setup()
        try:
            try:
                await web.TCPSite(runner, self.host, self.port).start()
            except OSError as error:
                reason = error.strerror or str(error)
                raise UserError(f"cannot listen on {self.host} port {self.port}: {reason}") from None
            ready(self.url)
            stop = asyncio.Event()
            with contextlib.suppress(RuntimeError):  # not in the main thread: stopped by cancelling instead
                asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
            await stop.wait()
            return 0
        finally:
            await runner.cleanup()
            # The sessions' app processes are gone, but textual-serve keeps no handle to close their pipes:
            # collect them while the loop still runs, or each prints "Event loop is closed" at exit.
            gc.collect()
            await asyncio.sleep(0)
