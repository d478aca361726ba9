"""Many games: in this process, in local worker processes (``GamePool``) or on a Dask cluster (``cluster``).

``run_games`` keeps every finished game whatever happens to the others: a Ctrl-C, an SPRT that
decided, a worker process that died (the games it was running are played again on a fresh
pool).  The pool's workers end with the arena process (``plyscope.engine.processes.end_with_parent``).
``run_tasks`` is the same for any task and result that carry an ``index`` (``plyscope study``'s searches).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from itertools import islice
from multiprocessing.connection import Connection
from typing import ParamSpec, Protocol, TypeVar

from plyscope.engine.arena.cluster import dask_executor
from plyscope.engine.arena.play import TurnReport, play_game
from plyscope.engine.arena.records import GameRecord
from plyscope.engine.arena.schedule import GameTask
from plyscope.engine.errors import UserError
from plyscope.engine.games.notation import spell
from plyscope.engine.kits import make_game
from plyscope.engine.processes import end_with_parent, interrupts_held

Progress = Callable[[Sequence[TurnReport]], None]
"""Told of the turns begun since it was last told (``run_games``; possibly none)."""
PROGRESS_SECONDS = 0.5
"""How often ``run_games`` passes on the turns its worker processes report."""
_worker_turns: Connection[TurnReport, TurnReport] | None = None
"""In a ``GamePool`` worker: the pipe end its games report each turn to (``_play_in_worker``; ``None`` elsewhere)."""


class Indexed(Protocol):
    """A task, or its result: ``index`` is the task's place in its schedule."""

    @property
    def index(self) -> int: ...


T = TypeVar("T", bound=Indexed)
"""A task."""
R = TypeVar("R", bound=Indexed)
"""A finished task's result."""
P = ParamSpec("P")
"""The parameters of a function a ``GamePool`` runs."""
V = TypeVar("V")
"""What a function a ``GamePool`` runs returns."""
Perform = Callable[[T, Callable[[TurnReport], None] | None], R]
"""Runs a task (in a worker, or here), telling the callable given (if any) of each turn it begins: a module's
function, so that it pickles to worker processes."""
Failed = Callable[[T, str], R]
"""The result of a task that could not run (a worker died, the task did not pickle...), with the reason."""


def _run_in_worker(perform: Perform[T, R], task: T) -> R:
    """``perform`` as ``run_tasks`` sends it out: in a ``GamePool`` worker, each turn reported to the arena
    process; on a Dask worker, to nobody."""
    return perform(task, None if _worker_turns is None else _report_turn)


def _report_turn(report: TurnReport) -> None:
    """Tell the arena process of a turn begun; dropped if the pipe is full (progress only: no worker waits for a
    reader)."""
    assert _worker_turns is not None
    with suppress(BlockingIOError):
        _worker_turns.send(report)


@dataclass(frozen=True, slots=True)
class RunOutcome:
    records: list[GameRecord]
    """Every finished game, in schedule order."""
    interrupted: bool
    """True when a ``KeyboardInterrupt`` stopped the run (games then running are lost)."""


def run_games(
    tasks: Sequence[GameTask],
    executor: Executor | None = None,
    *,
    in_flight: int = 1,
    on_game: Callable[[GameRecord], None] | None = None,
    enough: Callable[[], bool] | None = None,
    progress: Progress | None = None,
) -> RunOutcome:
    """Play ``tasks`` in this process (``executor=None``) or on ``executor``, ``in_flight`` at a time
    (``run_tasks``: ``on_game`` after each game; a game that could not run is an ``error`` record)."""
    records, interrupted = run_tasks(
        tasks,
        play_game,
        _error_record,
        executor,
        in_flight=in_flight,
        on_done=on_game,
        enough=enough,
        progress=progress,
    )
    return RunOutcome(records, interrupted)


def run_tasks(
    tasks: Sequence[T],
    perform: Perform[T, R],
    failed: Failed[T, R],
    executor: Executor | None = None,
    *,
    in_flight: int = 1,
    on_done: Callable[[R], None] | None = None,
    enough: Callable[[], bool] | None = None,
    progress: Progress | None = None,
) -> tuple[list[R], bool]:
    """Run ``tasks`` with ``perform`` in this process (``executor=None``) or on ``executor``, ``in_flight`` at a
    time: every result, in schedule order, and whether a ``KeyboardInterrupt`` stopped the run (tasks then running
    are lost).

    ``progress`` hears of every turn as it begins (in this process, at once; from a ``GamePool``, every
    ``PROGRESS_SECONDS``, even when there is nothing new; a Dask cluster reports only finished tasks).

    ``on_done`` is called in this process after each task, then ``enough``: when it says so (an
    SPRT decided), the run ends there, as it does on a ``KeyboardInterrupt`` (Ctrl-C, or raised
    by ``on_done``) but not interrupted: finished tasks are kept, the others cancelled and a
    local pool's processes stopped.  When a worker process of a ``GamePool`` dies (killed, out of
    memory), no finished task is lost: the pool starts afresh and the tasks that were running
    are run again, each at most ``MAX_WORKER_DEATHS`` times before ``failed`` makes its result.
    """
    finished: list[R] = []
    pending: dict[Future[R], T] = {}
    """The tasks sent out and not yet finished (cancelled if the run ends early)."""
    interrupted = False

    def finish(result: R) -> None:
        finished.append(result)
        if on_done is not None:
            on_done(result)
        if enough is not None and enough():
            raise _Enough

    try:
        if executor is None:
            for task in tasks:
                finish(perform(task, None if progress is None else lambda report: progress([report])))
        else:
            _run_on(executor, tasks, perform, failed, in_flight, pending, finish, progress)
    except (KeyboardInterrupt, _Enough) as stop:
        interrupted = isinstance(stop, KeyboardInterrupt)
        _stop(executor, pending)
    return sorted(finished, key=_index), interrupted


