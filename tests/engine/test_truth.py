"""Exact values through the one door (``plyscope.engine.exact.Exact``): the solver's on Connect Four, a full search's on
Nim; and judging a search by them (``plyscope.engine.truth``)."""

from __future__ import annotations

import gc
import threading
from functools import cache
from unittest import mock

import pytest

from plyscope.engine.exact import Exact
from plyscope.engine.games import NimState, State
from plyscope.engine.games.connect4 import Connect4
from plyscope.engine.kits import make_game
from plyscope.engine.kits.base import Truth
from plyscope.engine.pov import PovScore
from plyscope.engine.search import outcomes
from plyscope.engine.search.base import Limit, Node
from plyscope.engine.search.registry import make_searcher
from plyscope.engine.solver import Connect4Solver
from plyscope.engine.solver.book import NO_BOOK_VARIABLE
from plyscope.engine.solver.values import STAND_IN_MISSES, Connect4Values
from plyscope.engine.truth import Judgement, work_shares
from plyscope.tui.formatting import truth_words
from tests.pons import pons_positions


@cache
def wins(state: NimState) -> bool:
    """Whether the player to move in ``state`` wins with perfect play, by searching the whole game tree."""
    if state.is_terminal():
        return state.winner() == state.player
    return any(not wins(state.play(move)) for move in state.legal_moves())


NIM = Exact().values(make_game("nim"))
"""The Nim games' exact values: win or loss."""


@pytest.mark.parametrize(("game", "position"), [("nim", "3,4,5"), ("nim-misere", "1,2,3"), ("grundy", "11")])
def test_nim_values_are_those_of_the_whole_game_tree_on_every_node(game: str, position: str) -> None:
    searcher = make_searcher("minimax", make_game(game).parse(position), {"depth": 3})
    searcher.run(Limit(iterations=400))
    oracle = Exact()
    nodes = list(searcher.walk())
    assert len(nodes) > 50
    for node in nodes:
        state = searcher.state_at(node)
        assert isinstance(state, NimState)
        truth = oracle.truth(state)
        assert truth.score == PovScore(1 if wins(state) else -1, state.player), state
        assert truth.outcome(state.player) == (1 if wins(state) else -1)


def test_misere_nim_differs_from_normal_play_where_bouton_says() -> None:
    oracle = Exact()
    for game, wins_there in (("nim", False), ("nim-misere", True)):
        state = make_game(game).parse("1,1")  # normal play: nim-sum 0, a loss; misère: an even number of 1s, a win
        assert oracle.truth(state).outcome(state.player) == (1 if wins_there else -1)


def test_connect4_values_equal_the_solver_on_sampled_nodes_of_a_tree() -> None:
    moves, _ = pons_positions("Test_L2_R1", 1)[0]
    searcher = make_searcher("alphabeta", make_game("connect4").parse(moves), {"depth": 4})
    searcher.run(Limit(iterations=300))
    nodes = list(searcher.walk())[::3]
    oracle = Exact(budget=50_000, table=1 << 16)
    solver = Connect4Solver(make_game("connect4"), table_limit=1 << 16)  # type: ignore[arg-type]
    settled = 0
    for node in nodes:
        state = searcher.state_at(node)
        truth = oracle.truth(state)
        if state.is_terminal() or truth.score is None:
            continue
        settled += 1
        assert truth.score == solver.solve(state)  # type: ignore[arg-type]
    assert settled >= len(nodes) // 2 > 10


def test_the_root_of_a_pons_position_has_his_score() -> None:
    for moves, score in pons_positions("Test_L1_R1", 5):
        state = make_game("connect4").parse(moves)
        truth = Exact().truth(state)
        assert truth.score == PovScore(score, state.player)


def test_a_solve_started_from_a_known_move_value_gives_the_same_score_sooner() -> None:
    """``at_least`` (what one move of the position is worth, as the arena's judging knows from the position after
    it) changes no score, on every move of Pons' positions, and saves nodes overall."""
    plain = seeded = 0
    for moves, _ in pons_positions("Test_L2_R1", 6):
        state = make_game("connect4").parse(moves)
        exact = Exact().truth(state)
        assert exact.score is not None
        for move in state.legal_moves():
            child = state.play(move)
            worth = Exact().truth(child).score
            if child.is_terminal() or worth is None:
                continue
            started = Exact().truth(state, at_least=worth.pov(state.player))
            assert started.score == exact.score
            plain, seeded = plain + exact.nodes, seeded + started.nodes
    assert 0 < seeded < plain


def test_a_position_beyond_the_budget_is_unsettled_and_shown_so() -> None:
    state = make_game("connect4").parse("17516442226766")  # 14 stones, past the book: 10,672 solver nodes
    truth = Exact(budget=100).truth(state)
    assert truth == Truth(None, truth.nodes) and truth.nodes >= 100 and not truth.settled
    assert truth_words(truth, state, Exact()) == "…"


