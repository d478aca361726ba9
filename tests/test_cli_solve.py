"""``plyscope solve``: the table, the JSON object, and exit status 2 with one line for every bad position."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from collections.abc import Callable

import pytest

from plyscope.engine.exact import Exact
from plyscope.engine.games import Connect4
from plyscope.engine.kits import make_game
from plyscope.engine.kits.base import Number
from plyscope.engine.pov import PovScore
from plyscope.engine.solver import Connect4Solver
from plyscope.tui.cli import build_parser, main
from plyscope.tui.commands import solve as solve_command
from plyscope.tui.commands.solve import meaning

JSON_KEYS = {
    "game",
    "position",
    "player",
    "score",
    "value",
    "moves",
    "best_moves",
    "nodes",
    "seconds",
    "finished",
    "score_bounds",
    "bounds",
}


def solve_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["solve", *argv, "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.count("\n") == 1
    report = json.loads(out)
    assert isinstance(report, dict)
    return report


def test_json_gives_pons_scores_for_the_position_and_each_move(capsys: pytest.CaptureFixture[str]) -> None:
    # Pons' Middle-Easy set: this position scores 4 for the player to move.
    moves = "5554224333234511764415115"
    report = solve_json(capsys, moves)
    assert report.keys() >= JSON_KEYS
    assert (report["game"], report["position"], report["player"], report["score"]) == ("connect4", moves, -1, 4)
    state = Connect4().parse(moves)
    scores = Connect4Solver(state.game).move_scores(state)
    expected = {state.move_label(column): scores[column].pov(state.player) for column in sorted(scores)}
    moves_found = report["moves"]
    assert isinstance(moves_found, dict) and list(moves_found.items()) == list(expected.items())  # columns in order
    assert report["best_moves"] == [label for label, score in expected.items() if score == 4]
    assert isinstance(report["nodes"], int) and report["nodes"] > 0
    assert isinstance(report["seconds"], float) and report["seconds"] >= 0


def test_json_for_nim_writes_wins_and_losses_as_plus_and_minus_one(capsys: pytest.CaptureFixture[str]) -> None:
    report = solve_json(capsys, "8", "--game", "grundy")
    assert (report["game"], report["position"], report["score"]) == ("grundy", "8", 1)
    assert report["moves"] == {"8=7+1": 1, "8=6+2": -1, "8=5+3": -1}
    report = solve_json(capsys, "1,3,5,7", "--game", "nim")
    moves = report["moves"]
    assert report["score"] == -1 and isinstance(moves, dict) and len(moves) == 16 and set(moves.values()) == {-1}
    report = solve_json(capsys, "1,1,1", "--game", "nim-misere")
    assert report == report | {"game": "nim-misere", "position": "1,1,1", "score": -1, "moves": {"1-1": -1}}


def test_tic_tac_toe_is_a_draw_and_so_is_every_first_move(capsys: pytest.CaptureFixture[str]) -> None:
    """Russell and Norvig's first minimax example, through the one door like every game with exact values."""
    report = solve_json(capsys, "", "--game", "tictactoe")
    assert report.keys() == JSON_KEYS
    assert (report["game"], report["score"], report["value"], report["finished"]) == ("tictactoe", 0, 0, True)
    moves = report["moves"]
    assert isinstance(moves, dict) and len(moves) == 9 and set(moves.values()) == {0}
    assert report["best_moves"] == list(moves)
    report = solve_json(capsys, "b2a1", "--game", "tictactoe")  # X in the centre, O in a corner: still a draw
    assert (report["player"], report["value"]) == (1, 0)
    assert main(["solve", "a1b1", "--game", "tictactoe"]) == 0  # X to move after a poor reply: a win
    assert "first player (X) to move: win (score +1)" in " ".join(capsys.readouterr().out.split())


def test_the_value_is_the_first_players(capsys: pytest.CaptureFixture[str]) -> None:
    """``value``: the position's exact value for the first player, whoever moves (``score``: the player to move's)."""
    report = solve_json(capsys, "5554224333234511764415115")  # the second player to move wins: Pons' 4
    assert (report["player"], report["score"], report["value"]) == (-1, 4, -4)
    report = solve_json(capsys, "8", "--game", "grundy")
    assert (report["score"], report["value"]) == (1, 1)


