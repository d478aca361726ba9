"""Moves judged against perfect play (``plyscope.engine.arena.accuracy``): on positions whose values are known, in a
game, and in a small arena whose every move's value is known."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from functools import reduce
from operator import xor

import pytest

from plyscope.engine.agents import Agent
from plyscope.engine.arena.accuracy import TRUTH_NODES, AccuracyTally, Verdict, judge_game
from plyscope.engine.arena.play import play_game
from plyscope.engine.arena.records import SideStats
from plyscope.engine.arena.schedule import schedule
from plyscope.engine.arena.summary import accuracy, summary
from plyscope.engine.games import NimState, State
from plyscope.engine.games.notation import read_moves
from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Limit
from plyscope.engine.search.registry import make_searcher
from plyscope.engine.solver import Connect4Solver
from plyscope.engine.solver.book import BOOK_PLY, NO_BOOK_VARIABLE
from plyscope.engine.solver.openings import EARLY_PLY
from tests.pons import pons_positions


def test_a_nim_move_that_throws_a_win_away_loses_two() -> None:
    start = make_game("nim").parse("1,2")  # nim-sum 3: the player to move wins
    assert isinstance(start, NimState)
    to_zero = start.game.parse("1,1/2")  # nim-sum 0 for the second player: the first keeps the win
    thrown = start.game.parse("0,2/2")  # nim-sum 2: the second player wins now
    assert judge_game([(start, to_zero), (start, thrown)], 10) == [Verdict(kept=True, loss=0), Verdict(False, 2)]


def test_connect_four_verdicts_are_pons_scores_before_and_after() -> None:
    game = make_game("connect4")
    solver = Connect4Solver(game, table_limit=1 << 18)  # type: ignore[arg-type]
    for moves, score in pons_positions("Test_L3_R1", 4):
        before = game.parse(moves)
        for move in before.legal_moves():
            after = before.play(move)
            if after.is_terminal():
                continue
            after_score = solver.solve(after).pov(before.player)  # type: ignore[arg-type]
            (verdict,) = judge_game([(before, after)], 10**7)
            assert verdict == Verdict(
                (score > 0) - (score < 0) == (after_score > 0) - (after_score < 0), score - after_score
            )
            assert verdict.loss >= 0


def _whole_game(moves: str) -> list[tuple[State, State]]:
    """The moves of a game that starts with ``moves`` and is played to its end by alpha-beta at depth 2."""
    state = make_game("connect4").parse("")
    pairs = [(state, state := state.play(move)) for move in read_moves(state, moves)]
    while not state.is_terminal():
        searcher = make_searcher("alphabeta", state, {"depth": 2})
        searcher.run(Limit(iterations=10_000))
        move = searcher.best_move()
        assert move is not None
        pairs.append((state, state := state.play(move)))
    return pairs


def test_judging_goes_back_from_the_end_to_the_first_position_not_settled_then_the_book_s_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pairs = _whole_game("")
    verdicts = judge_game(pairs, 2_000)
    judged = [verdict is not None for verdict in verdicts]
    reached = sum(after.ply <= BOOK_PLY for _, after in pairs)  # moves between positions the book reaches
    assert judged[:reached] == [True] * reached  # settled whatever the budget
    rest = judged[reached:]
    assert rest == sorted(rest) and not rest[0] and rest[-1]  # past the book, a suffix of the game is judged
    assert judge_game(pairs, 2_000) == verdicts  # each game on a solver of its own: the same verdicts every time
    whole = judge_game(pairs, 10**8)
    assert all(verdict is not None for verdict in whole)
    assert [found for found, verdict in zip(whole, verdicts, strict=True) if verdict] == [v for v in verdicts if v]
    monkeypatch.setenv(NO_BOOK_VARIABLE, "1")  # without the book: the four stones of the table of early scores alone
    without = [verdict is not None for verdict in judge_game(pairs, 2_000)]
    assert without[:EARLY_PLY] == [True] * EARLY_PLY and without[EARLY_PLY:] == sorted(without[EARLY_PLY:])
    assert not without[EARLY_PLY] and without[-1]


def test_a_game_s_verdicts_do_not_depend_on_the_games_judged_before_or_the_thread() -> None:
    """Each thread keeps its judging solvers from game to game (``_Judges``): the table of the positions settled
    whatever the budget is kept, the other emptied, so the verdicts at a budget that leaves some positions unsettled
    are those of a fresh process, in whatever order the games come."""
    games = [_whole_game(moves) for moves in ("", "4453", "17", "2233")]
    alone = []
    for pairs in games:  # each in a thread of its own: fresh solvers
        with ThreadPoolExecutor(1) as fresh:
            alone.append(fresh.submit(judge_game, pairs, 3_000).result())
    assert any(None in verdicts for verdicts in alone) and any(v is not None for v in alone[0])
    assert [judge_game(pairs, 3_000) for pairs in games] == alone
    assert None not in judge_game(games[0], 10**8)  # (every position settled, in this thread's solvers)
    assert [judge_game(pairs, 3_000) for pairs in reversed(games)] == alone[::-1]


def _nim_wins(piles: tuple[int, ...]) -> bool:
    """Bouton: the player to move in normal-play Nim wins exactly when the nim-sum is not 0."""
    return reduce(xor, piles, 0) != 0


def test_a_small_nim_arena_judges_every_move_as_bouton_does() -> None:
    game = make_game("nim")
    agents = [Agent.parse("minimax:depth=1", Limit(moves=30)), Agent.parse("flat-mc", Limit(moves=6))]
    openings = [tuple(read_moves(game.start(), "4-1")), tuple(read_moves(game.start(), "5-2"))]
    records = [play_game(task) for task in schedule(game, agents, openings, 3, truth_nodes=1)]
    for record in records:
        expected = {record.first: SideStats(), record.second: SideStats()}
        state = game.start()
        for index, move in enumerate(read_moves(state, record.moves)):
            after = state.play(move)
            if index >= len(record.opening.split()):  # the opening's moves are nobody's
                assert isinstance(state, NimState) and isinstance(after, NimState)
                lost = _nim_wins(state.piles) and _nim_wins(after.piles)  # a win handed to the opponent
                side = expected[record.first if state.player == 1 else record.second]
                side.judged_move(Verdict(not lost, 2 if lost else 0))
            state = after
        for name, stats in ((record.first, record.first_stats), (record.second, record.second_stats)):
            assert (stats.judged, stats.kept, stats.loss) == (stats.turns, expected[name].kept, expected[name].loss)
    tallies = {agent.label: accuracy(records, agent.label) for agent in agents}
    assert sum(t.moves for t in tallies.values()) == sum(len(read_moves(game.start(), r.moves)) - 1 for r in records)
    document = summary(records, list(tallies))
    assert document["accuracy"] == [{"agent": name, **tally.as_dict()} for name, tally in tallies.items()]
    losing = tallies["flat-mc"]
    assert losing.kept < losing.judged == losing.moves and losing.mean_loss == 2 * (1 - (losing.kept_share or 0))


def test_a_small_connect_four_arena_judges_at_least_95_percent_of_each_agents_moves() -> None:
    """At the default budget, from the first move on: the opening book settles the early positions, and the budget
    nearly every one past it (before the book, 53% of these agents' moves were judged)."""
    game = make_game("connect4")
    agents = [Agent.parse("alphabeta", Limit(moves=1000)), Agent.parse("mcts", Limit(moves=1000))]
    openings = [tuple(read_moves(game.start(), moves)) for moves in ("44", "35", "11", "77", "41", "23", "12", "66")]
    records = [play_game(task) for task in schedule(game, agents, openings, 0, truth_nodes=TRUTH_NODES)]
    for agent in agents:
        tally = accuracy(records, agent.label)
        assert tally.moves > 200 and (tally.judged_share or 0) >= 0.95, (agent.label, tally)


def test_shares_of_nothing_are_none_and_said_so() -> None:
    empty = AccuracyTally(moves=4)
    assert (empty.judged_share, empty.kept_share, empty.mean_loss) == (0.0, None, None)
    assert empty.text() == "no move judged (0 of 4 moves settled within the solver's budget)"
    tally = AccuracyTally(moves=1200, judged=900, kept=812, loss=369)
    assert tally.text() == (
        "812 of 900 judged moves keep the value (90.2%), mean loss 0.41; 900 of 1,200 moves judged (75.0%)"
    )
