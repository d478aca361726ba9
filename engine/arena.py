"""Games between agents: openings, schedules, results, statistics, and where the games run.

**Schedule.**  Every pair of agents (one pair: a head-to-head; more: a round robin) plays
every opening twice, once with each agent moving first.  The games are listed opening by
opening, so that a run stopped early has played each pair about equally.

**Openings.**  ``all2`` is every sequence of two legal moves from the start that leaves the
game open: the 49 of 7x6 Connect Four (7 first moves x 7 replies, as in Rivest's Table 2).
A number ``N`` is ``N`` of those, drawn at random without replacement with the run's seed
(and listed in the ``all2`` order), so a quick run still samples the whole range.

**Seeds.**  Each game's seed is drawn by ``numpy.random.SeedSequence`` from the run's seed,
the group (e.g. the bound of Rivest's experiment), the pairing, the opening and which agent
moves first; each turn's searcher is seeded from the game's seed and the ply.  A game is
therefore a pure function of its ``GameTask``: the same anywhere it runs (with budgets in
moves; budgets in seconds depend on the machine's speed).

**Chance** (Connect Four with chance).  Nature's moves are drawn from the game's ``dice``
seed, which leaves out who moves first: both games of an opening pair (colours swapped) get
the same draw at the same ply, so a lucky slip helps each agent once.  An opening's discs land
where they are aimed.

**Results** are from the point of view of the agent named first in a pairing.  A game in
which an agent raises (or proposes an illegal move) is recorded with ``result = "error"``
and the message; it counts for neither side: it is left out of wins, draws, losses, the
score and the Elo difference, and shown in a column of its own.

**Statistics.**  Score = (wins + draws / 2) / games.  Its 95% interval is Wilson's score
interval on that score with ``games`` trials (draws counted as half a win), which stays
inside [0, 1] and is not empty at 0 or 1.  Elo difference = -400 log10(1 / score - 1)
(infinite at 0 and 1); its interval is the image of the score's interval.
"""

from __future__ import annotations

import ctypes
import importlib
import json
import math
import multiprocessing
import os
import re
import signal
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass, field
from itertools import islice
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np

from engine.agents import Agent, Decision
from engine.errors import UserError
from engine.files import write_atomic
from engine.games import Connect4, Game, Move, State, is_chance, make_game
from engine.numbers import NumberError, parse_int, shown
from engine.search.base import SearchError

Z95 = NormalDist().inv_cdf(0.975)
"""The normal quantile of a two-sided 95% interval: 1.95996..."""

SEED_MASK = (1 << 63) - 1
"""Seeds are kept to 63 bits, so that any consumer taking a signed 64-bit int accepts them."""

RESULTS = ("first", "second", "draw", "error")
"""A game's ``result``: who won (by colour), a draw, or an error (counted for nobody)."""


# --- openings ----------------------------------------------------------------------------


def two_move_openings(game: Game) -> list[tuple[Move, ...]]:
    """Every sequence of two legal moves from ``game``'s start that leaves the game open (in a game with
    chance, two turns whose discs land where they are aimed: choice, landing, choice, landing)."""
    start = game.start()
    openings: list[tuple[Move, ...]] = []
    for first in start.legal_moves():
        first_turn, after_first = _turn(start, first)
        for second in after_first.legal_moves():
            second_turn, after_second = _turn(after_first, second)
            if not after_second.is_terminal():
                openings.append(first_turn + second_turn)
    return openings


def _turn(state: State, move: Move) -> tuple[tuple[Move, ...], State]:
    """``move`` and, if it leads to a chance node, the outcome a draw of 0 picks (the column aimed at)."""
    after = state.play(move)
    if not is_chance(after):
        return (move,), after
    landing = after.outcome_for(0.0)
    return (move, landing), after.play(landing)


