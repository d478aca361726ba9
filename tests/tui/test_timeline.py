"""The timeline keys in the explorer, compare and play: back, forward, jumps, changes of the best move, export."""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

import pytest

from plyscope.engine.games import Move, State
from plyscope.engine.pov import PovScore
from plyscope.engine.search import registry
from plyscope.engine.search.alphabeta import checkpoints
from plyscope.engine.search.base import TAKEN, Node, Searcher, Step, Taken
from plyscope.engine.search.entry import AlgorithmInfo
from plyscope.engine.search.registry import make_searcher
from plyscope.engine.search_file import SearchRecipe, read_search, write_search
from plyscope.engine.timeline import recorded
from plyscope.engine.travel import travel_of
from plyscope.engine.travel.replay import Replay, rebuild
from plyscope.tui.app import PlyscopeApp
from plyscope.tui.session import Batch, SearchConfig, Session
from plyscope.tui.widgets.prompt_bar import PromptBar
from plyscope.tui.widgets.search_pane import SearchPane
from plyscope.tui.widgets.search_tree import SearchTree
from plyscope.tui.widgets.timeline_bar import TimelineBar, bar_text
from tests.tui.contest_helpers import PATIENCE, wait_until
from tests.tui.helpers import explorer, make_app, run_async, settle, view_of


def picture(searcher: Searcher[Node]) -> list[object]:
    """Every node's moves and numbers, the stats that do not depend on the clock, the line."""
    stats = searcher.stats
    return [
        [(tuple(n.moves()), repr(searcher.numbers(n))) for n in searcher.walk()],
        stats.moves,
        stats.nodes,
        stats.iterations,
        searcher.principal_variation(),
    ]


def fresh(session: Session, steps: int) -> list[object]:
    """The picture of a fresh search of ``session``'s kind stepped ``steps`` times."""
    searcher = make_searcher(
        session.config.algorithm or "", session.state, session.config.params, seed=session.config.seed
    )
    for _ in range(steps):
        assert searcher.step() is not None
    return picture(searcher)


def head(pilot_screen: object) -> str:
    from textual.widgets import Static

    from plyscope.tui.screens.explore import ExploreScreen

    assert isinstance(pilot_screen, ExploreScreen)
    return str(pilot_screen.pane.query_one("#head", Static).render())


def replaying(tmp_path: Path, recipe: SearchRecipe, steps: int) -> tuple[Searcher[Node], Session]:
    """A search of ``recipe`` stepped ``steps`` times, written to a file, and a session replaying that file."""
    original, timeline = recorded(recipe.maker(), steps)
    path = tmp_path / "saved.json"
    write_search(path, recipe, original, timeline)
    return original, Session.replaying(read_search(path))


@run_async
async def test_back_forward_and_jumps_show_the_tree_as_it_was() -> None:
    app = make_app(algorithm="bestfirst")
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        session = screen.session
        await pilot.press("d", "d")
        await settle(pilot)
        assert (session.step_shown, session.steps_taken) == (20, 20)
        newest = picture(session.searcher)
        await pilot.press("comma")
        await settle(pilot)
        assert session.step_shown == 19 and session.steps_taken == 20
        assert picture(session.searcher) == fresh(session, 19)
        assert "past: step 19 of 20" in head(screen)
        assert screen.query_one(SearchTree).searcher is session.searcher
        await pilot.press("left_curly_bracket")
        await settle(pilot)
        assert session.step_shown == 0 and picture(session.searcher) == fresh(session, 0)
        await pilot.press("comma")  # nothing before the start: refused, nothing changes
        await settle(pilot)
        assert session.step_shown == 0 and "already at step 0" in screen.status.note
        await pilot.press("full_stop", "full_stop")
        await settle(pilot)
        assert session.step_shown == 2 and picture(session.searcher) == fresh(session, 2)
        await pilot.press("right_curly_bracket")
        await settle(pilot)
        assert session.step_shown == 20 and picture(session.searcher) == newest
        assert session.ahead is None and "past" not in head(screen)