def test_other_board_sizes_solve(capsys: pytest.CaptureFixture[str]) -> None:
    report = solve_json(capsys, "", "--game", "connect4:4x4")  # every first move draws on 4x4
    assert (report["game"], report["position"], report["score"]) == ("connect4:4x4", "", 0)
    assert report["moves"] == {"3": 0, "2": 0, "4": 0, "1": 0}
    report = solve_json(capsys, "3131", "--game", "connect4:5x4")
    assert report["game"] == "connect4:5x4" and set(report) >= JSON_KEYS


def test_the_empty_board_is_solved_through_the_opening_book(capsys: pytest.CaptureFixture[str]) -> None:
    report = solve_json(capsys, "")
    assert report["moves"] == {"1": -2, "2": -1, "3": 0, "4": 1, "5": 0, "6": -1, "7": -2}  # Allis 1988: 4 wins
    assert report["finished"] is True and report["best_moves"] == ["4"]
    assert main(["solve", ""]) == 0
    assert "Thill's opening book for 12 stones" in " ".join(capsys.readouterr().out.split())
    assert main(["solve", "3131", "--game", "connect4:5x4"]) == 0
    assert "no opening book for this board" in " ".join(capsys.readouterr().out.split())
    assert main(["solve", "44", "--game", "connect4-chance"]) == 2  # (issue 39, 7: no book, no exact values either)
    assert "expected values, not exact ones (and no opening book)" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "4453", "--no-book"],
        ["search", "4453", "--algo", "perfect", "--no-book"],
        ["arena", "--agents", "perfect", "mcts", "--no-book"],
        ["rivest", "--no-book"],
        ["explore", "--no-book"],
        ["serve", "--no-book"],
    ],
    ids=lambda argv: argv[0],
)
def test_no_book_turns_the_book_off_for_every_solver_the_command_makes(argv: list[str]) -> None:
    args = build_parser().parse_args(argv)
    assert args.no_book is True
    game = Connect4()
    assert not Connect4Solver(game).has_book and Connect4Solver(game, book=True).has_book


def test_the_table_names_each_move_score_and_the_best_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "2252576253462244111563365343671351441"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "second player (O) to move: loss in 2 (score -1)" in " ".join(out.split())
    lines = {line.split("│")[1].strip(): line for line in out.splitlines() if line.startswith("│")}
    assert set(lines) == {"6", "7"}
    assert "-1 │ loss in 2" in lines["6"] and "★" in lines["6"]
    assert "-2 │ loss in 1" in lines["7"] and "★" not in lines["7"]
    assert "nodes in" in out


def test_a_win_is_named_by_the_stone_it_comes_with(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "3432357517256661231652672362571175"]) == 0  # End-Easy, score 3
    out = " ".join(capsys.readouterr().out.split())
    assert "first player (X) to move: win in " in out and "(score +3)" in out


BAD_POSITIONS = [
    (["448"], "move 3 ('8'): not a column; columns are 1 to 7"),
    (["44x"], "move 3 ('x'): not a column"),
    (["4444444"], "move 7 ('4'): column 4 is full"),
    (["1212121"], "the game is already over"),
    (["12121212"], "move 8 ('2'): the game is already over after move 7"),
    (["1234123443214321", "--game", "connect4:4x4"], "the game is already over"),
    (["5", "--game", "connect4:4x4"], "move 1 ('5'): not a column; columns are 1 to 4"),
    (["4", "--game", "connect4:3x3"], "board size 3x3 is out of range"),
    (["4", "--game", "chess"], "unknown game 'chess'"),
    (["2,1", "--game", "grundy"], "the game is already over"),
    (["0", "--game", "nim"], "the game is already over"),
    (["x", "--game", "nim"], "pile 'x' is not a whole number"),
    (["-3", "--game", "nim-misere"], "pile '-3' is not a whole number"),
]


