"""Going back in place (``plyscope.engine.travel``: ``Travel.back`` and ``forth``) for proof-number search,
alpha-beta, Rivest's method, best-first minimax, MCTS and flat Monte Carlo: every step
reached equals a fresh search stepped as far, node for node and number for number, and stepping on from it
retraces the original search."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plyscope.engine.games import State
from plyscope.engine.kits import make_game
from plyscope.engine.search.alphabeta import checkpoints
from plyscope.engine.search.alphabeta.searcher import AlphaBeta
from plyscope.engine.search.base import Limit, Node, Searcher
from plyscope.engine.search.bestfirst.expansions import Expansions
from plyscope.engine.search.montecarlo.journal import MonteCarloJournal
from plyscope.engine.search.registry import algorithm, algorithms, make_searcher, plays
from plyscope.engine.travel import protocol, travel_of
from plyscope.engine.travel.protocol import Travel
from plyscope.engine.travel.replay import Replay
from tests.engine.test_timeline import full_picture, monte_carlo_start, picture, undone

VARIANTS: dict[str, tuple[dict[str, object], ...]] = {
    "pns": ({"target": "draw-or-win"},),
    "alphabeta": (
        {"tt": True},
        {"ordering": "history", "tt": True},
        {"ordering": "static", "tt": True},
        {"ordering": "static-all", "accounting": True},
        {"depth": 3},
        {"start_depth": 2, "ordering": "history"},
    ),
    "rivest": ({"mode": "mean", "accounting": True},),
    "mcts": ({"solver": True, "k": 3},),
}
"""Parameters that change what a step does or keeps (tables, history, sorting, proofs, batches)."""
REWINDING: tuple[tuple[str, dict[str, object]], ...] = tuple(
    (name, params)
    for name, info in algorithms().items()
    if info.journal is not None
    for params in ({}, *VARIANTS.get(name, ()))
)
"""Every searcher whose registry entry declares a journal (it rewinds in place), with its defaults and its
``VARIANTS``."""

POSITIONS = (("connect4:5x4", ""), ("connect4", "4453"), ("nim", "3,4,5"), ("grundy", "9"))
"""Connect Four (a small board, where alpha-beta and proof-number search finish, and the full one) and Nim
(classic, and Grundy's game: both searches finish on it)."""


def start(game: str, position: str) -> State:
    made = make_game(game)
    return made.parse(position) if position else made.start()


def cases(names: tuple[str, ...] = ()) -> list[tuple[str, dict[str, object], str, str]]:
    """Every searcher that rewinds (or those of ``names``) on every position it plays."""
    return [
        (name, params, game, position)
        for name, params in REWINDING
        for game, position in POSITIONS
        if plays(algorithm(name), make_game(game)) and (not names or name in names)
    ]


def journaled(kind: type[Travel[Searcher[Node]]]) -> tuple[str, ...]:
    """The registered searchers whose journal is a ``kind`` (made with their defaults on Connect Four)."""
    start = make_game("connect4:5x4").start()
    return tuple(
        name
        for name, info in algorithms().items()
        if plays(info, start.game) and isinstance(travel_of(make_searcher(name, start)), kind)
    )


@pytest.fixture
def short_checkpoints(monkeypatch: pytest.MonkeyPatch) -> None:
    """Alpha-beta's checkpoints every 5 steps, so that a few hundred steps go through many of them, and its
    replays from an iteration's start 20 steps at a time."""
    monkeypatch.setattr(checkpoints, "CHECKPOINT_STEPS", 5)
    monkeypatch.setattr(checkpoints, "REPLAY_SLICE", 20)


def recorded(
    name: str, params: dict[str, object], state: State, steps: int
) -> tuple[Searcher[Node], list[list[object]]]:
    """A search stepped ``steps`` times (fewer if it finishes), and its picture after every step (0 included)."""
    searcher = make_searcher(name, state, params)
    pictures = [picture(searcher)]
    while len(pictures) <= steps and searcher.step() is not None:
        pictures.append(picture(searcher))
    return searcher, pictures


def finished(searcher: Searcher[Node]) -> bool:
    return searcher.finished


def rewound(searcher: Searcher[Node], step: int) -> None:
    """``searcher`` taken back to ``step`` as the timeline does: rewound in slices, then run on if it replays."""
    while searcher.stats.iterations > step:
        travel_of(searcher).back(step)
    searcher.run(Limit(iterations=step - searcher.stats.iterations))


@pytest.mark.usefixtures("short_checkpoints")
@pytest.mark.parametrize(("name", "params", "game", "position"), cases(), ids=str)
def test_rewinding_to_any_step_gives_a_fresh_search_of_that_many_steps(
    name: str, params: dict[str, object], game: str, position: str
) -> None:
    state = start(game, position)
    searcher, pictures = recorded(name, params, state, 300)
    taken = len(pictures) - 1
    assert taken > 20
    draw = random.Random(f"{name}{params}{game}")
    for _ in range(8):
        back = draw.randrange(searcher.stats.iterations + 1)
        rewound(searcher, back)
        assert searcher.stats.iterations == back
        assert picture(searcher) == pictures[back], f"back to step {back}"
        ahead = draw.randrange(back, taken + 1)
        while searcher.stats.iterations < ahead:
            assert searcher.step() is not None
        assert picture(searcher) == pictures[ahead], f"from step {back} on to step {ahead}"
    for back in sorted({0, 1, taken // 2, taken - 1}):
        rewound(searcher, back)
        fresh_made = make_searcher(name, state, params)
        while fresh_made.stats.iterations < back:
            assert fresh_made.step() is not None
        assert picture(searcher) == picture(fresh_made), f"back to step {back}"
        if isinstance(searcher, AlphaBeta):
            assert isinstance(fresh_made, AlphaBeta)
            assert searcher.table == fresh_made.table, "the transposition table as it was"
            assert searcher.history == fresh_made.history, "the history scores as they were"
        while searcher.step() is not None and searcher.stats.iterations < taken:
            pass
        assert picture(searcher) == pictures[taken], f"from step {back} on to the newest"


@pytest.mark.usefixtures("short_checkpoints")
@pytest.mark.parametrize(
    ("name", "params", "game", "position"), cases(("pns", *journaled(checkpoints.Checkpoints))), ids=str
)  # (Rivest's and best-first's: tests/engine/test_timeline.py)
def test_undo_takes_every_step_back_and_stepping_again_goes_beyond(
    name: str, params: dict[str, object], game: str, position: str
) -> None:
    state = start(game, position)
    searcher, pictures = recorded(name, params, state, 120)
    taken = len(pictures) - 1
    for step in range(taken, 0, -1):
        assert undone(searcher), f"undo of step {step}"
        assert picture(searcher) == pictures[step - 1], f"back to step {step - 1}"
    assert not undone(searcher)  # nothing before the start
    further_made = make_searcher(name, state, params)  # stepping on past where the search had been
    while further_made.step() is not None and further_made.stats.iterations < taken + 150:
        pass
    while searcher.step() is not None and searcher.stats.iterations < taken + 150:
        pass
    assert picture(searcher) == picture(further_made)


@pytest.mark.parametrize("name", ["pns", "alphabeta"])
@pytest.mark.parametrize(("game", "position"), [("grundy", "9"), ("nim", "2,3"), ("connect4:5x4", "4335341511345")])
def test_a_finished_search_goes_back_and_finishes_again(name: str, game: str, position: str) -> None:
    state = start(game, position)
    searcher, pictures = recorded(name, {}, state, 3000)  # both finish in a few hundred steps
    assert searcher.finished
    taken = searcher.stats.iterations
    proven = searcher.proven()
    assert proven is not None
    assert undone(searcher)
    assert not finished(searcher) and picture(searcher) == pictures[taken - 1]
    rewound(searcher, taken // 2)
    assert not finished(searcher) and picture(searcher) == pictures[taken // 2]
    while searcher.step() is not None:
        pass
    assert finished(searcher) and searcher.stats.iterations == taken and picture(searcher) == pictures[taken]
    assert searcher.proven() == proven


@pytest.mark.usefixtures("short_checkpoints")
@pytest.mark.parametrize("params", [{}, {"ordering": "history", "tt": True}, {"ordering": "static-all"}])
def test_alphabeta_goes_back_across_iterations(params: dict[str, object]) -> None:
    """Into the iteration running, the last complete one (whose tree is whole), and older ones (whose trees were
    cut to their principal variations, so that they are replayed from their start); at each iteration's first
    step and the step before it."""
    state = start("connect4", "")
    searcher, pictures = recorded("alphabeta", params, state, 1500)
    assert isinstance(searcher, AlphaBeta)
    journal = travel_of(searcher)
    assert isinstance(journal, checkpoints.Checkpoints)
    rounds = [(r.start, r.depth) for r in journal.rounds]
    assert len(rounds) >= 4
    assert [r.whole for r in journal.rounds][:-2] == [False] * (len(rounds) - 2)
    edges = sorted({step + delta for step, _ in rounds for delta in (-1, 0, 1) if step + delta >= 0})
    for back in reversed(edges):  # newest first: each is an iteration further back
        rewound(searcher, back)
        assert picture(searcher) == pictures[back], f"back to step {back}"
    for back in edges:  # forward again, then back, from one edge to the next
        while searcher.stats.iterations < min(back + 40, len(pictures) - 1):
            assert searcher.step() is not None
        rewound(searcher, back)
        assert picture(searcher) == pictures[back], f"back to step {back} from 40 steps on"
    while searcher.stats.iterations < len(pictures) - 1:
        assert searcher.step() is not None
    assert picture(searcher) == pictures[-1]
    assert [(r.start, r.depth) for r in journal.rounds] == rounds


def test_alphabeta_goes_back_by_at_most_a_checkpoint_interval() -> None:
    """Going back one step from the newest costs a restore and a replay shorter than ``CHECKPOINT_STEPS``; the
    checkpoints and journals take a small share of the tree's memory."""
    searcher = make_searcher("alphabeta", start("connect4", ""), {})
    searcher.run(Limit(iterations=5000))
    travel = travel_of(searcher)
    assert 0 < travel.cost(4999) <= checkpoints.CHECKPOINT_STEPS + checkpoints.RESTORE_COST
    assert travel.nbytes() < 0.02 * searcher.stats.nodes * 192
    assert undone(searcher)
    assert searcher.stats.iterations == 4999


def test_pns_rewinds_in_slices_and_costs_less_than_a_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(protocol, "REWIND_SLICE", 300)
    state = start("connect4", "")
    searcher = make_searcher("pns", state, {})
    searcher.run(Limit(iterations=3000))
    travel = travel_of(searcher)
    assert travel.cost(1000) < 2000
    assert travel.nbytes() < 0.02 * searcher.stats.nodes * 104
    reached = [travel.back(1000) for _ in range(7)]
    assert reached == [2700, 2400, 2100, 1800, 1500, 1200, 1000]
    fresh = make_searcher("pns", state, {})
    fresh.run(Limit(iterations=1000))
    assert picture(searcher) == picture(fresh)


@pytest.mark.parametrize("name", ["rivest", "bestfirst"])
@pytest.mark.parametrize(("game", "position"), [("grundy", "9"), ("nim", "2,3")])
def test_a_finished_minimax_search_goes_back_in_slices_and_finishes_again(
    name: str, game: str, position: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(protocol, "REWIND_SLICE", 7)
    state = start(game, position)
    searcher, pictures = recorded(name, {}, state, 3000)
    assert finished(searcher)
    taken = searcher.stats.iterations
    assert travel_of(searcher).cost(0) < taken
    assert travel_of(searcher).back(0) == max(0, taken - 7)  # one slice at a time
    rewound(searcher, taken // 3)
    assert not finished(searcher) and picture(searcher) == pictures[taken // 3]
    while searcher.step() is not None:
        pass
    assert finished(searcher) and searcher.stats.iterations == taken and picture(searcher) == pictures[taken]


def test_best_first_with_a_full_width_phase_does_not_rewind() -> None:
    searcher = make_searcher("bestfirst", start("connect4", ""), {"ab_depth": 2})
    searcher.run(Limit(iterations=20))
    assert isinstance(travel_of(searcher), Replay) and travel_of(searcher).cost(10) == math.inf


@pytest.mark.parametrize(("name", "params", "game", "position"), cases(journaled(Expansions)), ids=str)
def test_steps_taken_back_are_taken_again_in_place(
    name: str, params: dict[str, object], game: str, position: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``forth`` after ``back``: every step reached equals the recorded search, in slices, and a step taken anew
    drops what was kept (``forth`` then runs the search on)."""
    monkeypatch.setattr(protocol, "REWIND_SLICE", 13)
    state = start(game, position)
    searcher, pictures = recorded(name, params, state, 200)
    taken = len(pictures) - 1
    draw = random.Random(f"again {name}{params}{game}")
    for _ in range(8):
        back = draw.randrange(searcher.stats.iterations)  # back from where it is: every step beyond stays kept
        rewound(searcher, back)
        ahead = draw.randrange(back + 1, taken + 1)
        while searcher.stats.iterations < ahead:
            reached = travel_of(searcher).forth(ahead)
            assert reached <= ahead
        assert picture(searcher) == pictures[ahead], f"from step {back} again to {ahead}"
    rewound(searcher, taken // 2)
    assert searcher.step() is not None  # taken anew: what was taken back is dropped
    assert picture(searcher) == pictures[taken // 2 + 1]
    assert travel_of(searcher).forth(taken) == taken  # run on at once, not taken again in slices
    assert picture(searcher) == pictures[taken]


# --- MCTS and flat Monte Carlo: many steps back (and again) at once, from the journal ---

DRAWN = "231634161247672231544674712724167"
"""A Connect Four position drawn with best play, which MCTS-Solver proves a draw in 144 steps (seed 11)."""

MONTE_CARLO: tuple[tuple[str, str, dict[str, object]], ...] = (
    ("mcts", "connect4:5x4", {}),
    ("mcts", "connect4:5x4@4335341511345", {}),
    ("mcts", "connect4", {"k": 4}),
    ("mcts", "connect4:5x4@4335341511345", {"solver": True}),
    ("mcts", "connect4:5x4@43353415", {"partial": True, "solver": True, "k": 3}),
    ("mcts", "nim:3,4,5", {}),
    ("mcts", "nim:3,4,5", {"k": 3, "partial": True}),
    ("mcts", "nim:1,2,3", {"solver": True}),
    ("mcts", f"connect4@{DRAWN}", {"solver": True}),
    ("mcts", f"connect4@{DRAWN}", {"solver": True, "partial": True, "k": 3}),
    ("mcts", "connect4-chance", {}),
    ("mcts", "connect4-chance:5x4@4433335533441155113344", {}),
    ("mcts", "connect4-chance:5x4@44333355334411", {"k": 3, "partial": True}),
    ("flat-mc", "connect4", {}),
    ("flat-mc", "nim:3,4,5", {"k": 2}),
    ("flat-mc", "connect4-chance", {}),
)
"""Searcher, game (``nim:PILES`` for a Nim position, ``GAME@MOVES`` for a position after ``MOVES``) and parameters:
k = 1 and k > 1 (numpy batches on Connect Four), partial expansion, MCTS-Solver (proofs; the searches of Nim 1,2,3
and of ``DRAWN`` prove their root, a loss and a draw, and finish), chance; near the end of a game, steps that reach a
finished game already in the tree (and add nothing)."""


def mc_start(game: str) -> State:
    name, at, moves = game.partition("@")
    return make_game(name).parse(moves) if at else monte_carlo_start(game)


def exact_picture(searcher: Searcher[Node]) -> list[object]:
    """``full_picture`` (every node's numbers, untried moves in order and proof, the stats, the stream's position),
    and every node's visits and total as they are, and the playout moves."""
    raw = [(getattr(node, "visits", None), getattr(node, "total", None)) for node in searcher.walk()]
    return [*full_picture(searcher), raw, searcher.stats.playout_moves]


def monte_carlo_recorded(
    name: str, game: str, params: dict[str, object], steps: int
) -> tuple[Searcher[Node], list[list[object]]]:
    searcher = make_searcher(name, mc_start(game), params, seed=11)
    pictures = [exact_picture(searcher)]
    while len(pictures) <= steps and searcher.step() is not None:
        pictures.append(exact_picture(searcher))
    return searcher, pictures


def rewound_in_slices(searcher: Searcher[Node], step: int) -> None:
    """``searcher`` rewound to ``step``, every call a slice that ends above ``step`` or at it."""
    while searcher.stats.iterations > step:
        before = searcher.stats.iterations
        reached = travel_of(searcher).back(step)
        assert step <= reached < before and reached == searcher.stats.iterations


def forward(searcher: Searcher[Node], step: int, again: bool) -> None:
    """``searcher`` on to ``step``: the steps taken back taken again in place (``forth``) if ``again``, and as far
    as they are kept, then run on; else stepped."""
    while searcher.stats.iterations < step:
        if again:
            reached = travel_of(searcher).forth(step)
            assert reached <= step and reached == searcher.stats.iterations
        else:
            assert searcher.step() is not None


@pytest.mark.parametrize(("name", "game", "params"), MONTE_CARLO, ids=str)
def test_monte_carlo_rewinds_to_any_step_and_goes_on_exactly(
    name: str, game: str, params: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Back to random steps in slices, then on (again in place, or stepped anew): every step reached is the recorded
    one; back to a few steps, a fresh search stepped as far; stepping on from there retraces the search."""
    monkeypatch.setattr(protocol, "REWIND_SLICE", 23)
    searcher, pictures = monte_carlo_recorded(name, game, params, 300)
    taken = len(pictures) - 1
    assert taken > 40
    if params.get("solver") and (game.startswith("nim") or DRAWN in game):
        assert searcher.finished and taken < 300, "the root is proven: going back must clear finished"
        assert exact_picture(searcher)[8] == (0.0 if DRAWN in game else -1.0), "a proven result's value, exactly"
    draw = random.Random(f"{name}{params}{game}")
    for round_ in range(12):
        back = draw.randrange(searcher.stats.iterations + 1)
        assert travel_of(searcher).cost(back) < max(1, searcher.stats.iterations - back)
        rewound_in_slices(searcher, back)
        assert exact_picture(searcher) == pictures[back], f"back to step {back}"
        ahead = draw.randrange(back, taken + 1)
        forward(searcher, ahead, again=round_ % 3 != 2)
        assert exact_picture(searcher) == pictures[ahead], f"from step {back} on to step {ahead}"
    for back in sorted({0, 1, taken // 2, taken - 1}):
        forward(searcher, taken, again=True)
        rewound_in_slices(searcher, back)
        fresh = make_searcher(name, mc_start(game), params, seed=11)
        fresh.run(Limit(iterations=back))
        assert exact_picture(searcher) == exact_picture(fresh), f"back to step {back}"
    forward(searcher, taken, again=True)
    assert exact_picture(searcher) == pictures[taken]
    rewound_in_slices(searcher, taken // 3)
    while searcher.step() is not None and searcher.stats.iterations < taken:  # stepped anew: the same steps
        pass
    assert exact_picture(searcher) == pictures[taken]


@pytest.mark.parametrize("name", ["mcts", "flat-mc"])
def test_monte_carlo_takes_again_only_what_it_kept(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``forth`` takes again in place no further than the steps taken back, then runs on; a step taken anew drops
    them; ``back`` at or past the step shown changes nothing; one step back and again."""
    monkeypatch.setattr(protocol, "REWIND_SLICE", 50)
    searcher, pictures = monte_carlo_recorded(name, "connect4", {"k": 2}, 200)
    travel = travel_of(searcher)
    assert travel.forth(200) == 200 and exact_picture(searcher) == pictures[200]
    assert travel.back(200) == 200 and travel.back(250) == 200
    rewound_in_slices(searcher, 120)
    assert travel.forth(110) == 120, "no further back than the step shown"
    assert travel.forth(400) == 170 and travel.forth(400) == 200, "taken again in slices, as far as kept"
    assert exact_picture(searcher) == pictures[200]
    rewound_in_slices(searcher, 90)
    assert travel.forth(100) == 100 and exact_picture(searcher) == pictures[100]
    assert searcher.step() is not None and exact_picture(searcher) == pictures[101]
    assert travel.back(100) == 100 and exact_picture(searcher) == pictures[100]
    assert travel.forth(101) == 101 and exact_picture(searcher) == pictures[101]
    assert travel.forth(200) == 200, "the steps after 101 dropped: run on at once, not in slices"
    assert exact_picture(searcher) == pictures[200]


@pytest.fixture(scope="module")
def solver_search() -> tuple[str, dict[str, object], list[list[object]]]:
    """A search with partial expansion and proofs near the end of a game, recorded step by step."""
    params: dict[str, object] = {"solver": True, "partial": True, "k": 2}
    _, pictures = monte_carlo_recorded("mcts", "connect4:5x4@4335341511345", params, 250)
    return "connect4:5x4@4335341511345", params, pictures


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    moves=st.lists(st.tuples(st.sampled_from(["back", "again", "step"]), st.floats(0, 1)), min_size=1, max_size=8),
    slice_steps=st.integers(1, 80),
)
def test_monte_carlo_goes_back_and_forth_in_any_order(
    solver_search: tuple[str, dict[str, object], list[list[object]]],
    moves: list[tuple[str, float]],
    slice_steps: int,
) -> None:
    """Any sequence of jumps back (``back``), forward in place (``forth``) and stepping on, in slices of any size:
    every step reached is the recorded one."""
    game, params, pictures = solver_search
    taken = len(pictures) - 1
    searcher = make_searcher("mcts", mc_start(game), params, seed=11)
    searcher.run(Limit(iterations=taken))
    original = protocol.REWIND_SLICE
    protocol.REWIND_SLICE = slice_steps
    try:
        for move, where in moves:
            shown = searcher.stats.iterations
            if move == "back":
                step = int(where * shown)
                rewound_in_slices(searcher, step)
            else:
                step = shown + int(where * (taken - shown))
                forward(searcher, step, again=move == "again")
            assert exact_picture(searcher) == pictures[step], f"{move} to step {step}"
    finally:
        protocol.REWIND_SLICE = original


@pytest.mark.parametrize(("game", "params", "steps"), [("nim:300,7", {}, 60), ("connect4", {"k": 4000}, 12)], ids=str)
def test_monte_carlo_journal_widens_what_does_not_fit(game: str, params: dict[str, object], steps: int) -> None:
    """An untried move's place past 255 (a Nim pile of 300) and playout moves past 65,535 in a step (4,000 playouts):
    the journal's arrays widen, and going back and forth stays exact."""
    searcher, pictures = monte_carlo_recorded("mcts", game, params, steps)
    journal = travel_of(searcher)
    assert isinstance(journal, MonteCarloJournal)
    widened = (journal._places, journal._played)
    assert any(values.typecode != start for values, start in zip(widened, "BH", strict=True))
    for back, ahead in ((steps // 2, steps), (1, steps // 3), (0, steps)):
        rewound_in_slices(searcher, back)
        assert exact_picture(searcher) == pictures[back], f"back to step {back}"
        forward(searcher, ahead, again=True)
        assert exact_picture(searcher) == pictures[ahead], f"again to step {ahead}"


@pytest.mark.parametrize(("name", "params", "game", "position"), cases(journaled(Expansions)), ids=str)
def test_going_forth_to_where_a_rewind_started_gives_the_numbers_back_without_rescoring(
    name: str, params: dict[str, object], game: str, position: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``forth`` to the step a ``back`` call started from gives every node back its numbers (``Expansions``:
    the tree after a step is always the same) and rescores none; to a step between, or through a group taken
    again in part before, it rescores.  Random jumps back and forth, groups within groups, both ways checked
    against the recorded search."""
    monkeypatch.setattr(protocol, "REWIND_SLICE", 17)
    state = start(game, position)
    searcher, pictures = recorded(name, params, state, 150)
    taken = len(pictures) - 1
    journal = travel_of(searcher)
    assert isinstance(journal, Expansions)
    rescore: Callable[[Any], object] = journal._rescore
    rescored: list[Node] = []

    def counted(node: Node) -> object:
        rescored.append(node)
        return rescore(node)

    monkeypatch.setattr(journal, "_rescore", counted)
    draw = random.Random(f"exact {name}{params}{game}")
    starts: list[int] = []
    """The steps the rewind calls started from, whose groups are still kept."""
    ways = {"given back": 0, "rescored": 0}
    for _ in range(30):
        here = searcher.stats.iterations
        if here > 0 and (here == taken or draw.random() < 0.5):
            back = draw.randrange(here)
            while searcher.stats.iterations > back:
                starts.append(searcher.stats.iterations)
                journal.back(back)
        else:
            ahead = [s for s in starts if s > here]
            goal = draw.choice(ahead) if ahead and draw.random() < 0.6 else draw.randrange(here + 1, taken + 1)
            while searcher.stats.iterations < goal:
                rescored.clear()
                reached = journal.forth(goal)
                assert reached <= goal
                if not rescored:
                    ways["given back"] += 1
                    assert reached in starts, "numbers given back only at a step a rewind started from"
                else:
                    ways["rescored"] += 1
            starts = [s for s in starts if s > goal]
        assert picture(searcher) == pictures[searcher.stats.iterations], f"at step {searcher.stats.iterations}"
    assert ways["given back"] > 0 and ways["rescored"] > 0, ways
