"""Phase mode (``Searcher.phased``): each step told as its phases composes to exactly the step, and says why."""

from __future__ import annotations

import math

import pytest

from plyscope.engine.games.base import State
from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Node, Phase, Searcher, Step
from plyscope.engine.search.montecarlo.mcts import MctsNode, MonteCarloTreeSearch
from plyscope.engine.search.registry import algorithm, algorithms, make_searcher, plays

CONNECT4 = make_game("connect4").parse("4453")
NIM = make_game("nim").parse("3 4 5")
CLASSIC = make_game("tree").parse("classic")

VARIANTS: dict[str, tuple[dict[str, object], ...]] = {
    "mcts": ({"solver": True}, {"partial": True}, {"k": 8}),
    "bestfirst": ({"ab_depth": 2},),
    "rivest": ({"mode": "mean", "accounting": True},),
    "alphabeta": ({"tt": True, "ordering": "history"},),
    "minimax": ({"depth": 3},),
}
"""Parameters that change what a step's phases tell, beside the registry's defaults."""
PHASED = [(name, params) for name in algorithms() for params in ({}, *VARIANTS.get(name, ()))]
"""Every registered searcher (a searcher with no phases of its own tells each step as one), and its variants."""


def fingerprint(searcher: Searcher[Node]) -> list[tuple[int, object, tuple[tuple[str, str], ...]]]:
    """Every node of the tree, depth first: its depth, its move and its numbers."""
    return [
        (node.depth, node.move, tuple((name, repr(value)) for name, value in searcher.numbers(node).items()))
        for node in searcher.walk()
    ]


def counts(searcher: Searcher[Node]) -> tuple[int, ...]:
    stats = searcher.stats
    return (stats.moves, stats.iterations, stats.nodes, stats.max_depth, stats.playouts, stats.playout_moves)


def phases_of(searcher: Searcher[Node], moves_left: int | None = None) -> tuple[list[Phase[Node]], Step[Node] | None]:
    phased = searcher.phased(moves_left)
    phases: list[Phase[Node]] = []
    while True:
        try:
            phases.append(next(phased))
        except StopIteration as done:
            return phases, done.value


CASES = [
    pytest.param(name, params, state, id=f"{name}{params or ''}-{where}")
    for name, params in PHASED
    for where, state in (("connect4", CONNECT4), ("nim", NIM), ("tree", CLASSIC))
    if plays(algorithm(name), state.game)
]


@pytest.mark.parametrize(("name", "params", "state"), CASES)
def test_the_phases_of_each_step_compose_to_exactly_the_step(
    name: str, params: dict[str, object], state: State
) -> None:
    stepped = make_searcher(name, state, params, seed=5)
    told = make_searcher(name, state, params, seed=5)
    for _ in range(40):
        step = stepped.step()
        phases, step_told = phases_of(told)
        if step is None:
            assert (phases, step_told) == ([], None)
            break
        assert step_told is not None
        assert [phase.name for phase in phases] == [n for n in told.phase_names if n in {p.name for p in phases}]
        assert all(phase.text and phase.path and phase.path[0] is told.root for phase in phases)
        assert [phase.last for phase in phases] == [False] * (len(phases) - 1) + [True]
        assert (step_told.node.moves(), [n.moves() for n in step_told.added]) == (
            step.node.moves(),
            [n.moves() for n in step.added],
        )
        assert fingerprint(told) == fingerprint(stepped)
        assert counts(told) == counts(stepped)
        assert told.best_move() == stepped.best_move() and told.finished == stepped.finished


def test_an_mcts_iteration_is_told_as_its_four_phases_each_changing_only_its_part() -> None:
    searcher = make_searcher("mcts", CONNECT4, {}, seed=2)
    for _ in range(30):
        searcher.step()
    before = fingerprint(searcher)
    phased = searcher.phased()
    selection = next(phased)
    assert selection.name == "selection" and fingerprint(searcher) == before
    assert selection.text.startswith("selection: at each node the child of largest UCB1")
    expansion = next(phased)
    assert expansion.name == "expansion" and len(expansion.added) == 1
    new = expansion.added[0]
    assert isinstance(new, MctsNode) and new.visits == 0 and searcher.stats.nodes == 32
    simulation = next(phased)
    assert simulation.name == "simulation" and simulation.line
    assert searcher.stats.playouts == 31 and new.visits == 0  # the playout is run, its result not backed up yet
    backpropagation = next(phased)
    assert backpropagation.name == "backpropagation"
    assert all(isinstance(node, MctsNode) and node.visits for node in backpropagation.path)
    with pytest.raises(StopIteration):
        next(phased)


def test_the_selection_names_each_chosen_child_with_its_ucb_beside_its_best_rivals() -> None:
    searcher = make_searcher("mcts", CONNECT4, {}, seed=2)
    assert isinstance(searcher, MonteCarloTreeSearch)
    for _ in range(30):
        searcher.step()
    selection = next(searcher.phased())
    chosen = selection.path[1]
    assert isinstance(chosen, MctsNode)
    rivals = [child for child in searcher.root.children if child is not chosen]
    best_rival = max(rivals, key=lambda child: child.ucb(searcher.c) or 0.0)
    ucb = chosen.ucb(searcher.c)
    assert ucb is not None and ucb >= (best_rival.ucb(searcher.c) or 0.0)
    label = CONNECT4.move_label(chosen.move)
    rival_label = CONNECT4.move_label(best_rival.move)
    assert f"{label} UCB {ucb:.3f} (mean {chosen.mean():.3f}, n {chosen.visits})" in selection.text
    assert f"over {rival_label} {best_rival.ucb(searcher.c):.3f}" in selection.text


