"""Played games: sides, undo and redo, and the saved-game file (round trips and corrupt files)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from plyscope.engine.agents import Agent
from plyscope.engine.game_record import (
    FORMAT,
    GameFileError,
    PlayedGame,
    controller_text,
    parse_controller,
)
from plyscope.engine.games import Connect4, Nim, PositionError
from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Limit, SearchError
from plyscope.engine.search.registry import AgentSpec
from plyscope.engine.seeds import turn_seed

OPENSPIEL = "openspiel:NAME, openspiel:NAME(param=value,...), " if importlib.util.find_spec("pyspiel") else ""
"""OpenSpiel's games' names among the games there are, where OpenSpiel is installed."""

DEFAULT = Limit(moves=1000)
C4 = Connect4()


def agent(text: str = "minimax:depth=2", limit: Limit = DEFAULT) -> Agent:
    return Agent(AgentSpec.parse(text), limit)


# --------------------------------------------------------------------------- sides


def test_a_side_is_human_or_an_agent_with_its_own_budget() -> None:
    assert parse_controller("human", DEFAULT, C4) is None
    assert parse_controller(" Human ", DEFAULT, C4) is None
    assert parse_controller("mcts:c=1.4,k=32", DEFAULT, C4) == Agent(AgentSpec.parse("mcts:c=1.4,k=32"), DEFAULT)
    assert parse_controller("mcts:c=1.4,moves=50,k=32", DEFAULT, C4) == agent("mcts:c=1.4,k=32", Limit(moves=50))
    assert parse_controller("rivest:seconds=0.5", DEFAULT, C4) == agent("rivest", Limit(seconds=0.5))
    assert parse_controller("alphabeta:moves=7", DEFAULT, C4) == agent("alphabeta", Limit(moves=7))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "a side is 'human' or an agent such as mcts:c=1.4,k=32; it cannot be blank"),
        ("mcts:moves=10,seconds=1", "agent 'mcts:moves=10,seconds=1': give one budget, moves=N or seconds=S, not both"),
        ("mcts:moves=0", "agent 'mcts:moves=0': moves: 0 is out of range (from 1 to 1,000,000,000,000)"),
        (
            "mcts:moves=lots",
            "agent 'mcts:moves=lots': moves: 'lots' is not a whole number (from 1 to 1,000,000,000,000)",
        ),
        (
            "mcts:seconds=-1",
            "agent 'mcts:seconds=-1': seconds: -1 is out of range (more than 0 and at most 10,000,000)",
        ),
        (
            "mcts:seconds=inf",
            "agent 'mcts:seconds=inf': seconds: 'inf' is not a number (more than 0 and at most 10,000,000)",
        ),
        ("mcts:c=fast", "parameter c: 'fast' is not a number"),
    ],
)
def test_bad_sides_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(SearchError) as raised:
        parse_controller(text, DEFAULT, C4)
    assert str(raised.value) == message


def test_an_unknown_algorithm_or_one_for_another_game_is_refused() -> None:
    with pytest.raises(SearchError, match=r"^unknown algorithm 'deep-blue': choose one of "):
        parse_controller("deep-blue", DEFAULT, C4)
    with pytest.raises(SearchError) as raised:
        parse_controller("solver:moves=5", DEFAULT, Nim("grundy"))
    assert str(raised.value) == "agent 'solver:moves=5': solver plays connect4 only, not grundy"


def test_a_side_is_written_back_with_its_budget() -> None:
    assert controller_text(None) == "human"
    assert controller_text(agent("mcts:c=1.4,k=32")) == "mcts:c=1.4,k=32,moves=1000"
    assert controller_text(agent("rivest", Limit(seconds=2.5))) == "rivest:seconds=2.5"
    for text in ("mcts:c=1.4,k=32,moves=1000", "rivest:seconds=2.5", "human"):
        assert controller_text(parse_controller(text, Limit(moves=3), C4)) == text


# --------------------------------------------------------------------------- playing, undo and redo


def test_moves_undo_and_redo() -> None:
    played = PlayedGame(C4.start(), None, None)
    for column in (3, 3, 4):
        played.play(column)
    assert played.history() == "445"
    assert played.undo() == 4
    assert played.undo() == 3
    assert (played.history(), played.redo_moves) == ("4", (3, 4))
    assert played.redo() == 3
    assert played.history() == "44" and played.state == C4.parse("44")
    played.play(0)
    assert played.redo_moves == ()
    with pytest.raises(SearchError, match=r"^no move to replay$"):
        played.redo()


def test_an_illegal_move_is_refused_and_changes_nothing() -> None:
    played = PlayedGame(make_game("connect4:4x4").parse("1111"), None, None)
    with pytest.raises(PositionError, match=r"^1 cannot be played here$"):
        played.play(0)
    with pytest.raises(PositionError, match=r"^9 cannot be played here$"):
        played.play(8)
    assert played.moves == () and played.state.text() == "1111"


def test_no_move_after_the_end() -> None:
    played = PlayedGame(C4.parse("112233"), None, None)
    played.play(3)
    assert played.is_over() and played.state.winner() == 1
    with pytest.raises(PositionError, match=r"^the game is over: start a new one, or take moves back$"):
        played.play(5)


def test_undo_goes_back_to_the_last_human_move_and_redo_forward_to_the_next() -> None:
    played = PlayedGame(C4.start(), None, agent())
    for column in (3, 2, 3, 2):  # human 4, agent 3, human 4, agent 3
        played.play(column)
    assert played.undo_turn() == 2
    assert played.history() == "43" and played.to_move() is None
    assert played.undo_turn() == 2
    assert played.history() == "" and played.undo_turn() == 0
    assert played.redo_turn() == 2
    assert played.history() == "43"
    assert played.redo_turn() == 2 and played.redo_turn() == 0
    # The human's move while the agent has not answered yet goes back alone.
    played.play(0)
    assert played.undo_turn() == 1 and played.history() == "4343"


def test_undo_with_an_agent_first_keeps_its_opening_move() -> None:
    played = PlayedGame(C4.start(), agent(), None)
    played.play(3)
    assert played.undo_turn() == 0 and played.history() == "4"
    played.play(2)
    assert played.undo_turn() == 1 and played.history() == "4"


def test_with_no_human_undo_and_redo_go_one_move_at_a_time() -> None:
    played = PlayedGame(C4.start(), agent(), agent())
    played.play(3)
    played.play(3)
    assert played.undo_turn() == 1 and played.redo_turn() == 1 and played.history() == "44"


def test_swapping_sides_and_restarting() -> None:
    bot = agent()
    played = PlayedGame(C4.parse("4"), None, bot, seed=9)
    played.play(3)
    played.swap_sides()
    assert (played.first, played.second, played.to_move()) == (bot, None, bot)
    again = played.restarted()
    assert (again.start, again.moves, again.first, again.seed) == (C4.parse("4"), (), bot, 9)


def test_each_turn_has_the_arena_seed_of_its_ply() -> None:
    played = PlayedGame(C4.parse("44"), None, None, seed=5)
    assert played.turn_seed() == turn_seed(5, 2)


# --------------------------------------------------------------------------- the file


def test_save_writes_the_documented_format(tmp_path: Path) -> None:
    played = PlayedGame(C4.start(), None, agent("rivest:p=10"), seed=3)
    for column in (3, 3, 4, 2):
        played.play(column)
    path = tmp_path / "game.txt"
    played.save(path)
    assert path.read_text() == (
        "plyscope-game 1\ngame: connect4\nstart: -\nfirst: human\nsecond: rivest:p=10,moves=1000\n"
        "seed: 3\nmoves: 4453\n"
    )
    assert [p.name for p in tmp_path.iterdir()] == ["game.txt"]


@pytest.mark.parametrize(
    ("game", "start", "moves"),
    [
        ("connect4", "", "4453"),
        ("connect4:5x4", "33", "1234512"),
        ("grundy", "9", "9=8+1 8=5+3"),
        ("nim", "3,4,5", "5-2 4-4"),
    ],
)
def test_a_saved_game_loads_back_the_same(tmp_path: Path, game: str, start: str, moves: str) -> None:
    start_state = make_game(game).parse(start) if start else make_game(game).start()
    played = PlayedGame(start_state, agent("mcts:k=4", Limit(seconds=1.5)), None, seed=11)
    state = start_state
    words = list(moves) if game.startswith("connect4") else moves.split()
    for word in words:
        move = state.parse_move(word)
        played.play(move)
        state = state.play(move)
    path = tmp_path / "saved.txt"
    played.save(path)
    loaded = PlayedGame.load(path, DEFAULT)
    assert (loaded.start, loaded.moves, loaded.state) == (played.start, played.moves, played.state)
    assert (loaded.first, loaded.second, loaded.seed) == (played.first, played.second, 11)
    assert loaded.text() == played.text()


def test_a_finished_game_says_who_won_in_a_comment_and_loads(tmp_path: Path) -> None:
    played = PlayedGame(C4.parse("112233"), None, None)
    played.play(3)
    assert played.text().endswith("moves: 4\n# the first player won\n")
    assert PlayedGame.parse(played.text(), DEFAULT).is_over()


def test_saving_replaces_an_old_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text("an older game, much longer than the new one " * 100)
    PlayedGame(C4.start(), None, None).save(path)
    assert path.read_text().startswith(f"{FORMAT} 1\n") and len(path.read_text()) < 200


def test_saving_where_it_cannot_says_so_and_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(GameFileError) as raised:
        PlayedGame(C4.start(), None, None).save(tmp_path / "no-such-folder" / "game.txt")
    assert str(raised.value) == f"cannot write {tmp_path / 'no-such-folder' / 'game.txt'}: No such file or directory"


GOOD = "plyscope-game 1\ngame: connect4\nstart: -\nfirst: human\nsecond: minimax\nseed: 0\nmoves: 4453\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty: a saved game starts with 'plyscope-game 1'"),
        ("# only a comment\n\n", "empty: a saved game starts with 'plyscope-game 1'"),
        ("hello\n", "line 1: not a saved game (it should start with 'plyscope-game 1')"),
        ("plyscope-game 2\n", "line 1: format version 2 is not one this plyscope reads (1)"),
        (GOOD.replace("seed: 0", "seed 0"), "line 6: 'seed 0' is not 'field: value'"),
        (
            GOOD + "colour: red\n",
            "line 8: unknown field 'colour' (the fields are game, start, first, second, seed, moves)",
        ),
        (GOOD + "seed: 1\n", "line 8: field 'seed' again (first on line 6)"),
        (
            GOOD.replace("first: human\n", ""),
            "no 'first' line: a saved game has game, start, first, second, seed, moves",
        ),
        (
            GOOD.replace("connect4", "chess"),
            "line 2 (game): unknown game 'chess': choose one of connect4, connect4:WxH, connect4-chance, "
            f"connect4-chance:WxH:KEEP,SIDE, grundy, nim, nim-misere, {OPENSPIEL}tictactoe, mnk:M,N,K, tree",
        ),
        (GOOD.replace("start: -", "start: 8"), "line 3 (start): move 1 ('8'): not a column; columns are 1 to 7"),
        (
            GOOD.replace("second: minimax", "second: minimax:depth=-1"),
            "line 5 (second): parameter depth: -1 is below its range 0..12",
        ),
        (
            GOOD.replace("seed: 0", "seed: -4"),
            "line 6 (seed: -4 is out of range (from 0 to 9,223,372,036,854,775,807))",
        ),
        (
            GOOD.replace("connect4", "grundy").replace("start: -", "start: 1000000000").replace("4453", ""),
            "line 3 (start): pile 1000000000 is too large: at most 1000 tokens a pile",
        ),
        (
            GOOD.replace("plyscope-game 1", "plyscope-game 1000000000"),
            "line 1: format version 1000000000 is not one this plyscope reads (1)",
        ),
        (GOOD.replace("4453", "4458"), "line 7 (moves): move 4 ('8'): not a column; columns are 1 to 7"),
        (GOOD.replace("4453", "1111111"), "line 7 (moves): move 7 ('1'): column 1 is full"),
        (GOOD.replace("4453", "12121212"), "line 7 (moves): move 8 ('2'): the game was already over after move 7"),
        (
            GOOD.replace("connect4", "grundy").replace("start: -", "start: 7").replace("4453", "7=4+3 4=2+2"),
            "line 7 (moves): move 2: move '4=2+2' is not legal here: "
            "split a pile into two unequal piles, written like 8=7+1",
        ),
    ],
)
def test_a_corrupt_file_names_its_line_and_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(GameFileError) as raised:
        PlayedGame.parse(text, DEFAULT)
    assert str(raised.value) == message


def test_loading_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.txt"
    path.write_text(GOOD.replace("4453", "4458"))
    with pytest.raises(GameFileError) as raised:
        PlayedGame.load(path, DEFAULT)
    assert str(raised.value) == f"{path}: line 7 (moves): move 4 ('8'): not a column; columns are 1 to 7"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff")
    with pytest.raises(GameFileError) as raised:
        PlayedGame.load(path, DEFAULT)
    assert str(raised.value) == f"{path}: not a text file, so not a saved game"
    with pytest.raises(GameFileError) as raised:
        PlayedGame.load(tmp_path / "missing.txt", DEFAULT)
    assert str(raised.value) == f"cannot read {tmp_path / 'missing.txt'}: No such file or directory"


def test_blank_lines_comments_and_spaces_are_allowed() -> None:
    text = (
        "# my game\n\nplyscope-game 1\n game : connect4\nstart: -\nfirst: human\nsecond: human\nseed: 0\nmoves: 44 53\n"
    )
    assert PlayedGame.parse(text, DEFAULT).history() == "4453"
