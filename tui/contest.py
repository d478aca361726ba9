"""Agents searching under budgets, as the play and compare screens drive them; no Textual here.

An agent's turn is a ``Session`` (the explorer's searcher-with-a-lock) on the position to
play, stepped in frames by a search thread until the agent's budget is spent: a number of
moves (the session's move budget, never exceeded) or a number of seconds of **search
time** (``Stats.seconds``, the time spent inside ``step``), so showing the tree between
frames does not eat into an agent's time.  The turn ends with a ``Decision`` as the arena's
agents make it (the searcher's best move, or ``fallback_move`` when it has none).

Several sessions on one position move in **lockstep** on the budget (moves, or seconds of
search time): after every lockstep step, and after every increment of a run to the budget,
each has spent the same budget, up to the cost of one step it could not afford.  A lockstep
step is one step of the session that has spent least; the others then catch up with it, step
by step, to what it has spent (a step that would go past that is not taken).

The bodies of the screens' search threads are built here (``turn_job``, ``Lockstep``), as
``Session.drive`` is the explorer's: how a thread paces its frames is no screen's business.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from plyscope.engine.agents import Agent, Decision, fallback_move
from plyscope.engine.analysis import ColumnScores, ScoresSnapshot
from plyscope.engine.errors import UserError
from plyscope.engine.exact import Exact
from plyscope.engine.game_record import Controller, parse_controller
from plyscope.engine.games import Game, State
from plyscope.engine.search.base import Limit, Node, Stats, Step
from plyscope.engine.search.registry import AgentSpec, fitting_algorithms
from plyscope.tui.session import FRAME_SECONDS, PREFERRED_ALGORITHMS, Batch, Deliver, Job, SearchConfig, Session

LOCKSTEP_ROUNDS = 25
"""Increments a lockstep run is cut into: each is 1/25 of the budget."""
MAX_COMPARED = 4
"""Agents compared side by side at most."""
TURN_FRAME_SECONDS = 0.1
"""Search between two repaints of an agent's turn shown live: the tree moves ten times a second, and
most of the time goes to the search rather than to repainting it (the explorer's frames are shorter)."""
ANALYSIS_REPORT_SECONDS = 0.5
"""Longest time between two reports of the solver's progress."""


def agent_session(agent: Agent, state: State, seed: int) -> Session:
    """A session of ``agent``'s searcher on ``state``, with the agent's move budget (if it has one)."""
    searcher = agent.spec.make(state, seed=seed)
    config = SearchConfig(
        game=state.game.name,
        position=state.text(),
        algorithm=agent.spec.name,
        params=dict(agent.spec.params),
        seed=seed,
        budget=agent.limit.moves,
    )
    return Session(config, state, searcher)


def think(
    session: Session,
    seconds: float | None,
    deliver: Callable[[Batch], None],
    stop: threading.Event,
    frame: float = FRAME_SECONDS,
) -> None:
    """Step ``session`` flat out until its move budget, ``seconds`` more of search time, the end, or ``stop``.

    Runs in a search thread; the batch of every ``frame`` seconds of search goes to ``deliver``
    (which may wait for the UI).
    """
    stats = session.searcher.stats
    until = None if seconds is None else stats.seconds + seconds
    while not stop.is_set():
        deadline = time.perf_counter() + frame
        if until is not None:
            if stats.seconds >= until:
                return
            deadline = min(deadline, time.perf_counter() + until - stats.seconds)
        batch = session.take(None, deadline, stop)
        if batch.steps:
            deliver(batch)
        if batch.ended:
            return


def turn_job(
    session: Session, seconds: float | None, live: Callable[[], bool], decided: Callable[[Decision], object]
) -> Job:
    """The thread of an agent's turn: ``think`` (to the session's move budget, or ``seconds`` of search), each
    frame delivered while ``live()`` (read every frame), then, unless stopped, ``decided`` with its move."""

    def job(deliver: Deliver, stop: threading.Event) -> None:
        def frame(batch: Batch) -> None:
            if live():
                deliver([(session, batch)])

        think(session, seconds, frame, stop, TURN_FRAME_SECONDS)
        if not stop.is_set():
            decided(decide(session))

    return job


def analysis_refusal(state: State, exact: Exact) -> str | None:
    """Why the board cannot show the exact score of each of ``state``'s moves (``None``: it can): its game needs exact
    values (``Exact.refusal``); every board view draws them its own way."""
    return exact.refusal(state.game)


def analyse(
    state: State, report: Callable[[ScoresSnapshot], object], stop: threading.Event, exact: Exact | None = None
) -> None:
    """Solve ``state``'s moves a slice at a time (in a thread) through ``exact`` (``None``: a door of its own),
    reporting at the start, each time a move is solved, at the end, and at least every ``ANALYSIS_REPORT_SECONDS`` in
    between (for the nodes spent)."""
    scores = ColumnScores(state, exact)
    report(scores.snapshot())
    reported = time.perf_counter()
    while not scores.done and not stop.is_set():
        solved = scores.advance() is not None
        if solved or scores.done or time.perf_counter() - reported >= ANALYSIS_REPORT_SECONDS:
            report(scores.snapshot())
            reported = time.perf_counter()


def decide(session: Session) -> Decision:
    """The move ``session``'s searcher would play now (``fallback_move`` if it has none), and what it spent."""
    with session.lock:
        best = session.searcher.best_move()
        stats = replace(session.searcher.stats)
    if best is None:
        return Decision(fallback_move(session.state), True, stats)
    return Decision(best, False, stats)


def default_rival(state: State, spec: AgentSpec) -> str:
    """The first preferred algorithm (the explorer's order) that differs from ``spec``'s and plays the game."""
    fitting = [info.name for info in fitting_algorithms(state.game.name)]
    return next(name for name in (*PREFERRED_ALGORITHMS, *fitting) if name in fitting and name != spec.name)


def compared_agents(texts: Sequence[str], total: Limit, game: Game) -> list[Agent]:
    """Two to four agents for a comparison, all with the budget ``total``; repeated specs are numbered ``#2``..."""
    if not 2 <= len(texts) <= MAX_COMPARED:
        raise UserError(f"compare takes 2 to {MAX_COMPARED} agents, not {len(texts)}")
    agents: list[Agent] = []
    for text in texts:
        if not text.strip():
            raise UserError("an agent is written NAME or NAME:KEY=VALUE,... (e.g. mcts:k=32); it cannot be blank")
        agent = parse_controller(text, total, game)
        if agent is None:
            raise UserError("compare is for agents: play against one with plyscope play")
        if agent.limit != total:
            raise UserError(
                f"agent '{text}': compared agents share one budget (--moves or --seconds); drop its moves= or seconds="
            )
        taken = sum(1 for other in agents if other.spec == agent.spec)
        agents.append(Agent(agent.spec, total, f"{agent.label} #{taken + 1}") if taken else agent)
    return agents


def parse_sides(text: str, limit: Limit, game: Game) -> tuple[Controller, Controller]:
    """The two sides of ``FIRST vs SECOND`` (each ``human`` or an agent; ``limit``: an agent's budget when its
    text gives none); a ``UserError`` saying what is wrong."""
    if not text:
        raise UserError("type the sides")
    parts = re.split(r"\s+vs\s+", text)
    if len(parts) != 2:
        raise UserError("write the two sides as FIRST vs SECOND, e.g. human vs mcts:k=32,moves=2000")
    first, second = (parse_controller(part, limit, game) for part in parts)
    return first, second


def compared_with(label: str, rivals: str, total: Limit, game: Game) -> list[Agent]:
    """The agent ``label`` and the one to three agents typed in ``rivals`` (``mcts alphabeta``) for a comparison."""
    if not rivals:
        raise UserError("name one to three agents to compare with, e.g. mcts alphabeta")
    return compared_agents([label, *rivals.split()], total, game)


def spent(stats: Stats, limit: Limit) -> float:
    """What a search has spent in the unit of ``limit``: moves, or seconds of search time."""
    return stats.seconds if limit.seconds is not None else stats.moves


def step_together(sessions: Sequence[Session], total: Limit, stop: threading.Event | None = None) -> list[Batch]:
    """One lockstep step: the session that has spent least takes a step, and every other catches up with it.

    Returns one batch per session (empty for those that did nothing).  A session whose next step would
    go past the ``total`` budget (or past what the stepping session has spent) does not take it; when no
    session can step any more, every batch is empty.
    """
    batches = [Batch(0, None, (), session.ended) for session in sessions]
    order = sorted(range(len(sessions)), key=lambda index: spent(sessions[index].searcher.stats, total))
    for leader in order:
        session = sessions[leader]
        if total.moves is not None:
            session.set_budget(total.moves)
        batch = session.take(1)
        if batch.steps:
            batches[leader] = batch
            break
    else:
        return batches
    target = spent(sessions[leader].searcher.stats, total)
    for index, session in enumerate(sessions):
        if index != leader:
            batches[index] = _catch_up(session, target, total, stop)
    return batches


def _catch_up(session: Session, target: float, total: Limit, stop: threading.Event | None) -> Batch:
    """Step ``session`` until it has spent ``target`` (moves: never past it; seconds: up to one step past)."""
    if total.moves is not None:
        session.set_budget(math.floor(target))
        return session.take(None, stop=stop)
    taken: list[Batch] = []
    while spent(session.searcher.stats, total) < target and not (stop is not None and stop.is_set()):
        batch = session.take(1)
        if not batch.steps:
            break
        taken.append(batch)
    return merge(taken, session.ended)


class LockstepQueue:
    """Lockstep steps asked for by the step keys and not taken yet, taken in order by one search thread.

    The UI thread ``ask``s; a key pressed while steps are being taken adds its steps to those (as the
    explorer queues its step keys) instead of cancelling them.  ``take`` is the search thread's loop.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        """Guards ``_asked`` and ``_taking``, which the UI thread and the search thread both change."""
        self._asked = 0
        """Steps asked for and not taken yet."""
        self._taking = False
        """Whether a search thread is taking them (it ends when none are left)."""

    def ask(self, count: int) -> bool:
        """Add ``count`` steps; ``True`` when no thread is taking steps, so the caller starts one on ``take``."""
        with self._lock:
            self._asked += count
            start = not self._taking
            self._taking = True
            return start

    def clear(self) -> None:
        """Forget the steps asked for (the thread taking them was stopped, or is being stopped)."""
        with self._lock:
            self._asked = 0
            self._taking = False

    def take(
        self,
        sessions: Sequence[Session],
        total: Limit,
        deliver: Callable[[list[Batch]], None],
        stop: threading.Event,
    ) -> None:
        """The search thread: lockstep steps one at a time while any are asked for (more may be asked meanwhile),
        each frame's batches (one per session) given to ``deliver``, until none are left, no session can step, or
        ``stop``."""
        pending: list[list[Batch]] = [[] for _ in sessions]
        frame_end = time.perf_counter() + FRAME_SECONDS
        while True:
            with self._lock:
                if stop.is_set():
                    return
                asked = self._asked > 0
                if asked:
                    self._asked -= 1
                elif not any(pending):
                    self._taking = False
                    return
            finished = False
            if asked:
                batches = step_together(sessions, total, stop)
                for kept, batch in zip(pending, batches, strict=True):
                    kept.append(batch)
                finished = not any(batch.steps for batch in batches)
            if finished or not asked or time.perf_counter() >= frame_end:
                deliver([merge(kept, session.ended) for kept, session in zip(pending, sessions, strict=True)])
                pending = [[] for _ in sessions]
                frame_end = time.perf_counter() + FRAME_SECONDS
            if finished:
                with self._lock:
                    if not stop.is_set():  # no session can step: what was asked beyond is not taken
                        self._asked = 0
                        self._taking = False
                return


class Lockstep:
    """Compared sessions moved in lockstep on the ``total`` budget, and the search threads that move them: the
    step keys' (``LockstepQueue``) and a run to the budget (``run_together``), each frame's batches delivered
    with their sessions."""

    def __init__(self, sessions: Sequence[Session], total: Limit) -> None:
        self.sessions = list(sessions)
        self.total = total
        self.queue = LockstepQueue()

    @property
    def ended(self) -> bool:
        """Whether no session can step any more (each has spent its budget, or finished)."""
        return all(session.ended for session in self.sessions)

    def steps(self, count: int) -> Job | None:
        """Ask for ``count`` lockstep steps: the thread to take them, or ``None`` when one is taking steps already
        (it takes these after those)."""
        if not self.queue.ask(count):
            return None
        return lambda deliver, stop: self.queue.take(self.sessions, self.total, self._paired(deliver), stop)

    def run(self) -> Job:
        """The thread that runs every session to the budget in equal increments."""
        return lambda deliver, stop: run_together(self.sessions, self.total, self._paired(deliver), stop)

    def _paired(self, deliver: Deliver) -> Callable[[list[Batch]], None]:
        """``deliver`` for batches given one per session, in the sessions' order."""
        return lambda batches: deliver(list(zip(self.sessions, batches, strict=True)))


def run_together(
    sessions: Sequence[Session],
    total: Limit,
    deliver: Callable[[list[Batch]], None],
    stop: threading.Event,
    rounds: int = LOCKSTEP_ROUNDS,
) -> None:
    """Run every session to the ``total`` budget (moves, or seconds of search time) in ``rounds`` equal increments.

    Runs in a search thread; after each increment the batches of all sessions (one each, merged over the
    increment) go to ``deliver``.  Sessions already past an increment's target wait for the others.
    """
    for round_number in range(1, rounds + 1):
        batches = []
        for session in sessions:
            if stop.is_set():
                return
            if total.seconds is not None:
                target = total.seconds * round_number / rounds
                left = target - session.searcher.stats.seconds
                batches.append(_run_for(session, left, stop))
            else:
                assert total.moves is not None
                session.set_budget(math.ceil(total.moves * round_number / rounds))
                batches.append(_run_for(session, None, stop))
        deliver(batches)


def _run_for(session: Session, seconds: float | None, stop: threading.Event) -> Batch:
    """Step ``session`` to its move budget (or for ``seconds`` of search time) and merge its batches into one."""
    merged: list[Batch] = []
    if seconds is None or seconds > 0:
        think(session, seconds, merged.append, stop)
    return merge(merged, session.ended)


def merge(batches: Sequence[Batch], ended: bool) -> Batch:
    """Consecutive batches of one session as one (the last step's marks, every node changed once)."""
    changed: dict[int, Node] = {}
    last: Step[Node] | None = None
    for batch in batches:
        for node in batch.changed:
            changed[id(node)] = node
        last = batch.last or last
    return Batch(sum(b.steps for b in batches), last, tuple(changed.values()), ended)
