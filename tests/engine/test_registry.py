"""The searcher registry (names, parameters, agent specs), and the contract every registered searcher keeps.

The contract tests run over ``algorithms()``, so each searcher that lands is checked too:
it builds with its defaults, keeps to a moves budget, ``run()`` grows the tree stepping
grows, and the same seed gives the same result.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from plyscope.engine.errors import UserError
from plyscope.engine.games import Connect4, Nim, PositionError, State
from plyscope.engine.kits import kits, make_game
from plyscope.engine.search import AlgorithmInfo, Limit, Param, Result, SearchError, registry
from plyscope.engine.search.bestfirst.pns import ProofNumberSearch
from plyscope.engine.search.minimax import EVAL_PARAM, Minimax
from plyscope.engine.search.registry import AgentSpec, algorithm, algorithms, make_searcher
from plyscope.engine.travel import travel_of
from plyscope.engine.travel.replay import Replay

BUDGET = 200
"""Moves for the contract tests: small, so that every searcher's tests stay quick."""

POSITIONS: dict[str, State] = {
    "connect4 start": Connect4().start(),
    "grundy 7": Nim("grundy").parse("7"),
    "connect4-chance 2233": make_game("connect4-chance:5x4").parse("2233"),
}


def cases() -> list[tuple[str, str]]:
    """(algorithm, position) pairs the algorithm's ``games`` allow."""
    return [
        (name, label)
        for name, info in algorithms().items()
        for label, state in POSITIONS.items()
        if registry.plays(info, state.game)
    ]


CASES = cases()
CASE_IDS = [f"{name}-{label}" for name, label in CASES]


@pytest.mark.parametrize(("name", "label"), CASES, ids=CASE_IDS)
def test_every_algorithm_builds_with_its_defaults(name: str, label: str) -> None:
    searcher = make_searcher(name, POSITIONS[label])
    assert isinstance(searcher, algorithm(name).factory)
    assert searcher.root.parent is None and searcher.root.depth == 0
    assert searcher.stats.moves == 0
    assert searcher.root_state is POSITIONS[label]


@pytest.mark.parametrize(("name", "label"), CASES, ids=CASE_IDS)
def test_a_moves_budget_is_never_exceeded(name: str, label: str) -> None:
    searcher = make_searcher(name, POSITIONS[label], seed=1)
    searcher.run(Limit(moves=BUDGET))
    assert searcher.stats.moves <= BUDGET
    stepped = make_searcher(name, POSITIONS[label], seed=1)
    while stepped.step(moves_left=BUDGET - stepped.stats.moves) is not None:
        assert stepped.stats.moves <= BUDGET
    assert stepped.stats.moves <= BUDGET


def summary(result: Result) -> tuple[object, ...]:
    """Everything a run reports except the time it took."""
    return (
        result.best_move,
        result.value.first(),
        result.principal_variation,
        replace(result.stats, seconds=0.0),
        result.finished,
    )


@pytest.mark.parametrize(("name", "label"), CASES, ids=CASE_IDS)
def test_run_grows_the_tree_stepping_grows(name: str, label: str) -> None:
    ran = make_searcher(name, POSITIONS[label], seed=2)
    ran_result = ran.run(Limit(moves=BUDGET))
    stepped = make_searcher(name, POSITIONS[label], seed=2)
    while stepped.step(moves_left=BUDGET - stepped.stats.moves) is not None:
        pass
    assert summary(stepped.result()) == summary(ran_result)
    assert [n.moves() for n in stepped.walk()] == [n.moves() for n in ran.walk()]


@pytest.mark.parametrize(("name", "label"), CASES, ids=CASE_IDS)
def test_the_same_seed_gives_the_same_result(name: str, label: str) -> None:
    first = make_searcher(name, POSITIONS[label], seed=5).run(Limit(moves=BUDGET))
    second = make_searcher(name, POSITIONS[label], seed=5).run(Limit(moves=BUDGET))
    assert summary(first) == summary(second)