def test_a_position_the_book_reaches_is_settled_whatever_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    game = make_game("connect4")
    for moves in ("", "4", "4453", "44535"):  # the first three from the table of early scores, the last searched
        state = game.parse(moves)
        assert Exact(budget=1).truth(state) == Exact(budget=10**9).truth(state), moves
    assert Exact(budget=1).truth(game.parse("44535")).nodes > 1
    assert Exact(budget=1).truth(game.parse("")) == Truth(PovScore(1, 1))  # the first player wins
    monkeypatch.setenv(NO_BOOK_VARIABLE, "1")
    assert not Exact(budget=100).truth(game.parse("44535")).settled  # without the book: a budget like any other


def test_words_give_the_player_to_move_and_pons_distance() -> None:
    state = make_game("connect4").parse("32164625")  # Pons: 11, the 17th-to-last stone of 17 left: the 7th from now
    exact = Exact()
    assert truth_words(exact.truth(state), state, exact) == "● win in 7"
    nim = make_game("nim").parse("1,1/2")
    assert truth_words(exact.truth(nim), nim, exact) == "○ loss"
    over = make_game("connect4").parse("1212121")  # the first player has four in column 1
    assert truth_words(exact.truth(over), over, exact) == "○ lost"  # not "loss in 0"
    tree = make_game("tree").parse("min:(3,(1,7))")
    assert truth_words(exact.truth(tree), tree, exact) == "○ value 3"  # MAX's value, whoever moves


def test_the_cache_is_bounded_and_drops_the_least_recently_used() -> None:
    oracle = Exact(capacity=5)
    game = make_game("nim")
    states = [game.parse(str(pile)) for pile in range(1, 21)]
    for state in states:
        oracle.truth(state)
        oracle.cached(states[0])  # used again and again: stays
    assert len(oracle) == 5
    assert oracle.cached(states[0]) is not None and oracle.cached(states[-1]) is not None
    assert oracle.cached(states[1]) is None


def test_chance_has_no_exact_values() -> None:
    game = make_game("connect4-chance")
    reason = Exact().refusal(game)
    assert reason is not None and "expected values" in reason
    assert Exact().refusal(make_game("connect4")) is None and Exact().refusal(make_game("grundy")) is None
    assert Exact().refusal(make_game("tree")) is None and Exact().refusal(make_game("tictactoe")) is None
    with pytest.raises(ValueError, match="expected values"):
        Exact().truth(game.start())


def test_a_choice_is_judged_by_outcome_as_soon_as_it_can_be() -> None:
    assert Judgement((1, -1, 0), 1).optimal is False  # a draw chosen beside a win: fooled
    assert Judgement((1, -1, 0), 0).optimal is True and Judgement((1, -1, 0), 0).optimal_moves == 1
    assert Judgement((None, 1, None), 1).optimal is True  # a win cannot be bettered
    assert Judgement((None, 0, -1), 1).optimal is None  # a draw, while the first move may still win
    assert Judgement((None, 0, 1), 1).optimal is False  # a known sibling wins
    assert Judgement((0, 0, -1), 1).optimal_moves == 2 and Judgement((0, None), 0).optimal_moves is None
    assert Judgement((0, 0), None).optimal is None


def test_the_outcomes_are_the_choosers_not_the_movers_after() -> None:
    state = make_game("nim").parse("1,2,3")  # nim-sum 0: every move loses for the player who plays it
    truths = [Exact().truth(state.play(move)) for move in state.legal_moves()]
    judgement = Judgement.of(truths, state.player, 0, NIM)
    assert judgement.outcomes == (-1,) * len(truths) and judgement.optimal is True
    assert judgement.optimal_moves == len(truths)


def test_work_shares_of_a_hand_built_root_add_up() -> None:
    root = Node(None, None)
    for move, size in ((1, 3), (2, 1), (3, 2)):
        child = Node(root, move)
        root.add_child(child)
        for _ in range(size - 1):
            child.add_child(Node(child, 0))
    loses, wins = Truth(PovScore(1, -1)), Truth(PovScore(-1, -1))  # for the player to move after it: the opponent
    shares = work_shares(root, [1, 2, 3, 4], 1, [loses, wins, None, wins], 1, NIM)
    assert shares.work == (3.0, 1.0, 2.0, 0.0) and shares.unit == "moves"
    assert shares.by_outcome() == {"win": 1.0, "draw": 0.0, "loss": 3.0, "unsettled": 2.0}
    assert sum(shares.by_outcome().values()) == shares.total == 6.0
    assert shares.losing_share is None  # a third of the work is below move 3, not settled: 50% to 83%
    assert shares.judgement.optimal is False  # move 1 loses; 2 and 4 win
    fields = shares.as_json()
    assert (fields["best_move_optimal"], fields["optimal_root_moves"], fields["root_moves"]) == (False, None, 4)
    assert fields["losing_work_share"] is None


