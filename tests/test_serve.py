"""``plyscope serve``: its command line, its session cap over the wire, and the explorer in a real browser.

The browser tests start ``plyscope serve`` on a free localhost port and drive a headless
Chromium (``tui.web.browser``: the screen is read from the page's xterm.js terminal); they are
skipped, saying why, where selenium, Chromium or ChromeDriver is missing.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tui.cli import parse_arguments
from tui.commands.serve import app_command, explore_words
from tui.web.browser import Browser, Screen, Served, Tab, browser_problem, free_port, wait_for
from tui.web.server import exposure_warning, is_loopback, refusal

ROOT = Path(__file__).resolve().parents[1]
NO_BROWSER = browser_problem()
needs_browser = pytest.mark.skipif(NO_BROWSER is not None, reason=f"no headless browser: {NO_BROWSER}")
WAIT = 60.0
"""Seconds a condition is waited for before the test fails (the machine may be loaded)."""


def serve(*words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tui.cli", "serve", *words], capture_output=True, text=True, timeout=60, cwd=ROOT
    )


# --- the command line ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["--port", "0"], "--port: 0 is out of range"),
        (["--port", "65536"], "--port: 65536 is out of range"),
        (["--port", "http"], "--port"),
        (["--max-sessions", "0"], "--max-sessions: 0 is out of range"),
        (["--max-sessions", "65"], "--max-sessions: 65 is out of range"),
        (["--max-sessions", "four"], "--max-sessions"),
        (["--public-url", "example.org"], "--public-url 'example.org'"),
        (["4489"], "move 3 ('8'): not a column"),
        (["--game", "nim", "3,x"], "plyscope serve: "),
        (["--algo", "nope"], "unknown algorithm 'nope'"),
        (["--param", "depth"], "--param 'depth' is not KEY=VALUE"),
    ],
)
def test_a_mistake_is_refused_in_one_line_before_anything_is_served(words: list[str], says: str) -> None:
    done = serve(*words)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("plyscope serve: "), done.stderr
    assert says in done.stderr


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost", "LOCALHOST"])
def test_loopback_addresses_are_served_without_a_warning(host: str) -> None:
    assert is_loopback(host)
    assert exposure_warning(host) is None


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "10.0.0.1", "example.org", "teacher-pc"])
def test_any_other_address_gets_a_one_line_warning(host: str) -> None:
    warning = exposure_warning(host)
    assert warning is not None and "\n" not in warning
    assert warning.startswith(f"plyscope serve: warning: listening on {host}: anyone who can reach it")
    assert "run searches on this machine" in warning


def test_the_warning_comes_first_and_an_address_that_cannot_be_bound_is_refused_in_one_line() -> None:
    done = serve("--host", "192.0.2.1", "--port", str(free_port()))  # TEST-NET-1: on no interface of this machine
    assert done.returncode == 2
    warning, refused = done.stderr.splitlines()
    assert warning == exposure_warning("192.0.2.1")
    assert refused.startswith("plyscope serve: cannot listen on 192.0.2.1 port ")


def test_a_port_in_use_is_refused_in_one_line() -> None:
    with Served() as served:
        done = serve("--port", str(served.port))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"plyscope serve: cannot listen on 127.0.0.1 port {served.port}: ")


@pytest.mark.parametrize(
    "words",
    [
        [],
        ["4453"],
        [
            "4453",
            "--algo",
            "alphabeta",
            "--param",
            "depth=3",
            "--param",
            "eval=features",
            "--seed",
            "7",
            "--moves",
            "5000",
        ],
        ["--game", "nim", "3,4,5", "--algo", "pns"],
        ["-", "--game", "connect4:8x7"],
    ],
)
def test_every_session_opens_the_explorer_with_the_explorer_arguments_given(words: list[str]) -> None:
    args = parse_arguments(["serve", "--port", "9000", "--max-sessions", "2", *words])
    explored = parse_arguments(["explore", *explore_words(args)])
    for name in ("game", "position", "algo", "param", "seed", "moves"):
        assert getattr(explored, name) == getattr(args, name), name
    command = app_command(args)
    assert command.startswith(f"{sys.executable} -m tui.cli explore") and "--port" not in command
    assert command.endswith(" --no-files")


def test_served_sessions_touch_no_file_unless_the_server_allows_it() -> None:
    """A served session is anyone who reaches the page: ``w`` and ``o`` would write and read this machine's files."""
    assert app_command(parse_arguments(["serve"])).endswith(" --no-files")
    assert "--no-files" not in app_command(parse_arguments(["serve", "--allow-files"]))
    assert parse_arguments(["explore", "--no-files"]).no_files


