"""OpenSpiel's games through the adapter (issue 38): naming, refusals, positions, passes, the playouts evaluator,
and the cross-checks against plyscope's own games (tic-tac-toe on every position, Nim by nim-sums, Connect Four on
endgames searched to the end).  Skipped, with the reason, without OpenSpiel."""

from __future__ import annotations

import itertools
import json
import random

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'plyscope[openspiel]')")

from plyscope.engine.benchmarks import adapter
from plyscope.engine.exact import Exact
from plyscope.engine.game_record import PlayedGame
from plyscope.engine.games.base import PositionError, State
from plyscope.engine.games.nim import NimState
from plyscope.engine.kits import kit_of, make_game
from plyscope.engine.kits.nim import nim_score
from plyscope.engine.kits.openspiel import PASS, SpielGame, SpielState, qualifying
from plyscope.engine.kits.playouts import PlayoutEvaluator
from plyscope.tui.cli import main
from plyscope.tui.match import MatchRunner

BUDGET = 10_000_000
"""Nodes enough to settle every position these tests ask about."""


def first_player_value(exact: Exact, state: State) -> int:
    """``state``'s exact value for the first player: ``+1``, ``0`` or ``-1``."""
    truth = exact.truth(state, budget=BUDGET)
    outcome = truth.outcome(1)
    assert outcome is not None, f"{state.game.name} {state.text()!r} not settled"
    return outcome


def test_a_game_is_named_by_the_parameters_that_differ_from_its_defaults() -> None:
    game = make_game("openspiel:breakthrough(rows=5, columns=5)")
    assert isinstance(game, SpielGame) and game.name == "openspiel:breakthrough(columns=5,rows=5)"
    assert make_game("openspiel:breakthrough(rows=8)").name == "openspiel:breakthrough"
    assert make_game("openspiel:mnk(m=4,n=4,k=3)").name == "openspiel:mnk(k=3,m=4,n=4)"
    assert kit_of(game).name == "openspiel"


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("openspiel:kuhn_poker", "imperfect information"),
        ("openspiel:matrix_rps", "simultaneous moves"),
        ("openspiel:leduc_poker", "imperfect information"),
        ("openspiel:no_such_game", "OpenSpiel has no game 'no_such_game'"),
        ("openspiel:hex(size=3)", "has no parameter 'size'"),
        ("openspiel:hex(board_size=x)", "board_size is a whole number, not 'x'"),
    ],
)
def test_a_game_plyscope_does_not_search_is_refused_naming_the_reason(name: str, said: str) -> None:
    with pytest.raises(PositionError, match=said):
        make_game(name)


def test_more_than_two_players_is_refused() -> None:
    with pytest.raises(PositionError, match="more than two players"):
        make_game("openspiel:chinese_checkers(players=3)")


def test_positions_are_the_moves_played_by_number_or_by_text_and_serialised() -> None:
    game = make_game("openspiel:breakthrough(rows=5,columns=4)")
    state = game.parse("2 200")
    assert isinstance(state, SpielState)
    assert state.text() == "2 200" and state.move_label(14) == "b5b4"
    assert game.parse("a5a4 a1a2") == state
    assert game.parse(state.spiel.serialize()) == state
    with pytest.raises(PositionError, match="move 2: '2' is not a legal move here"):
        game.parse("2 2")


def test_a_player_who_moves_twice_in_a_row_in_openspiel_has_the_other_pass_between() -> None:
    game = make_game("openspiel:dots_and_boxes")
    assert isinstance(game, SpielGame)
    state = game.start()
    closing = None
    while closing is None:  # (the first sides in order, until one closes a box: its player moves again)
        closing = next((move for move in state.legal_moves() if state.play(move).passing), None)
        state = state if closing is not None else state.play(state.legal_moves()[0])
    after = state.play(closing)
    assert after.legal_moves() == (PASS,) and after.player == -state.player
    passed = after.play(PASS)
    assert passed.player == state.player and game.parse(passed.text()) == passed


def test_the_playouts_evaluator_is_seeded_by_the_position() -> None:
    game = make_game("openspiel:breakthrough(rows=5,columns=4)")
    state = game.parse("2 200")
    evaluator = kit_of(game).evaluator(game, PlayoutEvaluator.name)
    value = evaluator(state)
    assert 2 <= value <= 1022 and kit_of(game).evaluator(game, PlayoutEvaluator.name)(game.parse("2 200")) == value
    assert kit_of(game).evaluators(game)[0] == "playouts"


def tictactoe_positions() -> list[tuple[int, ...]]:
    """Every position of tic-tac-toe reachable from the empty board, as the cells played (0-8 in reading order)."""
    game = make_game("tictactoe")
    seen: dict[object, tuple[int, ...]] = {}
    frontier: list[tuple[State, tuple[int, ...]]] = [(game.start(), ())]
    while frontier:
        state, cells = frontier.pop()
        if state.key() in seen:
            continue
        seen[state.key()] = cells
        if not state.is_terminal():
            frontier += [(state.play(move), (*cells, move)) for move in state.legal_moves() if isinstance(move, int)]
    return list(seen.values())


