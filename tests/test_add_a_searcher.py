"""CONTRIBUTING's "How to add a searcher", followed to the letter: a searcher defined here (its node, its phases, its
journal and its registry entry, nothing else), registered, and then run by every command and screen that asks the
registry (issue 37, items 2 and 5).

The searcher: level by level.  Each step expands the shallowest node not expanded yet (breadth first), values each
child by the static evaluator, and backs the minimax values up to the root.  Its journal takes a step back by keeping,
for each step, the values it changed and the children it queued.
"""

from __future__ import annotations

import json
import sys
import threading
from collections import deque
from pathlib import Path
from typing import ClassVar, Protocol, Self

import pytest

from plyscope.engine.games.base import Move, State
from plyscope.engine.games.evaluators import Evaluator
from plyscope.engine.kits import make_game
from plyscope.engine.pov import PovScore
from plyscope.engine.search.base import (
    NO_CHILDREN,
    TAKEN,
    VALUE_MEANING,
    Limit,
    Node,
    Phase,
    PhasedStep,
    Searcher,
    Step,
    Taken,
    best_child,
)
from plyscope.engine.search.entry import AlgorithmInfo
from plyscope.engine.search.minimax import EVAL_PARAMS, resolve_evaluator
from plyscope.engine.search.registry import algorithms, make_searcher
from plyscope.engine.search_file import read_search
from plyscope.engine.travel import travel_of
from plyscope.engine.travel.protocol import Travel
from plyscope.tui.cli import main
from plyscope.tui.contest import compared_agents
from plyscope.tui.screens.compare import CompareScreen
from plyscope.tui.session import Session
from plyscope.tui.widgets.reading_guide import ReadingGuide
from tests.engine.test_phases import fingerprint
from tests.tui.contest_helpers import app_with, wait_until
from tests.tui.helpers import explorer, make_app, run_async, settle

_V = lambda node: node.v  # noqa: E731 -- the key ``best_child`` compares


class LevelNode(Node):
    """1. The node: its minimax value."""

    __slots__ = ("v",)

    v: float
    """The minimax value of the tree below, from the first player's point of view (its static value at a leaf)."""

    def __init__(self, parent: Self | None, move: Move | None, v: float) -> None:
        super().__init__(parent, move)
        self.v = v

    def numbers(self) -> dict[str, float | int | str | None]:
        return {"v": self.v}


class LevelJournaling(Protocol):
    """4. What the searcher tells its journal of each step."""

    def record(self, node: LevelNode, values: list[float], queued: int) -> None:
        """The step under way expands ``node``: ``values`` are those of its path before (root first), ``queued`` the
        children it puts in the queue."""