@pytest.mark.parametrize(("argv", "message"), BAD_POSITIONS, ids=[" ".join(a) for a, _ in BAD_POSITIONS])
@pytest.mark.parametrize("as_json", [False, True])
def test_a_bad_position_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str, as_json: bool
) -> None:
    assert main(["solve", *argv, *(["--json"] if as_json else [])]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("plyscope solve: ") and err.endswith("\n") and err.count("\n") == 1
    assert message in err


def exact_words(game: str, position: str) -> Callable[[Number], str]:
    """An exact score in words for the player to move in ``position`` (``ExactValues.words``), as solve's table
    writes it."""
    state = make_game(game).parse(position)
    values = Exact().values(state.game)
    return lambda score: values.words(PovScore(score, state.player), state)


def test_meanings_for_each_kind_of_score() -> None:
    board = exact_words("connect4", "2252576253462244111563365343671351441")  # 37 stones: 38th, 40th and 42nd to play
    assert meaning(0, 0, board) == "draw"
    assert meaning(3, 3, board) == "win in 1" and meaning(1, 1, board) == "win in 3"
    assert meaning(-1, -1, board) == "loss in 2" and meaning(-2, -2, board) == "loss in 1"
    nim = exact_words("nim", "3,4,5")
    assert (meaning(1, 1, nim), meaning(-1, -1, nim)) == ("win", "loss")
    assert meaning(0, 0, exact_words("tictactoe", "b2")) == "draw"


def test_meanings_of_bounds_say_what_the_sign_says() -> None:
    board = exact_words("connect4", "2252576253462244111563365343671351441")
    assert meaning(2, 5, board) == "wins (how soon is not known yet)"
    assert meaning(-7, -1, board) == "loses (how soon is not known yet)"
    assert meaning(0, 3, board) == "draws or wins (not known yet)"
    assert meaning(-3, 0, board) == "draws or loses (not known yet)"
    assert meaning(-3, 4, board) == "may win, draw or lose (not known yet)"


# --- the budget, progress and ctrl+c ----------------------------------------------------------

EXACT_4453 = {"1": -5, "2": -5, "3": -2, "4": -3, "5": -4, "6": -2, "7": -2}
"""Each move's exact score in ``4453`` for the player who plays it (78 million nodes to find without the opening
book, which the tests of a budget turn off: with it, some 6,000)."""


def test_a_node_budget_stops_the_solve_with_true_bounds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "4453", "--no-book", "--nodes", "3_000_000", "--json"]) == 0
    out, err = capsys.readouterr()
    err = "".join(line for line in err.splitlines(keepends=True) if "solving" not in line)  # (progress, if slow)
    assert err == (
        "plyscope solve: not finished: the budget of 3,000,000 nodes is spent; 0 of 7 moves scored exactly; "
        "the score lies between -9 and +18 for the player to move (--nodes gives more)\n"
    )
    report = json.loads(out)
    assert report.keys() == JSON_KEYS
    assert (report["finished"], report["score"], report["nodes"], report["best_moves"]) == (False, None, 3_000_000, [])
    assert report["moves"] == dict.fromkeys(EXACT_4453)
    bounds = report["bounds"]
    assert list(bounds) == list(EXACT_4453)
    assert all(low <= EXACT_4453[label] <= high for label, (low, high) in bounds.items())
    assert bounds["4"] != [-19, 18] and bounds["1"] == [-19, 18]  # the centre is searched first
    assert report["score_bounds"] == [max(low for low, _ in bounds.values()), max(high for _, high in bounds.values())]


def test_a_finished_solve_has_every_bound_exact(capsys: pytest.CaptureFixture[str]) -> None:
    report = solve_json(capsys, "5554224333234511764415115", "--nodes", "1000000")
    assert report["finished"] is True and report["score"] == 4 and report["score_bounds"] == [4, 4]
    moves = report["moves"]
    assert isinstance(moves, dict)
    assert report["bounds"] == {label: [score, score] for label, score in moves.items()}


