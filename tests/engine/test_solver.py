"""The exact Connect Four solver (Pons' scores: his sets, exhaustive search) and exact Nim values."""

from __future__ import annotations

import gc
import itertools
import random
import threading
import tracemalloc
from functools import reduce
from operator import xor

import pytest

from plyscope.engine.games import Connect4, Connect4State, Move, Nim, PositionError, State
from plyscope.engine.kits.nim import grundy_number, nim_score
from plyscope.engine.pov import PovBounds, PovScore
from plyscope.engine.search.base import Limit, SearchError
from plyscope.engine.search.registry import algorithm, make_searcher
from plyscope.engine.search.solver import SolverSearcher
from plyscope.engine.solve import PositionSolve, Solution, Stop
from plyscope.engine.solver import (
    TABLE_LIMIT,
    Connect4Solver,
    NodeBudgetSpent,
    ScoreSearch,
    centre_first,
    native_fits,
    python_kernel,
    table_slots,
    terminal_score,
    win_now_score,
)
from tests.engine.test_nim import CLASSIC, GRUNDY, MISERE, mover_wins
from tests.pons import pons_positions

GAME = Connect4()


KERNELS = pytest.mark.parametrize("native", [False, None], ids=["python-kernel", "default-kernel"])
"""Run a test with the pure Python kernel and with the default one (compiled where the board fits)."""


def for_mover(scores: dict[int, PovScore[int]], state: Connect4State) -> dict[int, int]:
    """Move scores as bare numbers, for the player to move in ``state`` (who plays them)."""
    return {move: score.pov(state.player) for move, score in scores.items()}


def exhaustive_score(state: Connect4State, memo: dict[int, int]) -> int:
    """Pons' score for the player to move by plain negamax over every line (no pruning), memoised by key."""
    key = state.key()
    if key not in memo:
        memo[key] = max(exhaustive_move_score(state, move, memo) for move in state.legal_moves())
    return memo[key]


def exhaustive_move_score(state: Connect4State, move: int, memo: dict[int, int]) -> int:
    """The score of ``move`` for the player who plays it, by ``exhaustive_score``."""
    child = state.play(move)
    if child.winner() == state.player:
        return win_now_score(state.game.cells, state.ply)
    if child.is_terminal():
        return 0
    return -exhaustive_score(child, memo)


def random_position(game: Connect4, empty: int, rng: random.Random) -> Connect4State:
    """A game still going on with ``empty`` cells left, reached by random moves that never win at once."""
    while True:
        state = game.start()
        while game.cells - state.ply > empty:
            quiet = [move for move in state.legal_moves() if not state.play(move).is_terminal()]
            if not quiet:
                break
            state = state.play(rng.choice(quiet))
        if game.cells - state.ply == empty:
            return state


# --- Pons' sets -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("file", "count", "mean_nodes_target"),
    [("Test_L3_R1", 50, 103), ("Test_L2_R1", 30, 900), ("Test_L1_R1", 20, 6_600)],
    ids=["End-Easy", "Middle-Easy", "Begin-Easy"],
)
@KERNELS
def test_exact_on_a_sample_of_pons_sets(file: str, count: int, mean_nodes_target: int, native: bool | None) -> None:
    solver = Connect4Solver(GAME, native=native)
    nodes = 0
    for moves, score in pons_positions(file, count):
        solver.reset()
        assert solver.solve(GAME.parse(moves)).relative == score, moves
        nodes += solver.nodes
    # Node counts are deterministic: the pruning stays within 2x of Pons' solver on these samples.
    assert nodes / count <= mean_nodes_target


MIDDLE_MEDIUM_CHEAP = (3, 6, 10, 11, 12, 17)
"""Indices in Middle-Medium (``Test_L2_R2``) of positions that take at most about 10,000 nodes."""


def test_exact_on_a_handful_of_middle_medium_positions() -> None:
    positions = pons_positions("Test_L2_R2", max(MIDDLE_MEDIUM_CHEAP) + 1)
    solver = Connect4Solver(GAME)
    for index in MIDDLE_MEDIUM_CHEAP:
        moves, score = positions[index]
        solver.reset()
        assert solver.solve(GAME.parse(moves)).relative == score, moves


