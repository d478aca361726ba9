"""The exact Connect Four solver on Pascal Pons' benchmark sets, beside his C++ figures, and its steps' time.

Each position is solved from an empty transposition table and without the opening book, as
Pons does, so node counts are per position and comparable with his (one node per negamax
call).  Seconds are wall-clock per position.  The data is looked up in ``$PLYSCOPE_PONS_DATA``
or else in ``../shared/data/connect4-pons`` beside the project's root; without it those
tables are skipped with a note.

The last table times the solver's steps as a searcher (``plyscope.engine.search.solver``) on
positions it cannot finish soon: a UI gets control back between two steps, so the slowest
step is how long the solver can hold it.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from plyscope.engine.benchmarks import BenchTable
from plyscope.engine.errors import UserError
from plyscope.engine.files import read_regular_file
from plyscope.engine.games import Connect4
from plyscope.engine.numbers import shown
from plyscope.engine.search.solver import SolverSearcher
from plyscope.engine.solver import Connect4Solver

DATA_VARIABLE = "PLYSCOPE_PONS_DATA"
DEFAULT_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "connect4-pons"
"""``../shared/data/connect4-pons`` beside the project's root."""


@dataclass(frozen=True, slots=True)
class PonsSet:
    """One of Pons' sets, how much of it the bench solves, and his solver's figures on it."""

    name: str
    file: str
    sample: int
    """Positions solved (the first ones of the file)."""
    quick_sample: int
    """Positions solved with ``--quick``."""
    pons_nodes: float
    """Pons' mean nodes per position (strong mode, no opening book)."""
    pons_seconds: float
    """Pons' mean seconds per position."""
    target_nodes: float | None = None
    """Our mean nodes per position should be at most this (2x Pons'); ``None``: no target."""
    target_seconds: float | None = None
    """Our mean seconds per position should be at most this; ``None``: no target."""


SETS = (
    PonsSet("End-Easy", "Test_L3_R1", 1000, 200, 51, 5.2e-6, target_nodes=103),
    PonsSet("Middle-Easy", "Test_L2_R1", 1000, 100, 449, 55e-6, target_nodes=900),
    PonsSet("Middle-Medium", "Test_L2_R2", 1000, 20, 39_808, 5.2e-3, target_nodes=80_000, target_seconds=0.150),
    PonsSet("Begin-Easy", "Test_L1_R1", 1000, 100, 3_296, 338e-6, target_nodes=6_600),
    PonsSet("Begin-Medium", "Test_L1_R2", 100, 3, 1.19e6, 0.159, target_seconds=5.0),
    PonsSet("Begin-Hard", "Test_L1_R3", 10, 0, 48.3e6, 6.3),
)
"""Pons' figures are the ones in the data's README (Begin-Hard: his mean over the first 200).

Begin-Hard is sampled lightly: its positions take 3 to 90 million nodes here, up to a minute each.
"""
PYTHON_KERNEL_SET = "Begin-Easy"
"""The set the pure Python kernel (boards too large for the compiled one) is also timed on."""
PYTHON_KERNEL_SAMPLE = (200, 20)
"""Positions of that set it solves: full run, ``--quick``."""
NODES_PER_SECOND_TARGET = 400_000
STEP_POSITIONS = ((Connect4(), ""), (Connect4(), "4453"), (Connect4(8, 7), ""))
"""Where the searcher's steps are timed: 7x6 (compiled kernel) from the start and from ``4453``, 8x7 (pure Python)."""
STEP_SECONDS = (3.0, 0.5)
"""Seconds of steps timed on each of those positions: full run, ``--quick``."""
STEP_TARGET_MS = 16
"""The slowest step should take at most a frame at 60 frames a second."""


def data_dir() -> Path:
    """Where Pons' sets are: ``$PLYSCOPE_PONS_DATA`` if set, else ``DEFAULT_DATA``."""
    return Path(os.environ.get(DATA_VARIABLE) or DEFAULT_DATA)


MAX_SET_BYTES = 1 << 26
"""The largest file of Pons' read (his are about 50 KB: 1,000 lines)."""


