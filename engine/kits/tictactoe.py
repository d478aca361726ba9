"""Tic-tac-toe and the other m,n,k-games: the rules, the kit and the exact values, in one module.

An m,n,k-game is played on an ``m``-column, ``n``-row board: the players take turns to fill an empty cell, the
first player ``●`` (X), the second ``○`` (O), and whoever first has ``k`` of their own in a row, a column or a
diagonal wins; a full board without one is a draw.  Tic-tac-toe is the 3,3,3-game, the first example of minimax in
Russell and Norvig's *Artificial Intelligence: A Modern Approach* (chapter 5): with perfect play it is a draw, and
so is every first move.  ``--game tictactoe`` plays it, ``--game mnk:M,N,K`` any board up to 5x5.

A cell is written by its column letter and its row number, counted from the top left as one reads: ``a1`` is the
top-left corner, ``b2`` tic-tac-toe's centre.  A position is the cells played in order, ``b2a1c3`` (``''`` or
``-``: the empty board).  A cell is also played by its number in reading order, 1 to m x n (tic-tac-toe's 1 to 9,
as on a phone's keys).

Exact values (``MnkValues``), for the player to move: ``+1`` a win, ``0`` a draw, ``-1`` a loss, by a memoised
negamax (tic-tac-toe's empty board: 3,964 positions, 20 ms), within a budget of positions on boards of more
than 12 cells.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from functools import cached_property

from plyscope.engine.games.base import Game, Move, Player, PositionError, State
from plyscope.engine.games.evaluators import Evaluator
from plyscope.engine.kits.base import ExactValues, GameKit, Number, Truth
from plyscope.engine.numbers import shown
from plyscope.engine.pov import PovScore

MAX_SIDE = 5
"""The widest and tallest board."""
NAME = re.compile(r"mnk:([0-9]+),([0-9]+),([0-9]+)")
CELL = re.compile(r"([a-z])([0-9]+)")
INSTANT_CELLS = 12
"""Boards of at most this many cells are valued in full at once (tic-tac-toe: 3,964 positions); larger ones within a
budget of positions."""
MEMO_LIMIT = 4_000_000
"""Positions the exact values keep at most (about 400 MB); past it they are forgotten and found again."""


class Mnk:
    """An m,n,k-game: the board size, the line length, and the lines precomputed; also the ``Game`` object."""

    kit = "tictactoe"

    def __init__(self, width: int = 3, height: int = 3, k: int = 3) -> None:
        if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
            raise PositionError(f"an m,n,k board is 1 to {MAX_SIDE} cells a side, not {width}x{height}")
        if not 1 <= k <= max(width, height):
            raise PositionError(f"k is the length of a winning line: 1 to {max(width, height)} here, not {k}")
        self.width = width
        self.height = height
        self.k = k
        self.cells = width * height
        self.name = "tictactoe" if (width, height, k) == (3, 3, 3) else f"mnk:{width},{height},{k}"
        self.full = (1 << self.cells) - 1
        lines: list[int] = []
        for row in range(height):
            for column in range(width):
                for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    end_column, end_row = column + dx * (k - 1), row + dy * (k - 1)
                    if 0 <= end_column < width and 0 <= end_row < height:
                        lines.append(sum(1 << self.index(column + dx * i, row + dy * i) for i in range(k)))
        self.lines = tuple(lines)
        """Every line of ``k`` cells, as a set of cell bits."""
        self.lines_through = tuple(tuple(line for line in lines if line >> cell & 1) for cell in range(self.cells))
        """The lines through each cell: a move can complete only those."""

    def index(self, column: int, row: int) -> int:
        """The cell at ``column`` (0 = left) and ``row`` (0 = top): its number in reading order, from 0."""
        return row * self.width + column

    def label(self, cell: int) -> str:
        """``a1`` for the top-left cell: the column letter, the row number from the top."""
        row, column = divmod(cell, self.width)
        return f"{'abcde'[column]}{row + 1}"

    def __repr__(self) -> str:
        return f"Mnk({self.width}, {self.height}, {self.k})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mnk) and (self.width, self.height, self.k) == (other.width, other.height, other.k)

    def __hash__(self) -> int:
        return hash((Mnk, self.width, self.height, self.k))

    @cached_property
    def _start(self) -> MnkState:
        return MnkState(self, 0, 0)

    def start(self) -> MnkState:
        """The empty board, the first player (X) to move."""
        return self._start

    def parse(self, text: str) -> MnkState:
        """The position after the cells ``text`` names in order (``b2a1``; ``''`` or ``-``: the empty board)."""
        written = "".join(text.split()).lower()
        state = self._start
        if written in ("", "-"):
            return state
        at = 0
        for index, match in enumerate(CELL.finditer(written), start=1):
            if match.start() != at:
                break
            if state.is_terminal():
                raise PositionError(f"move {index} ('{match.group()}'): the game is over after move {index - 1}")
            state = state.play(state.parse_move(match.group()))
            at = match.end()
        if at != len(written):
            raise PositionError(
                f"'{shown(written[at:], 12)}' is not a cell: write the cells played as a column letter and a row "
                f"number from the top, like b2a1c3"
            )
        return state


class MnkState:
    """An immutable m,n,k position: each player's cells as bits, the side to move."""

    __slots__ = ("game", "first", "second", "history", "_winner")

    game: Mnk
    first: int
    """The first player's (X's) cells."""
    second: int
    """The second player's (O's) cells."""
    history: tuple[int, ...]
    """The cells played, in order (what ``text`` writes)."""

    def __init__(self, game: Mnk, first: int, second: int, history: tuple[int, ...] = ()) -> None:
        self.game = game
        self.first = first
        self.second = second
        self.history = history
        self._winner: Player | None = None

    @property
    def ply(self) -> int:
        return len(self.history)

    @property
    def player(self) -> Player:
        return 1 if self.ply % 2 == 0 else -1

    def legal_moves(self) -> Sequence[int]:
        if self._winner is not None:
            return ()
        taken = self.first | self.second
        return tuple(cell for cell in range(self.game.cells) if not taken >> cell & 1)

    def play(self, move: Move) -> MnkState:
        cell = move
        assert isinstance(cell, int)
        bit = 1 << cell
        game = self.game
        history = (*self.history, cell)
        if self.player == 1:
            stones, state = self.first | bit, MnkState(game, self.first | bit, self.second, history)
        else:
            stones, state = self.second | bit, MnkState(game, self.first, self.second | bit, history)
        if any(line & stones == line for line in game.lines_through[cell]):
            state._winner = self.player
        elif state.ply == game.cells:
            state._winner = 0
        return state

    def is_terminal(self) -> bool:
        return self._winner is not None

    def winner(self) -> Player | None:
        return self._winner

    def utility(self) -> int:
        if self._winner is None:
            raise ValueError("utility() of a position where the game goes on")
        return self._winner

    def key(self) -> tuple[int, int]:
        return (self.first, self.second)

    def move_label(self, move: Move) -> str:
        assert isinstance(move, int)
        return self.game.label(move)

    def parse_move(self, text: str) -> int:
        """The empty cell written ``b2`` (or by its number in reading order, ``5``); ``PositionError`` otherwise."""
        written = text.strip().lower()
        game = self.game
        cell: int | None = None
        if written.isdigit() and 1 <= int(written) <= game.cells:
            cell = int(written) - 1
        else:
            match = CELL.fullmatch(written)
            if match:
                column, row = "abcde".find(match.group(1)), int(match.group(2)) - 1
                if 0 <= column < game.width and 0 <= row < game.height:
                    cell = game.index(column, row)
        if cell is None:
            last = game.label(game.cells - 1)
            raise PositionError(f"'{shown(text, 12)}' is not a cell of this board: a1 to {last}, or 1 to {game.cells}")
        if cell not in self.legal_moves():
            raise PositionError(f"cell {game.label(cell)} is taken" if not self.is_terminal() else "the game is over")
        return cell

    def text(self) -> str:
        """The cells played, in order."""
        return "".join(self.game.label(cell) for cell in self.history)

    def rows(self) -> list[str]:
        """The board as text, a row a line: ``X``, ``O`` and ``.`` for an empty cell."""
        game = self.game
        return [
            "".join(
                "X" if self.first >> game.index(c, r) & 1 else ("O" if self.second >> game.index(c, r) & 1 else ".")
                for c in range(game.width)
            )
            for r in range(game.height)
        ]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MnkState) and self.game == other.game and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"<MnkState {self.game.name} {self.text() or '-'}>"


