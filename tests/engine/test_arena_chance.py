"""The arena on Connect Four with chance: openings that land where aimed, and the same dice for both colours."""

from __future__ import annotations

from plyscope.engine.agents import Agent
from plyscope.engine.arena.openings import two_move_openings
from plyscope.engine.arena.play import play_game
from plyscope.engine.arena.schedule import schedule
from plyscope.engine.games import ChanceDrop, is_chance
from plyscope.engine.games.notation import spell
from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Limit
from plyscope.engine.seeds import chance_draw

GAME = make_game("connect4-chance:5x4")
AGENTS = [Agent.parse("expectiminimax:depth=1", Limit(moves=200)), Agent.parse("mcts", Limit(moves=100))]


def test_openings_are_two_turns_landing_where_aimed() -> None:
    openings = two_move_openings(GAME)
    assert len(openings) == 25
    assert openings[0] == (0, 0, 0, 0) and openings[-1] == (4, 4, 4, 4)
    assert all(o[0] == o[1] and o[2] == o[3] for o in openings)
    assert spell(GAME.start(), openings[1]) == "1 1 2 2"
    assert GAME.parse(spell(GAME.start(), openings[1])).text() == "1122"
    assert len(two_move_openings(make_game("connect4-chance"))) == 49


def test_both_games_of_a_pair_see_the_same_dice() -> None:
    tasks = schedule(GAME, AGENTS, two_move_openings(GAME)[:3], seed=11)
    assert len(tasks) == 6
    for first, second in zip(tasks[::2], tasks[1::2], strict=True):
        assert first.opening == second.opening and first.seed != second.seed
        assert first.dice == second.dice
    assert len({task.dice for task in tasks}) == 3
    for task in tasks:
        record = play_game(task)
        assert record.result in ("first", "second", "draw"), record.error
        state = GAME.start()
        landings = 0
        for index, word in enumerate(record.moves.split()):
            if is_chance(state) and index >= len(task.opening):
                assert isinstance(state, ChanceDrop)
                assert state.parse_move(word) == state.outcome_for(chance_draw(task.dice, state.ply))
                landings += 1
            state = state.play(state.parse_move(word))
        assert state.is_terminal() and landings >= 2
        again = play_game(task)  # a game is a pure function of its task (but for the time it takes)
        assert (again.moves, again.result) == (record.moves, record.result)


def test_the_draw_at_a_ply_is_the_same_for_equal_dice() -> None:
    assert chance_draw(5, 7) == chance_draw(5, 7)
    assert chance_draw(5, 7) != chance_draw(5, 8) and chance_draw(5, 7) != chance_draw(6, 7)
    assert all(0 <= chance_draw(9, ply) < 1 for ply in range(100))
