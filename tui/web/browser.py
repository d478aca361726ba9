"""A headless Chromium on ``plyscope serve``: the browser tests, the browser screenshot and ``bench --web``.

The page draws the app with xterm.js on a canvas, so its DOM holds no screen text. Before the
page's scripts run, ``TERMINAL_HOOK`` keeps each xterm ``Terminal`` the page makes (textual-serve
assigns it to a ``terminal`` property), and the screen is read from the terminal's buffer, line
by line, as the app drew it. Keys are typed into xterm's input (a real key event, through
WebDriver); clicks land on a cell of the canvas, found from the terminal's size in cells.

Needs selenium (the ``test`` extra), Chromium and its driver (Debian: ``chromium``,
``chromium-driver``); ``browser_problem()`` says what is missing.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeVar

from plyscope.tui.web.spare import PAGE_NAME

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
CHROMEDRIVER = ("chromedriver",)
CHROMIUM_FLAGS = (
    # headless, and nothing that reaches for the network (a closed network makes Chromium hang on it)
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-dev-shm-usage",
    # tabs in the background keep their timers and painting (a test drives several)
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
)
WINDOW = (1280, 800)
"""The window's size in pixels: about 142 x 36 cells at the page's 16 px font."""

TERMINAL_HOOK = """
window.plyscopeTerminals = [];
window.plyscopeClients = [];
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  set(value) {
    if (value && value.buffer && value.buffer.active) {
      window.plyscopeTerminals.push(value);
      window.plyscopeClients.push(this);
    }
    Object.defineProperty(this, "terminal", {value, writable: true, configurable: true, enumerable: true});
  },
});
window.plyscopeReceived = [];
const NativeWebSocket = window.WebSocket;
window.WebSocket = class extends NativeWebSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      const data = event.data;
      const size = data.byteLength ?? data.size ?? new TextEncoder().encode(data).length;
      window.plyscopeReceived.push([performance.now(), size]);
    });
  }
};
"""
"""Run before the page's own scripts: keeps each xterm Terminal the page makes (to read its screen), and the
page's client that made it (to connect a page opened with ``?delay=1``, which waits for its Start button); notes
the time and size in bytes of each websocket message the page receives."""

SCREEN_LINES = """
const screenLines = (term) => {
  const buffer = term.buffer.active, lines = [];
  for (let y = 0; y < term.rows; y++) {
    lines.push(buffer.getLine(buffer.viewportY + y).translateToString(true, 0, term.cols));
  }
  return lines;
};
"""
"""A script's helper: the terminal's screen as lines of text (cells past its width are left over from before)."""

READ_SCREEN = (
    SCREEN_LINES
    + """
const term = window.plyscopeTerminals && window.plyscopeTerminals[0];
return term ? [term.cols, term.rows, screenLines(term)] : null;
"""
)

READ_COLOURS = """
const term = window.plyscopeTerminals[0], buffer = term.buffer.active;
const line = buffer.getLine(buffer.viewportY + arguments[0]), colours = [];
for (let x = 0; x < term.cols; x++) {
  const cell = line.getCell(x);
  colours.push([cell.getFgColor(), cell.getBgColor()]);
}
return colours;
"""

READ_DRAWN = """
const term = window.plyscopeTerminals[0], buffer = term.buffer.active;
const colours = term._core._themeService.colors;
const rgb = (colour) => [(colour.rgba >>> 24) & 255, (colour.rgba >>> 16) & 255, (colour.rgba >>> 8) & 255];
const palette = colours.ansi.map(rgb), foreground = rgb(colours.foreground), background = rgb(colours.background);
const brightBold = term.options.drawBoldTextInBrightColors;
const drawn = (cell, front) => {
  let colour = front ? cell.getFgColor() : cell.getBgColor();
  if (front ? cell.isFgRGB() : cell.isBgRGB()) return [(colour >> 16) & 255, (colour >> 8) & 255, colour & 255];
  if (front ? cell.isFgPalette() : cell.isBgPalette()) {
    if (front && brightBold && cell.isBold() && colour < 8) colour += 8;
    return palette[colour];
  }
  return front ? foreground : background;
};
const rows = [];
for (let y = 0; y < term.rows; y++) {
  const line = buffer.getLine(buffer.viewportY + y), cells = [];
  for (let x = 0; x < term.cols; x++) {
    const cell = line.getCell(x), text = cell.getChars();
    if (cell.getWidth() === 0 || text.trim() === "") continue;  // the second half of a wide character; blank
    let [front, back] = [drawn(cell, true), drawn(cell, false)];
    if (cell.isInverse()) [front, back] = [back, front];
    if (cell.isDim()) front = front.map((channel, i) => Math.round(back[i] + (channel - back[i]) / 2));
    cells.push([x, text, front, back]);
  }
  rows.push(cells);
}
return rows;
"""
"""Each cell of the screen that holds a character (blank ones left out): its column, its text, and the colours
xterm.js draws it in (24-bit RGB, as its renderer resolves them: its palette for ANSI and default colours, a bold
ANSI colour drawn bright, reversed cells swapped, dim ones at half opacity over their background)."""

KEY_TO_REPAINT = (
    SCREEN_LINES
    + """