def test_the_losing_share_is_unknown_while_work_is_below_an_unsettled_move_never_zero() -> None:
    root = Node(None, None)
    for move in (1, 2):
        root.add_child(Node(root, move))
    loses = Truth(PovScore(1, -1))  # for the player to move after it: the opponent wins
    assert work_shares(root, [1, 2], 1, [None, None], 1, NIM).losing_share is None  # nothing settled: not 0
    assert work_shares(root, [1, 2, 3], 1, [loses, loses, None], 1, NIM).losing_share == 1.0  # no work below move 3
    assert work_shares(Node(None, None), [1], None, [loses], 1, NIM).losing_share is None  # no work at all


@pytest.mark.parametrize("name", ["minimax", "mcts"])
def test_the_work_below_the_root_moves_adds_up_to_the_searchs(name: str) -> None:
    state = make_game("nim").parse("2,3,4")
    searcher = make_searcher(name, state, {"depth": 3} if name == "minimax" else {})
    searcher.run(Limit(iterations=300))
    moves = list(state.legal_moves())
    oracle = Exact()
    shares = work_shares(
        searcher.root, moves, searcher.best_move(), [oracle.truth(state.play(m)) for m in moves], 1, NIM
    )
    assert shares.by_outcome()["unsettled"] == 0 and sum(shares.by_outcome().values()) == shares.total
    if name == "minimax":
        assert shares.unit == "moves" and shares.total == searcher.stats.nodes - 1  # every node but the root
    else:
        assert shares.unit == "visits" and shares.total == sum(child.work() for child in searcher.root.children)
    assert shares.judgement.optimal_moves == 1  # nim-sum 5: one move makes it 0


@pytest.mark.parametrize("name", ["minimax", "alphabeta", "bestfirst", "rivest", "mcts", "pns", "solver"])
def test_the_principal_path_follows_the_preferred_child_at_each_node(name: str) -> None:
    """``Searcher.preferred_child`` is the searcher's own choice at every node (the truth column's ``✗`` judges it):
    along the principal path it is the path's next node."""
    state = make_game("connect4").parse("4453") if name != "solver" else make_game("connect4:4x4").parse("1")
    searcher = make_searcher(name, state, {"depth": 2} if name == "minimax" else {}, seed=3)
    searcher.run(Limit(iterations=300))
    path = searcher.principal_path()
    if name == "alphabeta":  # (its path is the last complete iteration's tree)
        path = [searcher.completed_root or searcher.root, *path[1:]]  # type: ignore[attr-defined]
    assert len(path) > 2
    assert [searcher.preferred_child(node) for node in path] == [*path[1:], None]


class HeldLoad:
    """Stands in for ``Connect4Solver`` in ``plyscope.engine.solver.values``: the board's compiled solver is made only
    once the test lets it go (its pure Python stand-in at once)."""

    def __init__(self) -> None:
        self.go = threading.Event()

    def __call__(self, game: Connect4, *, table_limit: int, native: bool | None = None) -> Connect4Solver:
        if native is None:
            assert self.go.wait(120)  # (a bound, that a test which fails does not hang)
        return Connect4Solver(game, table_limit=table_limit, native=native)


def test_a_quick_look_settles_endgames_while_the_solver_loads_and_leaves_the_rest() -> None:
    game = make_game("connect4")
    held = HeldLoad()
    with mock.patch("plyscope.engine.solver.values.Connect4Solver", held):
        oracle = Exact(table=1 << 16)
        for moves, score in pons_positions("Test_L3_R1", 5):  # late positions: a few dozen solver nodes each
            state = game.parse(moves)
            truth = oracle.quick(state)
            assert truth is not None and truth.score == PovScore(score, state.player), moves
            assert oracle.cached(state) == truth
        loading = oracle.prepare(game)
        assert loading is not None and not loading.done()  # (every look above was the pure Python kernel's)
        hard = game.parse("44531")  # a midgame position: far more than QUICK_BUDGET nodes
        assert oracle.quick(hard) is None
        assert oracle.cached(hard) is None  # ... not a value: ``truth`` finds it
        held.go.set()
        assert oracle.truth(hard) == Exact(table=1 << 16).truth(hard)
        assert oracle.prepare(game) is loading  # (one solver, made once)
        assert oracle.quick(hard) == oracle.cached(hard) is not None  # what ``truth`` found, kept