# --- the server, over the wire (no browser) -------------------------------------------------------------


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=WAIT) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


async def first_message(url: str) -> tuple[object, object, int | None]:
    """Open the page's websocket; what it first receives (type, data, extra) and its close code."""
    import aiohttp

    async with aiohttp.ClientSession() as client, client.ws_connect(url) as socket:
        message = await socket.receive(timeout=WAIT)
        return message.type, message.data, socket.close_code


def test_the_session_cap_refuses_the_next_page_and_websocket_and_frees_a_slot_when_one_closes() -> None:
    import aiohttp

    with Served("--max-sessions", "1") as served:
        status, page = get(served.url)
        assert status == 200 and "plyscope" in page and "fonts.googleapis" not in page
        websocket = served.url.replace("http", "ws", 1) + "/ws?width=100&height=30"

        async def scenario() -> None:
            async with aiohttp.ClientSession() as client, client.ws_connect(websocket) as first:
                data = await first.receive(timeout=WAIT)  # the app's first bytes: the session is open
                assert data.type == aiohttp.WSMsgType.BINARY
                status, busy = await asyncio.to_thread(get, served.url)
                assert status == 503 and refusal(1) in busy
                kind, reason, code = await first_message(websocket)
                assert (kind, reason, code) == (aiohttp.WSMsgType.CLOSE, 1013, 1013)
            # the first tab closed: its slot is free again
            await asyncio.to_thread(wait_for, lambda: "session closed (0 of 1" in served.output, WAIT, "slot freed")
            kind, _, _ = await first_message(websocket)
            assert kind == aiohttp.WSMsgType.BINARY

        asyncio.run(scenario())
        assert "refused a page: 1 of 1 sessions in use" in served.output
        assert "refused a session: 1 of 1 in use" in served.output
        assert served.stop() == 130
    assert served.output.endswith("plyscope serve: interrupted")
    assert served.session_pids() == []


def test_sigterm_stops_the_server_and_closes_its_open_sessions() -> None:
    import aiohttp

    with Served() as served:
        websocket = served.url.replace("http", "ws", 1) + "/ws"

        async def scenario() -> list[int]:
            async with aiohttp.ClientSession() as client, client.ws_connect(websocket) as socket:
                await socket.receive(timeout=WAIT)
                pids: list[int] = wait_for(served.session_pids, WAIT, "the session's app process")
                served.process.send_signal(signal.SIGTERM)
                async for _ in socket:  # until the server closes it
                    pass
                return pids

        pids = asyncio.run(scenario())
        assert served.process.wait(WAIT) == 0
    wait_for(lambda: not any(Path(f"/proc/{pid}/cmdline").exists() for pid in pids), WAIT, "the app process ended")
    assert served.output.endswith("plyscope serve: stopped")
    assert "session closed (0 of 4 in use)" in served.output and "Traceback" not in served.output


def test_the_refusal_reads_well() -> None:
    assert refusal(4) == "plyscope: all 4 sessions are in use; close a tab or try later"
    assert refusal(1) == "plyscope: the one session is in use; close a tab or try later"


# --- in a real browser -----------------------------------------------------------------------------------


def tree_lines(screen: Screen) -> int:
    """Lines of the search tree drawn (each node line shows its value, ``v=``)."""
    return sum(" v=" in line for line in screen.lines)