def read_set(path: Path, limit: int) -> list[tuple[str, int]]:
    """The first ``limit`` ``(move string, score)`` lines of a Pons file (score for the player to move); a file
    that is not one (not text, a line not ``MOVES SCORE``, a position that cannot be played) raises ``UserError``
    naming it and the line."""
    try:
        text = read_regular_file(path, MAX_SET_BYTES, "one of Pons' sets").decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(f"{path}: not text, so not one of Pons' sets (${DATA_VARIABLE} names their folder)") from None
    positions: list[tuple[str, int]] = []
    game = Connect4()
    for number, line in enumerate(text.splitlines(), start=1):
        if len(positions) >= limit:
            break
        if not line.strip():
            continue
        written = re.fullmatch(r"\s*([1-7]+)\s+(-?[0-9]{1,2})\s*", line)
        try:
            if written is None:
                raise UserError(f"'{shown(line)}' is not a move string and a score")
            game.parse(written.group(1))
        except UserError as error:
            raise UserError(
                f"{path}: line {number}: {error} (one of Pons' sets? ${DATA_VARIABLE} names their folder)"
            ) from None
        positions.append((written.group(1), int(written.group(2))))
    return positions


@dataclass(frozen=True, slots=True)
class SetResult:
    """What solving the first ``positions`` of one set gave."""

    pons: PonsSet
    positions: int
    correct: int
    nodes: int
    seconds: float
    """Wall-clock seconds, all positions."""
    cpu_seconds: float
    """Processor seconds of this process, all positions (what load from other programs does not inflate)."""
    slowest: float
    """Wall-clock seconds of the slowest position."""


def solve_set(solver: Connect4Solver, pons: PonsSet, positions: list[tuple[str, int]]) -> SetResult:
    """Solve each position from an empty table; count exact scores, nodes and wall-clock time."""
    correct = nodes = 0
    seconds = cpu_seconds = slowest = 0.0
    for moves, score in positions:
        state = solver.game.parse(moves)
        solver.reset()
        started = time.perf_counter()
        cpu_started = time.process_time()
        found = solver.solve(state).pov(state.player)  # Pons' scores are for the player to move
        cpu_seconds += time.process_time() - cpu_started
        spent = time.perf_counter() - started
        correct += found == score
        nodes += solver.nodes
        seconds += spent
        slowest = max(slowest, spent)
    return SetResult(pons, len(positions), correct, nodes, seconds, cpu_seconds, slowest)


def measure(quick: bool) -> list[BenchTable]:
    return [*measure_sets(quick), measure_steps(quick)]


