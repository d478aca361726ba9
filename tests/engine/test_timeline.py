"""The timeline: every past step rebuilt exactly, for every registered searcher."""

from __future__ import annotations

import math
import threading

import pytest

from engine.games import State, make_game
from engine.search.base import Limit, Node, Searcher, Step
from engine.search.registry import algorithms, make_searcher, plays
from engine.timeline import Timeline, rebuild

GAMES = (("connect4:5x4", "3"), ("nim", "3,4,5"), ("connect4-chance", ""))
"""Small games, so that every searcher (the exact solver included) takes a few hundred steps quickly."""


def start_for(name: str) -> State:
    """The first small position that ``name`` plays."""
    for game_name, position in GAMES:
        game = make_game(game_name)
        if plays(algorithms()[name], game):
            return game.parse(position) if position else game.start()
    raise AssertionError(f"no small game for {name}")


def picture(searcher: Searcher[Node]) -> list[object]:
    """Everything a person sees of a search: every node's moves and numbers, the stats, the line and the value."""
    nodes = [(tuple(node.moves()), repr(searcher.numbers(node))) for node in searcher.walk()]
    stats = searcher.stats
    value = searcher.value().first()
    return [
        nodes,
        stats.moves,
        stats.nodes,
        stats.iterations,
        stats.max_depth,
        stats.playouts,
        searcher.best_move(),
        searcher.principal_variation(),
        "nan" if math.isnan(value) else value,
        searcher.finished,
    ]


def stepped(name: str, state: State, steps: int) -> tuple[Searcher[Node], list[Step[Node]]]:
    searcher = make_searcher(name, state, seed=7)
    taken: list[Step[Node]] = []
    while len(taken) < steps:
        step = searcher.step()
        if step is None:
            break
        taken.append(step)
    return searcher, taken


@pytest.mark.parametrize("name", sorted(algorithms()))
def test_going_back_to_any_step_gives_the_tree_a_fresh_search_had_there(name: str) -> None:
    state = start_for(name)
    total = 60
    original, _ = stepped(name, state, total)
    newest = picture(original)
    taken = original.stats.iterations
    for k in sorted({0, 1, 2, taken // 3, taken // 2, taken - 1, taken}):
        past = rebuild(lambda: make_searcher(name, state, seed=7), k)
        assert past is not None
        fresh, _ = stepped(name, state, k)
        assert picture(past) == picture(fresh), f"{name}: step {k}"
        while past.stats.iterations < taken and past.step() is not None:
            pass
        assert picture(past) == newest, f"{name}: forward again from step {k}"


def test_the_timeline_keeps_each_steps_node_best_move_and_value() -> None:
    state = make_game("connect4").start()
    searcher = make_searcher("bestfirst", state)
    timeline = Timeline()
    bests = []
    for _ in range(40):
        step = searcher.step()
        assert step is not None
        timeline.record(step, searcher.best_move(), searcher.value().first())
        bests.append(searcher.best_move())
        last = step
    assert len(timeline) == 40
    event = timeline.event(39)
    assert event.step == 40
    assert event.path == tuple(last.node.moves())
    assert event.added == len(last.added) and event.changed == len(last.changed)
    assert event.value == searcher.value().first() and timeline.best(40) == searcher.best_move()
    assert timeline.best(0) is None and timeline.value(0) is None
    changes = timeline.best_changes()
    assert changes[0] == 1
    assert changes == [k for k in range(1, 41) if k == 1 or bests[k - 1] != bests[k - 2]]
    assert list(timeline.values(3)) == [timeline.value(1), timeline.value(2), timeline.value(3)]
    assert 0 < timeline.nbytes() < 40 * 64


def test_a_rebuild_stops_when_asked() -> None:
    stop = threading.Event()
    stop.set()
    state = make_game("connect4").start()
    assert rebuild(lambda: make_searcher("rivest", state), 5000, stop) is None


UNDOING: tuple[tuple[str, dict[str, object]], ...] = (
    ("rivest", {}),
    ("rivest", {"mode": "mean"}),
    ("rivest", {"accounting": False}),
    ("bestfirst", {}),
)
"""Searchers that take steps back in place (``Searcher.undo``), with parameters that change what a step does."""


@pytest.mark.parametrize(("name", "params"), UNDOING, ids=lambda p: str(p))
@pytest.mark.parametrize("position", ["connect4:5x4", "connect4", "nim"])
def test_undo_takes_each_step_back_to_exactly_the_tree_before_it(
    name: str, params: dict[str, object], position: str
) -> None:
    state = make_game(position).start() if position != "nim" else make_game("nim").parse("3,4,5")
    searcher = make_searcher(name, state, params)
    pictures = [picture(searcher)]
    paths: list[tuple[object, ...]] = []
    while len(paths) < 150 and (step := searcher.step()) is not None:
        paths.append(tuple(step.node.moves()))
        pictures.append(picture(searcher))
    assert len(paths) > 20
    for k in range(len(paths), 0, -1):
        assert searcher.undo(paths[k - 1]), f"{name}: undo of step {k}"
        assert picture(searcher) == pictures[k - 1], f"{name}: back to step {k - 1}"
    searcher.run(Limit(iterations=len(paths)))
    assert picture(searcher) == pictures[-1]


@pytest.mark.parametrize("name", sorted(algorithms()))
def test_a_searcher_undoes_exactly_or_not_at_all(name: str) -> None:
    state = start_for(name)
    searcher, taken = stepped(name, state, 30)
    before = picture(searcher)
    if not searcher.undo(tuple(taken[-1].node.moves())):
        assert picture(searcher) == before
        return
    fresh, _ = stepped(name, state, len(taken) - 1)
    assert picture(searcher) == picture(fresh)


def test_undo_refuses_the_full_width_phase_of_best_first() -> None:
    searcher = make_searcher("bestfirst", make_game("connect4").start(), {"ab_depth": 2})
    step = searcher.step()
    assert step is not None
    assert not searcher.undo(tuple(step.node.moves()))
    assert searcher.stats.iterations == 1
