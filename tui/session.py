"""One searcher on one position, as the explorer drives it; no Textual here.

A ``Session`` owns a searcher and the lock that guards its tree: the search thread holds
the lock while it steps, the UI thread while it reads nodes.  ``Session.drive`` is the
body of the explorer's search thread: it takes steps in frames (at most ``FRAME_SECONDS``
of work each), paced to a rate when one is set, and hands each frame's ``Batch`` to the UI.
"""

from __future__ import annotations

import gc
import hashlib
import math
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from plyscope.engine.errors import UserError
from plyscope.engine.game_record import first_choice
from plyscope.engine.games import Game, Move, State
from plyscope.engine.kits import kit_of, make_game
from plyscope.engine.kits.base import EditableLeaf
from plyscope.engine.numbers import parse_seed, shown
from plyscope.engine.saved_tree import SavedTree
from plyscope.engine.search.base import NO_CHILDREN, Node, Phase, PhasedStep, Searcher, Step
from plyscope.engine.search.entry import AlgorithmInfo
from plyscope.engine.search.registry import AgentSpec, algorithm, algorithms, fitting_algorithms, make_searcher, plays
from plyscope.engine.search_file import SavedSearch, SearchRecipe, write_search
from plyscope.engine.timeline import Timeline
from plyscope.engine.travel import travel_of
from plyscope.engine.travel.replay import rebuild
from plyscope.tui.formatting import format_memory, verdict_words

PREFERRED_ALGORITHMS = ("rivest", "mcts", "bestfirst", "alphabeta", "minimax")
"""The explorer's default searcher: the first of these that is registered and fits the game."""

DEFAULT_BUDGET = 100_000
"""Moves (calls to ``State.play``) a new session may spend."""

FRAME_SECONDS = 1 / 60
"""The longest stretch of search between two hand-overs to the UI."""

FREEZE_NODES = 8192
"""Tree nodes a session grows between two ``freeze_young``: the cycle collector's walks stay this short."""

SPEEDS: tuple[float | None, ...] = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, None)
"""Rates ``Session.drive`` runs at, in steps per second; ``None`` runs flat out."""
DEFAULT_SPEED = 10
FILE_POSITION = 40
"""The most characters of a position a proposed file name holds (``file_position``)."""
WHERE_CHARACTERS = 100
"""The most characters of a position a status line shows (``named_position``): a whole Connect Four
move string on the largest board, 10x10; a longer hand-written tree is cut."""


def next_speed(speed: float | None, change: int) -> float | None:
    """The speed ``change`` places along ``SPEEDS`` from ``speed`` (kept within them)."""
    index = SPEEDS.index(speed) if speed in SPEEDS else SPEEDS.index(DEFAULT_SPEED)
    return SPEEDS[min(max(0, index + change), len(SPEEDS) - 1)]


def default_algorithm(game: Game) -> str:
    """The explorer's default algorithm for ``game`` (best-first searchers first)."""
    fitting = [name for name, info in algorithms().items() if plays(info, game)]
    for name in PREFERRED_ALGORITHMS:
        if name in fitting:
            return name
    if not fitting:
        raise UserError(f"no registered algorithm plays {game.name}")
    return fitting[0]


def default_budget(name: str | None) -> int:
    """The move budget a session of algorithm ``name`` starts with when none is given: the algorithm's own
    (``AlgorithmInfo.default_budget``: the solver's), else ``DEFAULT_BUDGET``."""
    info = algorithms().get(name or "")
    return DEFAULT_BUDGET if info is None or info.default_budget is None else info.default_budget


def named_position(text: str) -> str:
    """A position's text as a status line names it: as written, cut to ``WHERE_CHARACTERS`` (a
    hand-written tree's text can be long), or ``start`` when blank."""
    return shown(text, WHERE_CHARACTERS) if text else "start"


def file_position(text: str) -> str:
    """A position as a file name names it, to be typed in a shell unquoted: runs of characters other than letters,
    digits, ``.`` and ``_`` become one ``-`` (``3-4-5``, ``A-B-3-12-8-C-2-4-6-D-14-5-2``), ``start`` when blank; one
    longer than ``FILE_POSITION`` characters (a large hand-written tree) is cut, with a hash of the whole after it."""
    written = re.sub(r"[^A-Za-z0-9._]+", "-", text).strip("-") or "start"
    if len(written) <= FILE_POSITION:
        return written
    digest = hashlib.blake2s(text.encode(), digest_size=3).hexdigest()
    return f"{written[: FILE_POSITION - len(digest) - 1].rstrip('-')}-{digest}"


