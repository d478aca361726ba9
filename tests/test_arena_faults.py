"""The arena under faults: out of memory, Ctrl-C sent to it alone at any moment, and numba compiling on a first run.

Each fault runs in a process of its own (``tests/fault_runs.py``): an address space limit, a SIGINT to one process.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from plyscope.engine import numba_cache
from plyscope.engine.agents import Agent
from plyscope.engine.arena.schedule import schedule
from plyscope.engine.compiled import base
from plyscope.engine.compiled.base import CompiledSearch
from plyscope.engine.kits import make_game
from plyscope.engine.search import registry
from plyscope.engine.search.base import Limit
from plyscope.engine.search.registry import AgentSpec
from plyscope.tui.cli import main
from plyscope.tui.commands import arena

ROOT = Path(__file__).resolve().parents[1]
LINUX = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the address space from Linux's /proc")


def fault_run(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tests.fault_runs", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


# --- out of memory (issue 36, item 21) --------------------------------------------------------------------------

HOG = "pns:moves=100000000"
"""An agent whose first turn fills any memory left (proof-number search, a Python tree; its node cap is far above
what the limit leaves)."""
HEADROOM = 60_000_000
"""Bytes of address space the run may take beyond its modules and numba's machine code: a few seconds of the hog's
tree (measured: the limit holds after 1 to 3 s of search; the arena's own work needs a small part of it)."""


@LINUX
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_game_that_runs_out_of_memory_is_that_game_s_error_and_the_run_goes_on(workers: str, tmp_path: Path) -> None:
    """Two quick games, then two the hog plays: each of these is recorded as its own error once its tree is freed,
    the quick games are kept, the table is printed, and the run ends as a run does (exit 0, no traceback).  With
    ``--workers 1`` the games run in the arena's own process, which ran out of memory itself."""
    out = tmp_path / "games.json"
    agents = ["minimax:depth=1", "minimax:depth=2", HOG]
    ran = fault_run(
        *("limited", str(HEADROOM), "arena", "--agents", *agents, "--tournament", "gauntlet", "--openings", "1"),
        *("--workers", workers, "--truth-nodes", "0", "--out", str(out)),
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert "Traceback" not in ran.stderr + ran.stdout and "internal error" not in ran.stderr
    games = json.loads(out.read_text())["games"]
    assert [game["result"] != "error" for game in games] == [True, True, False, False]
    assert all(game["error"] == "MemoryError: out of memory" for game in games[2:])
    assert ran.stdout.startswith("Score of minimax:depth=1 vs minimax:depth=2: ")
    assert ran.stdout.count(f"{HOG}: MemoryError: out of memory") == 2


def test_a_memory_error_outside_a_game_frees_what_it_held_before_it_is_reported(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A ``MemoryError`` outside a game ends the command in one line, once the memory the failed work held is free
    (the frames of its traceback cleared: here, a buffer its frame held), so that saying it needs no memory of its
    own."""
    from plyscope.engine import memory

    freed: list[bool] = []

    def hoarding(_: object) -> int:
        hoard = bytearray(1000)  # what the failed work held, in its frame
        if hoard:
            raise MemoryError
        return 0

    def recover(error: BaseException) -> None:
        frames = []
        entry = error.__traceback__
        while entry is not None:
            frames.append(entry.tb_frame)
            entry = entry.tb_next
        memory_recover(error)
        freed.append(all("hoard" not in frame.f_locals for frame in frames))

    memory_recover = memory.recover
    monkeypatch.setattr(memory, "recover", recover)
    monkeypatch.setenv("PLYSCOPE_CRASH_DIR", str(tmp_path))
    monkeypatch.setattr(arena, "run", hoarding)
    assert main(["arena", "--agents", "minimax:depth=1", "minimax:depth=2"]) == 1
    assert freed == [True]
    assert capsys.readouterr().err == "plyscope arena: out of memory (MemoryError)\n"


# --- Ctrl-C sent to the arena process alone (issue 36, item 12) -------------------------------------------------

SHORT_ARENA = ["arena", "--agents", "minimax:depth=1", "mcts:k=2", "--moves", "200", "--openings", "1"]
"""A run of two games, about half a second with two worker processes (``mcts:k=2``: no compiled twin)."""
INTERRUPTED = re.compile(r"plyscope( arena)?: interrupted\n")


def interrupted_runs(*argv: str) -> Iterator[dict[str, object]]:
    ran = fault_run("interrupted", *argv)
    assert ran.returncode == 0, ran.stderr[-3000:]
    for line in ran.stdout.splitlines():
        yield json.loads(line)


def check_interrupted(run: dict[str, object]) -> None:
    """A run sent SIGINT: exit status 130, no traceback, and every game it says finished in its results file."""
    output = run["output"]
    assert isinstance(output, str)
    if run["status"] == 0:  # (the signal came as the process was leaving, past its last handler: the run was over)
        assert "results written to" in output and "interrupted" not in output, run
        return
    assert run["status"] == 130, run
    assert not re.search(r"Traceback|Error|Exception", output), output
    said = re.search(r"interrupted: (\d+) of \d+ games finished", output)
    if said is not None:
        assert run["games"] == int(said[1]), output
    else:  # interrupted before the games, or after the table: one line says so
        assert INTERRUPTED.search(output), output


@pytest.mark.parametrize("workers", ["2", "1"])
def test_ctrl_c_to_the_arena_alone_at_any_moment_is_one_line_exit_130_and_keeps_its_games(workers: str) -> None:
    """SIGINT sent to the arena process alone (its workers go on until it stops them), at 10 moments drawn over the
    whole of a run, its start and its end included: each run ends with status 130 and no traceback, and its results
    file holds every game it says finished.  (Once seen in a fault suite: ``OSError: [Errno 9] Bad file
    descriptor`` from the worker pool's threads, when the pool's shutdown was cut short.)"""
    runs = list(interrupted_runs("36", "10", *SHORT_ARENA, "--workers", workers))
    assert len(runs) == 10
    for run in runs:
        if run["sent"]:  # (not sent: the run was over before its moment, as a run's length varies with the load)
            check_interrupted(run)
    assert sum(bool(run["sent"]) for run in runs) >= 3


MOMENTS = (
    "loading",
    "turns-read",
    "game-finished",
    "stopping",
    "pool-shutdown",
    "joining",
    "bar-closing",
    "final-save",
)
"""``tests.fault_runs.POKES``: as the compiled searchers load, as the workers' turn reports are read, as a game
finishes (and again with the pool's thread slow to close its pipes as it stops: ``tests.fault_runs.poke_closing``),
and after the last game: as the pool shuts down, while it waits for its thread to close its pipes (made slow), as
the bar closes, as the results file is saved."""


@pytest.fixture(scope="module")
def poked() -> dict[str, dict[str, object]]:
    """A run sent SIGINT at each of ``MOMENTS``, by moment."""
    runs = interrupted_runs("poke", ",".join(MOMENTS), *SHORT_ARENA, "--workers", "2")
    return {str(run["moment"]): run for run in runs}


@pytest.mark.parametrize("moment", MOMENTS)
def test_ctrl_c_at_each_moment_of_a_run_keeps_the_games_finished(
    moment: str, poked: dict[str, dict[str, object]]
) -> None:
    """SIGINT at moments too brief to hit by chance: each time status 130, no traceback, and the games finished are
    in the file (after the last game, all of them: a Ctrl-C there lost every game before).  While the pool's thread
    closes its pipes, the exit must wait for it: racing it, the exit wrote ``OSError: handle is closed``, or ``[Errno
    9] Bad file descriptor``, in a traceback."""
    run = poked[moment]
    check_interrupted(run)
    if moment in ("pool-shutdown", "joining", "bar-closing", "final-save"):
        assert run["games"] == 2


# --- numba compiling on a first run (issue 36, item 11) -----------------------------------------------------------


def test_the_first_run_says_it_compiles_the_searchers_and_the_solver_and_later_runs_do_not(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With numba's cache empty of them (no stamps), the arena says it compiles the searchers and the solver that
    judges the moves, once, before the games and the bar; the next run finds them (the stamps, beside numba's
    entries) and says nothing."""
    monkeypatch.setattr(numba_cache, "cache_dir", lambda: tmp_path)
    argv = ["arena", "--agents", "alphabeta", "minimax:depth=1", "--openings", "1", "--moves", "100", "--workers", "1"]
    said_first = arena.COMPILING.format(what="the searchers and the solver", seconds=18, folder=tmp_path)
    for run in range(2):
        monkeypatch.setattr(base, "_loaded", set())  # a fresh process
        assert main(argv) == 0
        err = capsys.readouterr().err
        assert [line for line in err.splitlines() if "compiling" in line] == ([said_first] if run == 0 else [])
        if run == 0:
            assert err.index("compiling") < err.index("100 moves per turn"), "said before the games begin"
    assert sorted(path.name.split("-")[1] for path in tmp_path.glob("plyscope-*.loaded")) == ["searchers", "solver"]


def test_only_agents_with_a_compiled_twin_load_the_compiled_searchers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Agents without a twin (best-first, MCTS with k > 1) or told not to use it (``--no-compiled``) load nothing,
    and say nothing about compiling."""
    loaded: list[object] = []
    monkeypatch.setattr(registry, "load_twins", lambda: loaded.append("twins"))
    game = make_game("connect4")
    for texts, compiled in ((["bestfirst", "mcts:k=2"], True), (["alphabeta", "rivest"], False)):
        agents = arena.make_agents(texts, Limit(moves=10), game, compiled=compiled)
        arena.load_compiled(schedule(game, agents, [()], 0))
    assert loaded == []
    mixed = arena.make_agents(["bestfirst", "rivest"], Limit(moves=10), game)
    arena.load_compiled(schedule(game, mixed, [()], 0))
    assert len(loaded) == 1


class FakeClock:
    """A clock that moves only when told: 60 s while the kernels load, nothing while the search runs."""

    def __init__(self) -> None:
        self.now = 1000.0

    def perf_counter(self) -> float:
        return self.now

    def load(self, kind: type[CompiledSearch]) -> None:
        self.now += 60.0


def test_a_turn_s_clock_is_not_charged_with_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernels load (compiling on a first run) before a turn's search starts its clock: a turn whose kernels
    took 60 s to load searched for 0 s by its clock, and a seconds budget is all the search's."""
    clock = FakeClock()
    monkeypatch.setattr(CompiledSearch, "load", classmethod(clock.load))
    monkeypatch.setattr(base, "time", clock)
    agent = Agent(AgentSpec.parse("alphabeta"), Limit(moves=500))
    decision = agent.decide(make_game("connect4").parse("4453"), seed=0)
    assert clock.now == 1060.0 and decision.stats.seconds == 0.0 and decision.stats.moves == 500


# --- numba's cache folder (issue 36, item 11) ---------------------------------------------------------------------

KERNEL = textwrap.dedent(
    """
    import os
    import plyscope.engine.compiled  # sets numba's cache folder
    from numba import njit

    @njit(cache=True)
    def twice(x):
        return 2 * x

    assert twice(21) == 42
    print(os.environ["NUMBA_CACHE_DIR"])
    """
)


@pytest.mark.parametrize("chosen", [False, True])
def test_numba_keeps_plyscope_s_machine_code_in_the_user_cache_or_where_numba_cache_dir_says(
    chosen: bool, tmp_path: Path
) -> None:
    """In plyscope's user cache folder (``XDG_CACHE_HOME`` on Linux), not beside the source (which may be read-only),
    unless ``NUMBA_CACHE_DIR`` names a folder, which is then used as it is."""
    source = tmp_path / "source"
    source.mkdir()
    (source / "kernel.py").write_text(KERNEL)
    environment = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    environment["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    expected = tmp_path / "cache" / "plyscope" / "numba"
    if chosen:
        expected = tmp_path / "chosen"
        environment["NUMBA_CACHE_DIR"] = str(expected)
    ran = subprocess.run(
        [sys.executable, "kernel.py"], cwd=source, env=environment, capture_output=True, text=True, timeout=120
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == str(expected)
    assert list(expected.rglob("kernel.twice-*.nbi")), "numba's index of the compiled function"
    assert not (source / "__pycache__").exists() or not list((source / "__pycache__").glob("*.nbi"))
