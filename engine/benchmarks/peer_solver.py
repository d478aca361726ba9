"""Our exact solver beside BitBully's C++ (Markus Thill's): Pons' sets with and without the opening book, and
the empty board's every column.

Needs BitBully (``bitbully``, AGPL: a benchmark peer of the optional extra ``peers``, imported here only, never
by plyscope itself); ``plyscope.engine.benchmarks.peers`` checks for it.  Both solve each position from an
empty transposition table (BitBully's ``resetTranspositionTable``, our ``reset``; neither timed), one position
after the other in this process, timed in CPU seconds of this process.  BitBully has two searches, MTD(f)
(first guess 0: what its own benchmark and its ``scoreMoves`` use) and Pons' null-window bisection: both are
timed, and ours is held against the faster on each set.  With the book, both read the same file, Thill's
12-ply book with win distances (``bitbully-databases``), and score a position with 12 stones from it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from statistics import median
from typing import TYPE_CHECKING

from plyscope.engine.benchmarks import BenchTable
from plyscope.engine.benchmarks.solver import DATA_VARIABLE, SETS, PonsSet, data_dir, read_set, solve_set
from plyscope.engine.games import Connect4
from plyscope.engine.numbers import signed
from plyscope.engine.solver import Connect4Solver
from plyscope.engine.solver.book import BOOK_FILE, PACKAGE, opening_book, read_book

if TYPE_CHECKING:
    from bitbully.bitbully_core import BitBullyCore, BoardCore

SAMPLES: dict[str, tuple[int, int]] = {
    "End-Easy": (100, 10),
    "Middle-Easy": (100, 10),
    "Middle-Medium": (30, 3),
    "Begin-Easy": (100, 10),
    "Begin-Medium": (10, 2),
    "Begin-Hard": (4, 0),
}
"""Positions solved of each of Pons' sets (the first ones of its file): full run, ``--quick``.  Kept small: each
position costs BitBully some 50 ms of CPU to empty its table, and Begin-Hard's take seconds each."""
WARM_UP_SET = "Begin-Medium"
"""Whose first position maps our table's memory before anything is timed (``warm_up``)."""
BOOK_SETS = ("Begin-Easy", "Begin-Medium", "Begin-Hard")
"""The sets with positions of at most 12 stones, where the book answers."""
EMPTY_SCORES = (-2, -1, 0, 1, 0, -1, -2)
"""Pons' scores of the empty board's seven columns, left to right (for the first player)."""
EMPTY_REPEATS = (3, 1)
"""Times the empty board is solved (the median reported): full run, ``--quick``."""
TARGET_RATIO = 0.5
"""Ours should solve at least this share of BitBully's positions per CPU second on every set."""
TARGET_EMPTY = 2.0
"""Our empty board should take at most this many times BitBully's CPU time, both with the book."""
MTDF = "MTD(f)"
NULL_WINDOW = "null window"


@dataclass(frozen=True, slots=True)
class Solved:
    """Positions solved one after the other, each from an empty table."""

    positions: int
    exact: int
    """Scores equal to Pons'."""
    nodes: int
    cpu_seconds: float

    @property
    def rate(self) -> float:
        """Positions per CPU second."""
        return self.positions / max(self.cpu_seconds, 1e-9)

    @property
    def shown_rate(self) -> float:
        """``rate`` to three significant figures (whole above 100)."""
        return round(self.rate) if self.rate >= 100 else float(f"{self.rate:.3g}")

    @property
    def mean_nodes(self) -> float:
        return self.nodes / max(self.positions, 1)


def _board(moves: str) -> BoardCore:
    """BitBully's board after a Pons move string."""
    from bitbully.bitbully_core import BoardCore

    board = BoardCore()
    if not board.play([int(char) - 1 for char in moves]):
        raise ValueError(f"BitBully refused the position {moves}")
    return board


def bitbully_solve(core: BitBullyCore, positions: list[tuple[str, int]], method: str) -> Solved:
    """``core``'s ``method`` (``MTDF`` or ``NULL_WINDOW``) on each position, its table emptied before each."""
    exact = nodes = 0
    cpu = 0.0
    for moves, score in positions:
        board = _board(moves)
        core.resetTranspositionTable()
        core.resetNodeCounter()
        started = time.process_time()
        found = core.mtdf(board, 0) if method == MTDF else core.nullWindow(board)
        cpu += time.process_time() - started
        exact += found == score
        nodes += core.getNodeCounter()
    return Solved(len(positions), exact, nodes, cpu)


def plyscope_solve(solver: Connect4Solver, pons: PonsSet, positions: list[tuple[str, int]]) -> Solved:
    """Our solver on each position, its table emptied before each (``plyscope.engine.benchmarks.solver``)."""
    result = solve_set(solver, pons, positions)
    return Solved(result.positions, result.correct, result.nodes, result.cpu_seconds)


