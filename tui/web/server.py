"""The web server of ``plyscope serve``: textual-serve's, held to what a classroom needs.

Each browser tab that opens the page gets its own app process (textual-serve's model: the page's
websocket is given ``plyscope explore ...``, run through ``plyscope.tui.web.session``, and relays its screen).
On top of textual-serve, this server:

* keeps one app process started ahead, a spare whose app has started (from the server's start on),
  so that a page that connects is drawn at once, and starts a new spare behind it, held stopped
  while pages are used (its start never slows a session's keys); the spare is not a session (no page
  has it), and obeys the same limits;
* accepts a websocket only from its own pages (``Origin``: the addresses it printed and the names
  it was started with; a client that sends no ``Origin`` is not a browser, and is let in);
* counts app processes, not connections: at most ``max_sessions`` run at once, a slot being free
  only once its process has gone; the next page is told why it gets no session;
* ends a session at once when its page closes or reloads, after ``idle_seconds`` without a key or
  a click, or when the page sends what no page of it would; the page is told why in one line;
* refuses malformed requests and messages with one logged line each, never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import ipaddress
import json
import logging
import re
import signal
import socket
import struct
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import aiohttp_jinja2
import jinja2
from aiohttp import WSCloseCode, WSMessage, WSMsgType, web
from aiohttp.http_exceptions import HttpProcessingError
from textual_serve.server import Server
from yarl import URL

from plyscope.engine.errors import UserError, one_line
from plyscope.engine.numbers import shown
from plyscope.tui.crash import crash_line, save_crash
from plyscope.tui.web.app_process import SessionProcess

TEMPLATES = Path(__file__).resolve().parent / "templates"
LOOPBACK_NAMES = ("localhost", "localhost.", "ip6-localhost")
WILDCARD_HOSTS = ("", "0.0.0.0", "::")
SHUTDOWN_SECONDS = 5.0
"""How long open sessions are given to close when the server stops."""
SLOT_WAIT_SECONDS = 2.0
"""How long a page that finds every session in use waits for one to end (a reloaded page's own session is
being ended at that moment) before it is refused."""
SPARE_DELAY_SECONDS = 0.5
"""How long after a page's first frame is drawn the next spare starts: its start (half a second of CPU time)
would otherwise take CPU time from the browser drawing that frame, on a busy machine."""
SPARE_PAUSE_SECONDS = 0.5
"""The spare is held stopped (``SessionProcess.pause``) while pages are used, until none has sent a key or a click
for this long: its start never takes CPU time from a session answering its keys."""
GOODBYE_SECONDS = 2.0
"""How long closing a page's websocket (with the reason) may take: a page that reads nothing holds no more."""
HEARTBEAT_SECONDS = 15.0
"""A page's websocket is pinged this often, and closed when it does not answer (a vanished client)."""
MAX_MESSAGE_BYTES = 1 << 20
"""The largest message a page may send (a paste of text is the largest the page sends)."""
MIN_SCREEN = (20, 8)
MAX_SCREEN = (400, 150)
"""The smallest and largest screen, in cells (columns, rows), a page may ask for: beyond these the app's
memory grows with the cells for nothing a browser window shows (a 4K screen at the page's 16 px font is
about 400 x 110 cells)."""
REASON_BYTES = 123
"""The most bytes a websocket close frame's reason may hold (RFC 6455)."""
NUMBER_DIGITS = 18
"""The most digits a number in a page's message may have (a screen's size has three)."""
POINTER_REPORT = re.compile(r"\x1b\[<(\d+);\d+;\d+[Mm]")
"""A mouse report in the terminal's SGR encoding (``ESC [ < BUTTON ; COLUMN ; ROW M``; ``m``: released), as
xterm.js sends it for an app that tracks the mouse (Textual does)."""
MOVED = 32
"""Added to a report's ``BUTTON`` when the pointer moved."""
NO_BUTTON = 3
"""A report's ``BUTTON`` bits (the low two) when no button is held."""
MALFORMED_WORDS = "plyscope: this session ended: the page sent a malformed message"
NOT_A_WEBSOCKET = "plyscope serve: /ws takes the websocket the page opens; open the page itself\n"


