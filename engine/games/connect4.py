"""Connect Four on two Python-int bitboards, in Pascal Pons' layout.

Each column takes ``height + 1`` bits, bottom cell first; the spare top bit keeps
shifted alignments from wrapping into the next column.  A position is two ints:

* ``current``: the stones of the player to move;
* ``mask``: every stone on the board.

Moves are 0-based column indices; they are written 1-based (``1`` .. ``9``, and ``0``
for a tenth column), so a game reads as a Pons move string such as ``4453``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

from plyscope.engine.games.base import Move, Player, PositionError
from plyscope.engine.numbers import NumberError, parse_int, shown

Bitboard = int
"""A set of cells, bit ``column * (height + 1) + row`` for each cell (row 0 at the bottom)."""

MIN_SIZE = 4
MAX_SIZE = 10
COLUMN_DIGITS = "1234567890"
"""How columns are written, leftmost first: the tenth column is the ``0`` key."""


class Connect4:
    """A Connect Four board size and everything precomputed for it; also the ``Game`` object."""

    kit = "connect4"

    @classmethod
    def written(cls, width: str, height: str) -> Connect4:
        """The board of a game name's ``WxH``, each a string of digits (however many)."""
        try:
            return cls(parse_int(width, "board width"), parse_int(height, "board height"))
        except NumberError:  # (over 30 digits)
            raise _size_out_of_range(width, height) from None

    def __init__(self, width: int = 7, height: int = 6) -> None:
        if not (MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE):
            raise _size_out_of_range(str(width), str(height))
        self.width = width
        self.height = height
        self.name = "connect4" if (width, height) == (7, 6) else f"connect4:{width}x{height}"
        self.column_bits = height + 1
        self.bottom_mask: Bitboard = sum(1 << (c * self.column_bits) for c in range(width))
        self.board_mask: Bitboard = self.bottom_mask * ((1 << height) - 1)
        self.bottom: tuple[Bitboard, ...] = tuple(1 << (c * self.column_bits) for c in range(width))
        self.top: tuple[Bitboard, ...] = tuple(1 << (height - 1 + c * self.column_bits) for c in range(width))
        self.column_mask: tuple[Bitboard, ...] = tuple(
            ((1 << height) - 1) << (c * self.column_bits) for c in range(width)
        )
        self.top_row: Bitboard = sum(self.top)
        self.cells = width * height
        self.shifts = (1, self.column_bits - 1, self.column_bits, self.column_bits + 1)
        """Bit distance between neighbours: vertical, one diagonal, horizontal, the other diagonal."""
        self._moves_for_full_columns: dict[Bitboard, tuple[int, ...]] = {}

    def __repr__(self) -> str:
        return f"Connect4({self.width}, {self.height})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Connect4) and (self.width, self.height) == (other.width, other.height)

    def __hash__(self) -> int:
        return hash((Connect4, self.width, self.height))

    @cached_property
    def _start(self) -> Connect4State:
        return Connect4State(self, 0, 0, 0, None)

    def start(self) -> Connect4State:
        """The empty board, first player to move."""
        return self._start

    def parse(self, text: str) -> Connect4State:
        """The position after the Pons move string ``text`` (``""`` or ``-`` for the empty board)."""
        state = self._start
        moves = text.strip()
        if moves == "-":
            moves = ""
        for index, char in enumerate(moves, start=1):
            if state.is_terminal():
                raise PositionError(f"move {index} ('{char}'): the game is already over after move {index - 1}")
            state = state.play(state.parse_move(char, index=index))
        return state

    def legal_moves_for(self, mask: Bitboard) -> tuple[int, ...]:
        """The columns that still have room, left to right, for a board whose stones are ``mask``."""
        full = mask & self.top_row
        moves = self._moves_for_full_columns.get(full)
        if moves is None:
            moves = tuple(c for c in range(self.width) if not full & self.top[c])
            self._moves_for_full_columns[full] = moves
        return moves

    def fours(self, stones: Bitboard) -> Bitboard:
        """Every cell of ``stones`` that belongs to some four in a row (to highlight a win)."""
        cells = 0
        for shift in self.shifts:
            pairs = stones & (stones >> shift)
            starts = pairs & (pairs >> (2 * shift))
            for k in range(4):
                cells |= starts << (k * shift)
        return cells

    def winning_cells(self, stones: Bitboard, mask: Bitboard) -> Bitboard:
        """Empty cells (playable now or not) that would complete four in a row for ``stones``."""
        found = (stones << 1) & (stones << 2) & (stones << 3)  # vertical: three below
        for shift in self.shifts[1:]:
            pairs = (stones << shift) & (stones << 2 * shift)
            found |= pairs & (stones << 3 * shift)
            found |= pairs & (stones >> shift)
            pairs = (stones >> shift) & (stones >> 2 * shift)
            found |= pairs & (stones << shift)
            found |= pairs & (stones >> 3 * shift)
        return found & (self.board_mask ^ mask)

    def cell(self, column: int, row: int) -> Bitboard:
        """The bit of ``column`` (0 = left) and ``row`` (0 = bottom)."""
        return 1 << (column * self.column_bits + row)