def test_each_move_score_agrees_with_the_position_score() -> None:
    solver = Connect4Solver(GAME)
    for moves, score in pons_positions("Test_L2_R1", 10):
        state = GAME.parse(moves)
        scores = solver.move_scores(state)
        assert sorted(scores) == sorted(state.legal_moves())
        assert max(s.pov(state.player) for s in scores.values()) == score, moves
        assert list(scores) == [c for c in centre_first(7) if c in scores]


# --- exhaustive search on small boards --------------------------------------------------------


@pytest.mark.parametrize(("width", "height"), [(4, 4)])
def test_the_whole_small_board_matches_exhaustive_search(width: int, height: int) -> None:
    game = Connect4(width, height)
    memo: dict[int, int] = {}
    start = game.start()
    expected = {move: exhaustive_move_score(start, move, memo) for move in start.legal_moves()}
    solver = Connect4Solver(game)
    assert for_mover(solver.move_scores(start), start) == expected
    assert solver.solve(start).relative == max(expected.values()) == 0  # 4x4 is a draw


@pytest.mark.parametrize(("width", "height"), list(itertools.product(range(4, 11), repeat=2)))
@KERNELS
def test_every_board_size_matches_exhaustive_search_near_the_end(width: int, height: int, native: bool | None) -> None:
    game = Connect4(width, height)
    rng = random.Random(width * 100 + height)
    solver = Connect4Solver(game, native=native)
    memo: dict[int, int] = {}
    for empty in (7, 9):
        state = random_position(game, empty, rng)
        solver.reset()
        assert solver.solve(state).pov(state.player) == exhaustive_score(state, memo), state.text()
        expected = {move: exhaustive_move_score(state, move, memo) for move in state.legal_moves()}
        assert for_mover(solver.move_scores(state), state) == expected, state.text()


@pytest.mark.parametrize(("width", "height", "empty", "seed"), [(5, 4, 12, 1), (4, 5, 12, 2), (5, 5, 11, 3)])
@KERNELS
def test_midgame_positions_on_small_boards_match_exhaustive_search(
    width: int, height: int, empty: int, seed: int, native: bool | None
) -> None:
    game = Connect4(width, height)
    rng = random.Random(seed)
    solver = Connect4Solver(game, native=native)
    memo: dict[int, int] = {}
    for _ in range(5):
        state = random_position(game, empty, rng)
        solver.reset()
        assert solver.solve(state).pov(state.player) == exhaustive_score(state, memo), state.text()


# --- known small cases ------------------------------------------------------------------------


def test_a_win_on_the_next_move_scores_at_once() -> None:
    state = GAME.parse("121212")  # the first player has three in column 1
    solver = Connect4Solver(GAME)
    assert solver.win_now(state)
    assert solver.solve(state).relative == 18 == win_now_score(42, 6)
    assert solver.nodes == 0
    assert solver.move_score(state, 0).pov(state.player) == 18


def test_two_threats_cannot_both_be_blocked() -> None:
    state = GAME.parse("26364")  # X on 2, 3, 4 of the bottom row: 1 and 5 both win for X
    solver = Connect4Solver(GAME)
    assert solver.solve(state).relative == -18
    assert set(for_mover(solver.move_scores(state), state).values()) == {-18}


def test_a_single_threat_must_be_blocked() -> None:
    state = GAME.parse("2636")  # X on 2 and 3, O on 6 twice; X to move builds a double threat with 4
    solver = Connect4Solver(GAME)
    assert solver.move_score(state, 3).pov(state.player) == 18  # 4 makes two threats: X wins with its 4th stone
    after = state.play(3)
    assert solver.solve(after).pov(after.player) == -18


def test_a_finished_game_scores_for_its_player_to_move() -> None:
    won = GAME.parse("1212121")
    assert terminal_score(won) == -18  # the second player to move has lost to the first's 4th stone
    drawn = Connect4(4, 4).parse("1234123443214321")
    assert drawn.winner() == 0 and terminal_score(drawn) == 0
    with pytest.raises(ValueError, match="game is over"):
        Connect4Solver(GAME).solve(won)


