"""Connect Four with chance: a disc may slip into a neighbouring column.

A turn is two moves.  The player to move chooses a column (``Connect4ChanceState.play``),
which leads to a chance node (``ChanceDrop``) where nature draws the column the disc lands
in: the chosen one with probability ``keep`` (0.6 by default), each neighbour with ``side``
(0.2 each); a neighbour that does not exist (the chosen column is at an edge) or is full
gives its share to the chosen column.  ``keep + 2 * side`` is 1.

Game names (``make_game``): ``connect4-chance`` (7x6, 0.6 and 0.2), ``connect4-chance:WxH``,
``connect4-chance:KEEP,SIDE`` and ``connect4-chance:WxH:KEEP,SIDE``, e.g.
``connect4-chance:5x4:0.5,0.25``.

A position is written as every move played, one digit each, so two digits a turn: the
column chosen, then the column the disc landed in.  ``4454`` is the first player aiming at
column 4 and landing there, then the second aiming at 5 and landing in 4; an odd number of
digits ends at a chance node (``445``: the second player's disc, aimed at 5, has not landed).

The boards are plain Connect Four positions (``board``, a ``Connect4State``), so the
Connect Four evaluators and boards serve this game too; ``ply`` counts the stones on the
board, as in Connect Four (a chance node has the ply of the position it was chosen in).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import cached_property

from plyscope.engine.games.base import CHANCE, Move, Player, PositionError
from plyscope.engine.games.connect4 import COLUMN_DIGITS, Bitboard, Connect4, Connect4State
from plyscope.engine.numbers import NumberError, OutOfRange, parse_float

DEFAULT_KEEP = 0.6
"""Probability that the disc lands in the column chosen (before the shares of missing or full neighbours)."""
DEFAULT_SIDE = 0.2
"""Probability that it slips into each neighbouring column."""
NAME = "connect4-chance"

Outcomes = tuple[tuple[int, float], ...]
"""``(landing column, probability)`` pairs, left to right."""


def parse_chance_game(name: str) -> Connect4Chance | None:
    """The game ``name`` names if it is a ``connect4-chance`` name, else ``None``; raises ``PositionError``
    for a malformed size or probabilities."""
    if name != NAME and not name.startswith(NAME + ":"):
        return None
    match = re.fullmatch(NAME + r"(?::([0-9]+)x([0-9]+))?(?::([^:]+))?", name)
    if match is None:
        raise PositionError(
            f"game '{name}': write {NAME}, {NAME}:WxH, {NAME}:KEEP,SIDE or {NAME}:WxH:KEEP,SIDE (e.g. {NAME}:0.6,0.2)"
        )
    width, height, probabilities = match.groups()
    keep, side = DEFAULT_KEEP, DEFAULT_SIDE
    if probabilities is not None:
        keep, side = _parse_probabilities(name, probabilities)
    board = Connect4.written(width, height) if width else Connect4()
    return Connect4Chance(board, keep, side)


def _parse_probabilities(name: str, text: str) -> tuple[float, float]:
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        keep, side = (parse_float(part, "probability") for part in parts)
    except OutOfRange as error:
        raise PositionError(f"game '{name}': {error}") from None
    except (ValueError, NumberError):
        raise PositionError(f"game '{name}': '{text}' is not KEEP,SIDE, two probabilities such as 0.6,0.2") from None
    check_probabilities(keep, side)
    return keep, side


def check_probabilities(keep: float, side: float) -> None:
    """Raise ``PositionError`` unless ``keep`` and ``side`` are probabilities with ``keep + 2 side = 1``."""
    if not (0 <= keep <= 1 and 0 <= side <= 1 and math.isclose(keep + 2 * side, 1.0, abs_tol=1e-9)):
        raise PositionError(
            f"chance probabilities {keep:g},{side:g}: KEEP and SIDE must be between 0 and 1 with KEEP + 2 x SIDE = 1"
        )


class Connect4Chance:
    """Connect Four with chance on one board size: the ``Game`` object."""

    kit = "connect4-chance"

    def __init__(self, board: Connect4, keep: float = DEFAULT_KEEP, side: float = DEFAULT_SIDE) -> None:
        check_probabilities(keep, side)
        self.board = board
        """The board's geometry and rules (four in a row wins), shared with plain Connect Four."""
        self.keep = keep
        self.side = side
        size = "" if (board.width, board.height) == (7, 6) else f":{board.width}x{board.height}"
        odds = "" if (keep, side) == (DEFAULT_KEEP, DEFAULT_SIDE) else f":{keep:g},{side:g}"
        self.name = NAME + size + odds
        self._landings: dict[tuple[Bitboard, int], tuple[Outcomes, tuple[int, ...]]] = {}

    def __repr__(self) -> str:
        return f"Connect4Chance({self.board!r}, keep={self.keep:g}, side={self.side:g})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Connect4Chance) and (self.board, self.keep, self.side) == (
            other.board,
            other.keep,
            other.side,
        )

    def __hash__(self) -> int:
        return hash((Connect4Chance, self.board, self.keep, self.side))

    @cached_property
    def _start(self) -> Connect4ChanceState:
        return Connect4ChanceState(self, self.board.start(), None)

    def start(self) -> Connect4ChanceState:
        """The empty board, first player to choose."""
        return self._start

    def parse(self, text: str) -> Connect4ChanceState | ChanceDrop:
        """The position after the moves ``text`` (two digits a turn: chosen, landed; ``""`` or ``-``: the start)."""
        state: Connect4ChanceState | ChanceDrop = self._start
        moves = "".join(text.split())
        if moves == "-":
            moves = ""
        for index, char in enumerate(moves, start=1):
            if state.is_terminal():
                raise PositionError(f"move {index} ('{char}'): the game is already over after move {index - 1}")
            state = state.play(state.parse_move(char, index=index))
        return state

    def landings(self, mask: Bitboard, column: int) -> tuple[Outcomes, tuple[int, ...]]:
        """Where a disc aimed at the open ``column`` of a board whose stones are ``mask`` can land:
        ``(landing, probability)`` pairs left to right (probability above 0), and the landings alone."""
        board = self.board
        key = (mask & board.top_row, column)
        found = self._landings.get(key)
        if found is None:
            shares = {column: self.keep}
            for neighbour in (column - 1, column + 1):
                if 0 <= neighbour < board.width and not mask & board.top[neighbour]:
                    shares[neighbour] = self.side
                else:
                    shares[column] += self.side
            outcomes = tuple((c, p) for c, p in sorted(shares.items()) if p > 0)
            found = (outcomes, tuple(c for c, _ in outcomes))
            self._landings[key] = found
        return found

    def landing(self, mask: Bitboard, column: int, draw: float) -> int:
        """Where a disc aimed at the open ``column`` lands for a uniform ``draw`` in [0, 1): below ``keep`` in
        ``column``, then the left neighbour's share, then the right one's; a missing or full neighbour's share
        lands in ``column``.

        So one draw means the same slip (none, left, right) in any position, which lets the arena give
        both games of a pair the same dice."""
        if draw < self.keep:
            return column
        board = self.board
        target = column - 1 if draw < self.keep + self.side else column + 1
        return target if 0 <= target < board.width and not mask & board.top[target] else column


