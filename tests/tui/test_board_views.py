"""The board views (``plyscope.tui.widgets.boards``): each game drawn and played by the view its kit names; the text
view for a game with none of its own; a plugin's view named ``module:Class``, and one that does not load, which falls
back to the text view with a note."""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence

import pytest
from rich.text import Text

from plyscope.engine.game_record import PlayedGame
from plyscope.engine.games.base import Game, Move, Player, PositionError, State
from plyscope.engine.kits import kits
from plyscope.engine.kits.base import ExactValues, GameKit, Number, Truth
from plyscope.engine.numbers import shown
from plyscope.engine.pov import PovScore
from plyscope.tui.screens.play import PlayScreen
from plyscope.tui.widgets.boards import view_named
from plyscope.tui.widgets.boards.base import Board
from plyscope.tui.widgets.boards.text import TextBoard
from plyscope.tui.widgets.prompt_bar import PromptBar
from tests.tui.contest_helpers import app_with, prompt_field, wait_until
from tests.tui.helpers import explorer, make_app, run_async, settle


class Pebbles:
    """A pile of pebbles; each player in turn takes one, two or three; whoever takes the last wins."""

    kit = "pebbles"

    def __init__(self, name: str = "pebbles") -> None:
        self.name = name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pebbles) and other.name == self.name

    def __hash__(self) -> int:
        return hash((Pebbles, self.name))

    def start(self) -> PebblesState:
        return PebblesState(self, 9, 1, 0)

    def parse(self, text: str) -> PebblesState:
        written = text.strip()
        if written in ("", "-"):
            return self.start()
        if not written.isdigit():
            raise PositionError(f"'{shown(written)}' is not a number of pebbles")
        return PebblesState(self, int(written), 1, 0)


class PebblesState:
    def __init__(self, game: Pebbles, left: int, player: Player, ply: int) -> None:
        self.game = game
        self.left = left
        self.player = player
        self.ply = ply

    def legal_moves(self) -> Sequence[Move]:
        return tuple(take for take in (1, 2, 3) if take <= self.left)

    def play(self, move: Move) -> PebblesState:
        assert isinstance(move, int) and move in self.legal_moves()
        return PebblesState(self.game, self.left - move, -self.player, self.ply + 1)

    def is_terminal(self) -> bool:
        return self.left == 0

    def winner(self) -> Player | None:
        return -self.player if self.left == 0 else None

    def utility(self) -> int:
        winner = self.winner()
        assert winner is not None
        return winner

    def key(self) -> Hashable:
        return (self.left, self.player)

    def text(self) -> str:
        return str(self.left)

    def board_text(self) -> str:
        """The pile drawn: the text view shows this rather than ``text()``."""
        return f"pile: {'o' * self.left}"

    def move_label(self, move: Move) -> str:
        return f"take{move}"

    def parse_move(self, text: str) -> Move:
        for move in self.legal_moves():
            if text.strip() in (self.move_label(move), str(move)):
                return move
        raise PositionError(f"'{shown(text)}' is not a move here: take1 to take{len(self.legal_moves())}")


class PebblesKit(GameKit):
    """A kit with no board view of its own: ``board`` is ``text`` (the default), unless a test names another."""

    name = "pebbles"
    summary = "take one to three pebbles; whoever takes the last wins"
    positions = "the pebbles left: 7"

    def __init__(self, board: str = "text") -> None:
        self.board = board  # type: ignore[misc]

    def names(self) -> tuple[str, ...]:
        return ("pebbles",)

    def make(self, name: str) -> Game | None:
        return Pebbles() if name == "pebbles" else None

    def exact(self, game: Game) -> ExactValues:
        return PebblesValues()


class PebblesValues(ExactValues):
    """The player to move wins unless the pebbles left are a multiple of 4."""

    def truth(self, state: State, budget: int, at_least: Number | None = None) -> Truth:
        assert isinstance(state, PebblesState)
        return Truth(PovScore(1 if state.left % 4 else -1, state.player))


class PileBoard(Board):
    """A plugin's own board view (named ``tests.tui.test_board_views:PileBoard``): the pile as a row of stones."""

    def render_board(self) -> Text:
        assert isinstance(self.state, PebblesState)
        return Text(f"stones: {'●' * self.state.left}")

    def play_digit(self, index: int) -> None:
        self.play(index + 1)


def register(monkeypatch: pytest.MonkeyPatch, board: str) -> Iterator[None]:
    monkeypatch.setitem(kits(), PebblesKit.name, PebblesKit(board))
    yield