class LinesEvaluator:
    """The open-lines count (AIMA's tic-tac-toe example): the lines X could still complete less those O could,
    each weighted by the square of the stones already in it; ``±(1000 - ply)`` once the game is won, 0 a draw.
    From the first player's (X's) point of view."""

    name = "lines"
    lo = -1000.0
    hi = 1000.0

    def __call__(self, state: State) -> float:
        assert isinstance(state, MnkState)
        winner = state.winner()
        if winner is not None:
            return float(winner * (1000 - state.ply))
        score = 0
        for line in state.game.lines:
            mine, theirs = (state.first & line).bit_count(), (state.second & line).bit_count()
            if not theirs:
                score += mine * mine
            elif not mine:
                score -= theirs * theirs
        return float(max(-999, min(999, score)))


class MnkValues(ExactValues):
    """Exact values by a memoised negamax: ``+1`` the player to move wins, ``0`` a draw, ``-1`` a loss."""

    def __init__(self, game: Mnk) -> None:
        self.game = game
        self.instant = game.cells <= INSTANT_CELLS
        self._memo: dict[tuple[int, int], int] = {}
        """Position (the player to move's cells, the other's) -> its value for the player to move."""
        self._lock = threading.Lock()

    def truth(self, state: State, budget: int, at_least: Number | None = None) -> Truth:
        assert isinstance(state, MnkState)
        if state.is_terminal():
            return Truth(PovScore(state.utility() * state.player, state.player))
        mine, theirs = (state.first, state.second) if state.player == 1 else (state.second, state.first)
        with self._lock:
            if len(self._memo) > MEMO_LIMIT:
                self._memo.clear()
            before = len(self._memo)
            limit = None if self.instant else before + max(budget, 1)
            value = self._negamax(mine, theirs, limit)
            spent = len(self._memo) - before
        return Truth(None if value is None else PovScore(value, state.player), spent)

    def _negamax(self, mine: int, theirs: int, limit: int | None) -> int | None:
        """The value for the player whose cells are ``mine`` (to move), ``None`` past ``limit`` positions."""
        memo = self._memo
        known = memo.get((mine, theirs))
        if known is not None:
            return known
        if limit is not None and len(memo) >= limit:
            return None
        game = self.game
        taken = mine | theirs
        if taken == game.full:
            return 0
        best = -1
        for cell in range(game.cells):
            bit = 1 << cell
            if taken & bit:
                continue
            stones = mine | bit
            if any(line & stones == line for line in game.lines_through[cell]):
                best = 1
                break
            value = self._negamax(theirs, stones, limit)
            if value is None:
                return None
            best = max(best, -value)
            if best == 1:
                break
        memo[(mine, theirs)] = best
        return best

    def clear(self) -> None:
        with self._lock:
            self._memo.clear()