@pytest.mark.parametrize("name", list(algorithms()))
def test_every_entry_is_described_and_its_defaults_are_in_range(name: str) -> None:
    info = algorithms()[name]
    assert info.name == name
    assert info.description and "\n" not in info.description
    assert len({p.name for p in info.params}) == len(info.params)
    for param in info.params:
        assert param.parse(param.default) == param.default
        assert param.help
    assert set(info.games) <= set(kits())
    assert info.factory.name == name  # (a searcher finds its entry by its name: its twin, ``compiled_twin``)


@pytest.mark.parametrize(("name", "label"), CASES, ids=CASE_IDS)
def test_every_number_a_searcher_shows_has_a_meaning(name: str, label: str) -> None:
    """The explorer's reading guide says what each number means (``Searcher.meanings``)."""
    searcher = make_searcher(name, POSITIONS[label], seed=1)
    searcher.run(Limit(iterations=20))
    shown = {number for node in searcher.walk() for number in searcher.numbers(node)}
    assert shown and all(searcher.meanings.get(number) for number in shown), shown - set(searcher.meanings)


@pytest.mark.parametrize(("name", "label"), CASES, ids=CASE_IDS)
def test_a_searcher_gets_the_journal_its_entry_declares(name: str, label: str) -> None:
    """The registry gives a fresh searcher its entry's journal, none to a searcher whose entry declares none (it goes
    back by a replay from its start)."""
    info = algorithm(name)
    searcher = make_searcher(name, POSITIONS[label])
    made = None if info.journal is None else info.journal(make_searcher(name, POSITIONS[label]))
    assert type(searcher.journal) is type(made)
    assert isinstance(travel_of(searcher), Replay) == (made is None)


def test_the_registry_holds_minimax_and_pns() -> None:
    assert algorithm("minimax").factory is Minimax
    assert algorithm("pns").factory is ProofNumberSearch


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(SearchError, match=r"unknown algorithm 'nope': choose one of .*pns.*minimax"):
        algorithm("nope")


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"width": 3}, "minimax has no parameter 'width' (its parameters: depth, eval, weights, transform)"),
        ({"depth": 13}, "parameter depth: 13 is above its range 0..12"),
        ({"depth": "-1"}, "parameter depth: -1 is below its range 0..12"),
        ({"depth": "3.5"}, "parameter depth: '3.5' is not a whole number"),
        (
            {"eval": "clever"},
            "parameter eval: 'clever' is not one of auto, rivest, threats, features, neutral, playouts, lines, tree",
        ),
    ],
)
def test_bad_parameters_are_refused_with_the_reason(params: dict[str, object], message: str) -> None:
    with pytest.raises(SearchError) as raised:
        make_searcher("minimax", Connect4().start(), params)
    assert str(raised.value) == message


def test_parameters_are_converted_to_their_types() -> None:
    searcher = make_searcher("minimax", Connect4().start(), {"depth": " 2 ", "eval": "neutral"})
    assert isinstance(searcher, Minimax)
    assert searcher.depth == 2
    assert searcher.evaluator.name == "neutral"


def test_a_finished_game_is_refused() -> None:
    with pytest.raises(SearchError, match="the game is already over"):
        make_searcher("pns", Nim("classic").parse("0"))


class Refusing(Minimax):
    """A searcher that refuses every position, as one refuses a game it cannot play."""

    def __init__(self, state: State, **params: object) -> None:
        raise PositionError("cannot play here")


TOY = AlgorithmInfo(
    name="toy",
    description="a stand-in for the registry tests",
    factory=Minimax,
    params=(
        Param("depth", int, 1, "plies", lo=0, hi=3),
        Param("c", float, 1.0, "a constant", lo=0.0),
        Param("deep", bool, False, "a flag"),
        EVAL_PARAM,
    ),
    games=("connect4",),
)


@pytest.fixture
def toy_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    refusing = AlgorithmInfo("refusing", "refuses every position", Refusing)
    monkeypatch.setattr(registry, "algorithms", lambda: {"toy": TOY, "refusing": refusing})


