"""``plyscope bench --ui``: the explorer measured headless (``App.run_test``), a bench section like the engine's.

* one step including the repaint, on a tree grown beforehand to 10,000 and 100,000 nodes
  (targets: 50 ms and 100 ms);
* the time to answer a key press while a search runs flat out (target: 100 ms): from the
  key being sent to its action having run, and to the screen having been repainted after it;
  for the default searcher and for the exact solver on the empty board (its probes run for
  minutes: each of its steps must still hand control back within a frame);
* the time from ``q`` to the app's exit while a search runs flat out (target: 0.5 s);
* the timeline's figures, and the explorer's resident bytes per tree node (``plyscope.tui.bench_memory``);
* a hand-written tree of 1,000 leaves (``--game tree``): parsed, drawn on the board, and typed as a new position
  until the screen shows it (target: 100 ms);
* the truth column (``T``) on 10,000-node Connect Four trees, from ``4453`` and from the empty board with each
  searcher family: the first value and every line of at most 12 stones (target: 1 s), 90% of the lines (target:
  10 s), the head line complete, and the keys answered meanwhile (target: 100 ms).
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from textual import events

from plyscope.engine.benchmarks import BenchTable
from plyscope.engine.benchmarks.memory import run_apart
from plyscope.engine.exact import Exact
from plyscope.engine.search_file import read_search
from plyscope.engine.solver.book import BOOK_PLY
from plyscope.engine.travel import travel_of
from plyscope.tui.app import PlyscopeApp, freeze_loaded
from plyscope.tui.bench_memory import measure as memory_figures
from plyscope.tui.formatting import TRUTH_PENDING, TRUTH_UNSETTLED
from plyscope.tui.screens.explore import ExploreScreen
from plyscope.tui.session import Batch, SearchConfig, Session
from plyscope.tui.widgets.boards.base import Board
from plyscope.tui.widgets.search_pane import LOAD_AHEAD_SECONDS
from plyscope.tui.widgets.search_tree import SearchTree

SIZE = (120, 40)
"""Terminal size of the headless runs."""
TREES = ((10_000, 50.0), (100_000, 100.0))
"""Tree sizes in nodes, with the target for one step including the repaint, in milliseconds."""
KEY_TARGET_MS = 100.0
QUIT_TARGET_MS = 500.0
SOLVER = SearchConfig(algorithm="solver", budget=None)
"""The exact solver on the empty board, with no budget: it would search for hours."""


def grown_session(nodes: int) -> Session:
    """A session with the explorer's default searcher, its tree grown to ``nodes`` nodes (no budget)."""
    session = Session.create(SearchConfig(budget=None, node_cap=nodes))
    session.take(None)  # recorded, so that the timeline holds every step
    session.set_node_cap(session.info.ui_node_cap)
    return session


async def _until(flag: list[float], count: int) -> None:
    """Wait (yielding to the app) until ``flag`` holds ``count`` entries."""
    while len(flag) < count:
        await asyncio.sleep(0.0005)


def _explorer(app: PlyscopeApp) -> ExploreScreen:
    screen = app.screen
    assert isinstance(screen, ExploreScreen)
    return screen


async def step_times(session: Session, repeats: int) -> tuple[list[float], int]:
    """Milliseconds from the step key to the screen repainted with the step, ``repeats`` times; and the pane's lines.

    The screen's ``batches_shown`` is wrapped to note when the repaint that follows a batch is done.
    """
    app = PlyscopeApp(session)
    times: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = _explorer(app)
        show = screen.batches_shown
        sent = 0.0

        def timed_show(batches: Sequence[tuple[Session, Batch]]) -> None:
            show(batches)
            screen.call_after_refresh(lambda: times.append((time.perf_counter() - sent) * 1000))

        screen.batches_shown = timed_show  # type: ignore[method-assign]
        for count in range(1, repeats + 1):
            await asyncio.sleep(0.05)
            sent = time.perf_counter()
            app.post_message(events.Key("s", "s"))
            await _until(times, count)
        lines = screen.query_one(SearchTree).shown_nodes
    return times, lines