def test_openspiel_tic_tac_toe_and_the_built_in_give_the_same_value_to_every_position() -> None:
    built_in, spiel = make_game("tictactoe"), make_game("openspiel:tic_tac_toe")
    exact = Exact(load_ahead=False)
    positions = tictactoe_positions()
    assert len(positions) == 5478
    for cells in positions:
        ours = built_in.start()
        for cell in cells:
            ours = ours.play(cell)
        theirs = spiel.parse(" ".join(map(str, cells)))
        assert first_player_value(exact, ours) == first_player_value(exact, theirs), cells


@pytest.mark.parametrize("misere", [False, True])
def test_openspiel_nim_equals_the_native_nim_by_nim_sums(misere: bool) -> None:
    native = make_game("nim-misere" if misere else "nim")
    spiel = make_game(f"openspiel:nim(pile_sizes=2;3;4,is_misere={str(misere).lower()})")
    exact = Exact(load_ahead=False)
    checked = 0
    for piles in itertools.product(range(3), range(4), range(5)):
        if sum(piles) == 0:
            continue
        theirs = spiel.parse(" ".join(map(str, spiel_nim_line((2, 3, 4), piles))))
        written = ",".join(map(str, piles))
        ours = native.parse(written if theirs.player == 1 else f"{written}/2")
        assert isinstance(ours, NimState)
        by_nim_sum = nim_score(ours) * ours.player  # (for the first player)
        assert first_player_value(exact, theirs) == by_nim_sum == first_player_value(exact, ours), piles
        checked += 1
    assert checked == 3 * 4 * 5 - 1


def spiel_nim_line(start: tuple[int, ...], piles: tuple[int, ...]) -> list[int]:
    """OpenSpiel's Nim actions taking ``start`` down to ``piles``, a pile at a time (action = pile + tokens taken
    less one times the number of piles, as nim.cc numbers them)."""
    line = []
    for pile, (before, after) in enumerate(zip(start, piles, strict=True)):
        if before > after:
            line.append(pile + (before - after - 1) * len(start))
    return line


def wins_at_once(state: State) -> bool:
    """Whether the player to move in ``state`` has a winning move (an endgame not worth searching)."""
    return any(state.play(move).winner() == state.player for move in state.legal_moves())


def connect_four_endgames(count: int, seed: int) -> list[str]:
    """``count`` positions of 30 to 34 stones, still open and with no win in one move, reached by seeded random play:
    the native game's move strings (columns 1-7)."""
    native = make_game("connect4")
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        state, line = native.start(), ""
        stones = rng.randint(30, 34)
        while len(line) < stones and not state.is_terminal():
            move = rng.choice(list(state.legal_moves()))
            line += state.move_label(move)
            state = state.play(move)
        if len(line) == stones and not state.is_terminal() and not wins_at_once(state):
            found.append(line)
    return found


def test_openspiel_connect_four_and_the_native_game_agree_on_endgames_searched_to_the_end() -> None:
    native, spiel = make_game("connect4"), make_game("openspiel:connect_four")
    exact = Exact(load_ahead=False)
    values = []
    for line in connect_four_endgames(20, seed=38):
        ours = native.parse(line)
        theirs = spiel.parse(" ".join(str(int(column) - 1) for column in line))
        assert isinstance(theirs, SpielState) and not theirs.is_terminal()
        values.append(first_player_value(exact, theirs))
        assert first_player_value(exact, ours) == values[-1], line
    assert set(values) == {-1, 0, 1}  # (wins, draws and losses among them)


def test_the_bench_measures_the_adapter_beside_native_connect_four_on_the_same_positions() -> None:
    (table,) = adapter.measure(quick=True)
    games = [row[1] for row in table.rows]
    assert games == ["connect4", "openspiel:connect_four"] * len(adapter.POSITIONS)
    assert all(isinstance(row[2], int) and isinstance(row[4], int) and min(row[2], row[4]) > 0 for row in table.rows)


def test_plyscope_games_lists_every_qualifying_game_and_refuses_one_that_is_not(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["games", "--json"]) == 0
    listed = {game["name"]: game for game in json.loads(capsys.readouterr().out)["games"]}
    assert {f"openspiel:{short}" for short in qualifying()} <= set(listed)
    backgammon = listed["openspiel:backgammon"]
    assert backgammon["chance"] and backgammon["exact"] == "no" and "alphabeta" in backgammon["refused"]
    assert (
        listed["openspiel:tic_tac_toe"]["exact"] == "at once" and "pns" in listed["openspiel:tic_tac_toe"]["searchers"]
    )
    assert main(["games", "openspiel:kuhn_poker"]) == 2
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and "imperfect information" in said


def test_play_tells_natures_move_in_the_games_own_words() -> None:
    runner = MatchRunner(PlayedGame(make_game("openspiel:pig(winscore=10)").start(), None, None, seed=3))
    said = runner.play(0)  # (roll: then the die, nature's)
    rolled = runner.played.state
    assert isinstance(rolled, SpielState) and said == f"; nature: Roll {rolled.history[-1] + 1}"


def test_a_blank_position_of_a_game_that_starts_with_a_roll_is_after_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "", "--game", "openspiel:backgammon", "--algo", "mcts", "--moves", "300", "--json"]) == 0
    searched = json.loads(capsys.readouterr().out)
    assert searched["position"] == "0" and searched["best_move"]