@pytest.mark.usefixtures("toy_registry")
def test_an_algorithm_refuses_games_outside_its_list() -> None:
    with pytest.raises(SearchError, match=r"^toy works on connect4 only, not on grundy$"):
        make_searcher("toy", Nim("grundy").parse("7"))


@pytest.mark.usefixtures("toy_registry")
def test_a_searcher_refusing_a_position_becomes_a_search_error() -> None:
    with pytest.raises(SearchError, match=r"^refusing: cannot play here$"):
        make_searcher("refusing", Connect4().start())


def test_search_errors_are_user_errors() -> None:
    assert issubclass(SearchError, UserError)


@pytest.mark.parametrize(
    ("text", "name", "params", "label"),
    [
        ("minimax", "minimax", {}, "minimax"),
        ("minimax:depth=3", "minimax", {"depth": 3}, "minimax:depth=3"),
        (
            " minimax : depth = 3 , eval = rivest ",
            "minimax",
            {"depth": 3, "eval": "rivest"},
            "minimax:depth=3,eval=rivest",
        ),
        ("minimax:", "minimax", {}, "minimax"),
        ("pns:target=draw-or-win", "pns", {"target": "draw-or-win"}, "pns:target=draw-or-win"),
    ],
)
def test_agent_specs_parse_and_label(text: str, name: str, params: dict[str, object], label: str) -> None:
    spec = AgentSpec.parse(text)
    assert (spec.name, spec.params, spec.label()) == (name, params, label)
    assert AgentSpec.parse(spec.label()) == spec


@pytest.mark.usefixtures("toy_registry")
def test_agent_spec_labels_write_typed_values_in_the_registry_order() -> None:
    spec = AgentSpec.parse("toy:deep=yes,c=0.50,depth=2")
    assert spec.params == {"deep": True, "c": 0.5, "depth": 2}
    assert spec.label() == "toy:depth=2,c=0.5,deep=true"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nope:depth=1", "unknown algorithm 'nope'"),
        ("minimax:depth", "agent 'minimax:depth': 'depth' is not key=value"),
        ("minimax:=3", "agent 'minimax:=3': '=3' is not key=value"),
        ("minimax:depth=x", "parameter depth: 'x' is not a whole number"),
        ("minimax:size=3", "minimax has no parameter 'size'"),
    ],
)
def test_bad_agent_specs_are_refused(text: str, message: str) -> None:
    with pytest.raises(SearchError, match=re.escape(message)):
        AgentSpec.parse(text)


def test_an_agent_spec_makes_its_searcher() -> None:
    searcher = AgentSpec.parse("minimax:depth=2").make(Connect4().start(), seed=3)
    assert isinstance(searcher, Minimax)
    assert searcher.depth == 2


@pytest.mark.parametrize(
    ("param", "text", "parsed"),
    [
        (Param("flag", bool, False, "a flag"), "on", True),
        (Param("flag", bool, False, "a flag"), "No", False),
        (Param("flag", bool, False, "a flag"), True, True),
        (Param("c", float, 1.0, "a constant", lo=0.0), "1e-3", 0.001),
        (Param("n", int, 1, "a count", lo=1, hi=9), "9", 9),
    ],
)
def test_param_parsing(param: Param, text: object, parsed: object) -> None:
    assert param.parse(text) == parsed


@pytest.mark.parametrize(
    ("param", "text", "message"),
    [
        (Param("flag", bool, False, "a flag"), "maybe", "parameter flag: 'maybe' is not true or false"),
        (Param("c", float, 1.0, "a constant", lo=0.0), "nan", "parameter c: 'nan' is not a number"),
        (Param("c", float, 1.0, "a constant", lo=0.0), "-0.1", "parameter c: -0.1 is below its range 0..inf"),
        (Param("n", int, 1, "a count", lo=1, hi=9), "10", "parameter n: 10 is above its range 1..9"),
    ],
)
def test_param_parsing_refuses_with_the_reason(param: Param, text: str, message: str) -> None:
    with pytest.raises(SearchError) as raised:
        param.parse(text)
    assert str(raised.value) == message
