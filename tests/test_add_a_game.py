"""CONTRIBUTING's "How to add a game", followed to the letter: a game defined here (its rules and its kit, and nothing
else), registered, and then played by every command and screen that asks the kits (issue 37, item 5).

The game: a pile of tokens, each player in turn takes one or two, and whoever takes the last one wins.  The player to
move wins exactly when the pile is not a multiple of 3 (take what leaves one): its exact values by theory.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Sequence
from pathlib import Path

import pytest

from plyscope.engine.games.base import Game, Move, Player, PositionError, State
from plyscope.engine.kits import game_choices, game_names, kit_of, kits, make_game
from plyscope.engine.kits.base import ExactValues, GameKit, Number, Truth
from plyscope.engine.numbers import shown
from plyscope.engine.pov import PovScore
from plyscope.engine.search.base import Limit
from plyscope.engine.search.registry import algorithm, kits_played
from plyscope.tui.cli import main
from plyscope.tui.contest import compared_agents
from plyscope.tui.screens.compare import CompareScreen
from plyscope.tui.widgets.search_tree import SearchTree
from tests.tui.contest_helpers import app_with, wait_until
from tests.tui.helpers import explorer, make_app, run_async, settle


class TakeAway:
    """1. The rules: the game (``name``, ``kit``, ``start``, ``parse``)."""

    kit = "take12"

    def __init__(self, tokens: int = 10) -> None:
        self.tokens = tokens
        self.name = "take12" if tokens == 10 else f"take12:{tokens}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TakeAway) and other.tokens == self.tokens

    def __hash__(self) -> int:
        return hash((TakeAway, self.tokens))

    def start(self) -> TakeState:
        return TakeState(self, self.tokens, 1, 0)

    def parse(self, text: str) -> TakeState:
        """The tokens left, the first player to move (``''`` or ``-``: the start)."""
        written = text.strip()
        if written in ("", "-"):
            return self.start()
        if not written.isdigit() or int(written) > self.tokens:
            raise PositionError(f"'{shown(written)}' is not a number of tokens from 0 to {self.tokens}")
        return TakeState(self, int(written), 1, 0)


class TakeState:
    """1. The rules: an immutable position (the tokens left, the player to move)."""

    def __init__(self, game: TakeAway, left: int, player: Player, ply: int) -> None:
        self.game = game
        self.left = left
        self.player = player
        self.ply = ply

    def legal_moves(self) -> Sequence[Move]:
        return tuple(take for take in (1, 2) if take <= self.left)

    def play(self, move: Move) -> TakeState:
        assert isinstance(move, int) and move in self.legal_moves()
        return TakeState(self.game, self.left - move, -self.player, self.ply + 1)

    def is_terminal(self) -> bool:
        return self.left == 0

    def winner(self) -> Player | None:
        """Whoever took the last token: the player not to move."""
        return -self.player if self.left == 0 else None

    def utility(self) -> int:
        winner = self.winner()
        if winner is None:
            raise ValueError("utility() of a game that goes on")
        return winner

    def key(self) -> Hashable:
        return (self.left, self.player)

    def text(self) -> str:
        return str(self.left)

    def move_label(self, move: Move) -> str:
        return f"-{move}"

    def parse_move(self, text: str) -> Move:
        take = text.strip().lstrip("-")
        if take not in ("1", "2") or int(take) > self.left:
            raise PositionError(f"move '{shown(text)}': take 1 or 2 tokens, at most {self.left}")
        return int(take)


class TakeValues(ExactValues):
    """2. The kit's exact values, by theory: ``+1`` the player to move wins, ``-1`` they lose."""

    legend = "+1 win, -1 loss"

    def truth(self, state: State, budget: int, at_least: Number | None = None) -> Truth:
        assert isinstance(state, TakeState)
        wins = state.left % 3 != 0
        return Truth(PovScore(1 if wins else -1, state.player))


