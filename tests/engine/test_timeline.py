"""The timeline: every past step rebuilt exactly, for every registered searcher."""

from __future__ import annotations

import math
import threading

import pytest

from plyscope.engine.games import State
from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Limit, Node, Searcher, Step
from plyscope.engine.search.montecarlo.journal import MonteCarloJournal
from plyscope.engine.search.registry import algorithms, make_searcher, plays
from plyscope.engine.timeline import Timeline
from plyscope.engine.travel import travel_of
from plyscope.engine.travel.replay import Replay, rebuild

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


def undone(searcher: Searcher[Node]) -> bool:
    """``searcher`` taken one step back in place as the timeline takes it (back, then on if it went further back);
    ``False`` at the start."""
    step = searcher.stats.iterations - 1
    if step < 0:
        return False
    travel = travel_of(searcher)
    travel.back(step)
    while searcher.stats.iterations < step:
        travel.forth(step)
    return True


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


UNDOING_VARIANTS: dict[str, tuple[dict[str, object], ...]] = {
    "rivest": ({"mode": "mean"}, {"accounting": True}),
    "alphabeta": ({"ordering": "history", "tt": True},),
}
"""Parameters that change what a step does (``tests/engine/test_rewind.py`` takes them further)."""
UNDO_POSITIONS = {"connect4:5x4": "", "connect4": "", "nim": "3,4,5"}
UNDOING = [
    pytest.param(name, params, game, position, id=f"{name}{params or ''}-{game}")
    for name, info in algorithms().items()
    if info.journal is not None
    for params in ({}, *UNDOING_VARIANTS.get(name, ()))
    for game, position in UNDO_POSITIONS.items()
    if plays(info, make_game(game))
]
"""Searchers that take steps back in place (their registry entry declares a journal), with their variants, on every
position they play."""


@pytest.mark.parametrize(("name", "params", "game", "position"), UNDOING)
def test_undo_takes_each_step_back_to_exactly_the_tree_before_it(
    name: str, params: dict[str, object], game: str, position: str
) -> None:
    state = make_game(game).parse(position) if position else make_game(game).start()
    searcher = make_searcher(name, state, params)
    pictures = [picture(searcher)]
    paths: list[tuple[object, ...]] = []
    while len(paths) < 150 and (step := searcher.step()) is not None:
        paths.append(tuple(step.node.moves()))
        pictures.append(picture(searcher))
    assert len(paths) > 20
    for k in range(len(paths), 0, -1):
        assert undone(searcher), f"{name}: undo of step {k}"
        assert picture(searcher) == pictures[k - 1], f"{name}: back to step {k - 1}"
    searcher.run(Limit(iterations=len(paths)))
    assert picture(searcher) == pictures[-1]


@pytest.mark.parametrize("name", sorted(algorithms()))
def test_a_searcher_undoes_exactly_or_goes_back_by_replay(name: str) -> None:
    state = start_for(name)
    searcher, taken = stepped(name, state, 30)
    if travel_of(searcher).cost(len(taken) - 1) == math.inf:
        assert isinstance(travel_of(searcher), Replay) and travel_of(searcher).nbytes() == 0
        return
    assert undone(searcher)
    fresh, _ = stepped(name, state, len(taken) - 1)
    assert picture(searcher) == picture(fresh)


def test_the_full_width_phase_of_best_first_is_replayed() -> None:
    searcher = make_searcher("bestfirst", make_game("connect4").start(), {"ab_depth": 2})
    assert searcher.step() is not None
    assert isinstance(travel_of(searcher), Replay) and travel_of(searcher).cost(0) == math.inf


# --- MCTS and flat Monte Carlo: undo winds the random stream back ---

MONTE_CARLO: tuple[tuple[str, str, dict[str, object]], ...] = (
    ("mcts", "connect4:5x4", {}),
    ("mcts", "connect4:5x4", {"k": 4}),
    ("mcts", "connect4", {"k": 16}),
    ("mcts", "connect4:5x4", {"solver": True}),
    ("mcts", "connect4:5x4", {"partial": True, "solver": True, "k": 3}),
    ("mcts", "connect4:10x10", {"k": 2}),
    ("mcts", "nim:3,4,5", {}),
    ("mcts", "nim:3,4,5", {"k": 3, "partial": True}),
    ("mcts", "nim:1,2,3", {"solver": True}),
    ("mcts", "connect4-chance", {}),
    ("mcts", "connect4-chance", {"k": 4}),
    ("flat-mc", "connect4", {}),
    ("flat-mc", "connect4", {"k": 8}),
    ("flat-mc", "nim:3,4,5", {"k": 2}),
    ("flat-mc", "connect4-chance", {"k": 2}),
)
"""Searcher, game (``nim:PILES`` for a Nim position) and parameters: k = 1 (plain playouts), k > 1 (numpy batches
on Connect Four up to 64 bits, plain ones on 10x10, Nim and with chance), partial expansion, MCTS-Solver."""