@KERNELS
def test_a_probe_stops_exactly_at_its_node_budget(native: bool | None) -> None:
    state = GAME.parse("24617524315172127")  # Middle-Medium, score 2, about 26,000 nodes
    solver = Connect4Solver(GAME, native=native)
    with pytest.raises(NodeBudgetSpent):
        solver.probe(state, 0, 1, budget=500)
    assert solver.nodes == 500
    assert solver.solve(state).relative == 2  # what the stopped probe stored does not spoil the answer
    solver.reset()
    assert solver.nodes == 0


def test_a_small_compiled_table_overwrites_and_stays_exact() -> None:
    solver = Connect4Solver(GAME, table_limit=500, native=True)  # 1,009 slots for about 26,000 nodes
    assert solver.solve(GAME.parse("24617524315172127")).relative == 2
    assert solver.table_entries <= 1_009


@pytest.mark.parametrize("table_limit", [TABLE_LIMIT, 500], ids=["pons-table", "1009-slots"])
def test_the_compiled_kernel_visits_the_python_kernel_s_nodes(table_limit: int) -> None:
    # One table, Pons' fixed one, in both kernels: the same slots overwritten (a great many in 1,009 slots),
    # so the two take the same decisions in the same order and hold the same entries.
    compiled = Connect4Solver(GAME, native=True, table_limit=table_limit)
    python = Connect4Solver(GAME, native=False, table_limit=table_limit)
    for moves, score in pons_positions("Test_L3_R1", 100) + pons_positions("Test_L2_R1", 20):
        state = GAME.parse(moves)
        for solver in (compiled, python):
            solver.reset()
            assert solver.solve(state).relative == score, moves
        assert compiled.nodes == python.nodes, moves
        assert compiled.table_entries == python.table_entries, moves
    assert python.table_entries <= table_slots(table_limit)


def filled_columns(game: Connect4, pairs: str) -> str:
    """Moves that fill each pair of columns ``pairs`` names (``"1234"``: 1 with 2, 3 with 4) to the top, two stones
    of a colour above two of the other, the second column of a pair the other way round: no four anywhere."""
    moves = ""
    for first, second in zip(pairs[::2], pairs[1::2], strict=True):
        moves += ((first + second) * 2 + (second + first) * 2) * (game.height // 4) + (first + second) * (
            game.height % 4
        )
    return moves


@pytest.mark.parametrize(("pairs", "then"), [("12345678", "9"), ("12347890", "5"), ("12347890", "565")])
def test_the_python_table_keeps_whole_keys_of_the_largest_board(pairs: str, then: str) -> None:
    # 10x10: keys of 110 bits, kept as their quotient by the 101 slots (two words); most entries are overwritten,
    # and a position sharing a slot with the one stored there must not pass for it.
    game = Connect4(10, 10)
    state = game.parse(filled_columns(game, pairs) + then)
    solver = Connect4Solver(game, table_limit=50)
    memo: dict[int, int] = {}
    expected = {move: exhaustive_move_score(state, move, memo) for move in state.legal_moves()}
    assert for_mover(solver.move_scores(state), state) == expected
    assert solver.nodes > 500 and 0 < solver.table_entries <= table_slots(50) == 101


def test_the_python_kernel_cut_in_small_slices_keeps_its_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    # Cut in slices below its check interval (as plyscope solve and the searcher cut it), the pure Python kernel
    # used to end every slice at its budget check, before the check that bounded its table and its cache of move
    # layouts: both grew without bound (hundreds of MB a minute on 10x10).  Its table is now a fixed array outside
    # Python's heap, and the cache is bounded as it grows.
    monkeypatch.setattr(python_kernel, "LAYOUT_LIMIT", 64)
    game = Connect4(8, 7)  # 64 bits: the pure Python kernel
    search = ScoreSearch(Connect4Solver(game), game.start())
    for _ in range(10):
        search.advance(1_000)
    gc.collect()  # the tracebacks of the slices cut short, in cycles with their frames
    tracemalloc.start()
    try:
        for _ in range(20):
            search.advance(1_000)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert search.solver.nodes == 30_000
    assert grown < 128 * 1024  # 2 MB before