async def key_times(
    session: Session, repeats: int, seed: int = 0, *, run: bool = True
) -> tuple[list[float], list[float], int]:
    """Milliseconds from a key press to its action and to the repaint after it, while a run goes flat out (or,
    with ``run`` false, while whatever the screen started on its own runs: a saved search's rebuild)."""
    app = PlyscopeApp(session)
    handled: list[float] = []
    painted: list[float] = []
    pauses = random.Random(seed)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = _explorer(app)
        toggle = screen.action_follow
        sent = 0.0

        def probe() -> None:
            handled.append((time.perf_counter() - sent) * 1000)
            toggle()
            screen.call_after_refresh(lambda: painted.append((time.perf_counter() - sent) * 1000))

        screen.action_follow = probe  # type: ignore[method-assign]
        screen.speed = None
        if run:
            app.post_message(events.Key("r", "r"))
        for count in range(1, repeats + 1):
            await asyncio.sleep(pauses.uniform(0.05, 0.15))
            sent = time.perf_counter()
            app.post_message(events.Key("o", "o"))
            await _until(painted, count)
        steps = session.searcher.stats.iterations
        if not run and not session.as_saved:
            raise AssertionError("the saved search was rebuilt before the last key: measure on a bigger one")
        if run:
            app.post_message(events.Key("r", "r"))
        await pilot.pause()
        await app.workers.wait_for_complete()
    return handled, painted, steps


async def quit_time(session: Session) -> float:
    """Milliseconds from ``q`` to the app's exit, while a run goes flat out."""
    app = PlyscopeApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        _explorer(app).speed = None
        app.post_message(events.Key("r", "r"))
        await asyncio.sleep(0.5)
        sent = time.perf_counter()
        app.post_message(events.Key("q", "q"))
    return (time.perf_counter() - sent) * 1000


def cpu_share(seconds: float = 0.3) -> float:
    """The share of one CPU this process gets for busy work now (1.0 on an idle machine)."""
    wall, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        pass
    return (time.process_time() - cpu) / (time.perf_counter() - wall)


def _row(label: object, times: list[float], target: float, extra: object) -> list[object]:
    """A table row; the target is met when even the slowest time is within it."""
    return [label, extra, statistics.median(times), max(times), target, "yes" if max(times) <= target else "no"]


def measure(quick: bool, parts: Sequence[str] = ()) -> list[BenchTable]:
    """The explorer's figures: every part of ``PARTS``, or only ``parts``."""
    tables: list[BenchTable] = []
    for part in parts or PARTS:
        tables.extend(PARTS[part](quick))
    return tables


def step_figures(quick: bool) -> list[BenchTable]:
    """One step of a grown tree, its repaint included."""
    repeats = 5 if quick else 30
    steps = BenchTable(
        "explorer: one step including the repaint (headless, ms)",
        ["tree nodes", "pane lines", "median", "max", "target", "met (max)"],
    )
    algorithm = ""
    for nodes, target in TREES:
        session = grown_session(nodes)
        algorithm = session.config.label()
        times, lines = asyncio.run(step_times(session, repeats))
        steps.rows.append(_row(session.searcher.stats.nodes, times, target, lines))
    steps.notes.append(
        f"algorithm {algorithm}; {repeats} steps each; terminal {SIZE[0]}x{SIZE[1]}; "
        f"this process got {cpu_share():.0%} of a CPU for busy work when measured"
    )
    return [steps]


