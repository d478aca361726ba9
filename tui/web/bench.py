"""``plyscope bench --web``: ``plyscope serve`` measured in headless Chromium on localhost.

* from starting ``plyscope serve`` to the explorer's first whole frame in the browser (target 3 s):
  the server starting, the page loading, its app process starting and drawing (the browser is
  started beforehand and not counted); and from opening the page on a server already running (its
  spare started, as when students open it after the teacher started it) to that frame;
* from a key press in the page (``s``, typed into xterm.js as a key is) to the first frame
  painted with the step counter moved (target 150 ms), timed inside the page; a session's first
  step is shown apart (the explorer's first tree repaint costs more, in a terminal too); and to
  the first websocket message from the server, and the bytes the page was sent for the step;
* the resident memory of each session's app process (``/proc``), of the spare (the app process
  started ahead, waiting for a page) and of the server itself.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from engine.benchmarks import BenchTable
from engine.errors import UserError
from tui.web.browser import Browser, KeyAnswer, Served, browser_problem, cpu_seconds, rss_bytes, wait_for

FIRST_FRAME_TARGET_S = 3.0
KEY_TARGET_MS = 150.0
MB = 1024 * 1024


def _row(label: str, values: list[float], target: float) -> list[object]:
    worst = max(values)
    return [
        label,
        len(values),
        round(statistics.median(values), 3),
        round(worst, 3),
        target,
        "yes" if worst <= target else "no",
    ]


def _idle(pids: list[int], seconds: float = 0.5) -> bool:
    """Whether the processes ``pids`` (one at least) used no CPU time for ``seconds``: a spare has started."""
    before = [cpu_seconds(pid) for pid in pids]
    time.sleep(seconds)
    return bool(pids) and [cpu_seconds(pid) for pid in pids] == before


def measure(quick: bool) -> list[BenchTable]:
    problem = browser_problem()
    if problem:
        raise UserError(f"bench --web needs a headless browser: {problem}")
    runs, presses, sessions = (2, 10, 2) if quick else (5, 30, 4)
    speed = BenchTable(
        "plyscope serve in headless Chromium, on localhost", ["figure", "runs", "median", "max", "target", "met (max)"]
    )
    memory = BenchTable("plyscope serve: resident memory (MB)", ["process", "count", "median", "max"])
    with tempfile.TemporaryDirectory() as folder, Browser(Path(folder) / "profile") as browser:
        first_frames: list[float] = []
        addresses: list[float] = []
        starts: list[float] = []
        opened: list[float] = []
        tab = browser.open("about:blank")
        for _ in range(runs):
            started = time.monotonic()
            with Served() as served:
                addresses.append(time.monotonic() - started)
                tab.load(served.url)
                tab.wait_app()
                first_frames.append(time.monotonic() - started)
                starts += [cpu_seconds(pid) for pid in served.session_pids()]
                tab.load("about:blank")
                later = browser.open("about:blank")  # a second page (the first one's session stays open)
                wait_for(lambda: _idle(served.spare_pids()), 60, "a spare started")
                opening = time.monotonic()
                later.load(served.url)
                later.wait_app()
                opened.append(time.monotonic() - opening)
                later.close()
        speed.rows.append(_row("serve started to address printed (s)", addresses, FIRST_FRAME_TARGET_S))
        speed.rows.append(_row("serve started to first frame in the page (s)", first_frames, FIRST_FRAME_TARGET_S))
        speed.rows.append(_row("page opened on a running server to first frame (s)", opened, FIRST_FRAME_TARGET_S))
        speed.rows.append(
            [
                "a session's CPU time to its first frame (s)",
                len(starts),
                round(statistics.median(starts), 2),
                round(max(starts), 2),
                "",
                "",
            ]
        )

        with Served("--max-sessions", str(sessions)) as served:
            tabs = [browser.open(served.url) for _ in range(sessions)]
            for tab in tabs:
                tab.wait_app()
            tabs[0].focus()  # as a person clicks into the page before typing
            time.sleep(0.5)
            answers: list[KeyAnswer] = []
            for _ in range(presses + 1):
                time.sleep(0.05)
                answer = tabs[0].key_answer("s")
                if answer is None:
                    raise RuntimeError("a key press in the page was not answered within 5 s")
                answers.append(answer)
            keys = [answer.repaint_ms for answer in answers]
            speed.rows.append(_row("key press to repaint: a session's first s (ms)", keys[:1], KEY_TARGET_MS))
            speed.rows.append(_row("key press to repaint: s after the first (ms)", keys[1:], KEY_TARGET_MS))
            firsts = [answer.first_message_ms for answer in answers[1:] if answer.first_message_ms is not None]
            speed.rows.append(
                _row("key press to the server's first message: s after the first (ms)", firsts, KEY_TARGET_MS)
            )
            sent = [answer.received_bytes for answer in answers[1:]]
            speed.rows.append(
                [
                    "bytes the page received for a step: s after the first",
                    len(sent),
                    statistics.median(sent),
                    max(sent),
                    "",
                    "",
                ]
            )
            for tab in tabs:
                tab.press("f")  # a hundred steps: a small tree, as a class would start
            pids = wait_for(lambda: len(found := served.session_pids()) == sessions and found, 30, "sessions")
            time.sleep(1.0)
            session_rss = [rss_bytes(pid) / MB for pid in pids]
            spare_rss = [rss_bytes(pid) / MB for pid in served.spare_pids()]
            server_rss = rss_bytes(served.process.pid) / MB
        memory.rows.append(
            [
                "a session's app process",
                len(session_rss),
                round(statistics.median(session_rss), 1),
                round(max(session_rss), 1),
            ]
        )
        if spare_rss:
            memory.rows.append(
                [
                    "the spare (waiting for a page)",
                    len(spare_rss),
                    round(statistics.median(spare_rss), 1),
                    round(max(spare_rss), 1),
                ]
            )
        memory.rows.append(["the server (plyscope serve)", 1, round(server_rss, 1), round(server_rss, 1)])
    speed.notes.append(
        f"first frame: the explorer's title and step counter read from the page's terminal, polled "
        f"every 50 ms; {runs} servers started one after another, the browser already running; on a running "
        "server, a second page opened in another tab once the spare had started. "
        f"Key: typed into xterm.js in one tab of {sessions} open (the page focused first), timed "
        "inside the page until a frame is painted with the step counter changed"
    )
    memory.notes.append(
        f"{sessions} sessions open, each after 100 steps of the default searcher; the browser's own "
        "memory is not counted"
    )
    return [speed, memory]