def test_the_compiled_kernel_plays_boards_up_to_62_bits() -> None:
    assert native_fits(Connect4(7, 6))  # 7 x 7 = 49 bits
    assert not native_fits(Connect4(8, 7))  # 8 x 8 = 64 bits
    with pytest.raises(ValueError, match="at most 62 bits"):
        Connect4Solver(Connect4(8, 7), native=True)


def test_the_null_window_goes_to_half_the_bound_on_its_side() -> None:
    # Pons' solve(): the middle of [lowest, highest], moved out to lowest / 2 or highest / 2
    # (C++ division, rounded towards zero) when that is further from zero.
    assert Connect4Solver.next_probe(-13, 14) == -6
    assert Connect4Solver.next_probe(-5, 10) == 5
    assert Connect4Solver.next_probe(1, 14) == 7
    assert Connect4Solver.next_probe(-13, 0) == -7
    assert Connect4Solver.next_probe(-1, 0) == -1


# --- the searcher surface ---------------------------------------------------------------------


def test_the_solver_is_registered_for_connect_four_only() -> None:
    assert algorithm("solver").factory is SolverSearcher
    assert algorithm("solver").games == ("connect4",)
    with pytest.raises(SearchError, match="solver works on connect4 only"):
        make_searcher("solver", Nim("grundy").parse("7"))
    with pytest.raises(SearchError, match="the solver plays Connect Four only, not grundy"):
        SolverSearcher(Nim("grundy").parse("7"))


def follow(state: Connect4State, line: list[Move]) -> Connect4State:
    """The position after playing ``line`` from ``state``."""
    for move in line:
        state = state.play(move)
    return state


@pytest.mark.parametrize("index", range(5))
def test_a_run_scores_every_root_move_and_follows_a_best_line_to_the_end(index: int) -> None:
    moves, score = pons_positions("Test_L2_R1", 5)[index]
    state = GAME.parse(moves)
    searcher = make_searcher("solver", state)
    assert isinstance(searcher, SolverSearcher)
    result = searcher.run(Limit())
    assert result.finished
    expected = Connect4Solver(GAME).move_scores(state)
    assert {child.move: child.score for child in searcher.root.kids()} == {
        m: s.pov(-state.player) for m, s in expected.items()
    }  # a child's score is for the player to move there
    assert searcher.root.score == score
    assert result.value.first() == state.player * score
    assert expected[result.best_move].pov(state.player) == score  # type: ignore[index]
    line = list(result.principal_variation)
    assert line[0] == result.best_move
    end = follow(state, line)
    assert end.is_terminal()
    if score == 0:
        assert end.winner() == 0
    else:
        winner = state.player if score > 0 else -state.player
        assert end.winner() == winner
        assert win_now_score(42, end.ply - 1) == abs(score)  # the winning stone is the one the score names


def test_stepping_starts_with_the_expansion_then_one_probe_a_step() -> None:
    state = GAME.parse(pons_positions("Test_L2_R1", 1)[0][0])
    searcher = SolverSearcher(state)
    first = searcher.step()
    assert first is not None and first.node is searcher.root
    assert len(first.added) == len(state.legal_moves()) == len(searcher.root.children)
    assert searcher.stats.moves == len(first.added)
    at_once = sum(child.score is not None for child in searcher.root.kids())
    assert 0 < at_once < len(first.added)
    assert first.note == f"expanded {len(first.added)} moves; {at_once} scored at once"
    first_open = next(child for child in searcher.root.kids() if child.score is None)
    bounds = (first_open.lower, first_open.upper)
    second = searcher.step()
    assert second is not None and second.node is first_open
    assert second.path == (searcher.root, second.node)
    assert searcher.stats.moves == len(first.added) + searcher.solver.nodes
    assert (first_open.lower, first_open.upper) != bounds  # a probe this short ends within its step
    label = state.move_label(first_open.move)
    assert second.note.startswith(f"move {label}: probe at ") and "for the opponent" in second.note


HARD = "274552224131661"
"""Pons' Middle-Medium, score 0: some probes of its moves take over 100,000 nodes, several slices each."""


