"""One game of a schedule played to its end, turn by turn (``play_game``); a pure function of its ``GameTask``."""

from __future__ import annotations

from collections.abc import Callable

from plyscope.engine import memory
from plyscope.engine.arena.accuracy import judge_game
from plyscope.engine.arena.records import GameRecord, SideStats
from plyscope.engine.arena.schedule import GameTask
from plyscope.engine.games import State, is_chance
from plyscope.engine.games.notation import spell
from plyscope.engine.kits import make_game
from plyscope.engine.search.base import SearchError
from plyscope.engine.seeds import chance_draw, turn_seed

TurnReport = tuple[int, int]
"""A turn begins: the game's task index and the turns its agents have played before it (after the opening)."""


def play_game(task: GameTask, on_turn: Callable[[TurnReport], None] | None = None) -> GameRecord:
    """Play ``task`` to its end; an agent that raises ends the game as an ``error`` record, one that runs out of
    memory too, once the memory its search held is free again (``plyscope.engine.memory``: the emergency reserve
    is set aside before the game).

    With ``task.truth_nodes``, the agents' moves are judged against perfect play once the game has ended
    (``plyscope.engine.arena.accuracy.judge_game``), outside the time the agents are given.

    As every turn begins, ``on_turn`` is told (in a ``GamePool`` worker: its queue to the arena process), so that
    a long game shows progress before it ends."""
    memory.reserve()
    start: State = make_game(task.game).start()
    opening = spell(start, task.opening)
    state = start
    for move in task.opening:
        state = state.play(move)
    sides = {1: (task.first, SideStats()), -1: (task.second, SideStats())}
    played = list(task.opening)
    moves: list[tuple[State, State]] = []
    """The agents' moves: the positions before and after each."""
    result = "error"
    error: str | None = None
    error_agent: str | None = None
    try:
        while not state.is_terminal():
            if is_chance(state):
                outcome = state.outcome_for(chance_draw(task.dice, state.ply))
                played.append(outcome)
                state = state.play(outcome)
                continue
            agent, stats = sides[state.player]
            if on_turn is not None:
                on_turn((task.index, len(played) - len(task.opening)))
            decision = agent.decide(state, turn_seed(task.seed, state.ply))
            if decision.move not in state.legal_moves():
                raise SearchError(f"{agent.label} chose {decision.move!r}, which is not a legal move")
            stats.add(decision)
            played.append(decision.move)
            after = state.play(decision.move)
            moves.append((state, after))
            state = after
        result = {1: "first", -1: "second", 0: "draw"}[state.utility()]
        if task.truth_nodes:
            for (before, _), verdict in zip(moves, judge_game(moves, task.truth_nodes), strict=True):
                sides[before.player][1].judged_move(verdict)
    except MemoryError as raised:  # the tree the search held is let go first: the next game starts with room
        memory.recover(raised)
        error = f"MemoryError: {str(raised) or 'out of memory'}"
        error_agent = sides[state.player][0].label if state.player in sides else None
    except Exception as raised:
        error = f"{type(raised).__name__}: {raised}"
        error_agent = sides[state.player][0].label if state.player in sides else None
    return GameRecord(
        index=task.index,
        group=task.group,
        first=task.first.label,
        second=task.second.label,
        opening=opening,
        seed=task.seed,
        moves=spell(start, played),
        result=result,
        error=error,
        error_agent=error_agent,
        first_stats=sides[1][1],
        second_stats=sides[-1][1],
    )