def test_the_playout_drawn_is_the_one_played() -> None:
    """The moves of the simulation phase, played from the new leaf, end the game with the result backed up."""
    searcher = make_searcher("mcts", CONNECT4, {}, seed=9)
    for _ in range(25):
        phases, _ = phases_of(searcher)
        simulation = next(phase for phase in phases if phase.name == "simulation")
        state = searcher.state_at(simulation.path[-1])
        leaf = simulation.path[-1]
        assert isinstance(leaf, MctsNode) and leaf.visits >= 1
        for move in simulation.line:
            state = state.play(move)
        if simulation.line:
            assert state.is_terminal()
            mover = -searcher.state_at(leaf).player
            won = {mover: "a win", -mover: "a loss", 0: "a draw"}[state.utility()]
            assert f": {won} for" in simulation.text


def test_backpropagation_gives_each_node_its_visits_and_mean_before_and_after() -> None:
    searcher = make_searcher("mcts", NIM, {}, seed=1)
    for _ in range(10):
        searcher.step()
    root = searcher.root
    assert isinstance(root, MctsNode)
    visits, mean = root.visits, root.mean()
    phases, _ = phases_of(searcher)
    assert mean is not None
    assert f"root n {visits}→{visits + 1}, mean {mean:.3f}→{root.total / root.visits:.3f}" in phases[-1].text


def test_alpha_beta_names_the_textbook_cut_off_on_the_classic_tree() -> None:
    """AIMA figure 5.5 at depth 3: C's first leaf, 2, is at most what MAX has already (3 from B): C's other two
    leaves are never searched."""
    searcher = make_searcher("alphabeta", CLASSIC, {"start_depth": 3})
    told: list[Phase[Node]] = []
    while not searcher.finished:
        phases, step = phases_of(searcher)
        assert step is not None
        told += phases
    entries = [phase.text for phase in told if phase.name == "entry"]
    returns = [phase.text for phase in told if phase.name == "return"]
    assert entries[0].startswith("entry: iteration 3") and "window [-inf, inf]" in entries[0]
    assert "entry: ● C, window [3, inf] (its parent's); 3 moves to search below it, left to right" in entries
    assert "entry: ○ C 1, window [3, inf] (its parent's); a leaf (the game is over there): value 2" in entries
    cut = [text for text in returns if "never searched" in text]
    assert len(cut) == 1
    assert cut[0].startswith("return: 2 goes up to ● C (MIN): its value 2, window [3, 2]; beta 2 <= alpha 3 at ● C")
    assert "at ● C: the rest of its children (2) are never searched" in cut[0]
    assert returns[-1].endswith("the root completes: iteration 3 complete: value 3 (solved), best move B")


def test_best_first_and_rivest_tell_the_tip_the_expansion_and_the_back_up() -> None:
    for name in ("bestfirst", "rivest"):
        searcher = make_searcher(name, CLASSIC, {})
        first, _ = phases_of(searcher)
        assert [phase.name for phase in first] == ["tip", "expansion", "back-up"]
        assert first[0].text.startswith("tip: the root")
        assert first[1].text.startswith("expansion: root gets its 3 children (3 moves played)")
        second, _ = phases_of(searcher)
        assert second[0].text.startswith("tip: ")
        assert "back-up" in second[2].text
    rivest = make_searcher("rivest", CONNECT4, {})
    for _ in range(5):
        rivest.step()
    tip = next(rivest.phased())
    assert "the tip of least penalty" in tip.text and "the next best tip is below" in tip.text
    penalty = float(tip.text.split(" = ")[-1].split(";")[0])
    assert math.isclose(penalty, rivest.root.pi, rel_tol=1e-2)  # type: ignore[attr-defined]


def test_proof_number_search_tells_the_most_proving_node_and_the_numbers_on_the_way_up() -> None:
    searcher = make_searcher("pns", NIM, {})
    for _ in range(3):
        searcher.step()
    phases, _ = phases_of(searcher)
    assert [phase.name for phase in phases] == ["most-proving", "expansion", "back-up"]
    assert "the child of least pn at each OR node" in phases[0].text
    assert "→" in phases[2].text and "root pn" in phases[2].text


def test_proof_number_search_s_back_up_names_the_root_once() -> None:
    """Issue 36, 12: ``root pn 1, dn 1 → pn 1, dn 7; root pn 1, dn 7``.  The root's new numbers end the sentence once;
    what it proved, if anything, follows them; a root whose numbers stayed is named after the rest."""
    searcher = make_searcher("pns", make_game("nim").parse("1,2"), {})
    sentences = []
    while not searcher.finished:
        phases, _ = phases_of(searcher)
        sentences.append(phases[-1].text)
    assert sentences[0] == "back-up: from the expanded node towards the root, root pn 1, dn 1 → pn 1, dn 3"
    assert sentences[2] == "back-up: no value on the path changes; root pn 1, dn 2"
    assert sentences[-1].endswith("; root pn 1, dn 2 → pn 0, dn inf, proven: win at ply 3")
    assert all(sentence.count("root ") == 1 for sentence in sentences)


def test_a_step_over_the_budget_is_told_as_nothing() -> None:
    for name in [name for name, info in algorithms().items() if info.factory.phase_names != ("step",)]:
        searcher = make_searcher(name, CONNECT4, {}, seed=1)
        searcher.step()
        before = fingerprint(searcher)
        assert phases_of(searcher, moves_left=0) == ([], None)
        assert fingerprint(searcher) == before and searcher.stats.iterations == 1
