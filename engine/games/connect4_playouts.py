"""Connect Four's random playouts, fast: on raw bitboards one game at a time, or as numpy batches.

A playout plays uniformly random legal moves from a position to the end of the game; its result is a **winner from
the first player's point of view**: ``+1`` the first player won, ``-1`` the second, ``0`` a draw.  Both kinds draw
from ``Draws`` (a ``plyscope.engine.search.stream.RandomStream``: a seeded sequence of floats that can be wound back),
so a search can take a step back exactly; the kits offer them as ``FastPlayouts``
(``plyscope.engine.kits.base.FastPlayouts``: ``Connect4Playouts``, ``ChancePlayouts``), which Monte Carlo search
calls where a game's kit offers them.

* ``connect4_playout`` plays on the two raw Python-int bitboards of a Connect Four position (no ``State`` objects),
  any board size, one draw per move, ``legal_moves()[int(r * count)]`` as a playout through ``State`` picks, so it
  plays the same game from the same draws.
* ``Connect4Batch`` plays ``count`` games at once as numpy ``uint64`` arrays in Pons' layout, every unfinished board
  advancing one random legal move per numpy step.  One ``uint64`` holds ``width * (height + 1)`` bits, so it serves
  boards up to 64 bits (7x6 takes 49, 8x7 exactly 64); larger boards (up to 10x10, 110 bits) are played by
  ``connect4_playout`` one game at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from plyscope.engine.games.base import Draws, Player, State, is_chance
from plyscope.engine.games.chance import Connect4Chance, Connect4ChanceState
from plyscope.engine.games.connect4 import Bitboard, Connect4, Connect4State

if TYPE_CHECKING:
    # numpy is imported where it is used: the explorer starts without it (about 0.15 s of CPU a session)
    import numpy as np
    import numpy.typing as npt


@cache
def _legal_columns(game: Connect4) -> dict[Bitboard, tuple[int, ...]]:
    """The open columns, left to right, for every set of full columns (keyed by the board's top-row stones)."""
    table: dict[Bitboard, tuple[int, ...]] = {}
    for pattern in range(1 << game.width):
        full = sum(game.top[c] for c in range(game.width) if pattern >> c & 1)
        table[full] = tuple(c for c in range(game.width) if not pattern >> c & 1)
    return table


@cache
def _legal_bottoms(game: Connect4) -> dict[Bitboard, tuple[Bitboard, ...]]:
    """``_legal_columns`` with each open column given as its bottom cell (``Connect4.bottom``), what a move adds."""
    return {full: tuple(game.bottom[c] for c in columns) for full, columns in _legal_columns(game).items()}


def connect4_playout(state: Connect4State, stream: Draws, chance: Connect4Chance | None = None) -> tuple[Player, int]:
    """One random game from ``state`` on raw bitboards: (winner, moves played); one draw per move.

    With ``chance`` (Connect Four with chance), each disc lands where ``chance.landing`` puts it for one
    more draw; moves played count the discs dropped."""
    if state.is_terminal():
        return state.utility(), 0
    game = state.game
    top_row = game.top_row
    s1, s2, s3, s4 = game.shifts
    d1, d2, d3, d4 = 2 * s1, 2 * s2, 2 * s3, 2 * s4
    current, mask, ply = state.current, state.mask, state.ply
    start = ply
    cells = game.cells
    if stream.left() < 2 * cells:
        stream.reserve(2 * cells)  # every draw this game can take (two a move with chance)
    draw = stream.next
    bottoms = _legal_bottoms(game)
    legal = bottoms if chance is None else _legal_columns(game)  # (the columns are read only with chance)
    bottom = game.bottom
    while ply < cells:
        if chance is None:
            moves = bottoms[mask & top_row]
            new_mask = mask | (mask + moves[int(draw() * len(moves))])
        else:
            columns = legal[mask & top_row]
            column = chance.landing(mask, columns[int(draw() * len(columns))], draw())
            new_mask = mask | (mask + bottom[column])
        mover = current | (new_mask ^ mask)
        ply += 1
        pairs = mover & (mover >> s1)
        if pairs & (pairs >> d1):
            break
        pairs = mover & (mover >> s2)
        if pairs & (pairs >> d2):
            break
        pairs = mover & (mover >> s3)
        if pairs & (pairs >> d3):
            break
        pairs = mover & (mover >> s4)
        if pairs & (pairs >> d4):
            break
        current = mover ^ new_mask
        mask = new_mask
    else:
        return 0, ply - start
    return (1 if ply % 2 == 1 else -1), ply - start


@dataclass(frozen=True, slots=True)
class BatchResult:
    """The games of one batch of playouts."""

    winners: npt.NDArray[np.int8]
    """Per game: +1 first player won, -1 second player won, 0 draw."""
    moves: int
    """Moves played in all the games together."""
    columns: npt.NDArray[np.int8] | None = None
    """If recorded: ``columns[game, i]`` is the i-th column played in that game, -1 once it is over."""


def batch_fits(game: Connect4) -> bool:
    """Whether ``game``'s boards fit one ``uint64`` (``width * (height + 1) <= 64``) for ``Connect4Batch``."""
    return game.width * game.column_bits <= 64


class Connect4Batch:
    """Vectorised random playouts of one Connect Four size: a batch of boards as ``uint64`` arrays.

    Each numpy step moves every unfinished board once: the open columns are those whose
    top cell is empty; each board takes the column with the largest of ``width`` uniform
    floats among its open ones (a uniform choice); the stone lands where Pons' ``mask |
    (mask + bottom[col])`` puts it; four in a row is found with the four shifts; boards
    that are won drop out of the arrays.  All boards start from the same
    position and move in lockstep, so every board still playing has the same player to
    move and the same number of stones: the board is full for all of them at once.
    """

    def __init__(self, game: Connect4) -> None:
        if not batch_fits(game):
            raise ValueError(f"{game.width}x{game.height} boards take more than 64 bits")
        import numpy as np

        self.game = game
        self.top = np.array(game.top, dtype=np.uint64)
        self.bottom = np.array(game.bottom, dtype=np.uint64)
        self.shifts = np.array(game.shifts, dtype=np.uint64)[:, np.newaxis]
        self.double_shifts = 2 * self.shifts

    def run(
        self, state: Connect4State, count: int, generator: np.random.Generator | Draws, *, record: bool = False
    ) -> BatchResult:
        """``count`` random games from ``state``, drawing from ``generator`` (``len(boards) * width`` floats a
        numpy step, row by row; from a stream, straight from its numpy generator, then skipped); with ``record``,
        the columns each game played."""
        import numpy as np

        if not isinstance(generator, np.random.Generator):
            result = self.run(state, count, generator.numpy(), record=record)
            generator.skip(result.moves * self.game.width)  # every move took a row of ``width`` floats
            return result

        game = self.game
        winners = np.zeros(count, dtype=np.int8)
        steps = game.cells - state.ply
        columns = np.full((count, steps), -1, dtype=np.int8) if record else None
        if state.is_terminal():
            winners[:] = state.utility()
            return BatchResult(winners, 0, columns)
        current = np.full(count, state.current, dtype=np.uint64)
        mask = np.full(count, state.mask, dtype=np.uint64)
        playing = np.arange(count)  # the original index of each board still in the arrays
        mover: Player = state.player
        moves = 0
        for step in range(steps):
            choice = generator.random((len(mask), game.width))
            choice -= mask[:, np.newaxis] & self.top  # a full column's top bit (>= 8) sinks it below 0
            column = choice.argmax(axis=1)
            if columns is not None:
                columns[playing, step] = column
            waiting = current ^ mask  # the stones of the player not moving now, who moves next
            mask = mask | (mask + self.bottom[column])
            stones = mask ^ waiting  # the mover's stones, new one included
            moves += len(mask)
            pairs = stones & (stones >> self.shifts)
            won = (pairs & (pairs >> self.double_shifts)).any(axis=0)
            current = waiting
            if won.any():
                winners[playing[won]] = mover
                going_on = ~won
                current, mask, playing = current[going_on], mask[going_on], playing[going_on]
                if not len(playing):
                    break
            mover = -mover
        return BatchResult(winners, moves, columns)


@cache
def connect4_batch(game: Connect4) -> Connect4Batch:
    """The (shared) batch player for ``game``'s board size."""
    return Connect4Batch(game)


class Connect4Playouts:
    """Connect Four's fast playouts (``plyscope.engine.kits.base.FastPlayouts``): on bitboards, batched where the
    board fits a ``uint64``."""

    def one(self, state: State, draws: Draws) -> tuple[Player, int]:
        assert isinstance(state, Connect4State)
        return connect4_playout(state, draws)

    def many(self, state: State, count: int, draws: Draws) -> tuple[npt.NDArray[np.int8], int] | None:
        assert isinstance(state, Connect4State)
        if not batch_fits(state.game):
            return None
        batch = connect4_batch(state.game).run(state, count, draws)
        return batch.winners, batch.moves


class ChancePlayouts:
    """Connect Four with chance's fast playouts, one at a time on bitboards (each disc landing as
    ``Connect4Chance.landing`` puts it): a disc in the air lands first, then the game plays on."""

    def one(self, state: State, draws: Draws) -> tuple[Player, int]:
        if is_chance(state):
            landed = state.play(state.outcome_for(draws.draw()))
            assert isinstance(landed, Connect4ChanceState)
            winner, played = connect4_playout(landed.board, draws, landed.game)
            return winner, played + 1
        assert isinstance(state, Connect4ChanceState)
        return connect4_playout(state.board, draws, state.game)

    def many(self, state: State, count: int, draws: Draws) -> tuple[npt.NDArray[np.int8], int] | None:
        return None