@run_async
async def test_stepping_from_a_past_step_retraces_the_recorded_future() -> None:
    app = make_app(algorithm="mcts", seed=3)
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        session = screen.session
        await pilot.press("d")
        await settle(pilot)
        newest = picture(session.searcher)
        await pilot.press("comma", "comma", "comma")
        await settle(pilot)
        assert session.step_shown == 7
        await pilot.press("s", "s", "s")
        await settle(pilot)
        assert session.step_shown == 10 and session.steps_taken == 10 and session.ahead is None
        assert picture(session.searcher) == newest
        await pilot.press("s")
        await settle(pilot)
        assert session.steps_taken == 11


@run_async
async def test_jumps_to_the_changes_of_the_best_move() -> None:
    app = make_app(algorithm="alphabeta")
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        session = screen.session
        await pilot.press("f", "f")
        await settle(pilot)
        changes = session.timeline.best_changes()
        assert len(changes) >= 2
        await pilot.press("less_than_sign")
        await settle(pilot)
        assert session.step_shown == changes[-1]
        best = session.timeline.best(changes[-1])
        assert session.searcher.best_move() == best
        await pilot.press("less_than_sign")
        await settle(pilot)
        assert session.step_shown == changes[-2]
        await pilot.press("greater_than_sign")
        await settle(pilot)
        assert session.step_shown == changes[-1]


@run_async
async def test_scrubbing_while_a_run_goes_pauses_it() -> None:
    app = make_app(algorithm="rivest", budget=None)
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        session = screen.session
        await pilot.press("r")
        await wait_until(pilot, lambda: session.steps_taken >= 2, "a few steps of the run")
        await pilot.press("comma")
        await settle(pilot)
        assert not screen.searches.running
        shown, taken = session.step_shown, session.steps_taken
        assert shown == taken - 1
        assert not [worker for worker in app.workers if worker.is_running]  # nothing left to take a step


def test_the_bar_marks_the_step_shown_and_the_changes() -> None:
    text = bar_text(50, 100, [10, 80], 40).plain
    assert text.startswith("step 50/100 ")
    bar = text.removeprefix("step 50/100 ")
    assert len(bar) == 40 - len("step 50/100 ")
    assert bar.count("●") == 1 and bar.count("◆") == 2
    assert bar.index("◆") < bar.index("●") < bar.rindex("◆")
    assert bar_text(7, 7, [], 30).plain.startswith("step 7 ")


def test_the_bar_survives_changes_and_steps_beyond_its_total() -> None:
    """The search thread may record changes (and steps) after the bar last learnt its total."""
    bar = bar_text(22, 22, [1, 2, 21, 22, 23, 40], 49).plain.removeprefix("step 22 ")
    assert len(bar) == 49 - len("step 22 ") and bar.endswith("●")
    assert bar_text(30, 22, [25], 49).plain.startswith("step 22 ")


@run_async
async def test_the_bar_is_under_the_tree_of_every_pane() -> None:
    app = make_app(algorithm="bestfirst")
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        await pilot.press("s", "s", "s")
        await settle(pilot)
        bar = screen.pane.query_one(TimelineBar)
        assert "step 3" in str(bar.render())


@pytest.mark.parametrize("suffix", [".json", ".dot"])
def test_w_writes_the_search_and_replay_opens_it(tmp_path: Path, suffix: str) -> None:
    import asyncio

    target = tmp_path / f"saved{suffix}"

    async def scenario() -> None:
        app = make_app(algorithm="bestfirst")
        async with app.run_test() as pilot:
            screen = explorer(pilot)
            await pilot.press("d", "comma", "comma")
            await settle(pilot)
            await pilot.press("w")
            await pilot.pause()
            bar = screen.query_one(PromptBar)
            bar.query_one("Input").value = str(target)  # type: ignore[attr-defined]
            await pilot.press("enter")
            await settle(pilot)
            assert "wrote" in screen.status.note

    asyncio.run(scenario())
    if suffix == ".dot":
        assert target.read_text().startswith("digraph search {")
        return
    saved = read_search(target)
    assert saved.steps == 8 and len(saved.timeline) == 8
    document = json.loads(target.read_text())
    assert document["algorithm"] == "bestfirst" and document["version"] == 1

    async def reopen() -> None:
        app = PlyscopeApp(Session.replaying(saved), clock=lambda: 0.0)
        async with app.run_test() as pilot:
            screen = explorer(pilot)
            await settle(pilot)
            session = screen.session
            assert session.step_shown == 8 and session.steps_taken == 8
            assert "the tree matches the saved one" in screen.status.note
            again = rebuild(session.fresh_searcher, 8)
            assert again is not None and picture(session.searcher) == picture(again)
            await pilot.press("comma")
            await settle(pilot)
            assert session.step_shown == 7

    asyncio.run(reopen())