class Malformed(ValueError):
    """A websocket message no page of this server sends; the message says what it is, in a few words."""


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


def idle_words(idle_seconds: float) -> str:
    """What a page is told when its session ended for want of input."""
    return f"plyscope: this session ended after {_duration(idle_seconds)} without a key or a click"


def _duration(seconds: float) -> str:
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return "1 minute" if minutes == 1 else f"{minutes} minutes"
    return f"{seconds:g} seconds"


def url_host(host: str) -> str:
    """``host`` as written in a URL: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def page_url(host: str, port: int) -> str:
    """The address to open for a server on ``host``: the machine's name for a wildcard address."""
    return f"http://{url_host(socket.gethostname() if host in WILDCARD_HOSTS else host)}:{port}"


def machine_addresses(host: str) -> list[str]:
    """This machine's addresses on its networks (neither loopback nor link-local), IPv4 first, for a server
    listening on the wildcard ``host``: IPv4 only for ``0.0.0.0``, IPv4 and IPv6 for ``::`` (and ``""``)."""
    found: set[str] = set()
    with contextlib.suppress(OSError):  # the addresses the machine's name resolves to
        found.update(str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None))
    found.update(_interface_addresses())
    kept = []
    for text in found:
        try:
            address = ipaddress.ip_address(text.split("%")[0])
        except ValueError:
            continue
        if address.is_loopback or address.is_link_local or address.is_unspecified or address.is_multicast:
            continue
        if address.version == 4 or host != "0.0.0.0":
            kept.append(address)
    return [str(address) for address in sorted(kept, key=lambda address: (address.version, address))]


def _interface_addresses() -> set[str]:
    """Each network interface's addresses, where the system tells them without a package (Linux): IPv4 from
    ``SIOCGIFADDR``, IPv6 from ``/proc/net/if_inet6``."""
    found: set[str] = set()
    if not sys.platform.startswith("linux"):
        return found
    import fcntl

    siocgifaddr = 0x8915
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            with contextlib.suppress(OSError):
                request = struct.pack("256s", name.encode()[:15])
                found.add(socket.inet_ntoa(fcntl.ioctl(probe.fileno(), siocgifaddr, request)[20:24]))
    with contextlib.suppress(OSError):
        for line in Path("/proc/net/if_inet6").read_text().splitlines():
            digits = line.split()[0]
            found.add(str(ipaddress.IPv6Address(bytes.fromhex(digits))))
    return found


Origin = tuple[str, str, int]
"""A web origin: scheme, host (lower case, no brackets), port."""


def parse_origin(text: str) -> Origin | None:
    """The origin ``text`` (an ``Origin`` header, or an address) names, or ``None`` (``null``, nonsense)."""
    try:
        url = URL(text.strip())
    except (ValueError, TypeError):
        return None
    if url.scheme not in ("http", "https") or not url.host or url.port is None:
        return None
    return url.scheme, url.host.lower().rstrip("."), url.port


def served_origins(host: str, port: int, public_url: str | None, addresses: Iterable[str]) -> frozenset[Origin]:
    """The origins of this server's own pages: the address printed and the names it was started with (for a
    wildcard ``host``, the machine's names and ``addresses`` too; for a loopback one, every name of
    this machine), and ``public_url``'s."""
    names = {host}
    if host in WILDCARD_HOSTS or is_loopback(host):
        names.update(("localhost", "127.0.0.1", "::1"))
    if host in WILDCARD_HOSTS:
        names.update((socket.gethostname(), socket.getfqdn(), *addresses))
    origins = {("http", name.strip("[]").lower().rstrip("."), port) for name in names if name}
    given = parse_origin(public_url) if public_url else None
    if given is not None:
        origins.add(given)
    return frozenset(origins)


def screen_size(width: object, height: object) -> tuple[int, int]:
    """The screen a page asked for (columns, rows), held to ``MIN_SCREEN``..``MAX_SCREEN`` (80 x 24 if unreadable)."""
    asked = []
    for value, default, low, high in zip((width, height), (80, 24), MIN_SCREEN, MAX_SCREEN, strict=True):
        try:
            number = int(value) if isinstance(value, (int, str)) and not isinstance(value, bool) else default
        except ValueError:
            number = default
        asked.append(min(max(number, low), high))
    return asked[0], asked[1]