class TakeAwayKit(GameKit):
    """2. The kit."""

    name = "take12"
    summary = "take one or two tokens from a pile; whoever takes the last wins"
    positions = "the tokens left: 7 (the first player to move)"
    position_hint = "tokens left, e.g. 7 (blank: start)"

    def names(self) -> tuple[str, ...]:
        return ("take12", "take12:N")

    def make(self, name: str) -> Game | None:
        if name == "take12":
            return TakeAway()
        head, _, size = name.partition(":")
        return TakeAway(int(size)) if head == "take12" and size.isdigit() else None

    def exact(self, game: Game) -> ExactValues:
        return TakeValues()


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """``KITS = (TakeAwayKit(),)`` in a module of ``plyscope.engine.kits``, as the recipe says: here, the registry
    given the kit for the test."""
    monkeypatch.setitem(kits(), TakeAwayKit.name, TakeAwayKit())


def test_the_game_is_named_made_and_played_by_the_searchers() -> None:
    assert "take12:N" in game_names() and "take12" in game_choices()
    game = make_game("take12:7")
    assert isinstance(game, TakeAway) and kit_of(game).name == "take12"
    assert all("take12" in kits_played(algorithm(name)) for name in ("minimax", "alphabeta", "mcts", "pns"))


def test_the_command_line_solves_searches_and_lists_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["solve", "7", "--game", "take12", "--json"]) == 0
    solved = json.loads(capsys.readouterr().out)
    assert (solved["score"], solved["value"], solved["moves"], solved["best_moves"]) == (
        1,
        1,
        {"-1": 1, "-2": -1},
        ["-1"],
    )
    assert main(["search", "7", "--game", "take12", "--algo", "minimax", "--param", "depth=9", "--json"]) == 0
    searched = json.loads(capsys.readouterr().out)
    assert searched["best_move"] == "-1" and searched["best_move_optimal"] is True
    assert main(["search", "--list", "--json"]) == 0
    listed = {entry["name"]: entry for entry in json.loads(capsys.readouterr().out)}
    assert "take12" in listed["minimax"]["games"]
    saved = tmp_path / "take.json"
    assert main(["search", "9", "--game", "take12", "--algo", "pns", "--export", str(saved)]) == 0
    capsys.readouterr()
    assert main(["replay", "--check", str(saved)]) == 0


@run_async
async def test_the_explorer_shows_it_with_its_truth_column() -> None:
    app = make_app(game="take12", position="8", algorithm="alphabeta")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = explorer(pilot)
        await pilot.press("f")  # (100 steps: r would run the whole budget at the explorer's pace)
        await settle(pilot)
        await pilot.press("T")
        tree = screen.query_one(SearchTree)
        await wait_until(pilot, lambda: not tree.awaiting_truth(), "the truth column")
        assert str(tree.border_title).startswith("root [● win] ")
        assert screen.session.searcher.best_move() == 2  # 8 - 2 leaves 6, a multiple of 3


def test_the_arena_plays_and_judges_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    argv = ["arena", "--agents", "minimax:depth=6", "mcts", "--game", "take12:8", "--openings", "all2"]
    assert main([*argv, "--moves", "200", "--workers", "1", "--out", str(out)]) == 0
    assert "Accuracy of minimax:depth=6" in capsys.readouterr().out  # judged against its exact values
    report = json.loads(out.read_text())
    assert len(report["games"]) == 8  # 4 openings, each agent first in one of each pair


@run_async
async def test_compare_and_the_timeline_take_it() -> None:
    game = make_game("take12:9")
    total = Limit(moves=400)
    screen = CompareScreen(game.start(), compared_agents(["minimax:depth=4", "pns"], total, game), total)
    app = app_with("take12:9", lambda: screen)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("r")
        await wait_until(pilot, lambda: not screen.searches.searching, "the searches")
        assert all(session.searcher.best_move() is not None for session in screen.sessions)
    app = make_app(game="take12", position="9", algorithm="minimax", params={"depth": 4})
    async with app.run_test(size=(120, 40)) as pilot:
        session = explorer(pilot).session
        await pilot.press("s", "s", "s")
        await settle(pilot)
        await pilot.press(",")
        await settle(pilot)
        assert (session.step_shown, session.steps_taken) == (2, 3)