@run_async
async def test_compare_panes_move_along_their_own_timelines() -> None:
    from plyscope.tui.screens.compare import CompareScreen

    app = make_app(algorithm="bestfirst")
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("C")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        compare = pilot.app.screen
        assert isinstance(compare, CompareScreen)
        await pilot.press("d")
        await settle(pilot)
        panes = list(compare.query(SearchPane).results(SearchPane))
        first = panes[0].session
        assert first is not None
        taken = first.steps_taken
        panes[0].search_tree.focus()
        await pilot.press("comma")
        await settle(pilot)
        assert first.step_shown == taken - 1
        assert panes[1].session is not None and panes[1].session.step_shown == panes[1].session.steps_taken


@pytest.mark.parametrize("algorithm", ["rivest", "bestfirst", "mcts"])
def test_the_session_takes_near_steps_back_in_place_and_far_ones_by_replay(algorithm: str) -> None:
    session = Session.create(SearchConfig(algorithm=algorithm, position="4453", seed=5))
    session.take(200)
    newest = picture(session.searcher)
    shown = session.searcher

    def kept() -> tuple[bool, Searcher[Node] | None]:
        """Whether the searcher shown is the original one, and the searcher kept ahead."""
        return session.searcher is shown, session.ahead

    session.go_to(150)
    assert kept() == (True, None)  # taken back in place
    assert picture(session.searcher) == fresh(session, 150)
    session.go_to(5)  # nearer the start than the step shown: replayed from the start
    assert kept() == (False, shown)  # the one taken back in place, kept to go forward from
    assert picture(session.searcher) == fresh(session, 5)
    session.go_to(100)  # (not as far as the one kept ahead: the replayed one goes on)
    assert kept() == (False, shown) and picture(session.searcher) == fresh(session, 100)
    session.go_to(200)  # the one kept ahead swapped in, and its steps taken again in place
    assert kept() == (True, None) and picture(session.searcher) == newest


@pytest.mark.parametrize("algorithm", ["pns", "alphabeta", "mcts"])
def test_the_session_rewinds_in_place_unless_a_replay_from_the_start_is_quicker(algorithm: str) -> None:
    session = Session.create(SearchConfig(algorithm=algorithm, position="4453", seed=5))
    session.take(3000)
    newest = picture(session.searcher)
    shown = session.searcher
    for step in (2999, 2000, 1500):  # one step back, then jumps: taken back in place (Travel.back)
        session.go_to(step)
        assert session.searcher is shown and session.ahead is None
        assert picture(session.searcher) == fresh(session, step)
    session.go_to(10)  # a replay of 10 steps is quicker
    assert session.searcher is not shown and picture(session.searcher) == fresh(session, 10)
    session.go_to(3000)
    assert picture(session.searcher) == newest


def test_the_session_rewinds_alphabeta_into_an_earlier_iteration_a_slice_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A step in an iteration whose tree was cut to its principal variation: the searcher goes back to that
    iteration's start and replays a slice, and the session runs it on to the step, in place."""
    monkeypatch.setattr(checkpoints, "CHECKPOINT_STEPS", 16)
    monkeypatch.setattr(checkpoints, "REPLAY_SLICE", 50)
    session = Session.create(SearchConfig(algorithm="alphabeta", position="4453"))
    session.take(12_000)
    shown = session.searcher
    journal = travel_of(shown)
    assert isinstance(journal, checkpoints.Checkpoints)
    rounds = journal.rounds
    cut = [index for index, r in enumerate(rounds) if not r.whole]
    assert cut
    target = rounds[cut[-1] + 1].start - 2  # near the end of the last cut iteration: quicker than from step 0
    assert journal.cost(target) < target
    session.go_to(target)
    assert session.searcher is shown and session.step_shown == target
    assert picture(session.searcher) == fresh(session, target)
    session.go_to(12_000)
    assert picture(session.searcher) == fresh(session, 12_000)