def select_openings(game: Game, text: str, seed: int) -> list[tuple[Move, ...]]:
    """The openings ``--openings text`` names: ``all2``, or a number of them drawn with ``seed``."""
    every = two_move_openings(game)
    choice = text.strip().lower()
    if choice == "all2":
        return every
    try:
        count = parse_int(choice, "--openings", lo=1, hi=len(every))
    except NumberError:
        raise UserError(f"--openings '{shown(text)}': use all2 or a number from 1 to {len(every)}") from None
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    chosen = sorted(int(i) for i in rng.choice(len(every), size=count, replace=False))
    return [every[i] for i in chosen]


def spell(state: State, moves: Sequence[Move]) -> str:
    """``moves`` played from ``state`` as text: a Pons move string for Connect Four, labels otherwise."""
    labels = []
    for move in moves:
        labels.append(state.move_label(move))
        state = state.play(move)
    return ("" if isinstance(state.game, Connect4) else " ").join(labels)


# --- schedule and seeds --------------------------------------------------------------------


def _derive_seed(entropy: int, key: Sequence[int]) -> int:
    state = np.random.SeedSequence(entropy, spawn_key=tuple(key)).generate_state(1, np.uint64)
    return int(state[0]) & SEED_MASK


def game_seed(seed: int, group: int, pairing: tuple[int, int], opening: int, first: int) -> int:
    """The seed of one game: from the run's ``seed``, the group's and opening's indices, the
    pairing (indices of its two agents) and the index of the agent moving first."""
    return _derive_seed(seed, (group, *pairing, opening, first))


def turn_seed(seed: int, ply: int) -> int:
    """The seed of the searcher that moves at ``ply`` in the game seeded ``seed``."""
    return _derive_seed(seed, (ply,))


def dice_seed(seed: int, group: int, pairing: tuple[int, int], opening: int) -> int:
    """The seed of nature's moves in both games of one opening and pairing (colours swapped)."""
    return _derive_seed(seed, (group, *pairing, opening))


def chance_draw(dice: int, ply: int) -> float:
    """The uniform draw in [0, 1) that picks nature's move at ``ply`` in the games with ``dice`` seed."""
    return (_derive_seed(dice, (ply,)) >> 10) / 2**53


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game to play: everything a worker needs, and nothing else (it is pickled)."""

    index: int
    """Position in the schedule; records are reported in this order."""
    game: str
    """The game's name for ``make_game``."""
    group: str
    """What the game belongs to beyond its agents (e.g. ``1000 moves`` in Rivest's experiment)."""
    first: Agent
    second: Agent
    opening: tuple[Move, ...]
    seed: int
    dice: int = 0
    """The seed of nature's moves (games with chance): the same for both games of a pair."""


def schedule(
    game: Game,
    agents: Sequence[Agent],
    openings: Sequence[tuple[Move, ...]],
    seed: int,
    *,
    group: str = "",
    group_index: int = 0,
    start_index: int = 0,
) -> list[GameTask]:
    """Every pair of ``agents`` on every opening, twice (colours swapped), opening by opening."""
    tasks: list[GameTask] = []
    pairings = [(i, j) for i in range(len(agents)) for j in range(i + 1, len(agents))]
    for opening_index, opening in enumerate(openings):
        for pairing in pairings:
            for first, second in (pairing, pairing[::-1]):
                tasks.append(GameTask(
                    index=start_index + len(tasks),
                    game=game.name,
                    group=group,
                    first=agents[first],
                    second=agents[second],
                    opening=tuple(opening),
                    seed=game_seed(seed, group_index, pairing, opening_index, first),
                    dice=dice_seed(seed, group_index, pairing, opening_index),
                ))
    return tasks


# --- one game ------------------------------------------------------------------------------