class LevelByLevel(Searcher[LevelNode]):
    """2. The searcher: expands the shallowest node not expanded yet, and backs the minimax values up."""

    name = "level-by-level"
    description = "expands the shallowest node not expanded yet; minimax values backed up"
    meanings = VALUE_MEANING
    evaluator: Evaluator
    journal: LevelJournaling | None = None

    def __init__(self, state: State, *, evaluator: str | Evaluator = "auto") -> None:
        super().__init__(state)
        self.evaluator = resolve_evaluator(evaluator, state)
        self.root = LevelNode(None, None, self.evaluator(state))
        self.stats.nodes = 1
        self.queue: deque[tuple[LevelNode, State]] = deque([(self.root, state)] if not state.is_terminal() else [])
        """The nodes not expanded yet whose game goes on, shallowest first, with their positions."""
        self.finished = not self.queue

    def player(self, node: Node) -> int:
        """The player to move at ``node`` (+1 first, MAX; -1 second, MIN)."""
        return self.root_state.player if node.depth % 2 == 0 else -self.root_state.player

    def _advance(self, record: bool, moves_left: int | None) -> Step[LevelNode] | Taken | None:
        if not self.queue or (moves_left is not None and len(self.queue[0][1].legal_moves()) > moves_left):
            return None
        node, children = self._expand()
        changed = self._back_up(node)
        if not record:
            return TAKEN
        return Step(path=tuple(node.path()), node=node, added=tuple(children), changed=(*changed, *children))

    def _expand(self) -> tuple[LevelNode, list[LevelNode]]:
        node, state = self.queue.popleft()
        moves = state.legal_moves()
        children, queued = [], 0
        for move in moves:
            after = state.play(move)
            children.append(LevelNode(node, move, self.evaluator(after)))
            if not after.is_terminal():
                self.queue.append((children[-1], after))
                queued += 1
        if self.journal is not None:
            self.journal.record(node, [above.v for above in node.path()], queued)
        node.children = children
        self.stats.moves += len(moves)
        self.stats.nodes += len(moves)
        self.stats.max_depth = max(self.stats.max_depth, node.depth + 1)
        self.finished = not self.queue
        return node, children

    def _back_up(self, node: LevelNode) -> list[LevelNode]:
        changed: list[LevelNode] = []
        walk: LevelNode | None = node
        while walk is not None:
            best = best_child(walk.children, self.player(walk), _V)
            assert best is not None
            walk.v = best.v
            changed.append(walk)
            walk = walk.parent
        return changed

    # 3. Its phases.

    phase_names: ClassVar[tuple[str, ...]] = ("expansion", "back-up")

    def _phases(self, moves_left: int | None) -> PhasedStep[LevelNode]:
        if not self.queue or (moves_left is not None and len(self.queue[0][1].legal_moves()) > moves_left):
            return None
        node, children = self._expand()
        path = tuple(node.path())
        text = f"expansion: {self.label(node)}, the shallowest node not expanded yet, gets {len(children)} children"
        yield Phase("expansion", text, path, tuple(children), (node, *children))
        changed = self._back_up(node)
        text = f"back-up: minimax values from {self.label(node)} to the root, now v {self.root.v:g}"
        yield Phase("back-up", text, path, changed=tuple(changed), last=True)
        return Step(path=path, node=node, added=tuple(children), changed=(*changed, *children))

    def preferred_child(self, node: Node) -> LevelNode | None:
        assert isinstance(node, LevelNode)
        return best_child(node.children, self.player(node), _V)

    def best_move(self) -> Move | None:
        best = self.preferred_child(self.root)
        return None if best is None else best.move

    def value(self) -> PovScore[float]:
        return self.scored(self.root.v)


class LevelJournal(Travel[LevelByLevel]):
    """4. Its journal: each step's node, the values of its path before it, the children it queued, the stats before."""

    def __init__(self, searcher: LevelByLevel) -> None:
        super().__init__(searcher)
        self.steps: list[tuple[LevelNode, list[float], int, tuple[int, int, int]]] = []

    def record(self, node: LevelNode, values: list[float], queued: int) -> None:
        stats = self.searcher.stats
        del self.steps[stats.iterations :]
        self.steps.append((node, values, queued, (stats.moves, stats.nodes, stats.max_depth)))

    def cost(self, step: int) -> float:
        return 0.1 * max(0, self.searcher.stats.iterations - step)

    def back(self, step: int) -> int:
        searcher = self.searcher
        stats = searcher.stats
        while stats.iterations > max(step, 0):
            node, values, queued, (stats.moves, stats.nodes, stats.max_depth) = self.steps.pop()
            for _ in range(queued):
                searcher.queue.pop()
            searcher.queue.appendleft((node, searcher.state_at(node)))
            node.children = NO_CHILDREN
            for above, value in zip(node.path(), values, strict=True):
                above.v = value
            stats.iterations -= 1
        searcher.finished = not searcher.queue
        return stats.iterations

    def nbytes(self) -> int:
        return sys.getsizeof(self.steps) + 100 * len(self.steps)


ENTRY = AlgorithmInfo(
    name=LevelByLevel.name,
    description=LevelByLevel.description,
    factory=LevelByLevel,
    params=EVAL_PARAMS,
    node_bytes=150,
    ui_node_bytes=250,
    journal=LevelJournal,
)
"""6. Its registry entry (``ALGORITHMS = (ENTRY,)`` in its module, as the recipe says)."""


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry given the entry for the test, as it finds a module's ``ALGORITHMS``."""
    monkeypatch.setitem(algorithms(), ENTRY.name, ENTRY)