@pytest.fixture
def text_kit(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from register(monkeypatch, "text")


@pytest.fixture
def plugin_kit(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from register(monkeypatch, "tests.tui.test_board_views:PileBoard")


@pytest.fixture
def broken_kit(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from register(monkeypatch, "tests.tui.no_such_module:PileBoard")


def board_text(board: Board) -> str:
    return board.render_board().plain


@pytest.mark.usefixtures("text_kit")
def test_the_text_view_draws_the_states_own_board_and_lists_its_moves() -> None:
    @run_async
    async def scenario() -> None:
        app = make_app(game="pebbles", position="5", algorithm="minimax")
        async with app.run_test(size=(120, 36)) as pilot:
            board = explorer(pilot).query_one(Board)
            assert isinstance(board, TextBoard)
            drawn = board_text(board)
            assert drawn.startswith("pile: ooooo\n● first player to move\n")
            assert "moves (3)\n1 take1  2 take2  3 take3" in drawn
            assert board.how_to_move().startswith("a move of the list: its number key")

    scenario()


@pytest.mark.usefixtures("text_kit")
def test_the_text_view_is_played_by_the_cursor_and_enter_by_a_digit_and_typed() -> None:
    @run_async
    async def scenario() -> None:
        app = make_app(game="pebbles", position="9", algorithm="minimax")
        async with app.run_test(size=(120, 36)) as pilot:
            screen = explorer(pilot)
            screen.query_one(Board).focus()
            await pilot.press("right", "right", "enter")
            await settle(pilot)
            assert screen.session.state.text() == "6"  # took three
            await pilot.press("2")
            await settle(pilot)
            assert screen.session.state.text() == "4"
            screen.query_one(Board).focus()
            await pilot.press("m")
            assert screen.query_one(PromptBar).is_open
            prompt_field(screen).value = "take1"
            await pilot.press("enter")
            await settle(pilot)
            assert screen.session.state.text() == "3"
            await pilot.press("4")
            await settle(pilot)
            assert "there is no move 4 here: the moves are 1 to 3" in str(screen.query_one("#status").render())

    scenario()


@pytest.mark.usefixtures("text_kit")
def test_the_text_view_is_played_by_a_click_on_a_move() -> None:
    @run_async
    async def scenario() -> None:
        app = make_app(game="pebbles", position="9", algorithm="minimax")
        async with app.run_test(size=(120, 36)) as pilot:
            screen = explorer(pilot)
            board = screen.query_one(Board)
            row = board_text(board).splitlines().index("1 take1  2 take2  3 take3")
            # inside the border and the padding (2 cells), the second move starts 8 cells in
            await pilot.click(Board, offset=(2 + 8 + 1, 1 + row))
            await settle(pilot)
            assert screen.session.state.text() == "7"

    scenario()


@pytest.mark.usefixtures("text_kit")
def test_the_text_view_writes_each_moves_exact_score_beside_it() -> None:
    @run_async
    async def scenario() -> None:
        played = PlayedGame(Pebbles().parse("6"), None, None)
        screen = PlayScreen(played, clock=lambda: 0.0)
        app = app_with("pebbles", lambda: screen)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("a")
            await wait_until(pilot, lambda: screen.analysis is not None and screen.analysis.done, "the analysis")
            await pilot.pause()
            drawn = board_text(screen.query_one(Board))
            listed = drawn.partition("moves (3)\n")[2]
            assert listed.split() == ["1", "take1", "-1", "2", "take2", "+1", "3", "take3", "-1"]  # 6 - 2 leaves 4

    scenario()


@pytest.mark.usefixtures("plugin_kit")
def test_a_plugins_own_view_named_module_and_class_draws_and_plays_its_game() -> None:
    assert view_named("tests.tui.test_board_views:PileBoard").view is PileBoard

    @run_async
    async def scenario() -> None:
        app = make_app(game="pebbles", position="5", algorithm="minimax")
        async with app.run_test(size=(120, 36)) as pilot:
            screen = explorer(pilot)
            board = screen.query_one(Board)
            assert isinstance(board, PileBoard) and board_text(board) == "stones: ●●●●●"
            await pilot.press("2")
            await settle(pilot)
            assert screen.session.state.text() == "3"
            assert board_text(screen.query_one(Board)) == "stones: ●●●"

    scenario()


@pytest.mark.usefixtures("broken_kit")
def test_a_view_that_does_not_load_falls_back_to_text_with_a_note() -> None:
    choice = view_named("tests.tui.no_such_module:PileBoard")
    assert choice.view is TextBoard
    assert choice.note == (
        "the board view 'tests.tui.no_such_module:PileBoard' did not load (ModuleNotFoundError: No module named "
        "'tests.tui.no_such_module'): drawn as text"
    )
    not_a_board = view_named("tests.tui.test_board_views:PebblesKit")
    assert (not_a_board.view, not_a_board.note) == (
        TextBoard,
        "the board view 'tests.tui.test_board_views:PebblesKit' is not a plyscope Board: drawn as text",
    )

    @run_async
    async def scenario() -> None:
        app = make_app(game="pebbles", position="5", algorithm="minimax")
        async with app.run_test(size=(120, 36)) as pilot:
            screen = explorer(pilot)
            board = screen.query_one(Board)
            assert isinstance(board, TextBoard)
            assert board_text(board).startswith(f"{choice.note}\npile: ooooo\n")
            await pilot.press("1")
            await settle(pilot)
            assert screen.session.state.text() == "4"

    scenario()


def test_each_built_in_kit_names_a_view_that_loads() -> None:
    for kit in kits().values():
        if ":" not in kit.board:
            assert view_named(kit.board).note == "", kit.name