@dataclass(slots=True)
class SideStats:
    """What one agent spent over one game, summed over its turns."""

    turns: int = 0
    fallbacks: int = 0
    """Turns where the searcher proposed no move and the agent played its fallback move."""
    moves: int = 0
    """Calls to the move operator by the searches (``Stats.moves``)."""
    playout_moves: int = 0
    nodes: int = 0
    """Nodes in the turn's tree at the end of each turn, summed."""
    seconds: float = 0.0
    """Time spent in the searches."""

    def add(self, decision: Decision) -> None:
        self.turns += 1
        self.fallbacks += decision.fallback
        self.moves += decision.stats.moves
        self.playout_moves += decision.stats.playout_moves
        self.nodes += decision.stats.nodes
        self.seconds += decision.stats.seconds


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game played (or stopped by an error), with its agents' names by colour."""

    index: int
    group: str
    first: str
    """The name of the agent that moved first (after the opening, too: openings have two moves)."""
    second: str
    opening: str
    seed: int
    moves: str
    """The whole game from the start, opening included (a Pons move string for Connect Four)."""
    result: str
    """One of ``RESULTS``: ``first``, ``second``, ``draw`` or ``error``."""
    error: str | None = None
    """``Type: message`` of what went wrong, for ``result == "error"``."""
    error_agent: str | None = None
    """The name of the agent whose turn raised (``None`` if the game could not run at all)."""
    first_stats: SideStats = field(default_factory=SideStats)
    second_stats: SideStats = field(default_factory=SideStats)

    def winner(self) -> str | None:
        """The winning agent's name (``None`` for a draw or an error)."""
        return {"first": self.first, "second": self.second}.get(self.result)

    def as_dict(self) -> dict[str, object]:
        data = asdict(self)
        data["stats"] = {"first": data.pop("first_stats"), "second": data.pop("second_stats")}
        return data


def play_game(task: GameTask) -> GameRecord:
    """Play ``task`` to its end; an agent that raises ends the game as an ``error`` record."""
    start: State = make_game(task.game).start()
    opening = spell(start, task.opening)
    state = start
    for move in task.opening:
        state = state.play(move)
    sides = {1: (task.first, SideStats()), -1: (task.second, SideStats())}
    played = list(task.opening)
    result = "error"
    error: str | None = None
    error_agent: str | None = None
    try:
        while not state.is_terminal():
            if is_chance(state):
                outcome = state.outcome_for(chance_draw(task.dice, state.ply))
                played.append(outcome)
                state = state.play(outcome)
                continue
            agent, stats = sides[state.player]
            decision = agent.decide(state, turn_seed(task.seed, state.ply))
            if decision.move not in state.legal_moves():
                raise SearchError(f"{agent.label} chose {decision.move!r}, which is not a legal move")
            stats.add(decision)
            played.append(decision.move)
            state = state.play(decision.move)
        result = {1: "first", -1: "second", 0: "draw"}[state.utility()]
    except Exception as raised:
        error = f"{type(raised).__name__}: {raised}"
        error_agent = sides[state.player][0].label if state.player in sides else None
    return GameRecord(
        index=task.index, group=task.group, first=task.first.label, second=task.second.label,
        opening=opening, seed=task.seed, moves=spell(start, played), result=result,
        error=error, error_agent=error_agent, first_stats=sides[1][1], second_stats=sides[-1][1],
    )


# --- statistics ----------------------------------------------------------------------------