def spent_by_steps(searcher: SolverSearcher, budget: int | None = None, steps: int | None = None) -> list[int]:
    """Step ``searcher`` until it stops (or for ``steps`` steps) within ``budget`` moves; the moves each step spent."""
    spent: list[int] = []
    start = searcher.stats.moves
    while steps is None or len(spent) < steps:
        before = searcher.stats.moves
        step = searcher.step(None if budget is None else budget - (before - start))
        if step is None:
            break
        assert step.note
        spent.append(searcher.stats.moves - before)
    return spent


def test_no_step_spends_more_than_a_slice_of_nodes() -> None:
    searcher = SolverSearcher(GAME.parse(HARD))
    slice_nodes = searcher.solver.slice_nodes
    assert slice_nodes == 1 << 15  # the compiled kernel: a few milliseconds
    spent = spent_by_steps(searcher)
    assert searcher.finished
    assert max(spent) <= slice_nodes + 1  # a step on the line also makes the position it tests
    assert spent.count(slice_nodes) > 3  # long probes went on over several steps


def test_a_pure_python_step_spends_a_smaller_slice() -> None:
    searcher = SolverSearcher(Connect4(8, 7).start())  # 64 bits: the pure Python kernel
    assert searcher.solver.slice_nodes == 1 << 10
    spent = spent_by_steps(searcher, steps=6)
    assert spent[0] == 8 and spent[1:] == [1 << 10] * 5  # the expansion, then a probe that goes on
    assert "nodes so far; it goes on next step" in searcher.step().note  # type: ignore[union-attr]


@pytest.mark.parametrize("budget", [None, 150_000, 1_000])
def test_a_run_visits_exactly_what_stepping_visits(budget: int | None) -> None:
    state = GAME.parse(HARD)
    stepped = SolverSearcher(state)
    steps = len(spent_by_steps(stepped, budget))
    ran = SolverSearcher(state)
    result = ran.run(Limit(moves=budget))
    assert result.stats.iterations == steps
    assert (result.stats.moves, result.stats.nodes) == (stepped.stats.moves, stepped.stats.nodes)
    assert ran.solver.nodes == stepped.solver.nodes
    assert [(n.moves(), n.numbers()) for n in ran.walk()] == [(n.moves(), n.numbers()) for n in stepped.walk()]
    assert result.finished == (budget is None)
    if budget is not None:
        assert result.stats.moves == budget


def test_steps_on_small_budgets_reach_the_same_scores_and_line() -> None:
    state = GAME.parse(pons_positions("Test_L2_R1", 3)[2][0])
    whole = make_searcher("solver", state)
    whole.run(Limit())
    stepped = make_searcher("solver", state)
    stopped = 0
    for _ in range(10_000):
        step = stepped.step(moves_left=60)  # each step may spend 60 moves: many probes stop and start again
        if step is None:
            break
        stopped += "the budget is spent" in step.note
    assert stepped.finished and stopped > 0
    assert stepped.principal_variation() == whole.principal_variation()
    assert stepped.value().first() == whole.value().first()
    assert [(n.moves(), n.numbers()) for n in stepped.walk()] == [(n.moves(), n.numbers()) for n in whole.walk()]


@pytest.mark.parametrize("budget", [1, 7, 8, 50, 33_000])
def test_a_budget_is_never_exceeded(budget: int) -> None:
    searcher = make_searcher("solver", GAME.parse(HARD))
    result = searcher.run(Limit(moves=budget))
    assert result.stats.moves == (0 if budget < 7 else budget)  # the expansion makes 7 positions at once
    assert not result.finished
    if budget >= 7:
        assert result.best_move in GAME.parse(HARD).legal_moves()


def test_the_compiled_kernel_lets_other_threads_run() -> None:
    # numba's nogil=True: while a thread is inside the kernel, another thread runs Python.
    # Held, the GIL would block this thread until the call returns.  (Without the opening book: with it, 4453 takes
    # some 2,000 nodes.)
    solver = Connect4Solver(GAME, book=False)
    calling = threading.Event()

    def solve() -> None:
        calling.set()
        with pytest.raises(NodeBudgetSpent):
            solver.probe(GAME.parse("4453"), 0, 1, budget=10_000_000)  # the whole probe takes 19 million

    thread = threading.Thread(target=solve)
    thread.start()
    calling.wait()
    ran = 0
    while thread.is_alive():
        ran += 1
    thread.join()
    assert solver.nodes == 10_000_000
    assert ran > 1_000