def _index(item: Indexed) -> int:
    return item.index


def _run_on(
    executor: Executor,
    tasks: Sequence[T],
    perform: Perform[T, R],
    failed: Failed[T, R],
    in_flight: int,
    pending: dict[Future[R], T],
    finish: Callable[[R], None],
    progress: Progress | None,
) -> None:
    """``run_tasks`` on ``executor``: ``tasks`` sent out ``in_flight`` at a time, each in ``pending`` while it
    runs, each result given to ``finish``; the tasks a ``GamePool`` lost with a dead worker run again."""
    deaths: dict[int, int] = {}
    """Per task index, how many worker processes died while it was running."""
    queue = iter(tasks)
    for task in islice(queue, max(1, in_flight)):
        pending[executor.submit(_run_in_worker, perform, task)] = task
    pool = executor if isinstance(executor, GamePool) else None
    while pending:
        done, _ = wait(pending, timeout=PROGRESS_SECONDS if pool is not None else None, return_when=FIRST_COMPLETED)
        if pool is not None:
            done = _pool_waited(pool, done, pending, progress)
        again = _finish_done(done, pending, deaths, finish, failed, pooled=pool is not None)
        for task in [*again, *islice(queue, len(done) - len(again))]:
            pending[executor.submit(_run_in_worker, perform, task)] = task
    if pool is not None and progress is not None:
        progress(pool.turns_reported())  # the last tasks' last turns, reported as they ended


def _pool_waited(
    pool: GamePool,
    done: set[Future[R]],
    pending: dict[Future[R], T],
    progress: Progress | None,
) -> set[Future[R]]:
    """After a wait on ``pool``: the turns its workers reported passed on to ``progress``; the tasks ``done``, or,
    when a worker died, every task ``pending`` (each finished, or failed with the pool) on a pool started afresh."""
    reports = pool.turns_reported()
    if progress is not None:
        progress(reports)
    if any(_died(future) for future in done):
        wait(pending)  # every task of the dead pool ends now: finished, or failed with it
        done = set(pending)
        pool.respawn()
    return done


def _finish_done(
    done: set[Future[R]],
    pending: dict[Future[R], T],
    deaths: dict[int, int],
    finish: Callable[[R], None],
    failed: Failed[T, R],
    *,
    pooled: bool,
) -> list[T]:
    """Take the tasks ``done`` out of ``pending`` and ``finish`` them; the tasks to run again (``pooled``: lost
    with a dead worker, fewer than ``MAX_WORKER_DEATHS`` times, counted in ``deaths``)."""
    again: list[T] = []
    for future in done:
        task = pending.pop(future)
        if pooled and _died(future):
            deaths[task.index] = deaths.get(task.index, 0) + 1
            if deaths[task.index] < MAX_WORKER_DEATHS:
                again.append(task)
                continue
        finish(_outcome(future, task, failed, deaths.get(task.index, 0)))
    return again


def _stop(executor: Executor | None, pending: dict[Future[R], T]) -> None:
    """End a run early: the tasks ``pending`` cancelled, a local pool's processes stopped."""
    for future in pending:
        future.cancel()
    if isinstance(executor, GamePool):
        executor.stop_now()
    elif executor is not None:
        executor.shutdown(wait=False, cancel_futures=True)


class _Enough(Exception):
    """``run_tasks``'s ``enough`` said so: the run ends early, and not by an interruption."""


MAX_WORKER_DEATHS = 3
"""Times a task is started again after the worker process running it died, before ``failed`` makes its result."""


def _died(future: Future[R]) -> bool:
    """Whether ``future``'s task ended because its worker process died (its pool is broken)."""
    return not future.cancelled() and isinstance(future.exception(), BrokenExecutor)