def wilson_interval(score: float, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a success rate ``score`` over ``games`` trials."""
    if games <= 0:
        raise ValueError("an interval needs at least one game")
    spread = z * z / games
    centre = (score + spread / 2) / (1 + spread)
    half = z / (1 + spread) * math.sqrt(score * (1 - score) / games + spread / (4 * games))
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_difference(score: float) -> float:
    """The Elo difference that predicts ``score`` for the stronger side: -400 log10(1/score - 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


@dataclass(frozen=True, slots=True)
class Tally:
    """Games of ``agent`` against ``opponent`` (every opponent if empty), from ``agent``'s point of view."""

    agent: str
    opponent: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    errors: int = 0
    """Games stopped by an error: counted in no other field."""

    @property
    def games(self) -> int:
        """Games that count: wins, draws and losses."""
        return self.wins + self.draws + self.losses

    def score(self) -> float | None:
        """(wins + draws / 2) / games; ``None`` with no game."""
        return (self.wins + self.draws / 2) / self.games if self.games else None

    def interval(self) -> tuple[float, float] | None:
        """The score's 95% Wilson interval."""
        score = self.score()
        return None if score is None else wilson_interval(score, self.games)

    def elo(self) -> float | None:
        score = self.score()
        return None if score is None else elo_difference(score)

    def elo_interval(self) -> tuple[float, float] | None:
        interval = self.interval()
        return None if interval is None else (elo_difference(interval[0]), elo_difference(interval[1]))

    def as_dict(self) -> dict[str, object]:
        """The tally for JSON: Elo values that are infinite (a score of 0 or 1) are written ``null``."""
        return {
            "agent": self.agent, "opponent": self.opponent or None, "games": self.games,
            "wins": self.wins, "draws": self.draws, "losses": self.losses, "errors": self.errors,
            "score": self.score(), "score_95": _finite(self.interval()),
            "elo": _finite(self.elo()), "elo_95": _finite(self.elo_interval()),
        }


def _finite(value: float | tuple[float, float] | None) -> object:
    if isinstance(value, tuple):
        return [_finite(v) for v in value]
    return value if value is None or math.isfinite(value) else None


def tally(records: Sequence[GameRecord], agent: str, opponent: str = "", group: str | None = None) -> Tally:
    """``agent``'s games against ``opponent`` (every opponent if empty), in ``group`` (any if ``None``)."""
    counts = {"win": 0, "draw": 0, "loss": 0, "error": 0}
    for record in records:
        if group is not None and record.group != group:
            continue
        if agent == record.first:
            other = record.second
        elif agent == record.second:
            other = record.first
        else:
            continue
        if opponent and other != opponent:
            continue
        if record.result in ("error", "draw"):
            counts[record.result] += 1
        else:
            counts["win" if record.winner() == agent else "loss"] += 1
    return Tally(agent, opponent, counts["win"], counts["draw"], counts["loss"], counts["error"])


def pairing_tallies(records: Sequence[GameRecord], names: Sequence[str], group: str | None = None) -> list[Tally]:
    """One tally per pair of ``names`` (in their order), from the first-named agent's point of view."""
    return [
        tally(records, names[i], names[j], group) for i in range(len(names)) for j in range(i + 1, len(names))
    ]


def summary(records: Sequence[GameRecord], names: Sequence[str]) -> dict[str, object]:
    """Pairings and (for a round robin) each agent's standing over all its games, for JSON."""
    return {
        "pairings": [t.as_dict() for t in pairing_tallies(records, names)],
        "standings": [tally(records, name).as_dict() for name in names],
    }


# --- running many games --------------------------------------------------------------------


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
) -> RunOutcome:
    """Play ``tasks`` in this process (``executor=None``) or on ``executor``, ``in_flight`` at a time.

    ``on_game`` is called in this process after each game.  A ``KeyboardInterrupt`` (Ctrl-C,
    or raised by ``on_game``) stops the run: finished games are kept, the others cancelled and a
    local pool's processes stopped.  When a worker process of a ``GamePool`` dies (killed, out of
    memory), no finished game is lost: the pool starts afresh and the games that were running
    are played again, each at most ``MAX_WORKER_DEATHS`` times before it is recorded as an error.
    """
    finished: list[GameRecord] = []
    pending: dict[Future[GameRecord], GameTask] = {}
    deaths: dict[int, int] = {}
    """Per task index, how many worker processes died while it was running."""
    interrupted = False

    def finish(record: GameRecord) -> None:
        finished.append(record)
        if on_game is not None:
            on_game(record)

    try:
        if executor is None:
            for task in tasks:
                finish(play_game(task))
        else:
            queue = iter(tasks)
            for task in islice(queue, max(1, in_flight)):
                pending[executor.submit(play_game, task)] = task
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                if isinstance(executor, GamePool) and any(_died(future) for future in done):
                    wait(pending)  # every game of the dead pool ends now: finished, or failed with it
                    done = set(pending)
                    executor.respawn()
                again: list[GameTask] = []
                for future in done:
                    task = pending.pop(future)
                    if isinstance(executor, GamePool) and _died(future):
                        deaths[task.index] = deaths.get(task.index, 0) + 1
                        if deaths[task.index] < MAX_WORKER_DEATHS:
                            again.append(task)
                            continue
                    finish(_outcome(future, task, deaths.get(task.index, 0)))
                for task in [*again, *islice(queue, len(done) - len(again))]:
                    pending[executor.submit(play_game, task)] = task
    except KeyboardInterrupt:
        interrupted = True
        for future in pending:
            future.cancel()
        if isinstance(executor, GamePool):
            executor.stop_now()
        elif executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
    return RunOutcome(sorted(finished, key=lambda r: r.index), interrupted)


MAX_WORKER_DEATHS = 3
"""Times a game is started again after the worker process running it died, before it is recorded as an error."""


def _died(future: Future[GameRecord]) -> bool:
    """Whether ``future``'s game ended because its worker process died (its pool is broken)."""
    return not future.cancelled() and isinstance(future.exception(), BrokenExecutor)


def _outcome(future: Future[GameRecord], task: GameTask, deaths: int = 0) -> GameRecord:
    """The record of a finished future; a game its worker could not run is an ``error`` record."""
    try:
        return future.result()
    except Exception as error:  # a worker that died, a task that did not pickle, a lost Dask worker...
        if isinstance(error, BrokenExecutor):
            message = (f"WorkerDied: the worker process playing this game died {deaths} times (killed, or out "
                       "of memory)")
        else:
            message = f"the game could not run: {type(error).__name__}: {error}"
        return GameRecord(
            index=task.index, group=task.group, first=task.first.label, second=task.second.label,
            opening=spell(make_game(task.game).start(), task.opening), seed=task.seed, moves="",
            result="error", error=message,
        )


def _worker_setup(parent: int) -> None:
    """In each worker process: leave Ctrl-C to the parent, and end with it, even when it is SIGKILLed.

    On Linux the kernel sends SIGKILL to the worker when the parent dies (``PR_SET_PDEATHSIG``);
    everywhere, a watchdog thread exits when the parent is gone (its pid is no longer the
    parent's), so no worker plays on as an orphan.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(ORPHAN_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


PR_SET_PDEATHSIG = 1
"""``prctl`` option: the signal a process gets when its parent dies (Linux)."""
ORPHAN_CHECK_SECONDS = 1.0
"""How often a worker checks that the arena process still runs."""


class GamePool(Executor):
    """Local worker processes for games, each ending with the arena process; started afresh when one dies."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool = self._start()

    def _start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(max_workers=self.workers, initializer=_worker_setup, initargs=(os.getpid(),))

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return self._pool.submit(fn, *args, **kwargs)

    def respawn(self) -> None:
        """A worker died and the pool with it: let the old pool go and start a fresh one."""
        broken = self._pool
        self._pool = self._start()
        broken.shutdown(wait=False, cancel_futures=True)

    def stop_now(self) -> None:
        """Cancel what waits and stop the worker processes at once (Ctrl-C)."""
        self._pool.shutdown(wait=False, cancel_futures=True)
        for child in multiprocessing.active_children():
            child.terminate()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)


