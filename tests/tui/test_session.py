"""The explorer's model without Textual: sessions, batches, the drive loop, value history, rates, number formats."""

from __future__ import annotations

import math
import re
import threading

import pytest

from plyscope.engine.errors import UserError
from plyscope.engine.games import Connect4, Nim
from plyscope.engine.search.base import Limit
from plyscope.tui.commands.explore import parse_params
from plyscope.tui.formatting import format_number, format_numbers, format_rate
from plyscope.tui.session import (
    FREEZE_NODES,
    Batch,
    Exploration,
    RateMeter,
    SearchConfig,
    Session,
    ValueHistory,
    default_algorithm,
)


def minimax(**config: object) -> Session:
    return Session.create(SearchConfig(algorithm="minimax", **config))  # type: ignore[arg-type]


def test_create_resolves_and_checks_the_configuration() -> None:
    session = minimax(position="4453", params={"depth": "3"})
    assert session.config.params == {"depth": 3}
    assert session.config.label() == "minimax:depth=3"
    assert session.state.text() == "4453"
    with pytest.raises(UserError, match="column 4 is full"):
        minimax(position="4444444")
    with pytest.raises(UserError, match=r"parameter depth: 13 is above its range 0\.\.12"):
        minimax(params={"depth": 13})
    with pytest.raises(UserError, match="budget -1 is negative"):
        minimax(budget=-1)


@pytest.mark.parametrize(
    ("seed", "said"),
    [(-1, "-1 is out of range"), (1 << 63, "9223372036854775808 is out of range"), (True, "True is not")],
)
def test_a_configuration_refuses_a_seed_the_command_line_would(seed: int, said: str) -> None:
    # Issue 36, item 12: SearchConfig(seed=-1) was accepted, and play then crashed in numpy's SeedSequence.
    with pytest.raises(UserError, match=rf"^seed: {said}"):
        SearchConfig(seed=seed)
    assert SearchConfig(seed=(1 << 63) - 1).seed == (1 << 63) - 1


def test_default_algorithm_prefers_best_first_searchers_that_fit() -> None:
    assert default_algorithm(Connect4()) in ("rivest", "mcts", "bestfirst", "alphabeta", "minimax")
    assert default_algorithm(Nim("grundy")) in ("rivest", "mcts", "bestfirst", "alphabeta", "minimax")


def test_take_merges_steps_and_marks_the_last() -> None:
    session = minimax()
    batch = session.take(3)
    assert batch.steps == 3
    assert batch.last is not None and batch.last.node.moves() == [0, 0, 0]
    assert [node.moves() for node in batch.changed] == [[0], [0, 0], [0, 0, 0]]
    assert not batch.ended


def test_take_never_exceeds_the_budget() -> None:
    session = minimax(budget=5)
    first = session.take(3)
    second = session.take(None)
    assert (first.steps, second.steps) == (3, 2)
    assert second.ended and session.ended
    assert session.searcher.stats.moves == 5
    session.set_budget(6)
    assert [session.ended] == [False]
    assert session.take(10).steps == 1


def test_stepping_in_batches_grows_the_tree_run_grows() -> None:
    stepped = minimax(params={"depth": 3})
    for count in (1, 10, 100, 1000):
        stepped.take(count)
    ran = minimax(params={"depth": 3}).searcher
    ran.run(Limit(iterations=1111))
    assert [n.moves() for n in stepped.searcher.walk()] == [n.moves() for n in ran.walk()]


def test_drive_takes_the_steps_asked_and_hands_over_every_batch() -> None:
    session = minimax()
    batches: list[Batch] = []
    session.drive(250, lambda: None, batches.append, threading.Event())
    assert sum(batch.steps for batch in batches) == 250
    assert session.searcher.stats.iterations == 250


def test_drive_stops_when_asked() -> None:
    session = minimax()
    stop = threading.Event()
    batches: list[Batch] = []

    def deliver(batch: Batch) -> None:
        batches.append(batch)
        stop.set()

    session.drive(None, lambda: 1000.0, deliver, stop)
    assert len(batches) == 1
    assert session.searcher.stats.iterations == batches[0].steps