def _outcome(future: Future[R], task: T, failed: Failed[T, R], deaths: int = 0) -> R:
    """The result of a finished future; for a task its worker could not run, ``failed``'s."""
    try:
        return future.result()
    except Exception as error:  # a worker that died, a task that did not pickle, a lost Dask worker...
        if isinstance(error, BrokenExecutor):
            return failed(
                task, f"WorkerDied: the worker process running it died {deaths} times (killed, or out of memory)"
            )
        return failed(task, f"it could not run: {type(error).__name__}: {error}")


def _error_record(task: GameTask, message: str) -> GameRecord:
    """The ``error`` record of a game that could not run, saying why."""
    return GameRecord(
        index=task.index,
        group=task.group,
        first=task.first.label,
        second=task.second.label,
        opening=spell(make_game(task.game).start(), task.opening),
        seed=task.seed,
        moves="",
        result="error",
        error=message,
    )


def _worker_setup(parent: int, turns: Connection[TurnReport, TurnReport]) -> None:
    """In each worker process: leave Ctrl-C to the parent, and end with it, even when it is SIGKILLed; report
    every turn of its games to the pipe end ``turns``."""
    global _worker_turns
    _worker_turns = turns
    os.set_blocking(turns.fileno(), False)  # a full pipe drops a report rather than hold the worker (``_report_turn``)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C held back while the worker was forked is dropped here
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    end_with_parent(parent)


class GamePool(Executor):
    """Local worker processes for games, each ending with the arena process; started afresh when one dies."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._turns, self._reports = multiprocessing.Pipe(duplex=False)
        """Where the workers' reports of each turn they begin (``TurnReport``) are read, and written: each report is
        one write of a few bytes (atomic on a pipe, so no lock a killed worker could leave held), made before its
        game's result is sent, so that the reports of a finished game are all there to read."""
        self._pool = self._start()

    def _start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers, initializer=_worker_setup, initargs=(os.getpid(), self._reports)
        )

    def turns_reported(self) -> list[TurnReport]:
        """The turns the workers began since the last call."""
        reports: list[TurnReport] = []
        while self._turns.poll():
            reports.append(self._turns.recv())
        return reports

    def submit(self, fn: Callable[P, V], /, *args: P.args, **kwargs: P.kwargs) -> Future[V]:
        """Submit ``fn``; the pool forks its workers here, with Ctrl-C held back until the fork is over.

        A ``KeyboardInterrupt`` raised inside ``os.fork`` (in its after-fork hooks, such as the one that
        releases the logging module's lock) left that lock held and the arena hung on its way out; the
        worker inherits the blocked signal and ignores it (``_worker_setup``).
        """
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            return self._pool.submit(fn, *args, **kwargs)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def respawn(self) -> None:
        """A worker died and the pool with it: let the old pool go (its thread ended) and start a fresh one."""
        broken = self._pool
        self._pool = self._start()
        manager = _manager_thread(broken)
        broken.shutdown(wait=False, cancel_futures=True)
        if manager is not None:
            manager.join()

    def stop_now(self) -> None:
        """Cancel what waits and stop the worker processes at once (Ctrl-C), and wait for the pool's thread to end
        (``_manager_thread``); a Ctrl-C meanwhile is raised after."""
        with interrupts_held():
            manager = _manager_thread(self._pool)
            self._pool.shutdown(wait=False, cancel_futures=True)
            for child in multiprocessing.active_children():
                child.terminate()
            if manager is not None:
                manager.join()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """The pool's ``shutdown``, to its end: a Ctrl-C meanwhile is raised once the pool has wound down
        (``interrupts_held``)."""
        with interrupts_held():
            self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)


def _manager_thread(pool: ProcessPoolExecutor) -> threading.Thread | None:
    """The thread of ``pool`` that hands out its work, to wait for after a ``shutdown(wait=False)`` (which forgets it):
    it closes the pool's pipes as it ends, and if the interpreter exits meanwhile, its exit wakes that thread through
    them without a lock (Python 3.11's ``concurrent.futures.process._python_exit``): ``OSError: [Errno 9] Bad file
    descriptor`` in a traceback when the two meet.  ``None`` before the pool started one."""
    manager = getattr(pool, "_executor_manager_thread", None)
    return manager if isinstance(manager, threading.Thread) else None


@contextmanager
def open_executor(workers: int, scheduler: str | None = None) -> Iterator[tuple[Executor | None, int]]:
    """Where the games run, and how many to keep in flight there.

    ``scheduler``: an existing Dask cluster (``tcp://HOST:PORT``) through its client's
    executor.  Otherwise ``workers`` local processes (``workers == 1``: this process, no pool).
    """
    if workers < 1:
        raise UserError(f"workers must be 1 or more, not {workers}")
    if scheduler is not None:
        with dask_executor(scheduler) as opened:
            yield opened
    elif workers == 1:
        yield None, 1
    else:
        pool = GamePool(workers)
        try:
            yield pool, 2 * workers
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