def measure_steps(quick: bool) -> BenchTable:
    """Time the searcher's steps, each of at most a slice of nodes, from the start of each of ``STEP_POSITIONS``."""
    table = BenchTable(
        "The exact solver as a searcher: time per step (a UI gets control back between two steps)",
        ["position", "kernel", "slice", "steps", "median ms", "max ms", "max CPU ms", "target ms"],
    )
    seconds = STEP_SECONDS[1] if quick else STEP_SECONDS[0]
    for game, position in STEP_POSITIONS:
        searcher = SolverSearcher(game.parse(position))
        walls: list[float] = []
        cpus: list[float] = []
        until = time.perf_counter() + seconds
        while time.perf_counter() < until:
            started = time.perf_counter()
            cpu_started = time.process_time()
            if searcher.step() is None:
                break
            cpus.append(time.process_time() - cpu_started)
            walls.append(time.perf_counter() - started)
        walls.sort()
        table.rows.append(
            [
                f"{game.name} {position or 'start'}",
                "compiled" if game.width * game.column_bits <= 62 else "Python",
                searcher.solver.slice_nodes,
                len(walls),
                round(walls[len(walls) // 2] * 1000, 2),
                round(walls[-1] * 1000, 1),
                round(max(cpus) * 1000, 1),
                STEP_TARGET_MS,
            ]
        )
    table.notes += [
        f"each position stepped for {seconds:g} s from a new searcher (its first step expands the root)",
        "slice: the most solver nodes a step spends; a probe longer than that goes on at the next step",
        "max ms is wall-clock and takes in whatever else the machine ran; max CPU ms is this process's own time;"
        " the first steps of a new searcher also map the pages of its table as they are first written (some 10 ms)",
    ]
    return table


def measure_sets(quick: bool) -> list[BenchTable]:
    """Solve the first positions of each of Pons' sets (``SETS``); one table of nodes, one of time."""
    folder = data_dir()
    nodes_table = BenchTable(
        "Exact Connect Four solver on Pons' sets: exactness and nodes (mean per position)",
        ["set", "sample", "exact", "nodes", "Pons nodes", "target"],
    )
    time_table = BenchTable(
        "Exact Connect Four solver on Pons' sets: wall-clock time (per position)",
        ["set", "mean ms", "max ms", "Pons ms", "nodes/s", "CPU n/s", "target ms"],
    )
    missing = [s.file for s in SETS if not (folder / s.file).is_file()]
    if missing:
        nodes_table.notes.append(
            f"skipped: Pons' sets not found in {folder} ({', '.join(missing)}); set {DATA_VARIABLE} to their folder"
        )
        return [nodes_table]
    solver = Connect4Solver(Connect4(), book=False)  # Pons' figures are his solver's without a book: so are these
    solver.solve(solver.game.parse(read_set(folder / SETS[0].file, 1)[0][0]))  # compiles (or loads) the kernel
    results = []
    for pons in SETS:
        sample = pons.quick_sample if quick else pons.sample
        if sample == 0:
            time_table.notes.append(f"{pons.name}: not run with --quick")
            continue
        result = solve_set(solver, pons, read_set(folder / pons.file, sample))
        results.append(result)
        count = result.positions
        nodes_table.rows.append(
            [
                pons.name,
                count,
                f"{result.correct}/{count}",
                round(result.nodes / count),
                round(pons.pons_nodes),
                "-" if pons.target_nodes is None else round(pons.target_nodes),
            ]
        )
        time_table.rows.append(
            [
                pons.name,
                round(result.seconds / count * 1000, 3),
                round(result.slowest * 1000, 1),
                round(pons.pons_seconds * 1000, 3),
                round(result.nodes / max(result.seconds, 1e-9)),
                round(result.nodes / max(result.cpu_seconds, 1e-9)),
                "-" if pons.target_seconds is None else round(pons.target_seconds * 1000),
            ]
        )
    python_set = next(s for s in SETS if s.name == PYTHON_KERNEL_SET)
    python_sample = PYTHON_KERNEL_SAMPLE[1] if quick else PYTHON_KERNEL_SAMPLE[0]
    python = solve_set(
        Connect4Solver(Connect4(), native=False, book=False),
        python_set,
        read_set(folder / python_set.file, python_sample),
    )
    time_table.rows.append(
        [
            f"{python_set.name} (Python)",
            round(python.seconds / python_sample * 1000, 3),
            round(python.slowest * 1000, 1),
            round(python_set.pons_seconds * 1000, 3),
            round(python.nodes / max(python.seconds, 1e-9)),
            round(python.nodes / max(python.cpu_seconds, 1e-9)),
            "-",
        ]
    )
    total_nodes = sum(r.nodes for r in results)
    total_seconds = sum(r.seconds for r in results)
    total_cpu = sum(r.cpu_seconds for r in results)
    rate = total_nodes / max(total_seconds, 1e-9)
    nodes_table.notes += [
        "sample: the first N positions of each file; the transposition table is emptied before each position",
        "Pons: his C++ solver (strong mode, no opening book); Begin-Hard: his mean over the first 200",
        "target: exact on every position and mean nodes within 2x Pons' (for the whole sets)",
        f"data: {folder}",
    ]
    time_table.notes += [
        "kernel: compiled by numba (7x6 fits it); (Python): the pure Python kernel, which boards over 62 bits use,"
        f" on the first {python_sample} positions",
        f"all sets: {total_nodes:,} nodes in {total_seconds:.1f} s = {rate:,.0f} nodes/s "
        f"(target {NODES_PER_SECOND_TARGET:,}); {total_nodes / max(total_cpu, 1e-9):,.0f} per CPU second",
        "CPU n/s: nodes per processor second of this process, which other programs' load does not lower;"
        " Pons' C++ runs at about 8-10 M nodes/s",
        "targets missed: " + (", ".join(m for r in results for m in missed(r, rate)) or "none"),
    ]
    return [nodes_table, time_table]


def missed(result: SetResult, rate: float) -> list[str]:
    """The targets ``result`` misses, each as ``set: what``."""
    pons = result.pons
    count = result.positions
    found = []
    if result.correct < count:
        found.append(f"{pons.name}: {count - result.correct} wrong scores")
    if pons.target_nodes is not None and result.nodes / count > pons.target_nodes:
        found.append(f"{pons.name}: {result.nodes / count:,.0f} nodes > {pons.target_nodes:,.0f}")
    if pons.target_seconds is not None and result.seconds / count > pons.target_seconds:
        found.append(f"{pons.name}: {result.seconds / count * 1000:,.0f} ms > {pons.target_seconds * 1000:,.0f} ms")
    return found