def test_value_history_thins_evenly() -> None:
    history = ValueHistory(capacity=4)
    for value in range(10):
        history.add(float(value))
    assert (history.values, history.stride) == ([0.0, 4.0, 8.0], 4)
    assert history.shown() == [0.0, 4.0, 8.0, 9.0]  # ending at the value now
    history.add(math.inf)
    assert history.values == [0.0, 4.0, 8.0]
    assert history.shown() == [0.0, 4.0, 8.0, 9.0]
    history.add(12.0)
    assert history.shown() == [0.0, 4.0, 8.0, 12.0]
    history.add(13.0)  # the value after step 12, a sample
    assert (history.values, history.shown()) == ([0.0, 4.0, 8.0, 13.0], [0.0, 4.0, 8.0, 13.0])
    odd = ValueHistory(capacity=3)
    for value in range(4):
        odd.add(float(value))
    assert (odd.values, odd.shown()) == ([0.0, 2.0], [0.0, 2.0, 3.0])  # 3.0 thinned out, still the value now


def test_the_stats_show_the_root_value_now() -> None:
    """After a search of many steps, the value the stats end at is the searcher's value now, not the last one the
    history kept (best-first minimax here proves a win at ply 32, 1.032 on Rivest's scale, at step 3,366)."""
    session = Session.create(SearchConfig(position="67152117737262713366376314254", algorithm="bestfirst"))
    assert session.take(None).ended
    assert session.searcher.finished and session.searcher.value().first() == 1.032
    assert session.history.shown()[-1] == 1.032


def test_rate_meter() -> None:
    now = [0.0]
    meter = RateMeter(lambda: now[0], window=1.0)
    assert meter.rate() is None
    for step in range(5):
        meter.add(step * 10)
        now[0] += 0.5
    assert meter.rate() == 20.0
    meter.clear()
    assert meter.rate() is None


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, "–"),
        (True, "yes"),
        ("=", "="),
        (7, "7"),
        (528.0, "528"),
        (1.37609, "1.376"),
        (0.0523, "0.0523"),
        (math.inf, "∞"),
        (-math.inf, "-∞"),
        (123456.7, "1.235e+05"),
        (1022.962, "1022.962"),  # Rivest's scale: the first player won at ply 38
        (1022.9, "1022.9"),
        (1.038, "1.038"),  # the second player won at ply 38
    ],
)
def test_format_number(value: float | int | str | None, text: str) -> None:
    assert format_number(value) == text


def test_format_numbers_and_rates() -> None:
    assert format_numbers({"v": 528.0, "alpha": -math.inf, "n": 3}) == "v=528 alpha=-∞ n=3"
    assert (format_rate(None), format_rate(12.34), format_rate(4321.0)) == ("–", "12.3", "4,321")


def test_parse_params() -> None:
    assert parse_params(["c=1.4", " k = 32 "]) == {"c": "1.4", "k": "32"}
    with pytest.raises(UserError, match="--param 'c' is not KEY=VALUE"):
        parse_params(["c"])


def test_explore_command_rejects_bad_input_before_taking_the_screen(capsys: pytest.CaptureFixture[str]) -> None:
    from plyscope.tui.cli import main

    assert main(["explore", "4444444"]) == 2
    assert capsys.readouterr().err == "plyscope explore: move 7 ('4'): column 4 is full\n"
    assert main(["explore", "--algo", "minimax", "--param", "depth=x"]) == 2
    assert capsys.readouterr().err == "plyscope explore: parameter depth: 'x' is not a whole number\n"


# --- the exact solver: its cap on the tree it keeps, its own budget, its slices unpaced (issue: every limit) -------

MIDDLE_MEDIUM = "274552224131661"
"""Pons' Middle-Medium, score 0: 440,709 solver moves with its line, 105 steps of which 10 go on with a probe."""


def solver(**config: object) -> Session:
    return Session.create(SearchConfig(algorithm="solver", position=MIDDLE_MEDIUM, **config))  # type: ignore[arg-type]