# --- the score search ---------------------------------------------------------------------------


@KERNELS
def test_a_score_search_cut_in_slices_finds_the_score_and_keeps_true_bounds(native: bool | None) -> None:
    solver = Connect4Solver(GAME, native=native)
    for moves, score in pons_positions("Test_L2_R2", 6)[3:]:
        state = GAME.parse(moves)
        solver.reset()
        search = ScoreSearch(solver, state)
        spent = 0
        while not search.done:
            spent += search.advance(300)
            assert search.lower <= score <= search.upper
        assert search.score == PovScore(score, state.player) and score == search.lower == search.upper, moves
        assert spent == search.nodes == solver.nodes
        assert search.probe is None and search.probe_nodes == 0
        assert search.advance(300) == 0


def test_the_twin_kernels_cut_in_slices_visit_the_same_nodes() -> None:
    compiled = Connect4Solver(GAME, native=True)
    python = Connect4Solver(GAME, native=False)
    for moves, score in pons_positions("Test_L2_R1", 20):
        counts = []
        for solver in (compiled, python):
            solver.reset()
            search = ScoreSearch(solver, GAME.parse(moves))
            while not search.done:
                search.advance(37)
            assert search.score is not None and search.score.relative == score, moves
            counts.append(solver.nodes)
        assert counts[0] == counts[1], moves


def test_one_probe_at_a_time() -> None:
    solver = Connect4Solver(GAME)
    state = GAME.parse("24617524315172127")  # Middle-Medium, score 2
    search = ScoreSearch(solver, state)
    assert (search.lower, search.upper) == solver.score_range(state) == (-12, 13)
    assert search.probe == Connect4Solver.next_probe(-12, 13) == -6
    spent = search.advance(probes=1)
    assert spent == solver.nodes > 0
    assert (search.lower, search.upper) != (-12, 13) and search.lower <= 2 <= search.upper
    probes = 1
    while not search.done:
        search.advance(probes=1)
        probes += 1
    assert search.score == PovScore(2, state.player) and probes >= 3


def test_a_probe_cut_short_goes_on_at_the_next_advance() -> None:
    solver = Connect4Solver(GAME)
    search = ScoreSearch(solver, GAME.parse(HARD))
    probe = search.probe
    assert search.advance(1_000, probes=1) == 1_000
    assert (search.lower, search.upper, search.probe, search.probe_nodes) == (-13, 14, probe, 1_000)
    assert search.advance(1_000, probes=1) == 1_000
    assert search.probe_nodes == 2_000
    search.advance(probes=1)  # the rest of that probe
    assert search.probe_nodes == 0 and (search.lower, search.upper) != (-13, 14)


def test_positions_the_kernel_must_not_see_are_settled_at_once() -> None:
    solver = Connect4Solver(GAME)
    won = ScoreSearch(solver, GAME.parse("1212121"))  # the second player to move has lost to the first's 4th stone
    assert (won.done, won.score) == (True, PovScore(-18, -1))
    wins = ScoreSearch(solver, GAME.parse("121212"))  # the first player can complete four in column 1
    assert (wins.done, wins.score) == (True, PovScore(18, 1))
    drawn = ScoreSearch(Connect4Solver(Connect4(4, 4)), Connect4(4, 4).parse("1234123443214321"))
    assert (drawn.done, drawn.score) == (True, PovScore(0, 1))
    assert solver.nodes == 0 and won.advance() == wins.advance() == 0


def test_a_threshold_search_only_places_the_score_against_it() -> None:
    solver = Connect4Solver(GAME)
    state = GAME.parse("24617524315172127")  # score 2
    for threshold, at_most in [(2, True), (1, False), (5, True), (-3, False)]:
        search = ScoreSearch(solver, state, threshold=threshold)
        first = search.probe
        assert first == threshold
        search.advance()
        assert search.done and search.probe is None
        assert (search.upper <= threshold) == at_most and (search.lower > threshold) == (not at_most)
        assert search.lower <= 2 <= search.upper