def test_it_is_built_with_its_journal_and_steps_as_it_runs() -> None:
    state = _start()
    stepped = make_searcher(ENTRY.name, state)
    assert isinstance(travel_of(stepped), LevelJournal)
    for _ in range(30):
        assert stepped.step() is not None
    ran = make_searcher(ENTRY.name, state)
    ran.run(Limit(iterations=30))
    assert fingerprint(ran) == fingerprint(stepped) and ran.best_move() == stepped.best_move()


def test_the_command_line_lists_searches_exports_and_replays_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["search", "--list", "--json"]) == 0
    listed = {entry["name"]: entry for entry in json.loads(capsys.readouterr().out)}
    assert "connect4" in listed[ENTRY.name]["games"] and listed[ENTRY.name]["description"] == ENTRY.description
    saved = tmp_path / "level.json"
    argv = ["search", "4453", "--algo", ENTRY.name, "--moves", "300", "--json", "--export", str(saved)]
    assert main(argv) == 0
    searched = json.loads(capsys.readouterr().out)
    assert searched["moves"] <= 300 and searched["best_move"] is not None
    assert main(["replay", "--check", str(saved)]) == 0


def test_its_saved_search_is_replayed_rebuilt_and_gone_back_along(tmp_path: Path) -> None:
    saved = tmp_path / "level.json"
    assert main(["search", "4453", "--algo", ENTRY.name, "--iterations", "40", "--export", str(saved)]) == 0
    session = Session.replaying(read_search(saved))
    opened = session.open_saved(threading.Event())  # (the explorer's replay thread: rebuilt and checked)
    assert opened is not None and "the tree matches the saved one" in opened[1]
    assert not session.as_saved and session.step_shown == 40
    rebuilt = session.searcher
    assert session.go_to(12) is not None and session.step_shown == 12 and session.searcher is rebuilt  # by its journal
    fresh = make_searcher(ENTRY.name, session.state)
    fresh.run(Limit(iterations=12))
    assert fingerprint(session.searcher) == fingerprint(fresh)


@run_async
async def test_the_explorer_steps_it_tells_its_phases_and_goes_back_by_its_journal() -> None:
    app = make_app(algorithm=ENTRY.name, position="4453")
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.press("s", "s", "s", "s")
        await settle(pilot)
        session = explorer(pilot).session
        assert session.steps_taken == 4 and isinstance(travel_of(session.searcher), LevelJournal)
        shown = session.searcher
        await pilot.press("comma", "comma")
        await settle(pilot)
        assert session.step_shown == 2 and session.searcher is shown  # taken back in place, by its journal
        fresh = make_searcher(ENTRY.name, session.state)
        fresh.run(Limit(iterations=2))
        assert fingerprint(session.searcher) == fingerprint(fresh)
        assert "v value, for the first player" in str(app.screen.query_one(ReadingGuide).render())
        await pilot.press("full_stop", "full_stop", "i", "s")
        await settle(pilot)
        assert str(app.screen.query_one(ReadingGuide).render()).startswith("expansion: ")


@run_async
async def test_compare_runs_it_beside_another() -> None:
    game = _start().game
    total = Limit(moves=400)
    screen = CompareScreen(game.start(), compared_agents([ENTRY.name, "minimax:depth=2"], total, game), total)
    app = app_with("connect4", lambda: screen)
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.press("r")
        await wait_until(pilot, lambda: not screen.searches.searching, "the searches")
        assert all(session.searcher.best_move() is not None for session in screen.sessions)
        assert screen.sessions[0].searcher.name == ENTRY.name


def test_the_arena_plays_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    argv = ["arena", "--agents", ENTRY.name, "minimax:depth=1", "--game", "connect4:5x4", "--openings", "1"]
    assert main([*argv, "--moves", "100", "--workers", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    report = json.loads(out.read_text())
    assert len(report["games"]) == 2 and {game["first"] for game in report["games"]} == {ENTRY.name, "minimax:depth=1"}
    assert all(game["result"] in ("first", "second", "draw") for game in report["games"])


def _start() -> State:
    return make_game("connect4").parse("4453")