def test_the_solver_s_node_cap_is_on_the_tree_it_keeps_not_on_its_negamax_nodes() -> None:
    session = solver(budget=None, node_cap=100)  # its tree: the root, 7 children and a line of 26
    while not session.take(None).ended:
        pass
    assert session.stop_reason() == "finished"  # it stopped at the cap, after 100 negamax nodes
    searcher = session.searcher
    assert searcher.stats.nodes == len(list(searcher.walk())) == 34
    assert searcher.stats.moves == 440_709


def test_a_paced_take_counts_only_the_steps_that_show_something_new() -> None:
    session = solver(budget=None)
    assert session.take(1, paced=True).counted == 1  # the expansion
    batch = session.take(20, paced=True)
    assert batch.counted == 20 and batch.steps > 20  # probes of over 32,768 nodes went on over several steps
    assert batch.last is not None and not batch.last.continues
    unpaced = solver(budget=None)
    assert unpaced.take(21).steps == unpaced.take(21).counted == 21


def test_a_run_at_a_rate_paces_the_solver_s_probes_not_their_slices() -> None:
    session = solver(budget=None)
    batches: list[Batch] = []
    session.drive(21, lambda: 1000.0, batches.append, threading.Event())
    assert sum(batch.counted for batch in batches) == 21
    assert session.searcher.stats.iterations == sum(batch.steps for batch in batches) > 21


def test_the_solver_starts_with_its_own_budget_and_a_default_budget_follows_the_algorithm() -> None:
    from plyscope.tui.cli import build_parser
    from plyscope.tui.commands.explore import config_from_args
    from plyscope.tui.session import default_budget

    assert default_budget("solver") == 1_000_000_000 and default_budget("rivest") == default_budget(None) == 100_000
    args = build_parser().parse_args(["explore", MIDDLE_MEDIUM, "--algo", "solver"])
    assert config_from_args(args).budget == 1_000_000_000
    rivest = SearchConfig(algorithm="rivest")
    assert rivest.with_algorithm("solver").budget == 1_000_000_000
    assert rivest.with_algorithm("solver").with_algorithm("mcts").budget == 100_000
    assert SearchConfig(algorithm="rivest", budget=5_000).with_algorithm("solver").budget == 5_000  # the user's
    assert solver(budget=None).halve_budget() == "budget: 1,000,000,000 moves"


def test_a_take_freezes_the_objects_there_are_only_once_the_tree_has_grown(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every take froze every object there was, the UI's garbage not yet collected with them: a solver run, whose
    # tree stays at 8 nodes for minutes, grew 0.9 MB a second (527 MB once 4453 was solved).
    import gc

    frozen: list[int] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(1))
    session = solver(budget=None)
    for _ in range(30):
        session.take(1)
    assert frozen == []
    grown = minimax(params={"depth": 5}, budget=None)
    grown.take(FREEZE_NODES - 1)
    assert frozen == []
    grown.take(1)
    assert frozen == [1] and grown.searcher.stats.nodes == FREEZE_NODES + 1  # the root, and a node a step


def test_an_exploration_goes_back_to_the_positions_its_moves_came_from() -> None:
    ending = Exploration(minimax(position="121212"))
    with pytest.raises(UserError, match=re.escape("1 ends the game (first player wins): nothing to search")):
        ending.play(0)
    with pytest.raises(UserError, match=r"^no move to take back$"):
        ending.undo()
    exploration = Exploration(minimax(position="44", params={"depth": 2}, budget=500))
    with pytest.raises(UserError, match=r"^no best move yet: take a step first$"):
        exploration.play(None)
    assert exploration.play(4).config.position == "445" and exploration.played[-1].position == "44"
    exploration.session.take(None)
    state, best = exploration.session.state, exploration.session.searcher.best_move()
    assert best is not None and exploration.play(None).config.position == f"445{state.move_label(best)}"
    exploration.session.set_budget(900)
    back = exploration.undo()
    assert (back.config.position, back.config.budget, len(exploration.played)) == ("445", 900, 1)
    assert exploration.search(back.config.with_game("nim"), fresh=True).config.game == "nim"
    assert exploration.played == [] and exploration.session.config.algorithm == "minimax"
