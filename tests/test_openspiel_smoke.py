"""Every OpenSpiel game plyscope searches, opened and searched as the explorer does (issue 38): 100 steps of each
searcher that applies, one phase, the timeline back and forth, export and replay, and two arena games.

Skipped, with the reason, when OpenSpiel (the extra ``plyscope[openspiel]``) is not installed; CI installs it.  One
test a game, so that ``pytest -n 2`` shares them out.  Games with parameters are played on small boards
(``SMALL``).  In the games too long for a random playout to be cheap (``LONG``: chess's some 300 plies, and no
parameter to shrink them), the searchers that need an evaluator are given ``eval=neutral`` instead of the default
mean of random playouts, which costs them about a second a step there.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'plyscope[openspiel]')")

from plyscope.engine.games.base import is_chance
from plyscope.engine.kits import make_game
from plyscope.engine.kits.openspiel import qualifying
from plyscope.engine.search.registry import algorithms, refusal
from plyscope.tui.cli import main
from plyscope.tui.session import SearchConfig, Session

SMALL = {
    "amazons": "(board_size=6)",
    "backgammon": "(hyper_backgammon=true)",
    "banqi": "(max_no_progress=10)",
    "breakthrough": "(rows=5,columns=4)",
    "chinese_checkers": "(max_moves=100)",
    "clobber": "(rows=4,columns=4)",
    "cursor_go": "(board_size=5,max_cursor_moves=20)",
    "go": "(board_size=5,max_game_length=60)",
    "gomoku": "(size=7,connect=4)",
    "havannah": "(board_size=3)",
    "hex": "(board_size=4)",
    "lines_of_action": "(max_game_length=80)",
    "mnk": "(m=4,n=4,k=3)",
    "oware": "(num_houses_per_player=3,num_seeds_per_house=2)",
    "pig": "(winscore=10)",
    "quoridor": "(board_size=5,wall_count=2)",
    "twixt": "(board_size=5)",
    "y": "(board_size=5)",
    "yacht": "(num_dice=2,rolls_per_turn=1)",
}
"""A small board (or a short game) for each game that takes parameters; checkers has none that work (6x6 starts
over in OpenSpiel 2.0.2)."""
LONG = frozenset(
    {
        "antichess",
        "checkers",
        "chess",
        "chinese_checkers",
        "crazyhouse",
        "hive",
        "lines_of_action",
        "nine_mens_morris",
        "pentago",
        "shogi",
        "xiangqi",
    }
)
"""Games whose random playouts are long or slow: the searchers with an evaluator get ``eval=neutral``."""
STEPS = 100
SEED = 7


def opened(name: str) -> str:
    """The position the game is opened at: the start, or where the first player first chooses in a game that starts
    with nature's move (a chance node is nobody's to search), its outcomes the first ones."""
    state = make_game(name).start()
    moves: list[str] = []
    while is_chance(state):
        move = state.legal_moves()[0]
        moves.append(str(move))
        state = state.play(move)
    return " ".join(moves)


@pytest.mark.parametrize("short", qualifying())
def test_every_openspiel_game_is_searched_stepped_saved_replayed_and_played(
    short: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = f"openspiel:{short}{SMALL.get(short, '')}"
    game = make_game(name)
    position = opened(name)
    searchers = [info for info in algorithms().values() if refusal(info, game) is None]
    assert searchers, f"no searcher plays {name}"
    sessions: dict[str, Session] = {}
    for info in searchers:
        evaluated = any(param.name == "eval" for param in info.params)
        params = {"eval": "neutral"} if short in LONG and evaluated else {}
        config = SearchConfig(game=name, position=position, algorithm=info.name, params=params, seed=SEED)
        session = Session.create(config)
        batch = session.take(STEPS)
        assert batch.steps == STEPS or session.ended, f"{info.name} on {name}: {batch.steps} steps"
        best = session.searcher.best_move()  # (None: minimax has not finished a root move yet)
        assert best is None or best in session.state.legal_moves(), info.name
        sessions[info.name] = session

    session = sessions["mcts"]  # (it plays every game)
    newest, best, value = session.step_shown, session.searcher.best_move(), session.searcher.value().first()
    assert session.go_to(newest // 2) is not None and session.step_shown == newest // 2
    assert session.go_to(newest) is not None
    assert (session.searcher.best_move(), session.searcher.value().first()) == (best, value)
    phased = session.take_phase()
    assert phased.phase is not None

    saved = tmp_path / "search.json"
    session.write(saved)
    document = json.loads(saved.read_text())
    assert make_game(document["game"]) == game, "a saved search names the game and its parameters"
    assert main(["replay", "--check", str(saved)]) == 0
    assert "the tree matches" in capsys.readouterr().out

    deterministic = "alphabeta" in sessions
    agents = ["alphabeta:depth=1,eval=neutral", "minimax:depth=1,eval=neutral"] if deterministic else ["flat-mc"] * 2
    out = tmp_path / "arena.json"
    argv = ["arena", "--agents", *agents, "--game", name, "--openings", "1", "--moves", "30", "--workers", "1"]
    assert main([*argv, "--truth-nodes", "0", "--out", str(out)]) == 0  # (from nature's first move, where it has one)
    capsys.readouterr()
    played = json.loads(out.read_text())["games"]
    assert len(played) == 2