def warm_up(solver: Connect4Solver, folder: Path) -> None:
    """Load ``solver``'s compiled kernel and map its table's memory, by solving a position of a million nodes
    or so: the system maps a table's pages (2 MB each where it can) as they are first written, some
    milliseconds each, and BitBully's are mapped when it empties its table (``resetTranspositionTable``, not
    timed), so ours are too before any solve is timed."""
    pons = next(s for s in SETS if s.name == WARM_UP_SET)
    solver.solve(solver.game.parse(read_set(folder / pons.file, 1)[0][0]))


def book_path() -> Path:
    """The book file both solvers read: Thill's 12-ply book with distances, in ``bitbully-databases``."""
    from importlib.resources import files

    return Path(str(files(PACKAGE).joinpath(BOOK_FILE)))


def _bitbully(book: bool) -> BitBullyCore:
    from bitbully.bitbully_core import BitBullyCore

    return BitBullyCore(book_path()) if book else BitBullyCore()


@dataclass(frozen=True, slots=True)
class SetRuns:
    """One of Pons' sets solved by each solver, with and without the book."""

    pons: PonsSet
    ours: Solved
    theirs: dict[str, Solved]
    """BitBully's, by method."""
    ours_book: Solved | None = None
    theirs_book: dict[str, Solved] | None = None

    def ratio(self, book: bool = False) -> float:
        """Our positions per CPU second over BitBully's faster method's."""
        ours = self.ours_book if book else self.ours
        theirs = self.theirs_book if book else self.theirs
        assert ours is not None and theirs is not None
        return ours.rate / max(s.rate for s in theirs.values())


def run_sets(quick: bool, folder: Path) -> list[SetRuns]:
    """Solve the samples of every set (``SAMPLES``) without the book, and those of ``BOOK_SETS`` with it too."""
    ours = Connect4Solver(Connect4(), book=False)
    ours_book = Connect4Solver(Connect4(), book=True)
    opening_book().arrays()  # read the book now (about 0.1 s), not in the first timed search
    theirs, theirs_book = _bitbully(False), _bitbully(True)
    for solver in (ours, ours_book):
        warm_up(solver, folder)
    runs = []
    for pons in SETS:
        sample = SAMPLES[pons.name][1 if quick else 0]
        if sample == 0:
            continue
        positions = read_set(folder / pons.file, sample)
        plain = {method: bitbully_solve(theirs, positions, method) for method in (MTDF, NULL_WINDOW)}
        run = SetRuns(pons, plyscope_solve(ours, pons, positions), plain)
        if pons.name in BOOK_SETS:
            book = {method: bitbully_solve(theirs_book, positions, method) for method in (MTDF, NULL_WINDOW)}
            run = SetRuns(pons, run.ours, plain, plyscope_solve(ours_book, pons, positions), book)
        runs.append(run)
    return runs


def sets_tables(quick: bool) -> list[BenchTable]:
    """Pons' sets: positions per CPU second and nodes side by side without the book, and with it."""
    speed = BenchTable(
        "Exact solver against BitBully's C++ on Pons' sets, no opening book: positions per CPU second",
        ["set", "sample", "exact", "plyscope", f"BitBully {MTDF}", f"BitBully {NULL_WINDOW}", "x BitBully"],
    )
    nodes = BenchTable(
        "Exact solver against BitBully's C++ on Pons' sets, no opening book: mean nodes per position",
        ["set", "plyscope", f"BitBully {MTDF}", f"BitBully {NULL_WINDOW}", "Pons (whole set)"],
    )
    book = BenchTable(
        "Exact solver against BitBully's C++ with the same opening book: positions per CPU second",
        [
            "set",
            "sample",
            "exact",
            "plyscope",
            f"BitBully {MTDF}",
            f"BitBully {NULL_WINDOW}",
            "x BitBully",
            "x no book",
        ],
    )
    folder = data_dir()
    missing = [s.file for s in SETS if not (folder / s.file).is_file()]
    if missing:
        speed.notes.append(
            f"skipped: Pons' sets not found in {folder} ({', '.join(missing)}); set {DATA_VARIABLE} to their folder"
        )
        return [speed]
    runs = run_sets(quick, folder)
    for run in runs:
        count = run.ours.positions
        speed.rows.append(
            [
                run.pons.name,
                count,
                f"{run.ours.exact}/{count}, {min(s.exact for s in run.theirs.values())}/{count}",
                run.ours.shown_rate,
                run.theirs[MTDF].shown_rate,
                run.theirs[NULL_WINDOW].shown_rate,
                round(run.ratio(), 2),
            ]
        )
        nodes.rows.append(
            [
                run.pons.name,
                round(run.ours.mean_nodes),
                round(run.theirs[MTDF].mean_nodes),
                round(run.theirs[NULL_WINDOW].mean_nodes),
                round(run.pons.pons_nodes),
            ]
        )
        if run.ours_book is not None and run.theirs_book is not None:
            book.rows.append(
                [
                    run.pons.name,
                    count,
                    f"{run.ours_book.exact}/{count}, {min(s.exact for s in run.theirs_book.values())}/{count}",
                    run.ours_book.shown_rate,
                    run.theirs_book[MTDF].shown_rate,
                    run.theirs_book[NULL_WINDOW].shown_rate,
                    round(run.ratio(book=True), 2),
                    round(run.ours_book.rate / run.ours.rate, 1),
                ]
            )
    below = [f"{r.pons.name} {r.ratio():.2f}" for r in runs if r.ratio() < TARGET_RATIO]
    speed.notes += [
        "sample: the first N positions of each file, each solved from an empty table by each solver in turn;"
        f" exact: scores equal to Pons' (ours, BitBully's); BitBully: {MTDF} (first guess 0) and Pons' {NULL_WINDOW}",
        f"x BitBully: ours over BitBully's faster search on the set (target >= {TARGET_RATIO:g});"
        f" below it: {', '.join(below) or 'none'}",
    ]
    nodes.notes += [
        "a node is one negamax call on both sides; Pons: his C++ solver's mean over the whole set (Begin-Hard:"
        " over its first 200), where the samples here are the first positions (bench --only solver: whole sets)",
    ]
    book.notes += [
        f"both read the same file, {BOOK_FILE.rpartition('/')[2]} of bitbully-databases (Thill's 12-ply book with"
        " win distances), and score a position with 12 stones from it; the same positions as the tables above",
        "x BitBully: ours over BitBully's faster search (with the book); x no book: ours with the book over ours"
        " without it",
    ]
    return [speed, nodes, book]