class Connect4ChanceState:
    """A position of Connect Four with chance where a player chooses a column (not a chance node)."""

    __slots__ = ("game", "board", "_drop")

    game: Connect4Chance
    board: Connect4State
    """The stones on the board, as a plain Connect Four position (the player to move is the same)."""

    def __init__(self, game: Connect4Chance, board: Connect4State, drop: ChanceDrop | None) -> None:
        self.game = game
        self.board = board
        self._drop = drop
        """The chance node this position came from (``None`` at the start): with ``board``'s last move,
        the landing, it spells the moves."""

    @property
    def player(self) -> Player:
        return self.board.player

    @property
    def ply(self) -> int:
        """Stones on the board."""
        return self.board.ply

    def legal_moves(self) -> Sequence[int]:
        return self.board.legal_moves()

    def play(self, move: Move) -> ChanceDrop:
        """The chance node after the player to move aims a disc at column ``move`` (an open column)."""
        assert isinstance(move, int)
        return ChanceDrop(self, move)

    def is_terminal(self) -> bool:
        return self.board.is_terminal()

    def winner(self) -> Player | None:
        return self.board.winner()

    def utility(self) -> int:
        return self.board.utility()

    def key(self) -> int:
        """The board's Pons key (a chance node's key is a pair, so the two never collide)."""
        return self.board.key()

    def move_label(self, move: Move) -> str:
        assert isinstance(move, int)
        return COLUMN_DIGITS[move]

    def parse_move(self, text: str, *, index: int | None = None) -> int:
        """The open column written as ``text``; raises ``PositionError`` otherwise."""
        return self.board.parse_move(text, index=index)

    def text(self) -> str:
        """Every move from the start, two digits a turn (chosen, landed)."""
        return "" if self._drop is None else self._drop.text() + COLUMN_DIGITS[self.board.last_move]

    def rows(self) -> list[str]:
        """The board as text rows, top first (see ``Connect4State.rows``)."""
        return self.board.rows()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Connect4ChanceState) and self.game == other.game and self.board == other.board

    def __hash__(self) -> int:
        return hash(self.board)

    def __repr__(self) -> str:
        return f"<Connect4ChanceState ply={self.ply} key={self.key()}>"