@contextmanager
def open_executor(workers: int, scheduler: str | None = None) -> Iterator[tuple[Executor | None, int]]:
    """Where the games run, and how many to keep in flight there.

    ``scheduler``: an existing Dask cluster (``tcp://HOST:PORT``) through its client's
    executor.  Otherwise ``workers`` local processes (``workers == 1``: this process, no pool).
    """
    if workers < 1:
        raise UserError(f"workers must be 1 or more, not {workers}")
    if scheduler:
        with _dask_executor(scheduler) as opened:
            yield opened
    elif workers == 1:
        yield None, 1
    else:
        pool = GamePool(workers)
        try:
            yield pool, 2 * workers
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


CONNECT_SECONDS = 5.0
"""How long ``--scheduler`` waits for a TCP connection to the scheduler."""
HANDSHAKE_SECONDS = 3.0
"""How long it then waits for the scheduler's first message (a Dask scheduler speaks first)."""


def check_scheduler(address: str) -> None:
    """Raise ``UserError`` in one line unless a Dask scheduler answers at the TCP ``address`` (``tcp://HOST:PORT``).

    Dask's client, pointed at something else (an HTTP server, say), reads that server's bytes as
    message lengths and may try to allocate exabytes; so this connects first and reads the first
    bytes itself.  A Dask scheduler sends a handshake as soon as a connection is open: a message
    of 8 bytes of total length, 8 of frame count, then the frames' lengths and the frames.
    """
    if re.match(r"(tls|inproc|ws|wss|ucx)://", address):
        return  # Dask's other transports (an in-process cluster, TLS...): left to Dask's own checks
    match = re.fullmatch(r"tcp://([^:/\s]+|\[[0-9a-fA-F:.]+\]):([0-9]{1,5})", address.strip())
    if match is None or not 1 <= int(match.group(2)) <= 65535:
        raise UserError(f"--scheduler '{shown(address, 60)}': write the address as tcp://HOST:PORT, e.g. "
                        "tcp://127.0.0.1:8786")
    host, port = match.group(1).strip("[]"), int(match.group(2))
    try:
        connection = socket.create_connection((host, port), timeout=CONNECT_SECONDS)
    except TimeoutError:
        raise UserError(f"--scheduler {address}: no answer within {CONNECT_SECONDS:g} s") from None
    except OSError as error:
        raise UserError(f"--scheduler {address}: cannot connect ({error.strerror or error})") from None
    first = b""
    with connection:
        connection.settimeout(HANDSHAKE_SECONDS)
        try:
            while len(first) < 16:
                received = connection.recv(16 - len(first))
                if not received:
                    break
                first += received
        except TimeoutError:
            raise UserError(f"--scheduler {address}: connected, but no Dask handshake came within "
                            f"{HANDSHAKE_SECONDS:g} s: something else listens there") from None
        except OSError as error:
            raise UserError(f"--scheduler {address}: the connection failed ({error.strerror or error})") from None
    if len(first) < 16:
        raise UserError(f"--scheduler {address}: the connection closed without a Dask handshake: not a Dask scheduler")
    total, frames = struct.unpack("<QQ", first)
    if not (16 <= total <= 1 << 20 and 1 <= frames <= 64):
        raise UserError(f"--scheduler {address}: something answers there, but not like a Dask scheduler")


