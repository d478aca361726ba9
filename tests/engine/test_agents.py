"""Agents: a registry spec with a per-turn budget, a new searcher each turn, a deterministic fallback."""

from __future__ import annotations

import pickle

import pytest

from plyscope.engine.agents import Agent, fallback_move
from plyscope.engine.games import Connect4
from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Limit, SearchError


def test_fallback_is_the_playable_column_nearest_the_centre() -> None:
    game = Connect4()
    assert fallback_move(game.start()) == 3
    assert fallback_move(game.parse("444444")) == 2  # centre full: the left of the two next to it
    assert fallback_move(game.parse("444444333333")) == 4
    assert fallback_move(Connect4(6, 5).start()) == 2  # even width: the left of the two middle columns


def test_fallback_in_nim_is_the_first_legal_move() -> None:
    state = make_game("grundy").start()
    assert fallback_move(state) == state.legal_moves()[0]


def test_decide_spends_the_budget_and_reports_it() -> None:
    agent = Agent.parse("minimax:depth=1", Limit(moves=7))
    decision = agent.decide(Connect4().start(), seed=0)
    assert not decision.fallback
    assert decision.stats.moves == 7
    assert decision.move in range(7)


def test_an_agent_whose_searcher_proposes_no_move_plays_the_fallback() -> None:
    agent = Agent.parse("minimax:depth=2", Limit(moves=0))
    state = Connect4().parse("444444")
    decision = agent.decide(state, seed=0)
    assert decision.fallback
    assert decision.move == 2
    assert decision.stats.moves == 0


def test_nothing_is_carried_over_between_turns() -> None:
    agent = Agent.parse("minimax:depth=2", Limit(moves=30))
    state = Connect4().parse("4453")
    first = agent.decide(state, seed=1)
    second = agent.decide(state, seed=1)
    # a fresh searcher both times: the same move, the same work (time aside)
    assert (first.move, first.stats.moves, first.stats.nodes) == (second.move, 30, 31)


def test_label_name_and_bad_specs() -> None:
    agent = Agent.parse("minimax:depth=3", Limit(moves=10))
    assert agent.label == "minimax:depth=3"
    assert Agent.parse("minimax", Limit(moves=10), name="MM").label == "MM"
    with pytest.raises(SearchError, match="unknown algorithm 'nosuch'"):
        Agent.parse("nosuch", Limit(moves=10))
    with pytest.raises(SearchError, match="depth"):
        Agent.parse("minimax:depth=-1", Limit(moves=10))


def test_agents_pickle_for_worker_processes() -> None:
    agent = Agent.parse("minimax:depth=3", Limit(seconds=0.5), name="x")
    assert pickle.loads(pickle.dumps(agent)) == agent