def test_the_pure_python_looks_stop_after_positions_in_a_row_they_cannot_settle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(NO_BOOK_VARIABLE, "1")  # without the opening book, 4453's children take millions of nodes
    game = make_game("connect4")
    held = HeldLoad()
    with mock.patch("plyscope.engine.solver.values.Connect4Solver", held):
        oracle = Exact(table=1 << 16)
        hard = [game.parse("4453" + move) for move in "1234567"]
        assert [oracle.quick(state) for state in hard[:STAND_IN_MISSES]] == [None] * STAND_IN_MISSES
        easy = game.parse(pons_positions("Test_L3_R1", 1)[0][0])
        assert oracle.quick(easy) is None  # not looked at: the compiled solver will
        held.go.set()
        assert oracle.prepare(game) is not None
        oracle.prepare(game).result()  # type: ignore[union-attr]
        assert oracle.quick(easy) is not None  # compiled looks from now on


def test_only_connect_four_has_a_solver_to_load_and_it_is_said_once_loaded() -> None:
    assert Exact().prepare(make_game("nim")) is None
    assert Exact().prepare(make_game("connect4-chance")) is None
    loaded = threading.Event()
    oracle = Exact(table=1 << 16, loaded=loaded.set)
    loading = oracle.prepare(make_game("connect4"))
    assert loading is not None
    loading.result(timeout=60)
    assert loaded.is_set()


def test_the_apps_door_freezes_the_solvers_objects_out_of_the_collector() -> None:
    from plyscope.tui.app import PlyscopeApp, freeze_loaded
    from plyscope.tui.session import SearchConfig, Session

    app = PlyscopeApp(Session.create(SearchConfig()), truth_nodes=1234, load_ahead=False)
    assert app.exact.loaded is freeze_loaded and app.exact.budget == 1234 and not app.exact.load_ahead
    gc.unfreeze()
    freeze_loaded()
    assert gc.get_freeze_count() > 0


@pytest.mark.parametrize(
    ("name", "params", "limit"),
    [
        ("solver", {}, Limit()),
        ("bestfirst", {}, Limit()),
        ("pns", {}, Limit()),
        ("mcts", {"solver": "true"}, Limit()),
        ("mcts", {}, Limit(iterations=3000)),
    ],
)
def test_what_a_searcher_proves_is_the_oracles_truth(name: str, params: dict[str, object], limit: Limit) -> None:
    """``Searcher.proof`` (the truth column takes it as settled) is the exact value wherever a searcher gives one; and
    each searcher that finishes proves the values of root moves an oracle of one node a position leaves unsettled."""
    state = make_game("connect4").parse("52753311433677442422121")  # 23 stones
    searcher = make_searcher(name, state, params)
    searcher.run(limit)
    oracle, blind = Exact(), Exact(budget=1, table=1 << 16)
    proven = [(node, proof) for node in searcher.walk() if (proof := searcher.proof(node)) is not None]
    assert len(proven) > 5
    for node, proof in proven:
        position = searcher.state_at(node)
        truth = oracle.proven(proof, position)
        assert truth is not None and truth.score == oracle.truth(position).score
    if searcher.finished:  # (plain MCTS, stopped early, proves only some finished games deep in its tree)
        assert any(not blind.truth(searcher.state_at(node)).settled for node, _ in proven if node.depth == 1)


def test_nim_proofs_are_the_results_alone() -> None:
    state = make_game("nim").parse("1,2,3")  # nim-sum 0: the player to move loses
    searcher = make_searcher("pns", state, {})
    searcher.run(Limit())
    proof = searcher.proof(searcher.root)
    assert proof is not None
    truth = Exact().proven(proof, state)
    assert truth is not None and truth.score == PovScore(-1, state.player)


def test_pons_scores_and_scores_that_carry_the_ply_convert_both_ways() -> None:
    """A proof's score (``outcomes``' ``±(1000 - ply)``) as Pons' (``Connect4Values.proven``) and back
    (``outcomes.from_pons``, the solver searcher's)."""
    game = make_game("connect4")
    assert isinstance(game, Connect4)
    values, cells = Connect4Values(game), game.cells

    def pons(value: int, state: State) -> int:
        truth = values.proven(outcomes.result_of(value), outcomes.ply_of(value), state)
        assert truth.score is not None
        return int(truth.score.pov(state.player))

    start = game.start()
    assert pons(outcomes.score(1, 7), start) == 18  # the first player's fourth stone wins: 22 - 4
    assert pons(outcomes.score(-1, 8), start) == -18 and pons(0, start) == 0
    for ply in range(cells):
        for end in range(ply + 1, cells + 1):
            for result in (1, -1):
                if (result > 0) != ((end - ply) % 2 == 1):  # the player to move wins on their own plies only
                    continue
                value = outcomes.score(result, end)
                assert outcomes.from_pons(pons(value, start), ply, cells) == value
