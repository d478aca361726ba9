"""Agents under budgets without the UI: a turn's search, its decision, and sessions in lockstep."""

from __future__ import annotations

import math
import threading

import pytest

from plyscope.engine.agents import Agent
from plyscope.engine.errors import UserError
from plyscope.engine.game_record import PlayedGame
from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Limit
from plyscope.engine.search.registry import AgentSpec
from plyscope.tui.contest import Lockstep, agent_session, compared_agents, decide, run_together, step_together, think
from plyscope.tui.match import MatchRunner, Turn
from plyscope.tui.session import Batch, Session

C4 = make_game("connect4")
POSITION = C4.parse("4453")


def agent(text: str, limit: Limit) -> Agent:
    return Agent(AgentSpec.parse(text), limit)


def test_a_turn_under_a_move_budget_decides_as_the_arena_agent_does() -> None:
    for text in ("rivest", "mcts:k=4", "alphabeta:depth=3"):
        bot = agent(text, Limit(moves=300))
        session = agent_session(bot, POSITION, seed=7)
        batches: list[Batch] = []
        think(session, None, batches.append, threading.Event())
        assert session.searcher.stats.moves <= 300 and session.ended
        assert sum(batch.steps for batch in batches) == session.searcher.stats.iterations
        mine, arenas = decide(session), bot.decide(POSITION, 7)
        assert (mine.move, mine.fallback, mine.stats.moves) == (arenas.move, arenas.fallback, arenas.stats.moves)


def test_a_turn_under_a_time_budget_counts_search_time() -> None:
    session = agent_session(agent("mcts", Limit(seconds=0.05)), POSITION, seed=1)
    think(session, 0.05, lambda batch: None, threading.Event())
    assert session.searcher.stats.seconds >= 0.05 and not session.ended  # time ran out, not the moves


def test_a_stopped_turn_stops_between_two_steps() -> None:
    stop = threading.Event()
    session = agent_session(agent("mcts", Limit(moves=10_000_000)), POSITION, seed=1)

    def deliver(batch: Batch) -> None:
        stop.set()

    think(session, None, deliver, stop)
    assert 0 < session.searcher.stats.moves < 10_000_000


def test_a_searcher_that_proposes_nothing_falls_back() -> None:
    session = agent_session(agent("alphabeta", Limit(moves=0)), POSITION, seed=0)
    think(session, None, lambda batch: None, threading.Event())
    decision = decide(session)
    assert decision.fallback and decision.move == 3  # the playable column nearest the centre


def sessions(total: Limit) -> list[Session]:
    return [agent_session(agent(text, total), POSITION, seed=2) for text in ("rivest", "mcts:k=2", "bestfirst")]


def test_stepping_together_keeps_the_budgets_equal() -> None:
    """Issue 11, defect 6: one step each let MCTS (one move a step) fall far behind the expanders (seven)."""
    total = Limit(moves=1000)
    together = sessions(total)
    for count in range(1, 31):
        batches = step_together(together, total)
        assert sum(batch.steps for batch in batches) >= 1
        spent = [s.searcher.stats.moves for s in together]
        # Each is at most one expansion (7 children) behind the one that has spent most, and none is ahead.
        assert max(spent) - min(spent) <= 7, (count, spent)
    assert min(s.searcher.stats.iterations for s in together) >= 10


def test_stepping_together_stops_at_the_total_budget() -> None:
    total = Limit(moves=20)
    together = sessions(total)
    for _ in range(40):
        step_together(together, total)
    assert all(13 <= s.searcher.stats.moves <= 20 for s in together)
    assert all(batch.steps == 0 for batch in step_together(together, total))


def test_running_together_keeps_every_increment_at_an_equal_budget() -> None:
    total = Limit(moves=700)
    together = sessions(total)
    seen: list[list[tuple[int, bool]]] = []

    def deliver(batches: list[Batch]) -> None:
        seen.append([(s.searcher.stats.moves, s.ended) for s in together])

    run_together(together, total, deliver, threading.Event(), rounds=7)
    assert len(seen) == 7
    for round_number, spent in enumerate(seen, start=1):
        target = math.ceil(700 * round_number / 7)
        for moves, refused in spent:
            # Each has spent at most the increment's budget and stopped only because the next step would exceed it.
            assert moves <= target and refused
    final = [s.searcher.stats.moves for s in together]
    assert all(700 - 8 <= moves <= 700 for moves in final)  # within one expansion (7 children + 1) of the budget