# --- solving a position within a budget (plyscope solve) --------------------------------------


def exact_solution(state: State) -> Solution:
    """``plyscope solve``'s solution of ``state`` with no budget: every move's exact score."""
    solving = PositionSolve(state)
    solving.run()
    return solving.solution()


def test_a_solution_gives_every_move_its_exact_score_for_the_player_who_plays_it() -> None:
    for moves, score in pons_positions("Test_L2_R1", 5):
        state = GAME.parse(moves)
        solution = exact_solution(state)
        expected = Connect4Solver(GAME).move_scores(state)
        mover = state.player
        assert solution.finished and solution.score == PovScore(score, mover)
        assert solution.score_bounds.pov(mover) == (score, score)
        assert solution.moves == {state.move_label(column): expected[column] for column in sorted(expected)}
        assert solution.best_moves == [
            label for label, move_score in solution.moves.items() if move_score == PovScore(score, mover)
        ]


def test_a_node_budget_stops_a_solve_and_the_next_run_goes_on() -> None:
    state = GAME.parse(HARD)
    exact = exact_solution(state)
    solving = PositionSolve(state)
    ticks = 0

    def tick() -> None:
        nonlocal ticks
        ticks += 1

    assert solving.run(nodes=100_000, tick=tick) is Stop.NODES
    assert ticks > 0
    partial = solving.solution()
    assert partial.nodes == 100_000 and not partial.finished and partial.score is None
    mover = state.player
    assert all(
        low <= exact.bounds[label].pov(mover)[0] <= high
        for label, (low, high) in ((label, b.pov(mover)) for label, b in partial.bounds.items())
    )
    assert solving.run(nodes=0) is Stop.NODES and solving.nodes == 100_000
    assert solving.run(seconds=0) is Stop.SECONDS and solving.nodes == 100_000
    assert solving.run() is Stop.FINISHED
    assert solving.solution().bounds == exact.bounds
    assert solving.nodes >= exact.nodes


def test_what_a_solution_knows_from_bounds_alone() -> None:
    known = {"3": (2, 2), "4": (-5, 2), "5": (-3, -1)}
    partial = Solution("connect4", "4453", 1, {label: PovBounds(*pair, 1) for label, pair in known.items()}, 10, 0.5)
    assert partial.score == PovScore(2, 1) and not partial.finished  # no move can beat 2: the score is known
    assert partial.moves == {"3": PovScore(2, 1), "4": None, "5": None}
    assert partial.best_moves == ["3"]
    report = partial.as_json()
    assert (report["score"], report["finished"], report["score_bounds"]) == (2, False, [2, 2])
    assert report["bounds"] == {"3": [2, 2], "4": [-5, 2], "5": [-3, -1]}
    unsure = Solution("connect4", "", 1, {"3": PovBounds(-1, 4, 1), "4": PovBounds(-5, 2, 1)}, 10, 0.5)
    assert (unsure.score, unsure.score_bounds.first(), unsure.best_moves) == (None, (-1, 4), [])


def test_a_solution_for_the_second_player_keeps_its_numbers_for_them() -> None:
    """The second player to move: the JSON's numbers are theirs, the ``PovScore`` reads either way."""
    solution = Solution("connect4", "4", -1, {"3": PovBounds(-2, -2, -1), "4": PovBounds(-5, 1, 1)}, 10, 0.5)
    assert solution.bounds["4"].pov(-1) == (-1, 5)
    assert solution.score_bounds.pov(-1) == (-1, 5) and solution.score_bounds.first() == (-5, 1)
    report = solution.as_json()
    assert (report["player"], report["score_bounds"], report["bounds"]) == (-1, [-1, 5], {"3": [-2, -2], "4": [-1, 5]})


def test_a_finished_game_has_nothing_to_solve() -> None:
    with pytest.raises(PositionError, match="already over"):
        PositionSolve(GAME.parse("1212121"))


# --- Nim --------------------------------------------------------------------------------------


def test_grundy_losses_up_to_40_are_exactly_the_known_ones() -> None:
    losses = [n for n in range(1, 41) if nim_score(GRUNDY.parse(str(n))) == -1]
    assert losses == [1, 2, 4, 7, 10, 20, 23, 26]


