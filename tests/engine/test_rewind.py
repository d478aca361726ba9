"""Going back in place (``Searcher.undo``, ``Searcher.rewind``) for proof-number search, alpha-beta, Rivest's method
and best-first minimax: every step
reached equals a fresh search stepped as far, node for node and number for number, and stepping on from it
retraces the original search."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.games import State, make_game
from engine.search import alphabeta, base
from engine.search.alphabeta import AlphaBeta
from engine.search.base import Limit, Node, Searcher
from engine.search.bestfirst import BestFirst
from engine.search.pns import ProofNumberSearch
from engine.search.registry import make_searcher
from engine.search.rivest import Rivest
from tests.engine.test_timeline import picture

REWINDING: tuple[tuple[str, dict[str, object]], ...] = (
    ("pns", {}),
    ("pns", {"target": "draw-or-win"}),
    ("alphabeta", {}),
    ("alphabeta", {"tt": True}),
    ("alphabeta", {"ordering": "history", "tt": True}),
    ("alphabeta", {"ordering": "static", "tt": True}),
    ("alphabeta", {"ordering": "static-all", "accounting": True}),
    ("alphabeta", {"depth": 3}),
    ("alphabeta", {"start_depth": 2, "ordering": "history"}),
    ("ab-rivest", {}),
    ("rivest", {}),
    ("rivest", {"mode": "mean", "accounting": True}),
    ("bestfirst", {}),
)
"""Searchers that rewind, with parameters that change what a step does or keeps (tables, history, sorting)."""

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
        if (name != "ab-rivest" or game.startswith("connect4")) and (not names or name in names)
    ]


@pytest.fixture
def short_checkpoints(monkeypatch: pytest.MonkeyPatch) -> None:
    """Alpha-beta's checkpoints every 5 steps, so that a few hundred steps go through many of them, and its
    replays from an iteration's start 20 steps at a time."""
    monkeypatch.setattr(alphabeta, "CHECKPOINT_STEPS", 5)
    monkeypatch.setattr(alphabeta, "REPLAY_SLICE", 20)


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
        searcher.rewind(step)
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
    for _ in range(15):
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
            assert searcher._table == fresh_made._table, "the transposition table as it was"
            assert searcher._history == fresh_made._history, "the history scores as they were"
        while searcher.step() is not None and searcher.stats.iterations < taken:
            pass
        assert picture(searcher) == pictures[taken], f"from step {back} on to the newest"


@pytest.mark.usefixtures("short_checkpoints")
@pytest.mark.parametrize(
    ("name", "params", "game", "position"), cases(("pns", "alphabeta", "ab-rivest")), ids=str
)  # (Rivest's and best-first's undo check the path they are given: tests/engine/test_timeline.py gives it)
def test_undo_takes_every_step_back_and_stepping_again_goes_beyond(
    name: str, params: dict[str, object], game: str, position: str
) -> None:
    state = start(game, position)
    searcher, pictures = recorded(name, params, state, 120)
    taken = len(pictures) - 1
    for step in range(taken, 0, -1):
        assert searcher.undo(()), f"undo of step {step}"
        assert picture(searcher) == pictures[step - 1], f"back to step {step - 1}"
    assert not searcher.undo(())  # nothing before the start
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
    assert searcher.undo(())
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
    rounds = [(r.start, r.depth) for r in searcher._past.rounds]
    assert len(rounds) >= 4
    assert [r.whole for r in searcher._past.rounds][:-2] == [False] * (len(rounds) - 2)
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
    assert [(r.start, r.depth) for r in searcher._past.rounds] == rounds


def test_alphabeta_goes_back_by_at_most_a_checkpoint_interval() -> None:
    """Going back one step from the newest costs a restore and a replay shorter than ``CHECKPOINT_STEPS``; the
    checkpoints and journals take a small share of the tree's memory."""
    searcher = make_searcher("alphabeta", start("connect4", ""), {})
    searcher.run(Limit(iterations=5000))
    assert 0 < searcher.rewind_cost(4999) <= alphabeta.CHECKPOINT_STEPS + alphabeta.RESTORE_COST  # type: ignore[operator]
    assert searcher.journal_nbytes() < 0.02 * searcher.stats.nodes * 192
    assert searcher.undo(())
    assert searcher.stats.iterations == 4999