def test_comparing_needs_two_to_four_agents_with_one_budget() -> None:
    total = Limit(moves=100)
    assert [a.label for a in compared_agents(["mcts", "mcts", "rivest"], total, C4)] == ["mcts", "mcts #2", "rivest"]
    with pytest.raises(UserError, match=r"^compare takes 2 to 4 agents, not 1$"):
        compared_agents(["mcts"], total, C4)
    with pytest.raises(UserError, match=r"^compare takes 2 to 4 agents, not 5$"):  # issue 36: "compare two to 4"
        compared_agents(["mcts"] * 5, total, C4)
    with pytest.raises(UserError, match=r"^compare is for agents: play against one with plyscope play$"):
        compared_agents(["mcts", "human"], total, C4)
    with pytest.raises(UserError) as raised:
        compared_agents(["mcts:moves=5", "rivest"], total, C4)
    assert str(raised.value) == (
        "agent 'mcts:moves=5': compared agents share one budget (--moves or --seconds); drop its moves= or seconds="
    )


def test_running_together_on_equal_time_gives_each_increment_its_search_time() -> None:
    total = Limit(seconds=0.06)
    together = [agent_session(agent(text, total), POSITION, seed=2) for text in ("mcts", "rivest")]
    seen: list[list[float]] = []
    run_together(
        together,
        total,
        lambda batches: seen.append([s.searcher.stats.seconds for s in together]),
        threading.Event(),
        rounds=3,
    )
    assert len(seen) == 3
    for round_number, spent in enumerate(seen, start=1):
        assert all(seconds >= 0.06 * round_number / 3 - 1e-9 for seconds in spent)  # each searched up to the mark


def test_a_turn_stopped_by_the_node_cap_says_so() -> None:
    from dataclasses import replace

    from plyscope.engine.game_record import PlayedGame
    from plyscope.tui.match import MatchRunner

    played = PlayedGame(POSITION, agent("mcts", Limit(seconds=60)), None)
    runner = MatchRunner(played)
    turn = runner.turn()
    assert turn is not None
    turn.session.config = replace(turn.session.config, node_cap=50)
    think(turn.session, 60, lambda batch: None, threading.Event())
    assert turn.session.searcher.stats.nodes == 50 and turn.session.stop_reason() == "cap"
    note = runner.conclude(turn, decide(turn.session))
    assert note.endswith("(its tree reached its cap of 50 nodes)")


def test_lockstep_threads_deliver_every_session_with_its_batch() -> None:
    total = Limit(moves=300)
    lockstep = Lockstep(sessions(total), total)
    job = lockstep.steps(3)
    assert job is not None and lockstep.steps(2) is None  # the thread asked for first takes these two too
    frames: list[list[Session]] = []
    job(lambda batches: frames.append([session for session, _ in batches]), threading.Event())
    fresh = sessions(total)
    for _ in range(5):
        step_together(fresh, total)
    assert [s.searcher.stats.iterations for s in lockstep.sessions] == [s.searcher.stats.iterations for s in fresh]
    assert frames and all(frame == lockstep.sessions for frame in frames)
    run = lockstep.run()
    run(lambda batches: frames.append([session for session, _ in batches]), threading.Event())
    assert lockstep.ended and frames[-1] == lockstep.sessions


def under_way(runner: MatchRunner) -> Turn | None:
    """The runner's search under way (a function: type checkers keep no earlier narrowing)."""
    return runner.searching


def test_the_runner_keeps_the_search_under_way_hints_and_pauses() -> None:
    bot = agent("minimax:depth=1", Limit(moves=100))
    runner = MatchRunner(PlayedGame(C4.start(), None, bot))
    assert runner.human_move(3) == "you played 4"
    with pytest.raises(UserError, match=r"^it is not your turn: minimax:depth=1 is paused \(p resumes\)$"):
        runner.human_move(3)
    with pytest.raises(UserError, match=r"^hints are for a human's turn$"):
        runner.hint(bot)
    turn = runner.turn()
    assert turn is not None and runner.searching is turn
    with pytest.raises(UserError, match=r"^it is not your turn: minimax:depth=1 is thinking$"):
        runner.human_move(3)
    runner.drop()
    assert not runner.decided(turn)  # a decision of a search the screen dropped is not played
    assert runner.take_back() == 1 and not runner.paused and runner.played.moves == ()
    hint = runner.hint(bot)
    think(hint.session, None, lambda batch: None, threading.Event())
    decision = decide(hint.session)
    assert runner.decided(hint) and under_way(runner) is None
    label = C4.start().move_label(decision.move)
    assert runner.keep_hint(hint, decision) == f"hint: minimax:depth=1 would play {label}"
    assert runner.hint_line()[1] == decision.move
    runner.human_move(0)
    assert runner.hint_line() == ([], None)  # a hint is shown only on its position
    agents = MatchRunner(PlayedGame(C4.start(), bot, bot))
    agents.play(3)
    assert agents.take_back() == 1 and agents.paused and agents.turn() is None  # no human: one move, and pause
    assert agents.take_back(redo=True) == 1 and agents.played.moves == (3,)