@contextmanager
def _dask_executor(address: str) -> Iterator[tuple[Executor, int]]:
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise UserError(
            "--scheduler needs Dask distributed, an optional dependency: pip install 'plyscope[cluster]'"
        ) from None
    check_scheduler(address)
    try:
        client = distributed.Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as error:
        raise UserError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    try:
        threads = sum(client.nthreads().values())
        executor = client.get_executor(pure=False)
        try:
            yield executor, max(2, 2 * threads)
        finally:
            executor.shutdown(wait=False)
    finally:
        client.close()


# --- results file --------------------------------------------------------------------------


def results_document(
    meta: Mapping[str, object], records: Sequence[GameRecord], planned: int, interrupted: bool,
    summary_of: Callable[[Sequence[GameRecord]], object],
) -> dict[str, object]:
    """The JSON document of a run: ``meta`` (the command's settings), progress, games, summary."""
    return {
        **meta,
        "games_planned": planned,
        "games_played": len(records),
        "complete": len(records) == planned,
        "interrupted": interrupted,
        "games": [r.as_dict() for r in records],
        "summary": summary_of(records),
    }


def write_json_atomic(path: Path, document: object) -> None:
    """Write ``document`` to ``path`` so that a reader sees the old file or the new one, never half."""
    write_atomic(path, json.dumps(document, indent=1, allow_nan=False) + "\n")