def page_message(text: str) -> tuple[str, object]:
    """A message from the page (textual-serve's: ``["stdin", KEYS]``, ``["resize", {"width": W, "height": H}]``,
    ``["ping", TEXT]``, ``["focus"]``, ``["blur"]``) as its type and data; ``Malformed`` if no page sends it.
    A well-formed message of another type is returned too (and ignored by the caller)."""
    try:
        envelope = json.loads(text, parse_int=_whole_number)
    except Malformed:
        raise
    except RecursionError:  # (arrays in arrays deeper than the interpreter's stack)
        raise Malformed(f"a message nested too deeply ({shown(text, 40)})") from None
    except ValueError:
        raise Malformed(f"a message that is not JSON ({shown(text, 40)})") from None
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        raise Malformed(f"a message that is not [TYPE, DATA] ({shown(text, 40)})")
    kind = envelope[0]
    data = envelope[1] if len(envelope) > 1 else None
    if kind in ("stdin", "ping") and not isinstance(data, str):
        raise Malformed(f"a {kind} message whose data is not text ({shown(text, 40)})")
    if kind == "resize" and not (
        isinstance(data, dict) and all(type(data.get(side)) is int for side in ("width", "height"))
    ):
        raise Malformed(f"a resize message without a whole width and height ({shown(text, 40)})")
    return kind, data


def _whole_number(digits: str) -> int:
    """A whole number in a page's message (JSON's digits, a sign perhaps); ``Malformed`` past ``NUMBER_DIGITS``."""
    if len(digits.lstrip("-")) > NUMBER_DIGITS:
        raise Malformed(f"a number out of range ({len(digits.lstrip('-')):,} digits)")
    return int(digits)


def counts_as_use(keys: str) -> bool:
    """Whether ``keys``, what a page's terminal sent the app, is someone using the page (a key, a click, a drag,
    the wheel), not only the pointer moving over it: xterm.js reports each move while the app tracks the mouse."""
    return POINTER_REPORT.sub(_no_move, keys) != ""


def _no_move(report: re.Match[str]) -> str:
    """A mouse report (``POINTER_REPORT``) taken out if it says only that the pointer moved, no button held."""
    button = int(report.group(1))
    return "" if button & MOVED and button & NO_BUTTON == NO_BUTTON else report.group(0)


def close_reason(text: str) -> str:
    """``text`` cut to fit a websocket close frame (``REASON_BYTES`` of UTF-8), with an ellipsis if cut."""
    if len(text.encode()) <= REASON_BYTES:
        return text
    cut = text.encode()[: REASON_BYTES - 3].decode("utf-8", "ignore")
    return cut + "…"


class OneLineLog(logging.Handler):
    """Every warning and error record as one line (its message and, if it carries one, the exception's first line),
    and every request aiohttp's parser refused (some at debug level: a first request that is not HTTP at all, as a
    TLS handshake): a client that sends malformed requests makes one line each, never a traceback."""

    def __init__(self, say: Callable[[str], None]) -> None:
        super().__init__(logging.DEBUG)
        self.say = say

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return record.levelno >= logging.WARNING or isinstance(error, HttpProcessingError)

    def emit(self, record: logging.LogRecord) -> None:
        line = record.getMessage().splitlines()[0] if record.getMessage() else record.name
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError):  # aiohttp's parser refused the request (and answered 400)
            line = line.replace("Error handling request", "refused a malformed request", 1)
        if error is not None:
            words = getattr(error, "message", "") or str(error)
            detail = " ".join(part.strip() for part in str(words).splitlines() if part.strip(" ^"))
            line = f"{line}: {type(error).__name__}" + (f": {detail}" if detail else "")
        self.say(one_line(f"plyscope serve: {shown(line, 160)}"))