def key_figures(quick: bool) -> list[BenchTable]:
    """A key answered while a search runs flat out (the default searcher, the solver) or a saved one is rebuilt."""
    repeats = 5 if quick else 30
    default = grown_session(TREES[0][0])
    algorithm = default.config.label()
    keys = BenchTable(
        "explorer: key press answered while a search runs flat out (headless, ms)",
        ["searcher", "until", "search steps", "median", "max", "target", "met (max)"],
    )
    for label, session in (("default", default), ("solver", Session.create(SOLVER))):
        handled, painted, taken = asyncio.run(key_times(session, repeats))
        keys.rows.append([label, *_row("action ran", handled, KEY_TARGET_MS, taken)])
        keys.rows.append([label, *_row("screen repainted", painted, KEY_TARGET_MS, taken)])
    replayed = 30_000 if quick else 100_000
    with tempfile.TemporaryDirectory() as folder:
        handled, painted, taken = asyncio.run(key_times(replay_session(Path(folder), replayed), repeats, run=False))
    keys.rows.append(["replay", *_row("action ran", handled, KEY_TARGET_MS, taken)])
    keys.rows.append(["replay", *_row("screen repainted", painted, KEY_TARGET_MS, taken)])
    keys.notes.append(
        f"{repeats} presses of 'o' (follow on/off) at random moments; default: {algorithm} on a tree "
        f"of {TREES[0][0]:,} nodes; solver: the exact solver on the empty board; replay: a saved Rivest search of "
        f"{replayed:,} steps shown as saved while it is rebuilt (search steps: the saved ones); "
        f"{cpu_share():.0%} of a CPU for busy work when measured"
    )
    return [keys]


def quit_figures(quick: bool) -> list[BenchTable]:
    """``q`` answered while a search runs flat out."""
    quits = BenchTable(
        "explorer: q answered while a search runs flat out (headless, ms)",
        ["searcher", "runs", "median", "max", "target", "met (max)"],
    )
    for label, config in (("default", SearchConfig(budget=None)), ("solver", SOLVER)):
        times = [asyncio.run(quit_time(Session.create(config))) for _ in range(3 if quick else 5)]
        quits.rows.append(_row(label, times, QUIT_TARGET_MS, len(times)))
    quits.notes.append("from the key sent to the app closed, its search threads stopped")
    return [quits]


TRUTH_TREES = (
    ("4453", "rivest"),
    ("", "rivest"),
    ("", "mcts"),
    ("", "alphabeta"),
    ("", "bestfirst"),
    ("", "pns"),
)
"""The Connect Four trees the truth column is measured on, each grown to ``TRUTH_NODES`` nodes: a midgame position,
then the empty board with each searcher family (with ``--quick``, the first two)."""
TRUTH_NODES = 10_000
TRUTH_COLUMNS = {
    "first value (s)": 1.0,
    "lines <= 12 stones (s)": 1.0,
    "90% of lines (s)": 10.0,
    "every line (s)": None,
    "head line (s)": None,
    "key max (ms)": KEY_TARGET_MS,
}
"""The truth column's figures, each with its target (``None``: none): when the first value shows; when every line of at
most 12 stones has its value (the opening book's reach), and 90% of the lines shown; when no line waits any more (a
value or ``…``); when the head line has every root move settled; the slowest 'o' answered meanwhile."""
AT_ONCE = "before"
"""``T`` pressed before the pane loaded its solver (a fresh process: the worst case, a served session's)."""
AHEAD = "ahead"
"""``T`` pressed with the solver (and the opening book) loaded ahead, as a pane does ``LOAD_AHEAD_SECONDS`` after it
shows a search."""
TRUTH_TIMEOUT_SECONDS = 300
TRUTH_WAIT_SECONDS = 60.0
"""How long one case waits for its figures; one not reached by then is left out (``–``, not met)."""