class ChanceDrop:
    """A chance node: a disc aimed at ``column`` by ``mover``, about to land (nature moves next).

    Its moves are landing columns; ``outcomes()`` gives each with its probability.
    """

    __slots__ = ("before", "column", "_outcomes", "_landings")

    before: Connect4ChanceState
    """The position the disc was aimed in."""
    column: int
    """The column aimed at."""

    def __init__(self, before: Connect4ChanceState, column: int) -> None:
        self.before = before
        self.column = column
        self._outcomes, self._landings = before.game.landings(before.board.mask, column)

    @property
    def game(self) -> Connect4Chance:
        return self.before.game

    @property
    def board(self) -> Connect4State:
        """The board before the disc lands."""
        return self.before.board

    @property
    def player(self) -> Player:
        return CHANCE

    @property
    def mover(self) -> Player:
        """Whose disc is falling: the player who chose ``column``."""
        return self.before.board.player

    @property
    def ply(self) -> int:
        """Stones on the board (the falling disc not yet among them)."""
        return self.before.board.ply

    def outcomes(self) -> Outcomes:
        """``(landing column, probability)`` for every column the disc can land in, left to right."""
        return self._outcomes

    def outcome_for(self, draw: float) -> int:
        """The landing a uniform ``draw`` in [0, 1) picks (``Connect4Chance.landing``)."""
        return self.game.landing(self.before.board.mask, self.column, draw)

    def legal_moves(self) -> Sequence[int]:
        return self._landings

    def play(self, move: Move) -> Connect4ChanceState:
        """The position after the disc lands in column ``move`` (one of the outcomes)."""
        before = self.before
        return Connect4ChanceState(before.game, before.board.play(move), self)

    def is_terminal(self) -> bool:
        return False

    def winner(self) -> Player | None:
        return None

    def utility(self) -> int:
        raise ValueError("utility() of a chance node: the game goes on")

    def key(self) -> tuple[int, int]:
        """``(board key, column aimed at)``."""
        return self.before.board.key(), self.column

    def move_label(self, move: Move) -> str:
        assert isinstance(move, int)
        return COLUMN_DIGITS[move]

    def parse_move(self, text: str, *, index: int | None = None) -> int:
        """The landing column written as ``text``; raises ``PositionError`` unless the disc can land there."""
        where = f"move {index} ('{text}')" if index is not None else f"move '{text}'"
        column = COLUMN_DIGITS.find(text.strip()) if len(text.strip()) == 1 else -1
        if column not in self._landings:
            can = ", ".join(COLUMN_DIGITS[c] for c in self._landings)
            raise PositionError(f"{where}: a disc aimed at column {COLUMN_DIGITS[self.column]} lands in {can} only")
        return column

    def text(self) -> str:
        """The moves up to the choice of ``column`` (an odd number of digits)."""
        return self.before.text() + COLUMN_DIGITS[self.column]

    def rows(self) -> list[str]:
        """The board before the disc lands, as text rows, top first."""
        return self.before.board.rows()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChanceDrop) and self.column == other.column and self.before == other.before

    def __hash__(self) -> int:
        return hash((self.before, self.column))

    def __repr__(self) -> str:
        return f"<ChanceDrop ply={self.ply} column={self.column}>"


def connect4_grid(state: object) -> Connect4State | None:
    """The Connect Four grid of ``state``: itself, or a chance-game position's board (before a falling disc
    lands); ``None`` for a position of another game."""
    if isinstance(state, Connect4State):
        return state
    if isinstance(state, Connect4ChanceState | ChanceDrop):
        return state.board
    return None