class PlyscopeServer(Server):
    """textual-serve's server with at most ``max_sessions`` app processes, its own pages only, sessions that end
    with their page or after ``idle_seconds`` without input, quiet, and stopped cleanly."""

    def __init__(
        self,
        command: list[str],
        *,
        host: str,
        port: int,
        max_sessions: int,
        idle_seconds: float,
        memory_mb: int,
        public_url: str | None = None,
        say: Callable[[str], None] = print,
        spare: SessionProcess | None = None,
    ) -> None:
        super().__init__(
            " ".join(command), host=host, port=port, title="plyscope", public_url=public_url, templates_path=TEMPLATES
        )
        self.argv = command
        """Each session's process: ``plyscope.tui.commands.serve.session_command``."""
        self.given_url = public_url
        """``--public-url``; without it each page's addresses are those its browser reached (any interface)."""
        self.max_sessions = max_sessions
        self.idle_seconds = idle_seconds
        self.memory_mb = memory_mb
        self.say = say
        self.url = public_url or page_url(host, port)
        self.addresses = machine_addresses(host) if host in WILDCARD_HOSTS else []
        """This machine's network addresses, for a server on every interface (others may not resolve its name)."""
        self.origins = served_origins(host, port, public_url, self.addresses)
        self.taken = 0
        """Sessions holding a slot: from their acceptance until their app process has gone."""
        self.ending = 0
        """Of those, the sessions whose process is being ended."""
        self.slots = asyncio.Condition()
        """Notified when a slot frees."""
        self.handlers: set[asyncio.Task[object]] = set()
        """The websocket handlers running, one per page connected (for the server's shutdown)."""
        self.spare = spare
        """An app process started ahead and waiting for a page (``None``: none yet, or the server is stopping); the
        first may be given (started as ``plyscope serve`` starts, it loads the app while the server loads)."""
        self.spares = asyncio.Lock()
        """Held while the spare is handed over or another started: each page gets a process of its own."""
        self.stopping = False
        """Set as the server stops: no spare is started from then on."""
        self.last_screen = (80, 24)
        """The screen (columns, rows) of the last page that opened a session."""
        self._resume: asyncio.TimerHandle | None = None
        """Resumes the spare once the pages are quiet (``SPARE_PAUSE_SECONDS``)."""

    @property
    def other_urls(self) -> list[str]:
        """The page's address by this machine's network addresses (a wildcard host's students may not resolve
        its name)."""
        return [f"http://{url_host(address)}:{self.port}" for address in self.addresses]

    def about(self) -> str:
        """The line under the page's terminal: how a session ends and what it may use."""
        return (
            f"plyscope · q quits this session (ctrl+c copies) · it ends after {_duration(self.idle_seconds)} "
            f"without a key or a click · memory limit {self.memory_mb:,} MB per session"
        )

    def initialize_logging(self) -> None:
        """Each record of aiohttp, asyncio and textual-serve as one line through ``say``, never a traceback; aiohttp's
        server logs at debug level too, for the requests its parser refuses quietly (``OneLineLog``)."""
        handler = OneLineLog(self.say)
        for name in ("aiohttp", "asyncio", "textual-serve"):
            logger = logging.getLogger(name)
            logger.handlers[:] = [handler]
            logger.propagate = False
        logging.getLogger("aiohttp.server").setLevel(logging.DEBUG)

    async def on_startup(self, app: web.Application) -> None:
        """No banner: ``run`` prints the address once the port is bound."""

    async def on_shutdown(self, app: web.Application) -> None:
        """Close every session (each app process is ended) so that the server stops promptly."""
        self.stopping = True  # no spare is started behind the sessions closed now
        for task in list(self.handlers):
            task.cancel()
        if self.handlers:
            await asyncio.wait(list(self.handlers), timeout=SHUTDOWN_SECONDS)

    async def _make_app(self) -> web.Application:
        """textual-serve's application: its page, its websocket, its downloads and its static files (no listing of
        a folder of them); the page's line about the session."""
        app = web.Application()
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, name="static"),
            ]
        )
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        aiohttp_jinja2.get_env(app).globals["about"] = self.about()
        return app

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page, always: when every session is in use its websocket is refused and the page says so (a
        page reloaded while its own session is still open must not be turned away)."""
        # the page's websocket and static addresses: --public-url, else the address this browser used
        self.public_url = self.given_url or str(request.url.origin())
        response: web.StreamResponse = await super().handle_index(request)
        return response

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One session: an app process while the page's websocket is open; refused with a reason otherwise.

        A request for ``/ws`` that is not a websocket gets a 400 (``HTTPBadRequest``) and one logged line."""
        peer = request.remote or "an unknown address"
        websocket = web.WebSocketResponse(
            heartbeat=HEARTBEAT_SECONDS, max_msg_size=MAX_MESSAGE_BYTES, timeout=GOODBYE_SECONDS
        )
        if not websocket.can_prepare(request):
            self.say(f"plyscope serve: refused a request for /ws from {peer}: not a websocket")
            raise web.HTTPBadRequest(text=NOT_A_WEBSOCKET)
        task = asyncio.current_task()
        assert task is not None
        self.handlers.add(task)
        try:
            await websocket.prepare(request)
            await self._serve_page(websocket, request, peer)
        except ConnectionError:
            pass  # the page went while its websocket was opened or closed
        except Exception as error:  # a defect here: one line and a crash report, never a traceback
            self.say(crash_line("serve", error, save_crash(error)))
            await self._goodbye(websocket, WSCloseCode.INTERNAL_ERROR, "plyscope: the server failed; try again")
        finally:
            self.handlers.discard(task)
        return websocket

    async def _serve_page(self, websocket: web.WebSocketResponse, request: web.Request, peer: str) -> None:
        """Refuse the page (not one of ours, or every session in use) or run its session, then close its websocket
        saying why."""
        origin = request.headers.get("Origin")
        if origin is not None and parse_origin(origin) not in self.origins:
            self.say(
                f"plyscope serve: refused a websocket from {peer}: its page, {shown(origin, 80)}, is not this server's"
            )
            await self._goodbye(
                websocket,
                WSCloseCode.POLICY_VIOLATION,
                f"plyscope: this page is not one of this server's; open {self.url}",
            )
            return
        if not await self._take_slot():
            self.say(f"plyscope serve: refused a session: {self.max_sessions} of {self.max_sessions} in use")
            await self._goodbye(websocket, WSCloseCode.TRY_AGAIN_LATER, refusal(self.max_sessions))
            return
        try:
            code, reason = await self._session(websocket, request.query, peer)
        except asyncio.CancelledError:  # the server stops (a failure is said by handle_websocket)
            await self._goodbye(websocket, WSCloseCode.GOING_AWAY, "plyscope: the server stopped")
            raise
        await self._goodbye(websocket, code, reason)

    async def _take_slot(self) -> bool:
        """Take a session's slot, waiting up to ``SLOT_WAIT_SECONDS`` for one to free; ``False`` if none does."""
        async with self.slots:
            if self.taken >= self.max_sessions:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(
                        self.slots.wait_for(lambda: self.taken < self.max_sessions), SLOT_WAIT_SECONDS
                    )
            if self.taken >= self.max_sessions:
                return False
            self.taken += 1
            return True

    async def _session(self, websocket: web.WebSocketResponse, query: Mapping[str, str], peer: str) -> tuple[int, str]:
        """Run one session in the slot taken: the spare's app process, given the page, while the page is there and
        in use; then end the process and free the slot.  The close code and the reason to give the page ("" for
        none)."""
        width, height = self.last_screen = screen_size(query.get("width", 80), query.get("height", 24))
        process: SessionProcess | None = None
        try:
            try:
                process = await self._take_spare()
                await process.give(width, height, websocket.send_bytes, websocket.send_str)
            except OSError as error:
                self.say(f"plyscope serve: a session could not start: {error.strerror or error}")
                return WSCloseCode.INTERNAL_ERROR, "plyscope: the session could not start on the server"
            self.say(f"plyscope serve: session opened ({self.taken} of {self.max_sessions} in use)")
            return await self._relay(websocket, process, peer)
        finally:
            async with self.slots:
                self.ending += 1
            try:
                if process is not None:
                    await process.stop()
            finally:
                async with self.slots:
                    self.ending -= 1
                    self.taken -= 1
                    self.slots.notify_all()
                self.say(f"plyscope serve: session closed ({self.taken} of {self.max_sessions} in use)")
                await self._replace_spare()  # (its app may have ended before it drew)

    async def _take_spare(self) -> SessionProcess:
        """The spare, for a page (a new process if there is none, or if it has ended); ``OSError`` if no process
        can be started."""
        async with self.spares:
            process, self.spare = self.spare, None
            if process is not None and process.gone:  # it failed as it loaded, or was killed: never handed over
                await process.stop()
                process = None
            if process is not None:
                process.resume()
            return process if process is not None else await self._started()

    async def _spare_behind(self, process: SessionProcess) -> None:
        """Start a new spare behind ``process``, the spare just handed over, once its page has its first frame:
        ``SPARE_DELAY_SECONDS`` after its app drew it (the browser draws it meanwhile)."""
        await process.shown.wait()
        await asyncio.sleep(SPARE_DELAY_SECONDS)
        await self._replace_spare()

    async def _replace_spare(self) -> None:
        """Start a new spare, unless there is one (another page's session started it) or the server is stopping."""
        async with self.spares:
            if self.spare is None:
                await self._start_spare()

    async def _start_spare(self) -> None:
        """Start the spare (unless the server is stopping), ``spares`` held; a failure is logged in one line, and
        the next page's process is started when it connects."""
        if self.stopping:
            return
        try:
            self.spare = await self._started()
        except OSError as error:
            self.say(f"plyscope serve: a spare session could not start: {error.strerror or error}")

    async def _started(self) -> SessionProcess:
        """A new app process, on the screen of the last page given one (a class's browsers are often alike)."""
        return await SessionProcess.started(self.argv, self.memory_mb, self.last_screen)

    def _hold_spare(self) -> None:
        """A page is used: hold the spare stopped until no page has been used for ``SPARE_PAUSE_SECONDS``."""
        spare = self.spare
        if spare is None:
            return
        spare.pause()
        if self._resume is not None:
            self._resume.cancel()
        self._resume = asyncio.get_running_loop().call_later(SPARE_PAUSE_SECONDS, self._resume_spare)

    def _resume_spare(self) -> None:
        self._resume = None
        if self.spare is not None:
            self.spare.resume()

    async def _end_spare(self) -> None:
        """End the spare and start none from now on (the server is stopping)."""
        async with self.spares:
            self.stopping = True
            spare, self.spare = self.spare, None
        if spare is not None:
            await spare.stop()

    async def _relay(self, websocket: web.WebSocketResponse, process: SessionProcess, peer: str) -> tuple[int, str]:
        """Hand the page's keys, clicks and resizes to the app until the page goes, the app ends, the session has
        been idle ``idle_seconds``, or the page sends a malformed message.  The close code and reason."""
        loop = asyncio.get_running_loop()
        last_input = loop.time()
        app_ended = asyncio.create_task(process.ended.wait())
        behind = asyncio.create_task(self._spare_behind(process))
        receiving: asyncio.Task[WSMessage] | None = None
        try:
            while True:
                if receiving is None:
                    receiving = asyncio.create_task(websocket.receive())
                left = last_input + self.idle_seconds - loop.time()
                waiting: set[asyncio.Task[object]] = {receiving, app_ended}
                done, _ = await asyncio.wait(waiting, timeout=max(left, 0.0), return_when=asyncio.FIRST_COMPLETED)
                if app_ended in done:
                    return self._app_ended(process)
                if receiving not in done:
                    if loop.time() >= last_input + self.idle_seconds:
                        self.say(f"plyscope serve: ended a session idle for {_duration(self.idle_seconds)}")
                        return WSCloseCode.GOING_AWAY, idle_words(self.idle_seconds)
                    continue
                message = receiving.result()
                receiving = None
                kind, data = self._page_said(message, peer)
                if kind == "stdin" and counts_as_use(str(data)):
                    last_input = loop.time()
                    self._hold_spare()
                await _pass_on(kind, data, websocket, process)
        except _SessionEnds as ends:
            return ends.code, ends.reason
        finally:
            for future in (receiving, app_ended, behind):
                if future is not None:
                    future.cancel()

    def _app_ended(self, process: SessionProcess) -> tuple[int, str]:
        """The close code and reason for a session whose app ``process`` ended (its error line said on stderr)."""
        error = process.error_line()
        if process.out_of_memory:
            self.say(f"plyscope serve: a session reached its memory limit of {self.memory_mb:,} MB and ended")
        elif error is not None:
            self.say(one_line(f"plyscope serve: a session ended: {shown(error, 300)}"))
        why = process.why_ended()
        return (WSCloseCode.OK, "") if why is None else (WSCloseCode.INTERNAL_ERROR, why)

    def _page_said(self, message: WSMessage, peer: str) -> tuple[str, object]:
        """What the page at ``peer`` sent in ``message`` (``page_message``'s type and data); ``_SessionEnds`` if the
        page closed its websocket, the connection failed (said on stderr) or the message is malformed (said too)."""
        if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
            raise _SessionEnds(WSCloseCode.OK, "")
        if message.type == WSMsgType.ERROR:
            self.say(one_line(f"plyscope serve: ended a session from {peer}: {shown(str(message.data), 120)}"))
            raise _SessionEnds(WSCloseCode.PROTOCOL_ERROR, "plyscope: this session ended: the page's connection failed")
        try:
            if message.type != WSMsgType.TEXT:
                raise Malformed(f"a {message.type.name.lower()} message")
            return page_message(message.data)
        except Malformed as malformed:
            self.say(one_line(f"plyscope serve: ended a session from {peer}: its page sent {malformed}"))
            raise _SessionEnds(WSCloseCode.UNSUPPORTED_DATA, MALFORMED_WORDS) from None

    async def _goodbye(self, websocket: web.WebSocketResponse, code: int, reason: str) -> None:
        """Close the page's websocket with ``code`` and ``reason`` (the page shows it), within ``GOODBYE_SECONDS``."""
        if websocket.closed:
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(websocket.close(code=code, message=close_reason(reason).encode()), GOODBYE_SECONDS)

    async def run(self, ready: Callable[[str, list[str]], None]) -> int:
        """Serve until Ctrl-C (``KeyboardInterrupt``, after the sessions are closed), SIGTERM or SIGHUP (0);
        ``ready`` is told the addresses once the port is bound."""
        self.initialize_logging()
        if self.spare is None:  # first: it loads the app while the server starts and the browser opens the page
            async with self.spares:
                await self._start_spare()
        runner = web.AppRunner(await self._make_app(), access_log=None, shutdown_timeout=SHUTDOWN_SECONDS)
        await runner.setup()
        try:
            try:
                await web.TCPSite(runner, self.host, self.port).start()
            except OSError as error:
                reason = error.strerror or str(error)
                raise UserError(f"cannot listen on {self.host} port {self.port}: {reason}") from None
            stop = asyncio.Event()
            with contextlib.suppress(RuntimeError):  # not in the main thread: stopped by cancelling instead
                for stopping in (signal.SIGTERM, signal.SIGHUP):
                    asyncio.get_running_loop().add_signal_handler(stopping, stop.set)
            ready(self.url, self.other_urls)  # a signal sent as soon as the address is read stops it cleanly
            await stop.wait()
            return 0
        finally:
            await runner.cleanup()
            await self._end_spare()
            # the sessions' pipes are closed by now: collect their transports while the loop still runs, or each
            # prints "Event loop is closed" at exit
            gc.collect()
            await asyncio.sleep(0)


class _SessionEnds(Exception):
    """A page's session ends, with this close code and reason (``PlyscopeServer._relay``)."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


async def _pass_on(kind: str, data: object, websocket: web.WebSocketResponse, process: SessionProcess) -> None:
    """Hand a page's message (``page_message``'s ``kind`` and ``data``) to the app ``process``; a ping is answered
    on ``websocket``, and a message of another kind ignored."""
    if kind == "stdin":
        await process.send_bytes(str(data).encode("utf-8"))
    elif kind == "resize":
        assert isinstance(data, dict)
        await process.set_terminal_size(*screen_size(data["width"], data["height"]))
    elif kind == "ping":
        with contextlib.suppress(ConnectionError):
            await websocket.send_json(["pong", data])
    elif kind == "focus":
        await process.focus()
    elif kind == "blur":
        await process.blur()