def truth_figures(quick: bool) -> BenchTable:
    """The truth column turned on over grown trees (``TRUTH_TREES``), each in a fresh process (``measure_truth``),
    first with ``T`` pressed before the pane loaded the solver, then with it loaded ahead."""
    table = BenchTable(
        f"explorer: truth column on {TRUTH_NODES:,}-node Connect Four trees (headless, a fresh process each)",
        ["position", "searcher", "T", "lines (…)", *TRUTH_COLUMNS, "met"],
    )
    for position, algorithm in TRUTH_TREES[:2] if quick else TRUTH_TREES:
        found = run_apart("plyscope.tui.benchmark", ["truth", position or "-", algorithm], TRUTH_TIMEOUT_SECONDS)
        if isinstance(found, str):
            table.notes.append(f"{position or 'the empty board'}, {algorithm}: not measured: {found}")
            continue
        measured = json.loads(" ".join(found))
        for case in (AT_ONCE, AHEAD):
            figures = measured[case]
            met = all(
                figures.get(name) is not None and figures[name] <= target
                for name, target in TRUTH_COLUMNS.items()
                if target is not None
            )
            cells = [figures.get(name) for name in TRUTH_COLUMNS]
            lines = f"{figures['lines']} ({figures['unsettled']})"
            table.rows.append([position or "''", algorithm, case, lines, *("–" if v is None else v for v in cells)])
            table.rows[-1].append("yes" if met else "no")
    targets = ", ".join(f"{name} <= {target:g}" for name, target in TRUTH_COLUMNS.items() if target is not None)
    table.notes.append(
        f"targets: {targets}; lines (…): the lines shown with the principal variation open, and those left beyond the "
        f"budget; T {AT_ONCE}: pressed before the pane loaded the compiled solver (loading meanwhile; a served "
        f"session's case), {AHEAD}: with it and the opening book loaded ahead, as a pane does "
        f"{LOAD_AHEAD_SECONDS:g} s after it shows a search; {cpu_share():.0%} of a CPU for busy work when measured"
    )
    return table


def measure_truth(position: str, algorithm: str) -> dict[str, dict[str, float | int]]:
    """In this process, which has not loaded the solver yet: ``truth_figures``'s figures on ``algorithm``'s tree from
    ``position``, by case, as JSON's values."""
    session = Session.create(SearchConfig(position=position, algorithm=algorithm, budget=None, node_cap=TRUTH_NODES))
    session.take(None)
    exact = Exact(loaded=freeze_loaded, load_ahead=False)  # T pressed before the pane has loaded the solver: the worst
    before = asyncio.run(_truth_times(session, exact))
    exact.load_ahead = True
    loading = exact.prepare(session.searcher.root_state.game)
    assert loading is not None
    loading.result()
    exact.clear()  # (no value found yet, as before the first T)
    return {AT_ONCE: before, AHEAD: asyncio.run(_truth_times(session, exact))}


def _settled(truth: str) -> bool:
    return truth not in (TRUTH_PENDING, TRUTH_UNSETTLED)


async def _truth_times(session: Session, exact: Exact) -> dict[str, float | int]:
    """The truth column's figures on ``session``'s tree in an app whose door to exact values is ``exact`` (one kept
    from a run to the next, its solver loaded or not): seconds from ``T`` to each, the slowest 'o' answered meanwhile
    (ms), the lines shown and those left ``…``."""
    app = PlyscopeApp(session)
    app.exact = exact
    handled: list[float] = []
    stones = session.searcher.root_state.ply
    marks: dict[str, float] = {}
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = _explorer(app)
        pane = screen.pane
        tree = pane.search_tree
        tree.reveal_moves(session.searcher.principal_variation())
        await pilot.pause()
        toggle = screen.action_follow
        sent = 0.0

        def probe() -> None:
            handled.append((time.perf_counter() - sent) * 1000)
            toggle()

        def note(now: float) -> None:
            lines = list(zip(tree.shown(), tree.truths(), strict=True))
            settled = [_settled(truth) for _, truth in lines]
            judgement = pane.root_judgement
            reached = {
                "first value (s)": any(settled),
                "lines <= 12 stones (s)": all(_settled(t) for node, t in lines if stones + node.depth <= BOOK_PLY),
                "90% of lines (s)": sum(settled) >= 0.9 * len(settled),
                "every line (s)": TRUTH_PENDING not in (truth for _, truth in lines),
                "head line (s)": judgement is not None and None not in judgement.outcomes,
            }
            for name, done in reached.items():
                if done and name not in marks:
                    marks[name] = now

        screen.action_follow = probe  # type: ignore[method-assign]
        started = time.perf_counter()
        app.post_message(events.Key("T", "T"))
        await _until_true(lambda: tree.truth)
        while len(marks) < len(TRUTH_COLUMNS) - 1 and time.perf_counter() - started < TRUTH_WAIT_SECONDS:
            note(time.perf_counter() - started)
            await asyncio.sleep(0.02)
            sent = time.perf_counter()
            app.post_message(events.Key("o", "o"))
            await _until(handled, len(handled) + 1)
        note(time.perf_counter() - started)
        truths = tree.truths()
        app.workers.cancel_all()  # (the worker goes on with the choices below the lines: it ends before the next run)
        # Each waited for to its end; one cancelled says so by an exception (WorkerCancelled), which is no failure here.
        await asyncio.gather(*(worker.wait() for worker in list(app.workers)), return_exceptions=True)
    figures: dict[str, float | int] = {name: round(value, 3) for name, value in marks.items()}
    if handled:
        figures["key max (ms)"] = round(max(handled), 1)
    return figures | {"lines": len(truths), "unsettled": truths.count(TRUTH_UNSETTLED)}