def test_the_table_shows_bounds_while_not_finished(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "4453", "--no-book", "--nodes", "3000000"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "first player (X) to move: may win, draw or lose (not known yet) (score -9..+18)" in out
    assert "│ 4 │ -9..+3 │ may win, draw or lose (not known yet) │ │" in out
    assert "│ 1 │ -19..+18 │" in out
    assert "3,000,000 nodes in" in out and "(not finished)" in out


def test_no_budget_given_means_the_default_seconds(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(solve_command, "DEFAULT_SECONDS", 0.2)
    assert main(["solve", "4453", "--no-book", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err.startswith("plyscope solve: not finished: the budget of 0.2 s (the default) ran out after ")
    assert err.count("\n") == 1
    assert json.loads(out)["finished"] is False
    assert main(["solve", "4453", "--no-book", "--seconds", "0", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err.startswith("plyscope solve: not finished: the budget of 0 s ran out after 0 nodes; 0 of 7 moves")
    assert json.loads(out)["nodes"] == 0


def test_progress_goes_to_stderr_never_into_the_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(solve_command, "PROGRESS_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(solve_command, "PLAIN_PROGRESS_SECONDS", 0.0)
    assert main(["solve", "4453", "--no-book", "--nodes", "2000000", "--json"]) == 0
    out, err = capsys.readouterr()
    assert out.count("\n") == 1 and json.loads(out)["nodes"] == 2_000_000
    lines = err.splitlines()
    assert len(lines) > 2 and lines[-1].startswith("plyscope solve: not finished")
    assert all(
        re.fullmatch(r"plyscope solve: solving: \d+ s, [\d,]+ nodes, 0 of 7 moves exact, score -?\d+\.\.\+\d+", line)
        for line in lines[:-1]
    )


def test_ctrl_c_prints_what_is_known_and_exits_130(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ticks = 0

    def interrupt(self: solve_command.ProgressLine) -> None:
        nonlocal ticks
        ticks += 1
        if ticks == 5:
            raise KeyboardInterrupt

    monkeypatch.setattr(solve_command.ProgressLine, "tick", interrupt)
    assert main(["solve", "4453", "--no-book", "--json"]) == 130
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert report["finished"] is False and report["nodes"] > 0
    assert err.startswith("plyscope solve: interrupted after ") and err.count("\n") == 1


def test_sigint_to_a_real_solve_after_its_first_progress_line() -> None:
    solve = subprocess.Popen(
        [sys.executable, "-m", "plyscope.tui.cli", "solve", "4453", "--no-book", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert solve.stderr is not None
        first = solve.stderr.readline()  # stderr is a pipe: plain lines, the first after two seconds
        assert first.startswith("plyscope solve: solving: ")
        solve.send_signal(signal.SIGINT)
        out, err = solve.communicate(timeout=30)
    finally:
        solve.kill()
    assert solve.returncode == 130
    assert json.loads(out)["finished"] is False
    assert err.startswith("plyscope solve: interrupted after ") and err.count("\n") == 1


BAD_BUDGETS = [
    ("--nodes", "x"),
    ("--nodes", "-5"),
    ("--nodes", "1e9"),
    ("--nodes", "²"),
    ("--nodes", "١٢"),
    ("--nodes", ""),
    ("--nodes", "9" * 5000),
    ("--nodes", "1000000000000001"),
    ("--nodes", "1.5"),
    ("--nodes", "1\n2"),
    ("--seconds", "nan"),
    ("--seconds", "inf"),
    ("--seconds", "-1"),
    ("--seconds", "1e999"),
    ("--seconds", "x"),
    ("--seconds", "²"),
    ("--seconds", ""),
    ("--seconds", "100000001"),
    ("--seconds", "9" * 5000),
]


@pytest.mark.parametrize(("option", "value"), BAD_BUDGETS, ids=[f"{o}={v[:12]}" for o, v in BAD_BUDGETS])
def test_a_bad_budget_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], option: str, value: str) -> None:
    assert main(["solve", "4453", f"{option}={value}"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"plyscope solve: {option}: ") and err.count("\n") == 1 and len(err) < 200
    out_of_range = value in ("9" * 5000, "1000000000000001", "1e999", "100000001", "-5", "-1")
    assert ("is out of range (from 0 to " if out_of_range else "is not a ") in err, err