@needs_browser
def test_the_explorer_in_a_browser_takes_keys_clicks_the_palette_themes_and_resizing(tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    with Served() as served, Browser(tmp_path / "profile") as browser:
        tab = browser.open(served.url)
        first = tab.wait_app(WAIT)
        assert first.step() == 0 and "connect4 · start" in first.lines[0]

        tab.press("s", "s", "s")
        stepped = tab.wait_screen(lambda screen: screen.step() == 3, WAIT, "step 3 after s s s")
        assert tree_lines(stepped) > tree_lines(first)

        # a click on the board's column 4 plays it (the search starts again from there)
        labels = stepped.find("1   2   3   4")
        assert labels is not None
        tab.click_cell(labels[0] + 12, labels[1] - 2)
        played = tab.wait_screen(lambda screen: "connect4 · 4 ·" in screen.lines[0], WAIT, "column 4 played")
        assert played.step() == 0

        # a click on a node of the tree chooses it: the board shows it
        tab.press("d")
        grown = tab.wait_screen(lambda screen: screen.step() == 10, WAIT, "step 10 after d")
        node = next((cell for text in ("▶ ○ 3", "○ 3 v=") if (cell := grown.find(text))), None)
        assert node is not None, grown.text
        tab.click_cell(node[0] + 3, node[1])
        tab.wait_screen(lambda screen: "node 3" in screen.text, WAIT, "node 3 chosen by a click")

        # the command palette, then a theme
        tab.press(Keys.ESCAPE)  # back to the principal variation
        before = tab.colours(first.rows - 1)
        tab.chord(Keys.CONTROL, "p")
        tab.wait_screen(lambda screen: "Search for commands" in screen.text, WAIT, "command palette")
        tab.press(Keys.ESCAPE)
        tab.wait_screen(lambda screen: "Search for commands" not in screen.text, WAIT, "palette closed")
        tab.press("t")
        wait_for(lambda: tab.colours(first.rows - 1) != before, WAIT, "the footer in the next theme's colours")

        # a smaller window: the terminal shrinks and the app lays itself out again to fit
        browser.resize(900, 600)
        resized = tab.wait_screen(
            lambda screen: (
                screen.cols < first.cols
                and screen.rows < first.rows
                and len(screen.lines[2].rstrip()) == screen.cols
                and "palette" in screen.lines[-1]
            ),
            WAIT,
            "the app redrawn at the window's new size",
        )
        steps = resized.step()
        assert steps is not None
        tab.press("s")
        tab.wait_screen(lambda screen: screen.step() == steps + 1, WAIT, "a step after resizing")

        shot = tab.screenshot(tmp_path / "explorer.png")
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
        assert resized.cols >= 80
    assert served.process.returncode == 130
    assert "Traceback" not in served.output, served.output


@needs_browser
def test_a_fifth_tab_against_four_sessions_is_refused_and_the_four_keep_working(tmp_path: Path) -> None:
    with Served("--max-sessions", "4") as served, Browser(tmp_path / "profile") as browser:
        tabs: list[Tab] = []
        for _ in range(3):
            tabs.append(browser.open(served.url))
            tabs[-1].wait_app(WAIT)
        waiting = browser.open(served.url + "/?delay=1")  # a page served while a slot was free, not yet connected
        tabs.append(browser.open(served.url))
        tabs[-1].wait_app(WAIT)
        assert len(served.session_pids()) == 4

        fifth = browser.open(served.url)
        wait_for(lambda: refusal(4) in fifth.page_text(), WAIT, "the refusal page")
        waiting.connect()  # its websocket is refused: the page says why where it would say "Session ended."
        wait_for(
            lambda: "-closed" in waiting.page_classes() and refusal(4) in waiting.page_text(),
            WAIT,
            "the refusal in the page",
        )
        assert len(served.session_pids()) == 4

        for tab in tabs:
            tab.press("d")
        for tab in tabs:
            tab.wait_screen(lambda screen: screen.step() == 10, WAIT, "step 10 in each of the four")

        tabs[0].close()
        wait_for(lambda: "session closed (3 of 4 in use)" in served.output, WAIT, "the first tab's slot freed")
        fifth.activate().driver.refresh()
        fifth.wait_app(WAIT)
        fifth.press("s")
        fifth.wait_screen(lambda screen: screen.step() == 1, WAIT, "a step in the fifth tab")
        assert len(served.session_pids()) == 4
    assert "Traceback" not in served.output, served.output


def test_a_session_served_without_files_reads_none_after_its_start(tmp_path: Path) -> None:
    """``explore --no-files`` (what serve runs): the command line's weights file is read at the start; from then
    on no file is read or written, so nobody at the page can read this machine's files through ``weights=``."""
    from engine.errors import UserError
    from engine.files import read_regular_file, set_files_off, write_atomic
    from engine.games import make_game
    from engine.games.evaluators import FEATURE_NAMES, write_weights_file
    from engine.search.registry import make_searcher
    from tui.commands.explore import app_for

    given, other = tmp_path / "given.json", tmp_path / "other.json"
    write_weights_file(given, [1.0] * len(FEATURE_NAMES))
    write_weights_file(other, [2.0] * len(FEATURE_NAMES))
    words = ["explore", "--no-files", "--algo", "minimax", "--param", "eval=features", "--param", f"weights={given}"]
    try:
        app = app_for(parse_arguments(words))
        assert not app.files
        start = make_game("connect4").start()
        make_searcher("minimax", start, {"eval": "features", "weights": str(given)})  # read before: still fine
        with pytest.raises(UserError, match="files are off in a served session"):
            make_searcher("minimax", start, {"eval": "features", "weights": str(other)})
        with pytest.raises(UserError, match="files are off"):
            read_regular_file(given, 1000, "a weights file")
        with pytest.raises(UserError, match="files are off"):
            write_atomic(tmp_path / "new.json", "{}")
        assert not (tmp_path / "new.json").exists()
    finally:
        set_files_off(None)
    assert read_regular_file(given, 100_000, "a weights file")