async def _until_true(condition: Callable[[], bool]) -> None:
    """Wait (yielding to the app) until ``condition()`` holds."""
    while not condition():
        await asyncio.sleep(0.0005)


def replay_session(folder: Path, steps: int) -> Session:
    """A session replaying a saved Rivest search of ``steps`` steps from the start (written in ``folder``)."""
    session = Session.create(SearchConfig(algorithm="rivest", budget=None))
    session.take(steps)
    path = folder / "replayed.json"
    session.write(path)
    return Session.replaying(read_search(path))


TIMELINE_ALGORITHMS = ("rivest", "bestfirst", "mcts", "alphabeta", "pns")
TIMELINE_TARGETS = {
    "one step back (ms)": 50.0,
    "1,000 steps back (ms)": 300.0,
    "jump to the middle (ms)": 300.0,
    "then on to the newest (ms)": 300.0,
    "timeline / tree memory": 0.25,
    "replay opens (s)": 2.0,
    "replay rebuilt and checked (s)": None,
}
"""Each figure's target (``None``: none; shown for what it says)."""


def timeline_figures(quick: bool) -> BenchTable:
    """Moving along a search's timeline: one step back and a jump from the newest step, the timeline's memory (with
    the searcher's journal) against the tree's (``AlgorithmInfo.node_bytes`` per node), and a saved search read
    back and rebuilt."""
    steps = 10_000 if quick else 100_000
    table = BenchTable(
        f"timeline of a {steps:,}-step search (engine side: the rebuild in the search thread)",
        ["searcher", "figure", "value", "target", "met"],
    )
    with tempfile.TemporaryDirectory() as folder:
        for name in TIMELINE_ALGORITHMS:
            session = Session.create(SearchConfig(algorithm=name, budget=None))
            session.take(steps)
            figures: dict[str, float] = {}
            started = time.perf_counter()
            session.go_to(steps - 1)
            figures["one step back (ms)"] = (time.perf_counter() - started) * 1000
            started = time.perf_counter()
            session.go_to(steps - 1000)
            figures["1,000 steps back (ms)"] = (time.perf_counter() - started) * 1000
            session.go_to(steps)
            started = time.perf_counter()
            session.go_to(steps // 2)
            figures["jump to the middle (ms)"] = (time.perf_counter() - started) * 1000
            started = time.perf_counter()
            session.go_to(steps)
            figures["then on to the newest (ms)"] = (time.perf_counter() - started) * 1000
            tree = session.searcher.stats.nodes * session.info.node_bytes
            kept = session.timeline.nbytes() + travel_of(session.searcher).nbytes()
            figures["timeline / tree memory"] = kept / tree
            path = Path(folder) / f"{name}.json"
            session.write(path)
            del session
            started = time.perf_counter()
            replay = Session.replaying(read_search(path))
            if not replay.searcher.root.children:  # (made with the principal variation's, as the pane shows them)
                raise AssertionError(f"the saved tree of {name} shows no node")
            figures["replay opens (s)"] = time.perf_counter() - started
            started = time.perf_counter()
            opened = replay.open_saved(threading.Event())
            figures["replay rebuilt and checked (s)"] = time.perf_counter() - started
            if opened is None or "matches" not in opened[1]:
                raise AssertionError(f"the replay of {name} did not rebuild the saved tree")
            for figure, value in figures.items():
                target = TIMELINE_TARGETS[figure]
                met = "–" if target is None else "yes" if value <= target else "no"
                table.rows.append([name, figure, round(value, 3), "–" if target is None else target, met])
    table.notes.append(
        "proof-number search, Rivest, best-first and MCTS take steps back in place many at once "
        "(plyscope.engine.travel: Expansions; MCTS from its per-step journal); alpha-beta from a "
        "checkpoint of its frame stack, replaying at most 1,024 steps (Checkpoints); the others, and "
        "a step nearer the start than the one shown when that is quicker, are rebuilt by replaying the "
        "search from its start (the searchers are deterministic), in proportion to the step reached; "
        "timeline memory: its events plus what the searcher keeps only to go back (Travel.nbytes: "
        "journals, checkpoints); "
        "replay opens: the file read and its last step shown as saved (SavedTree: the nodes made as they are "
        "shown); replay rebuilt and checked: then, in a thread of its own while the tree is on the screen, the "
        "search rebuilt from the recipe and its tree checked against the saved one, and swapped in"
    )
    return table


THOUSAND_LEAVES = (
    "(" + ",".join("(" + ",".join(str((i * 7 + j * 13) % 41 - 20) for j in range(10)) + ")" for i in range(100)) + ")"
)
"""A hand-written tree of 100 x 10 = 1,000 leaves."""
TREE_TARGET_MS = 100.0


def tree_figures(quick: bool) -> BenchTable:
    """A tree of 1,000 leaves in the explorer: parsed, drawn by the board (at the root, and around a leaf chosen), and
    typed as a new position until the screen is repainted with it."""
    repeats = 5 if quick else 20
    table = BenchTable(
        "explorer: a hand-written tree of 1,000 leaves (headless, ms)",
        ["what", "median", "max", "target", "met (max)"],
    )
    times = asyncio.run(_tree_times(repeats))
    for label, measured in times.items():
        row = _row(label, measured, TREE_TARGET_MS, "")
        table.rows.append([row[0], *row[2:]])
    table.notes.append(f"{repeats} times each; terminal {SIZE[0]}x{SIZE[1]}; minimax on the tree")
    return table


async def _tree_times(repeats: int) -> dict[str, list[float]]:
    config = SearchConfig(game="tree", position=THOUSAND_LEAVES, algorithm="minimax")
    app = PlyscopeApp(Session.create(config))
    times: dict[str, list[float]] = {
        "parsed": [],
        "drawn (root)": [],
        "drawn (a leaf chosen)": [],
        "typed to shown": [],
    }
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = _explorer(app)
        board = screen.query_one(Board)
        game = screen.session.state.game
        for _ in range(repeats):
            started = time.perf_counter()
            game.parse(THOUSAND_LEAVES)
            times["parsed"].append((time.perf_counter() - started) * 1000)
            for label, line in (("drawn (root)", ()), ("drawn (a leaf chosen)", (57, 4))):
                board.line = line
                started = time.perf_counter()
                board.render_board()
                times[label].append((time.perf_counter() - started) * 1000)
            repainted: list[float] = []
            started = time.perf_counter()
            screen.adopt(screen.exploration.search(config, fresh=True))
            screen.call_after_refresh(partial(repainted.append, 0.0))
            await _until(repainted, 1)
            times["typed to shown"].append((time.perf_counter() - started) * 1000)
    return times


PARTS: dict[str, Callable[[bool], list[BenchTable]]] = {
    "steps": step_figures,
    "keys": key_figures,
    "quit": quit_figures,
    "timeline": lambda quick: [timeline_figures(quick)],
    "truth": lambda quick: [truth_figures(quick)],
    "tree": lambda quick: [tree_figures(quick)],
    "memory": memory_figures,
}
"""The parts of ``bench --ui`` (``--ui-part``), in the order they are measured."""


if __name__ == "__main__":  # ``python -m plyscope.tui.benchmark truth POSITION ALGORITHM``: in a fresh process
    if len(sys.argv) != 4 or sys.argv[1] != "truth":
        sys.exit("usage: python -m plyscope.tui.benchmark truth POSITION|- ALGORITHM")
    print(json.dumps(measure_truth("" if sys.argv[2] == "-" else sys.argv[2], sys.argv[3])))