Solve = Callable[[], tuple[float, int, tuple[int, ...]]]
"""One solve of the empty board's columns: its CPU seconds, nodes and the seven scores (the first player's)."""
PLYSCOPE = "plyscope"
BITBULLY = "BitBully C++"


def _empty_board_solves() -> dict[str, Solve]:
    """Each solver's way of scoring the empty board's columns with the book, on a new solver each time."""
    from bitbully.bitbully_core import BoardCore

    start = Connect4().start()

    def ours() -> tuple[float, int, tuple[int, ...]]:
        solver = Connect4Solver(start.game, book=True)  # as plyscope solve '' makes: a new table, no page mapped yet
        begun = time.process_time()
        scores = solver.move_scores(start)
        spent = time.process_time() - begun
        return spent, solver.nodes, tuple(scores[c].pov(1) for c in range(7))

    def theirs() -> tuple[float, int, tuple[int, ...]]:
        core = _bitbully(True)  # reads the book and maps its new table
        begun = time.process_time()
        scores = core.scoreMoves(BoardCore())
        return time.process_time() - begun, core.getNodeCounter(), tuple(scores)

    return {PLYSCOPE: ours, BITBULLY: theirs}


def empty_board_table(quick: bool) -> BenchTable:
    """Every column of the empty board scored with the book by a new solver: ours (as ``plyscope solve ''``) against
    BitBully's ``scoreMoves``, timed without reading the book."""
    table = BenchTable(
        "The empty board, every column's exact score (plyscope solve ''), with the same opening book",
        ["solver", "CPU ms", "nodes", "scores", "x BitBully's time"],
    )
    repeats = EMPTY_REPEATS[1] if quick else EMPTY_REPEATS[0]
    started = time.process_time()
    read_book()
    book_read = time.process_time() - started
    opening_book().arrays()
    started = time.process_time()
    _bitbully(True)
    bitbully_load = time.process_time() - started
    solves = _empty_board_solves()
    solves[PLYSCOPE]()  # loads our kernel's machine code
    results: dict[str, list[tuple[float, int, tuple[int, ...]]]] = {name: [] for name in solves}
    for _ in range(repeats):
        for name, solve in solves.items():
            results[name].append(solve())
    times = {name: median(r[0] for r in runs) for name, runs in results.items()}
    for name, runs in results.items():
        _, count, scores = runs[-1]
        table.rows.append(
            [
                name,
                round(times[name] * 1000, 1),
                count,
                " ".join(signed(s) for s in scores) + ("" if scores == EMPTY_SCORES else " (wrong)"),
                round(times[name] / times[BITBULLY], 2),
            ]
        )
    table.notes += [
        ("one solve" if repeats == 1 else f"the median of {repeats} solves") + " by a new solver; CPU time of this"
        f" process, without reading the book ({1000 * book_read:.0f} ms ours, into packed numpy arrays; BitBully's"
        f" constructor with it {1000 * bitbully_load:.0f} ms, its table's memory mapped too) or loading our kernel",
        "plyscope: every column's search, centre first, down to the book, as plyscope solve '' (its table's memory"
        " mapped as the search first writes it: in its time); BitBully: scoreMoves, MTD(f) on each column;"
        f" target: ours within {TARGET_EMPTY:g}x BitBully's time",
        "without the book (plyscope solve '' --no-book) the empty board is not solved here: more than 15 minutes",
    ]
    return table