def parse_position(game: Game, text: str) -> State:
    """The position ``text`` of ``game``: a move string or piles; blank means the start, or in a game that starts
    with nature's move (OpenSpiel's backgammon) where a player first chooses (``first_choice``): nobody searches a
    chance node."""
    return game.parse(text) if text.strip() else first_choice(game)


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """Everything that defines a session: game, position, algorithm, parameters, seed and budget."""

    game: str = "connect4"
    """A name ``make_game`` takes (``connect4``, ``connect4:6x5``, ``grundy``, ``nim``...)."""
    position: str = ""
    """Move string (Connect Four) or piles (Nim); blank for the game's start."""
    algorithm: str | None = None
    """Registry name; ``None`` picks ``default_algorithm``."""
    params: Mapping[str, object] = field(default_factory=dict)
    """Parameter values (text or typed) overriding the registry defaults."""
    seed: int = 0
    budget: int | None = DEFAULT_BUDGET
    """Moves the search may spend; ``None`` for no bound."""
    node_cap: int | None = None
    """Nodes the tree may hold; ``None`` for the algorithm's default in the app (``AlgorithmInfo.ui_node_cap``:
    about 1 GB of the app's memory)."""

    def __post_init__(self) -> None:
        """Refuse, with a ``UserError``, a seed or a budget the command line would (a seed out of 0 to ``MAX_SEED``
        would fail later, in numpy's ``SeedSequence``, once a match drew its turns' seeds from it)."""
        object.__setattr__(self, "seed", parse_seed(self.seed, "seed"))
        if self.budget is not None and self.budget < 0:
            raise UserError(f"budget {self.budget} is negative: give a number of moves, 0 or more")

    def where(self) -> str:
        """The position as the status line names it (``named_position``)."""
        return named_position(self.position)

    def spec(self) -> AgentSpec:
        """The algorithm with its non-default parameters as an agent spec (``mcts:c=1.4``)."""
        return AgentSpec(self.algorithm or "?", dict(self.params))

    def label(self) -> str:
        """The algorithm with its non-default parameters, e.g. ``mcts:c=1.4``."""
        return self.spec().label()

    def with_algorithm(self, name: str | None) -> SearchConfig:
        """This configuration searching with ``name`` (``None``: the game's default) at its default parameters and
        node cap; a budget left at the old algorithm's default becomes the new one's (``default_budget``)."""
        budget = self.budget
        if budget == default_budget(self.algorithm):
            budget = default_budget(name)
        return replace(self, algorithm=name, params={}, node_cap=None, budget=budget)

    def with_game(self, name: str) -> SearchConfig:
        """This configuration on the start of game ``name``, with the game's default algorithm if this one does not
        play it."""
        config = replace(self, game=name, position="")
        fits = any(info.name == self.algorithm for info in fitting_algorithms(name))
        return config if fits else config.with_algorithm(None)


@dataclass(frozen=True, slots=True)
class Batch:
    """What some consecutive steps did, merged for one repaint."""

    steps: int
    """Steps taken."""
    last: Step[Node] | None
    """The last of them (its node and changes are the ones marked in the tree)."""
    changed: tuple[Node, ...]
    """Every node created or changed by these steps, once each (a node cut off among them: ``Node.cut_off``)."""
    ended: bool
    """True when the search can do nothing more: finished, the next step would exceed the budget, or the tree
    holds as many nodes as its cap allows."""
    rebuilt: bool = False
    """True when the session's searcher was replaced (a move along the timeline): show its tree afresh."""
    counted: int = 0
    """Of ``steps``, those ``Session.take`` counted against its ``count``: all, or under ``paced`` the ones that
    show something new (not ``Step.continues``)."""
    phase: Phase[Node] | None = None
    """In phase mode (``Session.take_phase``), the phase shown last: its path is marked in the tree, its sentence
    read in the guide, its line drawn on the board."""


Deliver = Callable[[Sequence[tuple["Session", Batch]]], None]
"""Hands batches (one per session stepped) to the screen and returns once they are painted."""
Job = Callable[[Deliver, threading.Event], None]
"""The body of a search thread (``SearchScreen.host``): steps sessions, delivers batches, stops when the event is
set."""


class ValueHistory:
    """Root values after each step, thinned to at most ``capacity`` samples evenly spread over the steps.

    ``values[i]`` is the value after step ``i * stride`` (values are from the first player's point of view).
    """

    def __init__(self, capacity: int = 256) -> None:
        self.capacity = capacity
        self.values: list[float] = []
        self.stride = 1
        self._seen = 0
        self._newest: float | None = None
        """The newest finite value when it is not a sample (``None`` when it is)."""

    def add(self, value: float) -> None:
        """Record the value after one more step; infinite values (proven results) are left out."""
        if math.isfinite(value):
            self._newest = value
            if self._seen % self.stride == 0:
                self._newest = None
                self.values.append(value)
                if len(self.values) > self.capacity:
                    if len(self.values) % 2 == 0:  # (the value just added is at an odd place: thinned out)
                        self._newest = value
                    self.values = self.values[::2]
                    self.stride *= 2
        self._seen += 1

    def shown(self) -> list[float]:
        """The samples, then the newest value if it is not one of them: what the stats draw, ending at the value
        now."""
        return self.values if self._newest is None else [*self.values, self._newest]