class TicTacToeKit(GameKit):
    name = "tictactoe"
    summary = "tic-tac-toe (AIMA's first minimax example: a draw) and m,n,k-games up to 5x5: exact by memoised search"
    positions = "the cells played in order, column letter and row from the top: b2a1c3 ('' or - the empty board)"
    player_names = ("first player (X)", "second player (O)")
    position_hint = "the cells played, e.g. b2a1 (blank: empty board)"
    board = "grid"

    def names(self) -> tuple[str, ...]:
        return ("tictactoe", "mnk:M,N,K")

    def choices(self) -> tuple[str, ...]:
        return ("tictactoe", "mnk:4,3,3", "mnk:4,4,3")

    def make(self, name: str) -> Game | None:
        if name == "tictactoe":
            return Mnk()
        sized = NAME.fullmatch(name)
        if sized is None:
            return None
        width, height, k = (int(part) if len(part) < 4 else MAX_SIDE + 1 for part in sized.groups())
        return Mnk(width, height, k)

    def evaluators(self, game: Game) -> tuple[str, ...]:
        return ("lines", "neutral")

    def evaluator(self, game: Game, name: str, *, weights: str = "") -> Evaluator:
        return LinesEvaluator() if name == "lines" else super().evaluator(game, name)

    def exact(self, game: Game) -> ExactValues:
        assert isinstance(game, Mnk)
        return MnkValues(game)


KITS = (TicTacToeKit(),)