class VisitedNode(Node):
    """A node of ``BreadthFirst``'s tree."""

    __slots__ = ("visits",)

    def __init__(self, parent: VisitedNode | None, move: Move | None) -> None:
        super().__init__(parent, move)
        self.visits = 0
        """Steps that expanded this node or a node below it."""

    def numbers(self) -> dict[str, float | int | str | None]:
        return {"n": self.visits}


class BreadthFirst(Searcher[VisitedNode]):
    """A searcher written as a newcomer would, with no code for the timeline: each step expands the oldest node not
    expanded yet and counts a visit on every node of its path."""

    name = "breadth-first"
    description = "expands the oldest node not expanded yet"

    def __init__(self, state: State) -> None:
        super().__init__(state)
        self.root = VisitedNode(None, None)
        self.stats.nodes = 1
        self._waiting: deque[tuple[VisitedNode, State]] = deque([(self.root, state)])
        """The nodes not expanded yet whose game goes on, oldest first, with their positions."""

    def _advance(self, record: bool, moves_left: int | None) -> Step[VisitedNode] | Taken | None:
        if not self._waiting:
            return None
        node, state = self._waiting[0]
        moves = state.legal_moves()
        if moves_left is not None and len(moves) > moves_left:
            return None
        self._waiting.popleft()
        node.children = [VisitedNode(node, move) for move in moves]
        for child in node.children:
            after = state.play(child.move)
            if not after.is_terminal():
                self._waiting.append((child, after))
        stats = self.stats
        stats.moves += len(moves)
        stats.nodes += len(moves)
        stats.max_depth = max(stats.max_depth, node.depth + 1)
        path = node.path()
        for above in path:
            above.visits += 1
        self.finished = not self._waiting
        if not record:
            return TAKEN
        return Step(path=tuple(path), node=node, added=tuple(node.children), changed=(*path, *node.children))

    def principal_path(self) -> list[VisitedNode]:
        path = [self.root]
        while path[-1].children:
            path.append(max(path[-1].children, key=lambda child: child.visits))
        return path

    def best_move(self) -> Move | None:
        line = self.principal_path()
        return line[1].move if len(line) > 1 else None

    def value(self) -> PovScore[float]:
        return self.scored(float(self.root.visits))