const done = arguments[arguments.length - 1], key = arguments[0], pattern = new RegExp(arguments[1]);
const term = window.plyscopeTerminals[0];
const read = () => {
  const found = screenLines(term).join("\\n").match(pattern);
  return found ? found[1] : null;
};
const before = read(), start = performance.now(), received = window.plyscopeReceived.length;
const timer = setTimeout(() => { watch.dispose(); done(null); }, 5000);
const watch = term.onRender(() => {
  if (read() !== before) {
    const painted = performance.now();
    clearTimeout(timer);
    watch.dispose();
    setTimeout(() => {  // the rest of the frame's messages, if it came in several
      const messages = window.plyscopeReceived.slice(received);
      const bytes = messages.reduce((sum, [, size]) => sum + size, 0);
      done([painted - start, messages.length ? messages[0][0] - start : null, bytes]);
    }, 100);
  }
});
term.input(key, true);
"""
)
"""Type ``key`` as xterm does a key press; the milliseconds until a frame painted shows ``pattern`` changed, until
the first websocket message came, and the bytes of the messages that came until 100 ms after that frame."""

STEP = re.compile(r"\bstep (\d+)")
"""The explorer's step counter, under the tree."""


def browser_problem() -> str | None:
    """Why no headless browser can be driven here (selenium, Chromium or its driver missing), or ``None``."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if _which(CHROMIUM) is None:
        return "no Chromium (apt-get install chromium)"
    if _which(CHROMEDRIVER) is None:
        return "no ChromeDriver (apt-get install chromium-driver)"
    return None


def _which(names: Sequence[str]) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


def free_port() -> int:
    """A TCP port free on localhost now (the OS's choice)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


T = TypeVar("T")
"""What a condition polled gives (``wait_for``)."""


def wait_for(condition: Callable[[], T | Literal[False] | None], timeout: float, what: str, every: float = 0.05) -> T:
    """Poll ``condition`` until it gives something true, and return that; ``TimeoutError`` naming ``what``."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise TimeoutError(f"no {what} after {timeout:g} s")
        time.sleep(every)


# --- plyscope serve --------------------------------------------------------------------------------------


class Served:
    """``plyscope serve ARGS`` on a free localhost port, as a child process; its output kept line by line."""

    def __init__(
        self, *args: str, port: int | None = None, timeout: float = 30.0, env: Mapping[str, str] | None = None
    ) -> None:
        """``env``: added to the server's environment (and so its sessions')."""
        self.port = port or free_port()
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "plyscope.tui.cli", "serve", "--port", str(self.port), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        try:
            line = wait_for(
                lambda: next((x for x in self.lines if " open http" in x), None) or self._ended(),
                timeout,
                "address from plyscope serve",
            )
        except TimeoutError:
            self.stop()
            raise
        if self.process.poll() is not None:
            raise RuntimeError(f"plyscope serve ended ({self.process.returncode}): {self.output}")
        assert isinstance(line, str)  # (not ``True``: the process goes on)
        self.url: str = line.split(" open ", 1)[1].split()[0]

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def _ended(self) -> bool:
        return self.process.poll() is not None

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

    def session_pids(self) -> list[int]:
        """The app processes running under the server and given a page (one per open session)."""
        return [pid for pid in self._app_pids() if _name(pid) == PAGE_NAME]

    def spare_pids(self) -> list[int]:
        """The app processes running under the server and not given a page yet (the spare)."""
        return [pid for pid in self._app_pids() if _name(pid) != PAGE_NAME]

    def _app_pids(self) -> list[int]:
        return [pid for pid in _descendants(self.process.pid) if "plyscope.tui.web.session\0" in _cmdline(pid)]

    def stop(self, sig: int = signal.SIGINT, timeout: float = 20.0) -> int:
        """Stop the server as Ctrl-C does (or with ``sig``); its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._reader.join(5)
        return self.process.returncode

    def __enter__(self) -> Served:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _cmdline(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_text()
    except OSError:
        return ""


def _name(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "comm").read_text().strip()
    except OSError:
        return ""


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used so far, user and system (0 once it has gone)."""
    try:
        fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_bytes(pid: int) -> int:
    """The resident memory of process ``pid`` (0 once it has gone)."""
    try:
        for line in (Path("/proc") / str(pid) / "status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


# --- the browser -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Screen:
    """The app's screen as the page shows it: its size in cells and its lines of text."""

    cols: int
    rows: int
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def step(self) -> int | None:
        """The explorer's step counter, or ``None`` when it is not on the screen."""
        found = STEP.search(self.text)
        return int(found.group(1)) if found else None

    def find(self, text: str) -> tuple[int, int] | None:
        """The cell (column, row) where ``text`` first appears, or ``None``."""
        for row, line in enumerate(self.lines):
            if text in line:
                return line.index(text), row
        return None


@dataclass(frozen=True)
class DrawnCell:
    """A cell of the page's terminal as it is drawn: its text, its column and row, and its colours (RGB)."""

    text: str
    x: int
    y: int
    foreground: tuple[int, int, int]
    background: tuple[int, int, int]


def _rgb(channels: Sequence[object]) -> tuple[int, int, int]:
    red, green, blue = (int(str(channel)) for channel in channels)
    return red, green, blue


@dataclass(frozen=True)
class KeyAnswer:
    """A key typed in the page, timed inside it (milliseconds from the key press)."""

    repaint_ms: float
    """Until xterm.js painted a frame with the step counter (or the pattern watched) changed."""
    first_message_ms: float | None
    """Until the first websocket message from the server came."""
    received_bytes: int
    """What the server sent from the key until 100 ms after that frame: the frame and anything else it sent."""


class Tab:
    """One browser tab on a page of ``plyscope serve``."""

    def __init__(self, driver: WebDriver, handle: str) -> None:
        self.driver = driver
        self.handle = handle

    def activate(self) -> Tab:
        if self.driver.current_window_handle != self.handle:
            self.driver.switch_to.window(self.handle)
        return self

    def load(self, url: str) -> Tab:
        """Open ``url`` in this tab (a page of the server had here ends its session)."""
        self.activate().driver.get(url)
        return self

    def screen(self) -> Screen | None:
        """The screen drawn so far, or ``None`` before the page has a terminal."""
        found = self.activate().driver.execute_script(READ_SCREEN)
        if not found:
            return None
        cols, rows, lines = found
        return Screen(int(cols), int(rows), tuple(str(line) for line in lines))

    def drawn_cells(self) -> list[DrawnCell]:
        """Every cell of the screen that holds a character, with the colours the page draws it in (``READ_DRAWN``)."""
        rows = self.activate().driver.execute_script(READ_DRAWN)
        return [
            DrawnCell(str(text), int(x), y, _rgb(front), _rgb(back))
            for y, cells in enumerate(rows)
            for x, text, front, back in cells
        ]

    def colours(self, row: int) -> list[tuple[int, int]]:
        """The foreground and background colour (24-bit RGB) of each cell of ``row``."""
        found = self.activate().driver.execute_script(READ_COLOURS, row)
        return [(int(fg), int(bg)) for fg, bg in found]

    def wait_screen(
        self, condition: Callable[[Screen], object], timeout: float = 20.0, what: str = "screen as expected"
    ) -> Screen:
        """The screen once ``condition`` holds for it (polled); ``TimeoutError`` with the last screen."""
        last: list[Screen] = []

        def check() -> Screen | None:
            screen = self.screen()
            if screen is None:
                return None
            last[:] = [screen]
            return screen if condition(screen) else None

        try:
            result: Screen = wait_for(check, timeout, what)
        except TimeoutError as error:
            raise TimeoutError(f"{error}; the page showed:\n{last[0].text if last else self.page_text()}") from None
        return result

    def wait_app(self, timeout: float = 30.0) -> Screen:
        """The explorer's first whole frame (its title line and its step counter drawn)."""
        return self.wait_screen(
            lambda screen: screen.step() is not None and screen.lines[0].strip() != "", timeout, "explorer in the page"
        )

    def connect(self) -> None:
        """Connect a page opened with ``?delay=1`` (textual-serve's page then waits for a click on Start)."""
        self.activate().driver.execute_script("window.plyscopeClients[0].connect()")

    def focus(self) -> None:
        """Give the terminal the keyboard focus, as a click in the page does (the app is told it has the focus)."""
        self.activate().driver.execute_script("document.querySelector('.xterm-helper-textarea').focus()")

    def page_text(self) -> str:
        """The text of the page's HTML (a refusal, the dialog shown when a session ends)."""
        text: str = self.activate().driver.execute_script("return document.body.innerText")
        return text

    def page_classes(self) -> str:
        classes: str = self.activate().driver.execute_script("return document.body.className")
        return classes

    def press(self, *keys: str) -> None:
        """Type ``keys`` into the terminal, each a real key press (selenium's ``Keys`` for special keys)."""
        from selenium.webdriver.common.by import By

        field = self.activate().driver.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea")
        for key in keys:
            field.send_keys(key)

    def chord(self, modifier: str, key: str) -> None:
        """Press ``key`` with ``modifier`` held (e.g. ``Keys.CONTROL``, ``"p"``)."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By

        field = self.activate().driver.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea")
        ActionChains(self.driver).key_down(modifier, field).send_keys(key).key_up(modifier).perform()

    def click_cell(self, column: int, row: int) -> None:
        """Click the middle of the terminal's cell at ``column``, ``row`` (from 0) with the mouse."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By

        screen = self.screen()
        assert screen is not None, "no terminal in the page"
        canvas = self.driver.find_element(By.CSS_SELECTOR, ".xterm-screen")
        width, height = canvas.size["width"], canvas.size["height"]
        x = (column + 0.5) * width / screen.cols - width / 2  # offsets from the element's centre
        y = (row + 0.5) * height / screen.rows - height / 2
        ActionChains(self.driver).move_to_element_with_offset(canvas, round(x), round(y)).click().perform()

    def key_answer(self, key: str = "s", pattern: str = STEP.pattern) -> KeyAnswer | None:
        """How the page answered ``key`` (``None``: no frame with ``pattern`` changed within 5 s)."""
        self.activate().driver.set_script_timeout(10)
        result = self.driver.execute_async_script(KEY_TO_REPAINT, key, pattern)
        if result is None:
            return None
        repaint, first, received = result
        return KeyAnswer(float(repaint), None if first is None else float(first), int(received))

    def screenshot(self, path: Path) -> Path:
        self.activate().driver.save_screenshot(str(path))
        return path

    def close(self) -> None:
        """Close the tab (its session ends); the browser's first other tab becomes the current one."""
        self.activate().driver.close()
        if self.driver.window_handles:
            self.driver.switch_to.window(self.driver.window_handles[0])


class Browser:
    """A headless Chromium with a fresh profile in ``profile``; its tabs read the app's screen."""

    def __init__(self, profile: Path, window: tuple[int, int] = WINDOW) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        problem = browser_problem()
        if problem:
            raise RuntimeError(problem)
        options = webdriver.ChromeOptions()
        options.binary_location = str(_which(CHROMIUM))
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={profile}")
        options.add_argument(f"--window-size={window[0]},{window[1]}")
        self.driver: WebDriver = webdriver.Chrome(options=options, service=Service(str(_which(CHROMEDRIVER))))
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TERMINAL_HOOK})
        self._fresh = True

    def open(self, url: str) -> Tab:
        """``url`` in a new tab (the first in the window the browser opened with)."""
        if not self._fresh:
            self.driver.switch_to.new_window("tab")
            # each new tab is a new target: the hook must be set on it too
            self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TERMINAL_HOOK})
        self._fresh = False
        tab = Tab(self.driver, self.driver.current_window_handle)
        self.driver.get(url)
        return tab

    def resize(self, width: int, height: int) -> None:
        self.driver.set_window_size(width, height)

    def close(self) -> None:
        self.driver.quit()

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