def test_grundy_numbers_match_the_published_ones() -> None:
    """Grundy's game's Sprague-Grundy values for piles 0 to 20 (OEIS A002188; Winning Ways, vol. 1, ch. 4)."""
    assert [grundy_number(n) for n in range(21)] == [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]


def pile_sets(largest: int, piles: int) -> list[str]:
    return [
        ",".join(map(str, p))
        for k in range(1, piles + 1)
        for p in itertools.combinations_with_replacement(range(1, largest + 1), k)
    ]


@pytest.mark.parametrize("game", [GRUNDY, CLASSIC, MISERE], ids=["grundy", "nim", "nim-misere"])
def test_nim_values_match_exhaustive_search(game: Nim) -> None:
    for text in [*pile_sets(6 if game is GRUNDY else 5, 3), "1,1,1,1", "2,2,1,1", "7,1,1", "1,1,1"]:
        state = game.parse(text)
        assert nim_score(state) == (1 if mover_wins(state) else -1), text


def test_classic_nim_follows_the_xor_rule() -> None:
    rng = random.Random(7)
    for _ in range(300):
        piles = [rng.randint(1, 40) for _ in range(rng.randint(1, 6))]
        state = CLASSIC.parse(",".join(map(str, piles)))
        assert nim_score(state) == (1 if reduce(xor, piles) else -1)
    assert nim_score(CLASSIC.parse("1,3,5,7")) == -1
    assert nim_score(CLASSIC.parse("3,4,5")) == 1


def test_misere_nim_follows_boutons_rule() -> None:
    assert nim_score(MISERE.parse("1")) == -1  # must take the last token
    assert nim_score(MISERE.parse("1,1")) == 1
    assert nim_score(MISERE.parse("1,1,1")) == -1
    assert nim_score(MISERE.parse("2,2")) == -1  # as in normal play once a pile is larger than 1
    assert nim_score(MISERE.parse("3,1")) == 1
    assert nim_score(MISERE.parse("0")) == 1  # the opponent took the last token


def test_a_nim_solution_scores_every_move_for_its_player() -> None:
    solution = exact_solution(GRUNDY.parse("8"))
    mover = GRUNDY.parse("8").player
    assert solution.score == PovScore(1, mover)
    assert solution.moves == {"8=7+1": PovScore(1, mover), "8=6+2": PovScore(-1, mover), "8=5+3": PovScore(-1, mover)}
    assert solution.best_moves == ["8=7+1"]
    with pytest.raises(PositionError, match="already over"):
        exact_solution(GRUNDY.parse("2,1"))


def test_the_root_value_is_given_as_bounds_until_they_meet() -> None:
    """Before the score is exact, ``value()`` is only the lower bound: ``value_bounds`` says both ends."""
    moves, score = pons_positions("Test_L2_R2", 1)[0]  # Middle-Medium: tens of thousands of nodes
    state = GAME.parse(moves)
    exact = state.player * score
    searcher = make_searcher("solver", state)
    searcher.step()
    bounds = searcher.value_bounds()
    assert bounds is not None
    lowest, highest = bounds.first()
    assert lowest < highest
    assert lowest <= exact <= highest
    searcher.run(Limit())
    assert searcher.finished and searcher.value_bounds() is None and searcher.value().first() == exact


def test_the_searcher_s_nodes_are_its_tree_and_its_negamax_visits_are_moves() -> None:
    # A node cap bounds stats.nodes: the solver's memory is its fixed table, so its nodes are the tree it keeps
    # (the root, its children, the line), and what its negamax visits is counted as moves, the budget's unit.
    searcher = SolverSearcher(GAME.parse(HARD))
    result = searcher.run(Limit())
    below = len(searcher.principal_path()) - 2  # the line's nodes below the root's best child
    assert result.finished and result.stats.nodes == len(list(searcher.walk())) == 1 + 7 + below == 34
    made = result.stats.moves - searcher.solver.nodes  # the positions made: the root's children, the moves tested
    assert searcher.solver.nodes > 400_000 and 7 + below <= made <= 7 + 7 * below