def test_a_new_searcher_with_no_timeline_code_goes_back_and_forth_on_the_timeline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A searcher defined here, registered and nothing more, gets the whole timeline: each step gone to, back or
    forth, near or far, shows the tree that a fresh searcher stepped as far from scratch has."""
    registered = registry.algorithms()
    info = AlgorithmInfo(BreadthFirst.name, BreadthFirst.description, BreadthFirst)
    monkeypatch.setattr(registry, "algorithms", lambda: {**registered, info.name: info})
    session = Session.create(SearchConfig(algorithm=BreadthFirst.name, position="4453"))
    session.take(300)
    assert session.steps_taken == 300
    assert isinstance(travel_of(session.searcher), Replay) and travel_of(session.searcher).nbytes() == 0
    state = session.state
    for step in (299, 150, 10, 0, 200, 300, 120, 121, 300):
        assert session.go_to(step) is not None and session.step_shown == step
        scratch = BreadthFirst(state)
        for _ in range(step):
            assert scratch.step() is not None
        assert picture(session.searcher) == picture(scratch), f"step {step}"
    assert session.take(5).steps == 5 and session.steps_taken == 305


@run_async
async def test_w_refuses_where_the_app_may_touch_no_file() -> None:
    """A served session (``plyscope serve`` without ``--allow-files``): ``w`` asks for no file and says why."""
    app = PlyscopeApp(Session.create(SearchConfig(algorithm="bestfirst")), clock=lambda: 0.0, files=False)
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        await pilot.press("s", "w")
        await settle(pilot)
        assert not screen.query_one(PromptBar).is_open
        assert "files are off in a served session" in screen.status.note


def test_a_replay_opens_on_the_saved_tree_then_swaps_in_the_rebuilt_search(tmp_path: Path) -> None:
    """The explorer opens at the last step with the tree as saved (no wait for the rebuild); meanwhile a step is
    refused with the reason, the timeline still moves (by replay) and comes back to the saved tree; once
    rebuilt and checked, the search shown is the live one, identical, and steps on."""
    import asyncio
    import threading

    original, session = replaying(tmp_path, SearchRecipe("connect4", "", "rivest", {}, 0, None), 300)
    assert session.as_saved and session.step_shown == session.steps_taken == 300
    assert picture(session.searcher) == picture(original)
    release = threading.Event()
    opening = session.open_saved

    def held(stop: threading.Event) -> tuple[Batch | None, str] | None:
        release.wait(PATIENCE)
        return opening(stop)

    session.open_saved = held  # type: ignore[method-assign]  # (held until the test lets it go)

    async def scenario() -> None:
        app = PlyscopeApp(session, clock=lambda: 0.0)
        async with app.run_test() as pilot:
            screen = explorer(pilot)
            await pilot.pause()
            assert "rebuilding the saved search of 300 steps to check it" in screen.status.note
            path = session.timeline.event(299).path
            last = session.searcher.nodes_along(path)[-1]
            assert len(last.path()) == len(path) + 1
            assert view_of(screen.query_one(SearchTree), last) is not None  # opened down to the last step's node
            await pilot.press("s")
            await pilot.pause()
            assert "the saved search is being rebuilt" in screen.status.note and session.step_shown == 300
            await pilot.press("comma")
            await wait_until(pilot, lambda: session.step_shown == 299, "step 299")
            assert not session.as_saved and picture(session.searcher) == fresh(session, 299)
            await pilot.press("right_curly_bracket")
            await wait_until(pilot, lambda: session.as_saved, "the saved tree again")
            release.set()
            await wait_until(pilot, lambda: not session.as_saved, "the rebuilt search")
            await settle(pilot)
            assert "the tree matches the saved one" in screen.status.note and session.saved is None
            assert picture(session.searcher) == picture(original)
            await pilot.press("s")
            await settle(pilot)
            assert session.step_shown == 301 == session.steps_taken

    asyncio.run(scenario())


def test_a_replay_moved_to_the_past_gets_the_rebuilt_search_as_its_newest(tmp_path: Path) -> None:
    import threading

    original, session = replaying(tmp_path, SearchRecipe("connect4", "4453", "mcts", {}, 4, None), 200)
    assert session.stop_words()[1].startswith("the saved search is being rebuilt")
    assert session.go_to(120) is not None and session.step_shown == 120 and not session.as_saved
    opened = session.open_saved(threading.Event())
    assert opened is not None and opened[0] is None and "matches" in opened[1]
    assert session.go_to(200) is not None and not session.as_saved and session.stop_reason() == ""
    assert picture(session.searcher) == picture(original)


def test_a_replay_waits_for_its_rebuild_to_reach_a_far_step_and_replays_a_near_one(tmp_path: Path) -> None:
    import threading

    _, session = replaying(tmp_path, SearchRecipe("connect4", "", "rivest", {}, 0, None), 300)
    session.opening = 200  # as if the rebuild under way had taken 200 of the 300 steps
    assert session.go_to(50) is not None and session.step_shown == 50  # nearer the start: replayed at once
    assert session.go_to(300) is not None and session.as_saved  # (the saved tree, kept ahead, back)
    done = threading.Event()

    def back() -> None:
        session.go_to(299)
        done.set()

    threading.Thread(target=back, daemon=True).start()
    assert not done.wait(0.3) and session.as_saved  # far from the start: it waits for the rebuild
    assert session.open_saved(threading.Event()) is not None
    assert done.wait(PATIENCE) and session.step_shown == 299
    assert session.ahead is None  # the rebuilt search taken back in place, not a replay
    assert picture(session.searcher) == fresh(session, 299)


def marks(tree: SearchTree) -> dict[tuple[object, ...], str]:
    """Each shown node (its moves) and the marks on its line: ``◂`` (changed by the last step), ``✂`` (cut off)."""
    shown: dict[tuple[object, ...], str] = {}
    for view in (record.view for record in tree._shown.values()):  # (the widget nodes shown)
        node = view.data
        if isinstance(node, Node) and node.parent is not None:
            label = str(view.label)
            shown[tuple(node.moves())] = ("◂" if "◂" in label else "") + ("✂" if "✂" in label else "")
    return shown


def same_marks(seen: dict[tuple[object, ...], str], again: dict[tuple[object, ...], str]) -> None:
    """The marks of two pictures of one step agree on every node both show, and each marked node is in both."""
    marked = {moves for moves, mark in (seen | again).items() if mark}
    assert marked <= seen.keys() & again.keys(), marked - (seen.keys() & again.keys())
    assert {m: seen[m] for m in marked} == {m: again[m] for m in marked}


@run_async
async def test_moving_along_the_timeline_keeps_the_cut_off_and_changed_marks() -> None:
    """Alpha-beta's ✂ and the last step's ◂ after a move back or forward are those the live search showed there."""
    app = make_app(algorithm="alphabeta")
    async with app.run_test() as pilot:
        screen = explorer(pilot)
        session = screen.session
        tree = screen.query_one(SearchTree)
        await pilot.press("d", "d", "d", "d")
        await settle(pilot)
        newest = marks(tree)
        assert "✂" in "".join(newest.values()) and "◂" in "".join(newest.values())
        await pilot.press("comma", "comma", "comma")
        await settle(pilot)
        assert session.step_shown == 37
        past = marks(tree)
        await pilot.press("right_curly_bracket")
        await settle(pilot)
        same_marks(marks(tree), newest)
        await pilot.press("left_curly_bracket")
        await settle(pilot)
        for _ in range(37):
            await pilot.press("s")
        await settle(pilot)
        assert session.step_shown == 37
        same_marks(past, marks(tree))
        await pilot.press("full_stop", "full_stop", "full_stop")
        await settle(pilot)
        same_marks(marks(tree), newest)


def test_a_replay_shows_the_marks_of_its_last_step(tmp_path: Path) -> None:
    """A replay, as saved and once rebuilt, marks the nodes its last step changed ◂ and alpha-beta's cut-offs ✂."""
    import asyncio
    import threading

    recipe = SearchRecipe("connect4", "", "alphabeta", {}, 0, None)
    _, session = replaying(tmp_path, recipe, 40)
    last = session.timeline.event(39)

    async def live() -> dict[tuple[object, ...], str]:
        app = make_app(algorithm="alphabeta")
        async with app.run_test() as pilot:
            await pilot.press("d", "d", "d", "d")
            await settle(pilot)
            return marks(explorer(pilot).query_one(SearchTree))

    seen = asyncio.run(live())
    release = threading.Event()
    opening = session.open_saved

    def held(stop: threading.Event) -> tuple[Batch | None, str] | None:
        release.wait(PATIENCE)
        return opening(stop)

    session.open_saved = held  # type: ignore[method-assign]  # (held until the test lets it go)

    async def scenario() -> None:
        app = PlyscopeApp(session, clock=lambda: 0.0)
        async with app.run_test() as pilot:
            tree = explorer(pilot).query_one(SearchTree)
            await pilot.pause()
            assert session.as_saved
            as_saved = marks(tree)
            assert as_saved[last.path] == "◂"
            same_marks(as_saved, seen)
            release.set()
            await wait_until(pilot, lambda: not session.as_saved, "the rebuilt search")
            await settle(pilot)
            same_marks(marks(tree), seen)

    asyncio.run(scenario())
