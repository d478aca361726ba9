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
  started ahead, waiting for a page) and of the server itself;
* the growth of a session's app process per tree node while Rivest's search runs flat out in the page to
  ``NODES`` nodes (follow mode on, the explorer's default), once the run is under way, beside the figure its
  node cap uses.
"""

from __future__ import annotations

import re
import statistics
import tempfile
import time
from pathlib import Path

from plyscope.engine.benchmarks import BenchTable
from plyscope.engine.errors import UserError
from plyscope.engine.search.registry import algorithm
from plyscope.tui.bench_memory import CAP_TOLERANCE, TARGET_BYTES
from plyscope.tui.web.browser import Browser, KeyAnswer, Served, browser_problem, cpu_seconds, rss_bytes, wait_for

FIRST_FRAME_TARGET_S = 3.0
KEY_TARGET_MS = 150.0
MB = 1024 * 1024
NODES = {False: 500_000, True: 200_000}
"""Tree nodes a served session grows to for its bytes per node (quick: fewer): its move budget (a Rivest
expansion plays a move a child)."""
FLAT_OUT = "+" * 7
"""The keys that take the explorer's run speed from its default (10 steps a second) to flat out."""
NODES_SHOWN = re.compile(r"nodes\s+([\d,]+)")
FIRST_PART = 0.5
"""The part of the tree grown first, left out of the growth per node: the run's start-up, and caches that fill over
its first 150,000 nodes or so (a Rivest run in the page grew 370 bytes a node over its first 26,000 nodes, 290 to
82,000, 242 to 149,000, then 210-225)."""
SAMPLE_SECONDS = 0.25
"""How often the session's memory and tree size are read while the tree grows."""
RUN_SECONDS = 1800
"""The longest the run to the move budget may take."""


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
        per_node = _node_bytes(browser, NODES[quick])
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
    return [speed, memory, per_node]


def _node_bytes(browser: Browser, nodes: int) -> BenchTable:
    """A served session's growth per tree node: Rivest run flat out in the page until its move budget is spent, its
    resident memory sampled as the tree grows.  What the node cap multiplies is the growth per node once the run is
    under way (``marginal_bytes``): the run's first steps cost some megabytes whatever the tree (a thread pool, the
    screen's caches), which a small tree would count per node."""
    info = algorithm("rivest")
    table = BenchTable(
        "plyscope serve: a session's resident memory per tree node",
        ["searcher", "nodes", "seconds", "grown MB", "per node", "overall", "cap uses", "met"],
    )
    with Served("--algo", "rivest", "--moves", str(nodes)) as served:
        tab = browser.open(served.url)
        tab.wait_app()
        (pid,) = wait_for(lambda: served.session_pids() or None, 30, "the session's app process")
        tab.focus()
        time.sleep(1.0)
        before = rss_bytes(pid)
        started = time.monotonic()
        tab.press(*FLAT_OUT, "r")
        samples: list[tuple[int, int]] = []
        while True:
            shown = tab.screen()
            found = NODES_SHOWN.search(shown.text) if shown else None
            if found:
                samples.append((int(found.group(1).replace(",", "")), rss_bytes(pid)))
            if shown is not None and "budget spent" in shown.text:
                break
            if time.monotonic() - started > RUN_SECONDS:
                raise TimeoutError(f"no end of the run after {RUN_SECONDS} s")
            time.sleep(SAMPLE_SECONDS)
        seconds = time.monotonic() - started
        time.sleep(1.0)
        grown = rss_bytes(pid) - before
    reached = samples[-1][0]
    size = marginal_bytes(samples)
    met = size <= TARGET_BYTES and abs(size - info.ui_node_bytes) <= CAP_TOLERANCE * info.ui_node_bytes
    table.rows.append(
        [
            "rivest",
            reached,
            round(seconds, 1),
            round(grown / MB, 1),
            round(size),
            round(grown / reached),
            info.ui_node_bytes,
            "yes" if met else "no",
        ]
    )
    table.notes.append(
        "bytes of the app process's resident set (/proc), sampled as the tree grows, the page open in headless "
        f"Chromium; per node: the growth per node past the first {FIRST_PART:.0%} of the tree (a least-squares slope), "
        "what the node cap multiplies; overall: all the growth over all the nodes, the run's start-up included; cap "
        "uses: AlgorithmInfo.ui_node_bytes, which sets a served session's node cap as the terminal's; met: per node "
        f"at most {TARGET_BYTES} and within {CAP_TOLERANCE:.0%} of what the cap uses"
    )
    return table


def marginal_bytes(samples: list[tuple[int, int]]) -> float:
    """The growth in bytes per tree node once a run is under way: the least-squares slope of resident bytes over
    nodes, from ``samples`` (nodes, resident bytes) past the first ``FIRST_PART`` of the tree."""
    late = [(found, resident) for found, resident in samples if found >= FIRST_PART * samples[-1][0]]
    if len(late) < 2 or late[0][0] == late[-1][0]:
        raise ValueError("too few samples of the tree's growth for a slope")
    nodes, resident = zip(*late, strict=True)
    return float(statistics.linear_regression(nodes, resident).slope)