class Connect4State:
    """An immutable Connect Four position.  Build it with ``Connect4.parse`` or ``play``."""

    __slots__ = ("game", "current", "mask", "ply", "_winner", "_parent", "_move")

    game: Connect4
    current: Bitboard
    """Stones of the player to move."""
    mask: Bitboard
    """All stones on the board."""
    ply: int
    """Stones on the board (moves played)."""

    def __init__(
        self,
        game: Connect4,
        current: Bitboard,
        mask: Bitboard,
        ply: int,
        winner: Player | None,
        parent: Connect4State | None = None,
        move: int = -1,
    ) -> None:
        self.game = game
        self.current = current
        self.mask = mask
        self.ply = ply
        self._winner = winner
        self._parent = parent
        """The position before the last move (``None`` at the start): it spells the move string."""
        self._move = move

    @property
    def player(self) -> Player:
        return 1 if self.ply % 2 == 0 else -1

    @property
    def last_move(self) -> int:
        """The column of the last stone played (-1 at the start)."""
        return self._move

    def legal_moves(self) -> Sequence[int]:
        if self._winner is not None:
            return ()
        return self.game.legal_moves_for(self.mask)

    def can_play(self, column: int) -> bool:
        return self._winner is None and 0 <= column < self.game.width and not self.mask & self.game.top[column]

    def play(self, move: Move) -> Connect4State:
        """The position after the player to move drops a stone in column ``move`` (must be legal)."""
        game = self.game
        mask = self.mask
        new_mask = mask | (mask + game.bottom[move])  # type: ignore[call-overload]
        mover = self.current | (new_mask ^ mask)
        ply = self.ply + 1
        winner: Player | None = None
        for shift in game.shifts:
            pairs = mover & (mover >> shift)
            if pairs & (pairs >> (2 * shift)):
                winner = 1 if ply % 2 == 1 else -1
                break
        else:
            if ply == game.cells:
                winner = 0
        return Connect4State(game, mover ^ new_mask, new_mask, ply, winner, self, move)  # type: ignore[arg-type]

    def is_terminal(self) -> bool:
        return self._winner is not None

    def winner(self) -> Player | None:
        return self._winner

    def utility(self) -> int:
        if self._winner is None:
            raise ValueError("utility() of a position where the game goes on")
        return self._winner

    def stones(self, player: Player) -> Bitboard:
        """The stones of ``player`` (+1 first, -1 second)."""
        return self.current if player == self.player else self.current ^ self.mask

    def key(self) -> int:
        """Pons' key ``current + mask``: unique per position; the side to move is its stone count's parity."""
        return self.current + self.mask

    def move_label(self, move: Move) -> str:
        assert isinstance(move, int)
        return COLUMN_DIGITS[move]

    def parse_move(self, text: str, *, index: int | None = None) -> int:
        """The column written as ``text`` (``1`` = leftmost); raises ``PositionError`` if it cannot be played."""
        where = f"move {index} ('{text}')" if index is not None else f"move '{text}'"
        column = COLUMN_DIGITS.find(text.strip()) if len(text.strip()) == 1 else -1
        if column < 0 or column >= self.game.width:
            last = COLUMN_DIGITS[self.game.width - 1]
            raise PositionError(f"{where}: not a column; columns are 1 to {last}")
        if self._winner is not None:
            raise PositionError(f"{where}: the game is already over")
        if self.mask & self.game.top[column]:
            raise PositionError(f"{where}: column {text.strip()} is full")
        return column

    def moves(self) -> list[int]:
        """The columns played from the empty board to this position, in order."""
        played = []
        state: Connect4State | None = self
        while state is not None and state._parent is not None:
            played.append(state._move)
            state = state._parent
        played.reverse()
        return played

    def text(self) -> str:
        """The Pons move string of this position (empty for the start)."""
        return "".join(COLUMN_DIGITS[move] for move in self.moves())

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Connect4State)
            and self.game == other.game
            and self.current == other.current
            and self.mask == other.mask
        )

    def __hash__(self) -> int:
        return hash((self.current, self.mask))

    def __repr__(self) -> str:
        return f"<Connect4State ply={self.ply} key={self.key()}>"

    def rows(self) -> list[str]:
        """The board as text rows, top row first: ``X`` first player, ``O`` second, ``.`` empty."""
        first = self.stones(1)
        lines = []
        for row in reversed(range(self.game.height)):
            line = ""
            for column in range(self.game.width):
                bit = self.game.cell(column, row)
                line += "." if not self.mask & bit else ("X" if first & bit else "O")
            lines.append(line)
        return lines


def _size_out_of_range(width: str, height: str) -> PositionError:
    return PositionError(
        f"board size {shown(width)}x{shown(height)} is out of range: width and height go from {MIN_SIZE} to {MAX_SIZE}"
    )