def test_pns_rewinds_in_slices_and_costs_less_than_a_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(base, "REWIND_SLICE", 300)
    state = start("connect4", "")
    searcher = make_searcher("pns", state, {})
    searcher.run(Limit(iterations=3000))
    cost = searcher.rewind_cost(1000)
    assert cost is not None and cost < 2000
    assert searcher.journal_nbytes() < 0.02 * searcher.stats.nodes * 104
    reached = [searcher.rewind(1000) for _ in range(7)]
    assert reached == [2700, 2400, 2100, 1800, 1500, 1200, 1000]
    fresh = make_searcher("pns", state, {})
    fresh.run(Limit(iterations=1000))
    assert picture(searcher) == picture(fresh)


@pytest.mark.parametrize("name", ["rivest", "bestfirst"])
@pytest.mark.parametrize(("game", "position"), [("grundy", "9"), ("nim", "2,3")])
def test_a_finished_minimax_search_goes_back_in_slices_and_finishes_again(
    name: str, game: str, position: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(base, "REWIND_SLICE", 7)
    state = start(game, position)
    searcher, pictures = recorded(name, {}, state, 3000)
    assert finished(searcher)
    taken = searcher.stats.iterations
    cost = searcher.rewind_cost(0)
    assert cost is not None and cost < taken
    assert searcher.rewind(0) == max(0, taken - 7)  # one slice at a time
    rewound(searcher, taken // 3)
    assert not finished(searcher) and picture(searcher) == pictures[taken // 3]
    while searcher.step() is not None:
        pass
    assert finished(searcher) and searcher.stats.iterations == taken and picture(searcher) == pictures[taken]


def test_best_first_with_a_full_width_phase_does_not_rewind() -> None:
    searcher = make_searcher("bestfirst", start("connect4", ""), {"ab_depth": 2})
    searcher.run(Limit(iterations=20))
    assert searcher.rewind_cost(10) is None
    assert not searcher.undo(())


@pytest.mark.parametrize(("name", "params", "game", "position"), cases(("pns", "rivest", "bestfirst")), ids=str)
def test_steps_taken_back_are_taken_again_in_place(
    name: str, params: dict[str, object], game: str, position: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``redo`` after ``rewind``: every step reached equals the recorded search, in slices, and a step taken anew
    drops what was kept."""
    monkeypatch.setattr(base, "REWIND_SLICE", 13)
    state = start(game, position)
    searcher, pictures = recorded(name, params, state, 200)
    taken = len(pictures) - 1
    draw = random.Random(f"again {name}{params}{game}")
    for _ in range(8):
        back = draw.randrange(searcher.stats.iterations)  # back from where it is: every step beyond stays kept
        rewound(searcher, back)
        ahead = draw.randrange(back + 1, taken + 1)
        while searcher.stats.iterations < ahead:
            reached = searcher.redo(ahead)
            assert reached is not None and reached <= ahead
        assert picture(searcher) == pictures[ahead], f"from step {back} again to {ahead}"
    rewound(searcher, taken // 2)
    assert searcher.step() is not None  # taken anew: what was taken back is dropped
    assert searcher.redo(taken) is None and picture(searcher) == pictures[taken // 2 + 1]
    searcher.run(Limit(iterations=taken - searcher.stats.iterations))
    assert picture(searcher) == pictures[taken]


@pytest.mark.parametrize(("name", "params", "game", "position"), cases(("rivest", "bestfirst", "pns")), ids=str)
def test_going_forth_to_where_a_rewind_started_gives_the_numbers_back_without_rescoring(
    name: str, params: dict[str, object], game: str, position: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``redo`` to the step a ``rewind`` call started from gives every node back its numbers (``Expansions``:
    the tree after a step is always the same) and rescores none; to a step between, or through a group taken
    again in part before, it rescores.  Random jumps back and forth, groups within groups, both ways checked
    against the recorded search."""
    monkeypatch.setattr(base, "REWIND_SLICE", 17)
    state = start(game, position)
    searcher, pictures = recorded(name, params, state, 150)
    taken = len(pictures) - 1
    assert isinstance(searcher, (Rivest, BestFirst, ProofNumberSearch))
    journal = searcher._expansions
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
                searcher.rewind(back)
        else:
            ahead = [s for s in starts if s > here]
            goal = draw.choice(ahead) if ahead and draw.random() < 0.6 else draw.randrange(here + 1, taken + 1)
            while searcher.stats.iterations < goal:
                rescored.clear()
                reached = searcher.redo(goal)
                assert reached is not None and reached <= goal
                if not rescored:
                    ways["given back"] += 1
                    assert reached in starts, "numbers given back only at a step a rewind started from"
                else:
                    ways["rescored"] += 1
            starts = [s for s in starts if s > goal]
        assert picture(searcher) == pictures[searcher.stats.iterations], f"at step {searcher.stats.iterations}"
    assert ways["given back"] > 0 and ways["rescored"] > 0, ways