class RateMeter:
    """Steps per second over the last ``window`` seconds of a clock."""

    def __init__(self, clock: Callable[[], float], window: float = 1.0) -> None:
        self.clock = clock
        self.window = window
        self._samples: deque[tuple[float, int]] = deque()

    def add(self, total_steps: int) -> None:
        """Note that ``total_steps`` steps have been taken by now."""
        now = self.clock()
        self._samples.append((now, total_steps))
        while len(self._samples) > 2 and now - self._samples[1][0] >= self.window:
            self._samples.popleft()

    def rate(self) -> float | None:
        """Steps per second, or ``None`` before two samples far enough apart in time, or once the last
        sample is older than the window (the search has stopped stepping)."""
        if len(self._samples) < 2 or self.clock() - self._samples[-1][0] > self.window:
            return None
        (t0, s0), (t1, s1) = self._samples[0], self._samples[-1]
        return (s1 - s0) / (t1 - t0) if t1 > t0 else None

    def clear(self) -> None:
        self._samples.clear()


def freeze_young() -> None:
    """Collect the cycles made since the last freeze, then freeze what is left: the new tree nodes stay out of
    the collector's walks from now on (see ``Session``).  The collection walks only what is not frozen yet."""
    gc.collect()
    gc.freeze()


class Session:
    """A searcher on a root position, the budget it may spend and the root values it went through.

    Its tree is frozen (``freeze_young``) each time it has grown by ``FREEZE_NODES`` nodes: a
    tree of 10^5 nodes made every full run of the cycle collector walk it, pausing the UI
    100-400 ms while a search ran.  Frozen objects are never collected, so a new session first
    unfreezes them all: a tree that was let go (its nodes point at each other) is then freed by
    the next collection.  A freeze also keeps for ever what the screen held then and drops later
    in a cycle (Textual's rendered strips): frozen at every frame, that made a Rivest run in the
    explorer grow by 515 bytes a tree node instead of about 210.
    """

    def __init__(self, config: SearchConfig, state: State, searcher: Searcher[Node]) -> None:
        gc.unfreeze()
        self.config = config
        """The configuration, with the algorithm name resolved and the parameters checked."""
        self.state = state
        """The root position."""
        self.searcher = searcher
        self.lock = threading.RLock()
        """Held while the tree changes (by the search thread) or is read (by the UI)."""
        self.history = ValueHistory()
        self.history.add(searcher.value().first())
        self.ended = searcher.finished
        """True once a step was refused: finished, out of budget or at the node cap (until that is raised)."""
        self.timeline = Timeline()
        """Every step the search took, up to the newest (``searcher`` may show an earlier one)."""
        self.ahead: Searcher[Node] | None = None
        """While ``searcher`` shows a past step: a searcher kept further along the timeline, to go forward from
        (the newest search, or one taken back in place that can take its steps again); ``None``: none."""
        self._start_value = searcher.value().first()
        self.saved: SavedSearch | None = None
        """The saved search this session replays (its timeline is the saved one; its tree is rebuilt)."""
        self.opening = 0
        """Steps of the saved search ``open_saved`` has rebuilt so far."""
        self._opened = threading.Event()
        """Set once ``open_saved`` has ended (rebuilt and swapped in, or stopped)."""
        self._unfrozen = 0
        """Nodes the tree has grown by since the last ``freeze_young``."""
        self._dropped: list[Searcher[Node]] = []
        """Searchers this session let go (replaced along the timeline), whose trees the next search-thread job
        unlinks (``_unlink_dropped``)."""
        self._phased: PhasedStep[Node] | None = None
        """In phase mode, the step under way, told a phase at a time (``take_phase``); ``None`` between two steps."""
        self.phases_shown = 0
        """Phases of the step under way done so far (0 between two steps)."""

    @property
    def info(self) -> AlgorithmInfo:
        """The searcher's registry entry."""
        return algorithm(self.config.algorithm or "")

    @property
    def node_cap(self) -> int:
        """The most nodes the tree may hold: the configuration's cap, or the algorithm's default in the app."""
        cap = self.config.node_cap
        return self.info.ui_node_cap if cap is None else cap

    def stop_reason(self) -> str:
        """Why the search cannot go on: ``rebuilding`` (a saved search, shown as saved), ``finished``, ``cap``
        (the node cap), ``budget``; ``""`` while it can."""
        stats = self.searcher.stats
        budget = self.config.budget
        if self.as_saved:
            return "rebuilding"
        if self.searcher.finished:
            return "finished"
        if stats.nodes >= self.node_cap:
            return "cap"
        if self.ended or (budget is not None and stats.moves >= budget):
            return "budget"
        return ""

    def stop_words(self) -> tuple[str, str]:
        """Why the search cannot go on (``stop_reason``), for the status line and for a refused step (blank while it
        can)."""
        cap = f"{self.node_cap:,}"
        return {
            "rebuilding": (
                "■ the saved tree, as saved",
                "the saved search is being rebuilt (a few seconds): then s and r step it on",
            ),
            "finished": ("■ search finished", "the search is finished: x resets it, e changes it"),
            "cap": (f"■ node cap of {cap} reached (] raises it)", f"the tree holds {cap} nodes, its cap: ] raises it"),
            "budget": ("■ budget spent (] doubles it)", "the budget is spent: ] doubles it"),
        }.get(self.stop_reason(), ("", ""))

    @classmethod
    def create(cls, config: SearchConfig) -> Session:
        """A new session; raises a ``UserError`` naming the first thing wrong in ``config``."""
        game = make_game(config.game)
        state = parse_position(game, config.position)
        name = config.algorithm or default_algorithm(state.game)
        params = algorithm(name).validate(config.params)
        searcher = make_searcher(name, state, params, seed=config.seed)
        explicit = {key: value for key, value in params.items() if key in config.params}
        written = config.position or state.ply  # (a blank start past nature's first move is written out)
        resolved = replace(config, algorithm=name, params=explicit, position=state.text() if written else "")
        return cls(resolved, state, searcher)

    def renewed(self) -> Session:
        """A fresh session with the same configuration (the same seed gives the same tree)."""
        return Session.create(self.config)

    def after(self, move: Move) -> SearchConfig:
        """This configuration from the position after ``move``; a ``UserError`` if ``move`` cannot be played here
        (keys typed faster than the board is redrawn) or ends the game (nothing to search)."""
        state = self.state
        if move not in state.legal_moves():
            raise UserError(f"{state.move_label(move)} cannot be played here")
        after = state.play(move)
        winner = after.winner()
        if winner is not None:
            raise UserError(
                f"{state.move_label(move)} ends the game ({verdict_words(winner, winner)}): nothing to search"
            )
        return replace(self.config, position=after.text())

    def export_name(self) -> str:
        """The file the search shown is proposed to be written to: ``rivest-4453-step120.json`` (``file_position``)."""
        config = self.config
        return f"{config.algorithm}-{file_position(config.position)}-step{self.step_shown}.json"

    def timeline_target(self, where: str, shown: int) -> int | None:
        """The step ``where`` leads to from step ``shown``: ``back``, ``forward``, ``start``, ``newest``,
        ``previous-change`` or ``next-change`` (of the best move); ``None`` when there is none that way."""
        total = self.steps_taken
        changes = self.timeline.best_changes()
        return {
            "back": shown - 1 if shown > 0 else None,
            "forward": shown + 1 if shown < total else None,
            "start": 0 if shown > 0 else None,
            "newest": total if shown < total else None,
            "previous-change": max((c for c in changes if c < shown), default=None),
            "next-change": min((c for c in changes if c > shown), default=None),
        }[where]

    def replay_job(self, said: Callable[[str], object]) -> Job:
        """The thread that rebuilds the saved search this session replays (``open_saved``): it hands what the
        check found to ``said``, delivers the rebuilt tree if it is shown, then lets the saved rows go."""
        saved = self.saved
        assert saved is not None

        def job(deliver: Deliver, stop: threading.Event) -> None:
            opened = self.open_saved(stop)
            if opened is None:
                return
            batch, note = opened
            said(note)
            if batch is not None:
                deliver([(self, batch)])
            saved.let_go(stop)  # the rebuilt tree on the screen: the rows of the saved one are read no more

        return job

    @property
    def budget(self) -> int | None:
        return self.config.budget

    def set_budget(self, budget: int | None) -> None:
        """Change the move budget (it may let an ended search go on, or end one that has spent more)."""
        self.config = replace(self.config, budget=budget)
        self._recheck()

    def double_budget(self) -> str:
        """Double the move budget, or the node cap when that is what stopped the search; says what changed."""
        if self.stop_reason() == "cap":
            cap = self.node_cap * 2
            self.set_node_cap(cap)
            memory = format_memory(cap * self.info.ui_node_bytes)
            return f"node cap raised to {cap:,} nodes: this tree may take {memory} of memory"
        budget = self.config.budget
        self.set_budget(None if budget is None else budget * 2)
        return self.budget_note()

    def halve_budget(self) -> str:
        """Halve the move budget ("no bound" becomes the default budget); says what changed."""
        budget = self.config.budget
        self.set_budget(default_budget(self.config.algorithm) if budget is None else max(1, budget // 2))
        return self.budget_note()

    def budget_note(self) -> str:
        """The budget in words, and whether it is below what the search has spent already."""
        budget = self.config.budget
        if budget is None:
            return "budget: no bound"
        spent = self.searcher.stats.moves
        if spent > budget:
            return f"budget {budget:,} is below the {spent:,} moves spent: the search stays stopped (] raises it)"
        return f"budget: {budget:,} moves"

    def set_node_cap(self, cap: int) -> None:
        """Change the node cap (it may let a capped search go on)."""
        self.config = replace(self.config, node_cap=cap)
        self._recheck()

    def _recheck(self) -> None:
        spent = self.searcher.stats
        budget = self.config.budget
        self.ended = (
            self.as_saved
            or self.searcher.finished
            or spent.nodes >= self.node_cap
            or (budget is not None and spent.moves > budget)
        )

    def moves_left(self) -> int | None:
        budget = self.config.budget
        return None if budget is None else max(0, budget - self.searcher.stats.moves)

    def take(
        self,
        count: int | None,
        deadline: float | None = None,
        stop: threading.Event | None = None,
        *,
        paced: bool = False,
    ) -> Batch:
        """Up to ``count`` steps (``None``: no bound), stopping early at ``deadline`` (``perf_counter``) or ``stop``.

        ``paced``: count only the steps that show something new, as a run at a chosen speed does: a step that
        ``continues`` the work under way (a slice of the solver's probe) is taken without counting.
        """
        self._unlink_dropped()
        changed: dict[int, Node] = {}
        last: Step[Node] | None = None
        taken = 0
        counted = 0
        cap = self.node_cap
        with self.lock:
            finished = self.finish_phases()
            if finished is not None:
                taken = counted = 1
                last = finished
                changed.update((id(node), node) for node in (finished.node, *finished.changed, *finished.added))
            searcher = self.searcher
            nodes = searcher.stats.nodes
            while count is None or counted < count:
                if searcher.stats.nodes >= cap:
                    self.ended = True
                    break
                step = searcher.step(self.moves_left())
                if step is None:
                    self.ended = True
                    break
                taken += 1
                counted += not (paced and step.continues)
                last = step
                changed[id(step.node)] = step.node
                for node in step.changed:
                    changed[id(node)] = node
                for node in step.added:
                    changed[id(node)] = node
                self._note(step)
                if (stop is not None and stop.is_set()) or (deadline is not None and time.perf_counter() >= deadline):
                    break
            if searcher.finished:
                self.ended = True
            self._unfrozen += searcher.stats.nodes - nodes
        if self._unfrozen >= FREEZE_NODES:
            freeze_young()
            self._unfrozen = 0
        return Batch(taken, last, tuple(changed.values()), self.ended, counted=counted)

    # ----------------------------------------------------------------- phase mode

    def take_phase(self) -> Batch:
        """One phase of the step under way, or of a new step (phase mode): a batch of one step once its last phase is
        done, of none before, with the ``phase``; an empty batch when no step can be taken."""
        self._unlink_dropped()
        with self.lock:
            searcher = self.searcher
            if self._phased is None:
                if self.ended or searcher.stats.nodes >= self.node_cap:
                    self.ended = True
                    return Batch(0, None, (), True)
                self._phased = searcher.phased(self.moves_left())
                self.phases_shown = 0
            try:
                phase = next(self._phased)
            except StopIteration:  # (no step could be taken: nothing was done)
                self._phased = None
                self.ended = True
                return Batch(0, None, (), True)
            self.phases_shown += 1
            shown = (*phase.changed, *phase.added, *phase.path)
            if not phase.last:
                return Batch(0, None, tuple(dict.fromkeys(shown)), self.ended, phase=phase)
            step = self.finish_phases()
            assert step is not None
            if searcher.finished:
                self.ended = True
            return Batch(1, step, tuple(dict.fromkeys((*shown, *step.changed))), self.ended, counted=1, phase=phase)

    def finish_phases(self) -> Step[Node] | None:
        """Do what is left of the step under way in phase mode, and note it (call with the lock held): the step, or
        ``None`` if none was under way."""
        phased = self._phased
        if phased is None:
            return None
        self._phased = None
        self.phases_shown = 0
        while True:
            try:
                next(phased)
            except StopIteration as done:
                step: Step[Node] | None = done.value
                break
        if step is not None:
            self._note(step)
        return step

    def phase_back(self, stop: threading.Event | None = None) -> Batch | None:
        """Phase mode along the timeline: the search one phase back, into the step before when no phase of the step
        under way is shown (a step back, its phases taken again to the one before its last); ``None`` if ``stop``
        came first or at the start.  A step's end is told as its last phase, whichever way it is reached.  Runs in a
        search thread."""
        with self.lock:
            shown, step = self.phases_shown, self.step_shown
            self.finish_phases()
        if shown == 0:  # back into the step before: how many phases has it?
            if step == 0:
                return None
            step -= 1
            if self.go_to(step, stop) is None:
                return None
            shown = 1
            while not (batch := self.take_phase()).steps and batch.phase is not None:
                shown += 1
        if shown == 1 and step > 0:  # the end of the step before, told as its last phase (as going forward told it)
            return self._told_at(step - 1, None, stop)
        return self._told_at(step, shown - 1, stop)

    def _told_at(self, step: int, phases: int | None, stop: threading.Event | None) -> Batch | None:
        """The search at ``step`` and ``phases`` phases into the step after it (``None``: all of them, to its end), as
        a rebuilt batch told by the last phase taken (none: none); ``None`` if ``stop`` came first."""
        if self.go_to(step, stop) is None:
            return None
        phase = None
        while phases is None or phases > 0:
            batch = self.take_phase()
            if batch.phase is None:
                break
            phase = batch.phase
            if phases is None and batch.steps:
                break
            if phases is not None:
                phases -= 1
        return Batch(0, None, (), self.ended, rebuilt=True, phase=phase)

    # ----------------------------------------------------------------- the timeline

    @property
    def step_shown(self) -> int:
        """The step whose tree ``searcher`` holds (0: none taken yet)."""
        return self.searcher.stats.iterations

    @property
    def steps_taken(self) -> int:
        """The newest step of the search (the timeline's length)."""
        return len(self.timeline)

    @classmethod
    def replaying(cls, saved: SavedSearch) -> Session:
        """A session at the last step of ``saved``, holding its whole timeline.

        It shows the saved tree as saved (``SavedTree``: read-only, its nodes made as they are shown) until
        ``open_saved`` has rebuilt the search and checked it; ``go_to`` rebuilds any other step meanwhile."""
        recipe = saved.recipe
        session = cls.create(
            SearchConfig(
                game=recipe.game,
                position=recipe.position,
                algorithm=recipe.algorithm,
                params=dict(recipe.params),
                seed=recipe.seed,
                budget=recipe.budget,
            )
        )
        session.timeline = saved.timeline
        session.saved = saved
        session.searcher = SavedTree(saved, session.state, session.searcher.evaluator)
        for value in saved.timeline.values(saved.steps):
            session.history.add(value)
        session._recheck()
        gc.freeze()  # the file's millions of objects stay out of the collector's walks (see the class)
        return session

    @property
    def as_saved(self) -> bool:
        """Whether the tree shown is the saved one, as saved, while ``open_saved`` rebuilds the search."""
        return isinstance(self.searcher, SavedTree)

    def recipe(self) -> SearchRecipe:
        """What rebuilds this session's search, for a saved search."""
        config = self.config
        return SearchRecipe(
            config.game, config.position, config.algorithm or "", dict(config.params), config.seed, config.budget
        )

    def write(self, path: Path) -> str:
        """Write the search, as it stands at the step shown, to ``path`` (``.json`` or ``.dot``); says what it
        wrote.  Holds the lock while it reads the tree."""
        with self.lock:
            self.finish_phases()  # (a step half done is no step of the timeline)
            return write_search(path, self.recipe(), self.searcher, self.timeline.upto(self.step_shown))

    def open_saved(self, stop: threading.Event) -> tuple[Batch | None, str] | None:
        """Rebuild the saved search this session replays to its last step, check its tree against the saved one,
        and put it in the saved tree's place (shown or kept ahead): the batch to show (``None`` if the
        step shown is another), and what to say; ``None`` if ``stop`` came first.  Runs in a thread of its
        own: the rebuilt searcher is private until the swap, made under the lock."""
        saved = self.saved
        assert saved is not None
        try:
            return self._open_saved(saved, stop)
        finally:
            self._opened.set()

    def _open_saved(self, saved: SavedSearch, stop: threading.Event) -> tuple[Batch | None, str] | None:
        def progress(searcher: Searcher[Node]) -> None:
            self.opening = searcher.stats.iterations

        rebuilt = rebuild(self.fresh_searcher, saved.steps, stop, progress)
        if rebuilt is None:
            return None
        try:
            saved.check(rebuilt)
            said = f"replaying a saved search: {saved.steps:,} steps, rebuilt; the tree matches the saved one"
        except UserError as error:
            said = f"{error}: showing the tree this plyscope rebuilt"
        gc.freeze()  # the rebuilt tree stays out of the collector's walks (see the class)
        with self.lock:
            if stop.is_set():
                return None
            self.saved = None  # (its rows: ``SavedSearch.let_go`` once the screen no longer shows them)
            if self.ahead is not None and isinstance(self.ahead, SavedTree):
                self.ahead = rebuilt
                return None, said
            if not self.as_saved:
                return None, said
            self.searcher = rebuilt
            self._recheck()
            return Batch(0, None, (), self.ended, rebuilt=True), said

    def fresh_searcher(self) -> Searcher[Node]:
        """A new searcher of this session's configuration on its root (the same seed: the same steps)."""
        config = self.config
        return make_searcher(config.algorithm or "", self.state, config.params, seed=config.seed)

    def _note(self, step: Step[Node]) -> None:
        """Note the ``step`` the searcher just took (call with the lock held): its value in the history, and the step
        in the timeline if it is a new one; a step of the past retraced as far as the searcher kept ``ahead`` lets
        that one go (no use for it now)."""
        searcher = self.searcher
        value = searcher.value().first()
        self.history.add(value)
        if searcher.stats.iterations > len(self.timeline):
            self.timeline.record(step, searcher.best_move(), value)
        elif self.ahead is not None and searcher.stats.iterations >= self.ahead.stats.iterations:
            self._let_go(self.ahead)
            self.ahead = None

    def go_to(self, step: int, stop: threading.Event | None = None) -> Batch | None:
        """Make ``searcher`` the search as it was after ``step`` (clamped to the timeline); ``None`` if ``stop``
        came first.  Runs in a search thread.

        The searcher shown moves along its timeline its own way (``plyscope.engine.travel``), a slice at a time under
        the lock: back in place unless that costs more than a replay from the start (``Travel.cost``), forth taking
        again in place what it took back, and running on beyond.  A replay from the start (the way back of any
        searcher) runs a fresh searcher for ``step`` steps (the searchers are deterministic), outside the lock,
        and swaps it in, the one it replaces kept ``ahead`` if it is further along than the one kept (the newest
        search: going back to it is a swap).  Forward, the searcher kept ahead is swapped in if it is not beyond
        ``step``.
        """
        self._unlink_dropped()
        with self.lock:
            self.finish_phases()
        step = max(0, min(step, self.steps_taken))
        if self.as_saved and step > self.steps_taken - self.opening and not self._await_opening(stop):
            return None
        if step < self.step_shown and travel_of(self.searcher).cost(step) > step:  # a replay from the start is quicker
            if not self._replay_to(step, stop):
                return None
        elif step > self.step_shown:
            self._take_ahead(step)
        while self.step_shown != step:
            if stop is not None and stop.is_set():
                return None
            with self.lock:
                travel, shown = travel_of(self.searcher), self.step_shown
                reached = travel.back(step) if shown > step else travel.forth(step)
                if self.ahead is not None and reached >= self.ahead.stats.iterations:
                    self._let_go(self.ahead)
                    self.ahead = None
            if reached == shown:  # (a search that cannot go on)
                break
        with self.lock:
            self._restart_history()
            self._recheck()
            return Batch(0, None, (), self.ended, rebuilt=True)

    def _replay_to(self, step: int, stop: threading.Event | None) -> bool:
        """``go_to`` by a replay from the start: a fresh searcher run to ``step`` outside the lock, then swapped in,
        the one it replaces kept ``ahead`` if it is further along than the one kept; ``False`` if ``stop`` came
        first."""
        past = rebuild(self.fresh_searcher, step, stop)
        if past is None:
            return False
        gc.freeze()
        with self.lock:
            if stop is not None and stop.is_set():
                return False
            if self.ahead is None or self.step_shown > self.ahead.stats.iterations:
                self._let_go(self.ahead)
                self.ahead = self.searcher
            else:
                self._let_go(self.searcher)
            self.searcher = past
        return True

    def _take_ahead(self, step: int) -> None:
        """Going forward to ``step``: swap in the searcher kept ``ahead`` if it is beyond the one shown but not
        beyond ``step``."""
        ahead = self.ahead
        if ahead is not None and self.step_shown < ahead.stats.iterations <= step:
            with self.lock:
                self._let_go(self.searcher)
                self.searcher, self.ahead = ahead, None

    def _restart_history(self) -> None:
        """The value history afresh, up to the step shown (call with the lock held)."""
        self.history = ValueHistory()
        self.history.add(self._start_value)
        for value in self.timeline.values(self.step_shown):
            self.history.add(value)

    def _let_go(self, searcher: Searcher[Node] | None) -> None:
        """Note that ``searcher`` (call with the lock held) is this session's no more: neither shown nor kept ahead.

        Its tree was frozen (see the class), so the cycle collector would never free it (its nodes point at their
        parents): a minimax search went back and forth along its timeline left a whole tree behind each time.  A
        saved tree (its nodes made as they are shown, from rows let go apart) is left alone."""
        if searcher is not None and not isinstance(searcher, SavedTree):
            self._dropped.append(searcher)

    def _unlink_dropped(self) -> None:
        """Cut every node of the trees let go from its children, so that reference counting frees them, a node at a
        time.  Runs in a search thread, at the start of the job after the one that let them go: the screen has shown
        the searcher that replaced them by then (a pane still showing one would show its root's children as
        leaves)."""
        while self._dropped:
            stack = [self._dropped.pop().root]
            while stack:
                node = stack.pop()
                stack.extend(node.children)
                node.children = NO_CHILDREN

    def _await_opening(self, stop: threading.Event | None) -> bool:
        """Wait for ``open_saved`` to end (``False`` if ``stop`` came first).  A step of a saved search shown as
        saved, farther from the start than the rebuild under way is from its end, is reached sooner by taking the
        rebuilt search back in place than by a second replay from the start competing with the first."""
        while not self._opened.wait(0.05):
            if stop is not None and stop.is_set():
                return False
        return True

    def drive(
        self,
        steps: int | None,
        rate: Callable[[], float | None],
        deliver: Callable[[Batch], None],
        stop: threading.Event,
    ) -> None:
        """Take ``steps`` steps (``None``: until the search ends) at ``rate()`` steps a second (``None``: flat out).

        Runs in the search thread.  Each frame's batch goes to ``deliver``, which returns once the
        UI has shown it; ``stop`` ends the drive between two steps.  ``rate`` is read every frame,
        so a speed change takes effect at once.  At a rate, the steps that only continue the work
        under way (``Step.continues``: the solver's probe, a slice at a time) are not counted: they
        run flat out, and the rate paces the ones that show something new.
        """
        done = 0
        anchor_time = time.perf_counter()
        anchor_done = 0
        anchor_rate = rate()
        while not stop.is_set():
            now = time.perf_counter()
            per_second = rate()
            if per_second != anchor_rate:
                anchor_time, anchor_done, anchor_rate = now, done, per_second
            wanted = None if steps is None else steps - done
            if per_second is not None:
                due = int((now - anchor_time) * per_second) + 1 - (done - anchor_done)
                if due <= 0:
                    next_due = anchor_time + (done - anchor_done) / per_second
                    stop.wait(min(0.1, max(0.0, next_due - now)))
                    continue
                wanted = due if wanted is None else min(due, wanted)
            batch = self.take(wanted, now + FRAME_SECONDS, stop, paced=per_second is not None)
            done += batch.counted
            if batch.steps:
                deliver(batch)
            if batch.ended or (steps is not None and done >= steps):
                return

    def driving(self, steps: int | None, rate: Callable[[], float | None]) -> Job:
        """``drive`` as the job of a search thread (``SearchScreen.host``)."""
        return lambda deliver, stop: self.drive(steps, rate, lambda batch: deliver([(self, batch)]), stop)


class Exploration:
    """What the explorer searches and how it came there: its session, and the configurations before each move
    played on its board, which ``undo`` goes back to.  Each change builds the new session first: a ``UserError``
    (bad input, a move that ends the game) changes nothing."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.played: list[SearchConfig] = []
        """The configurations before each move played on the board, the last move's last."""

    def search(self, config: SearchConfig, *, fresh: bool = False) -> Session:
        """Search ``config`` from now on; ``fresh``: a new position or game (the moves played are forgotten)."""
        return self.adopt(Session.create(config), fresh=fresh)

    def adopt(self, session: Session, *, fresh: bool = False) -> Session:
        """Search ``session`` from now on (``fresh``: as ``search``)."""
        if fresh:
            self.played.clear()
        self.session = session
        return session

    def play(self, move: Move | None) -> Session:
        """Search the position after ``move`` (``None``: the best move found so far), with the same algorithm and
        parameters."""
        if move is None:
            with self.session.lock:
                move = self.session.searcher.best_move()
            if move is None:
                raise UserError("no best move yet: take a step first")
        previous = self.session.config
        session = self.search(self.session.after(move))
        self.played.append(previous)
        return session

    def leaf_at(self, moves: Sequence[Move]) -> EditableLeaf:
        """The leaf at the end of ``moves`` from the position searched, whose value can be edited (a hand-written
        tree's: ``GameKit.editable_leaf``); a ``UserError`` if they do not end at one."""
        leaf = self._state_at(moves)
        editable = kit_of(leaf.game).editable_leaf(leaf)
        if editable is None:
            raise UserError("choose a leaf of a hand-written tree in the tree pane first: n edits its value")
        return editable

    def edit_leaf(self, moves: Sequence[Move], text: str) -> Session:
        """Search again, with the leaf at the end of ``moves`` (``leaf_at``) valued ``text`` (a number, MAX's point
        of view); the rest of the tree, and the search's settings, as they were."""
        self.leaf_at(moves)
        top = self.session.state
        position = kit_of(top.game).with_leaf_value(top, self._state_at(moves), text)
        return self.search(replace(self.session.config, position=position))

    def _state_at(self, moves: Sequence[Move]) -> State:
        """The position at the end of ``moves`` from the position searched."""
        state = self.session.state
        for move in moves:
            state = state.play(move)
        return state

    def undo(self) -> Session:
        """Search the position before the last move played again (at this search's budget)."""
        if not self.played:
            raise UserError("no move to take back")
        session = self.search(replace(self.played[-1], budget=self.session.budget))
        self.played.pop()
        return session