def monte_carlo_start(game: str) -> State:
    name, _, piles = game.partition(":") if game.startswith("nim") else (game, "", "")
    return make_game(name).parse(piles) if piles else make_game(name).start()


def full_picture(searcher: Searcher[Node]) -> list[object]:
    """``picture``, and what it does not show of a Monte Carlo tree: each node's untried moves in their order and
    its proof, and the position of the random stream (where the next step draws from)."""
    extra = []
    for node in searcher.walk():
        untried = getattr(node, "untried", None)
        extra.append((tuple(node.moves()), None if untried is None else tuple(untried), getattr(node, "proven", None)))
    stream = getattr(searcher, "stream", None)
    return [*picture(searcher), extra, None if stream is None else stream.position]


@pytest.mark.parametrize(("name", "game", "params"), MONTE_CARLO, ids=lambda p: str(p))
def test_undo_takes_a_monte_carlo_search_back_to_the_tree_a_fresh_search_has(
    name: str, game: str, params: dict[str, object]
) -> None:
    """After N steps, undo back to each step k gives what a fresh search stepped k times has, node for node and
    number for number (untried moves' order, proofs and the random stream's position included); stepping forward
    again then gives the original search back."""
    state = monte_carlo_start(game)
    searcher = make_searcher(name, state, params, seed=7)
    pictures = [full_picture(searcher)]
    paths: list[tuple[object, ...]] = []
    while len(paths) < 120 and (step := searcher.step()) is not None:
        paths.append(tuple(step.node.moves()))
        pictures.append(full_picture(searcher))
    total = len(paths)
    assert total > 20
    if params.get("solver") and game.startswith("nim"):
        assert searcher.finished and total < 120, "the root is proven: undo must clear finished"
    for k in range(total, 0, -1):
        assert undone(searcher), f"undo of step {k}"
        assert full_picture(searcher) == pictures[k - 1], f"back to step {k - 1}"
        if k - 1 in (total - 1, total // 2, 1):
            fresh = make_searcher(name, state, params, seed=7)
            fresh.run(Limit(iterations=k - 1))
            assert full_picture(fresh) == pictures[k - 1], f"a fresh search of {k - 1} steps"
        if k - 1 == total // 2:  # forward again from the middle, then back down as before
            for j in range(k, total + 1):
                assert searcher.step() is not None
                assert full_picture(searcher) == pictures[j], f"forward again to step {j}"
            for _ in range(total, k - 1, -1):
                assert undone(searcher)
    assert not undone(searcher)  # nothing left to take back
    searcher.run(Limit(iterations=total))
    assert full_picture(searcher) == pictures[-1]


def test_monte_carlo_undo_keeps_a_few_bytes_a_step() -> None:
    """The journal is a leaf reference and a few bytes a step (draws, result, untried place, playout moves) and the
    rare proof: well below a node's bytes (``AlgorithmInfo.node_bytes``, 200)."""
    searcher = make_searcher("mcts", make_game("connect4").start(), {"solver": True}, seed=1)
    searcher.run(Limit(iterations=3000))
    assert isinstance(travel_of(searcher), MonteCarloJournal)
    assert travel_of(searcher).nbytes() <= 16 * 3000 + 2000
    assert travel_of(make_searcher("rivest", make_game("connect4").start())).nbytes() < 400  # empty lists


def marked_moves(step: Step[Node] | None) -> set[tuple[object, ...]]:
    """The nodes a step marks in the tree pane (the node acted on, and every node it changed), by their moves."""
    return set() if step is None else {tuple(node.moves()) for node in (step.node, *step.changed)}


@pytest.mark.parametrize("name", sorted(algorithms()))
def test_the_timeline_gives_back_the_nodes_each_step_changed(name: str) -> None:
    """Each step's marks, read back from the timeline on the tree it made, are the live step's, every step."""
    states = [start_for(name)]
    if plays(algorithms()[name], make_game("connect4")):
        states.append(make_game("connect4").parse("4453"))
    for state in states:
        searcher = make_searcher(name, state, seed=7)
        timeline = Timeline()
        assert timeline.marked(searcher) is None
        while searcher.stats.iterations < 400 and (step := searcher.step()) is not None:
            timeline.record(step, searcher.best_move(), searcher.value().first())
            again = timeline.marked(searcher)
            assert again is not None and again.node is step.node and again.path == tuple(step.node.path())
            assert marked_moves(again) == marked_moves(step), f"{name}: step {searcher.stats.iterations}"
        assert timeline.upto(len(timeline)).marked(searcher) == timeline.marked(searcher)
