"""Connect Four and its static evaluators compiled by numba, for the compiled searchers.

A position is two ``int64`` bitboards in Pons' layout (``plyscope.engine.games.connect4``): ``current``, the
stones of the player to move, and ``mask``, every stone; its ply is its stone count.  ``geometry(game)`` packs a
board's constants into one array, ``evaluator_code(evaluator)`` an evaluator into another, or says that it has no
compiled twin.  Every value here is the Python evaluator's, to the last bit, from the **first player's** point of
view: the tests compare them on random positions.  Boards of at most ``NATIVE_MAX_BITS`` bits only (7x6 and most
others), as the solver's compiled kernel: every right shift then stays on a non-negative ``int64``, and what a
left shift pushes past the board is masked away.
"""

from __future__ import annotations

import math
from typing import cast

import numpy as np
from numba import njit

from plyscope.engine.games.base import Game
from plyscope.engine.games.connect4 import Connect4
from plyscope.engine.games.evaluators import (
    EXP_STRETCH,
    PLY_SCALE,
    Evaluator,
    FeatureEvaluator,
    NeutralEvaluator,
    RivestEvaluator,
    ThreatEvaluator,
    TransformedEvaluator,
    _segment_starts,
    line_masks,
)
from plyscope.engine.solver.kernel import native_fits

# Indices into the ``geometry`` array.
WIDTH, HEIGHT, CELLS, BOARD, BOTTOM, ODD_ROWS, CENTRE = range(7)
SHIFT = 7
"""``geometry[SHIFT + k]``: the bit distance of direction ``k`` (vertical, a diagonal, horizontal, the other)."""
VALID = 11
"""``geometry[VALID + k]``: the cells where a line of four of direction ``k`` starts on the board."""
GEOMETRY_SIZE = 15

# Indices into the ``evaluation`` array.
KIND, TRANSFORM, LO, HI, SLOPE, OFFSET = range(6)
WEIGHTS = 6
"""``evaluation[WEIGHTS + k]``: the weight of ``FEATURES[k]`` (``eval=features``)."""
EVALUATION_SIZE = WEIGHTS + 8
RIVEST, THREATS, FEATURES, NEUTRAL = range(4)
"""Evaluator kinds."""
IDENTITY, AFFINE, CUBE, EXP, LOG = range(5)
"""Transforms (``plyscope.engine.games.evaluators.Transform``)."""
KINDS = {RivestEvaluator: RIVEST, ThreatEvaluator: THREATS, FeatureEvaluator: FEATURES, NeutralEvaluator: NEUTRAL}
TRANSFORMS = {"identity": IDENTITY, "affine": AFFINE, "cube": CUBE, "exp": EXP, "log": LOG}


def geometry(game: Connect4) -> np.ndarray:
    """``game``'s constants for the compiled code (indices above); ``game`` must fit (``compiled_fits``)."""
    values = np.zeros(GEOMETRY_SIZE, dtype=np.int64)
    values[WIDTH], values[HEIGHT], values[CELLS] = game.width, game.height, game.cells
    values[BOARD], values[BOTTOM] = game.board_mask, game.bottom_mask
    odd_rows = 0
    for row in range(0, game.height, 2):
        odd_rows |= game.bottom_mask << row
    values[ODD_ROWS] = odd_rows
    centre = game.column_mask[game.width // 2]
    if game.width % 2 == 0:
        centre |= game.column_mask[game.width // 2 - 1]
    values[CENTRE] = centre
    for k, (shift, valid) in enumerate(_segment_starts(game)):
        values[SHIFT + k] = shift
        values[VALID + k] = valid
    return values


KIT = "connect4"
"""The game kit the compiled searchers play (``plyscope.engine.kits``): Connect Four, on the boards that fit."""


def compiled_fits(game: Game) -> bool:
    """Whether the compiled searchers play ``game``: a game of ``KIT`` (Connect Four) on a board of at most
    ``NATIVE_MAX_BITS`` bits."""
    return game.kit == KIT and native_fits(cast(Connect4, game))


def evaluator_code(evaluator: Evaluator) -> np.ndarray | None:
    """``evaluator`` for the compiled code (indices above), or ``None`` if it has no compiled twin."""
    values = np.zeros(EVALUATION_SIZE, dtype=np.float64)
    inner = evaluator
    values[TRANSFORM] = IDENTITY
    if isinstance(evaluator, TransformedEvaluator):
        inner = evaluator.inner
        values[TRANSFORM] = TRANSFORMS[evaluator.transform.name]
        values[SLOPE], values[OFFSET] = evaluator.transform.a, evaluator.transform.b
    kind = KINDS.get(type(inner))
    if kind is None:
        return None
    values[KIND] = kind
    values[LO], values[HI] = inner.lo, inner.hi
    if isinstance(inner, FeatureEvaluator):
        values[WEIGHTS : WEIGHTS + 8] = inner.weights
    return values


@njit(cache=True, nogil=True)
def popcount(x: int) -> int:
    """The set bits of the non-negative ``x``."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=True, nogil=True)
def won(stones: int, g: np.ndarray) -> bool:
    """Whether ``stones`` hold four in a row."""
    for k in range(4):
        shift = g[SHIFT + k]
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


@njit(cache=True, nogil=True)
def drop(current: int, mask: int, column: int, g: np.ndarray) -> tuple[int, int, int]:
    """The position after the player to move drops a stone in ``column``: ``(current, mask, winner)``, the new
    ``current`` the opponent's stones, ``winner`` (first player's view) +1 or -1 for a win, 0 a draw, 2 none yet;
    the ply of the position played from is the stone count of ``mask``, so the mover is known from it."""
    new_mask = mask | (mask + (1 << (column * (g[HEIGHT] + 1))))
    mover = current | (new_mask ^ mask)
    ply = popcount(new_mask)
    winner = 2
    if won(mover, g):
        winner = 1 if ply % 2 == 1 else -1
    elif ply == g[CELLS]:
        winner = 0
    return mover ^ new_mask, new_mask, winner


@njit(cache=True, nogil=True)
def playable(mask: int, column: int, g: np.ndarray) -> bool:
    """Whether ``column`` has room."""
    return not (mask >> (g[HEIGHT] - 1 + column * (g[HEIGHT] + 1))) & 1


@njit(cache=True, nogil=True)
def legal_moves(mask: int, winner: int, g: np.ndarray, out: np.ndarray) -> int:
    """The columns with room, left to right, written to ``out``; their number (0 once the game is over)."""
    if winner != 2:
        return 0
    count = 0
    for column in range(g[WIDTH]):
        if playable(mask, column, g):
            out[count] = column
            count += 1
    return count


@njit(cache=True, nogil=True)
def winning_cells(stones: int, mask: int, g: np.ndarray) -> int:
    """``Connect4.winning_cells``: empty cells that would complete four in a row for ``stones``."""
    found = (stones << 1) & (stones << 2) & (stones << 3)
    for k in range(1, 4):
        shift = g[SHIFT + k]
        pairs = (stones << shift) & (stones << (2 * shift))
        found |= pairs & (stones << (3 * shift))
        found |= pairs & (stones >> shift)
        pairs = (stones >> shift) & (stones >> (2 * shift))
        found |= pairs & (stones << shift)
        found |= pairs & (stones >> (3 * shift))
    return int(found & (g[BOARD] ^ mask))


_line_masks = njit(cache=True, nogil=True)(line_masks)
"""``plyscope.engine.games.evaluators.line_masks``, compiled."""


@njit(cache=True, nogil=True)
def line_counts(own: int, other: int, g: np.ndarray) -> tuple[int, int, int]:
    """How many lines of four hold exactly 1, 2 and 3 of ``own``'s stones and none of ``other``'s (``line_masks``
    in each direction)."""
    ones = 0
    twos = 0
    threes = 0
    for k in range(4):
        one, two, three = _line_masks(own, other, g[SHIFT + k], g[VALID + k])
        ones += popcount(one)
        twos += popcount(two)
        threes += popcount(three)
    return ones, twos, threes


@njit(cache=True, nogil=True)
def _rivest(current: int, mask: int, ply: int, g: np.ndarray) -> float:
    """``RivestEvaluator`` of an open position."""
    own = current
    other = current ^ mask
    own1, own2, own3 = line_counts(own, other, g)
    other1, other2, other3 = line_counts(other, own, g)
    mover_score = (own1 + own3 - other1 - other3) + 10 * (own2 + own3 - other2 - other3) + 39 * (own3 - other3)
    value = 528 + mover_score if ply % 2 == 0 else 496 - mover_score
    return float(min(1022, max(2, value)))


@njit(cache=True, nogil=True)
def _threat_score(threats: int, good_rows: int) -> int:
    return 40 * popcount(threats & good_rows) + 20 * popcount(threats & ~good_rows)


@njit(cache=True, nogil=True)
def _threats(current: int, mask: int, ply: int, g: np.ndarray) -> float:
    """``ThreatEvaluator`` of an open position."""
    first = current if ply % 2 == 0 else current ^ mask
    second = mask ^ first
    first_threats = winning_cells(first, mask, g)
    second_threats = winning_cells(second, mask, g)
    can_play = (mask + g[BOTTOM]) & g[BOARD]
    player = 1 if ply % 2 == 0 else -1
    mover_threats = first_threats if player == 1 else second_threats
    if mover_threats & can_play:
        return float(player * 900)
    _, f2, f3 = line_counts(first, second, g)
    _, s2, s3 = line_counts(second, first, g)
    value = 4 * (f2 - s2) + 16 * (f3 - s3)
    centre = g[CENTRE]
    value += 3 * (popcount(first & centre) - popcount(second & centre))
    value += _threat_score(first_threats & ~(second_threats << 1), g[ODD_ROWS])
    value -= _threat_score(second_threats & ~(first_threats << 1), g[BOARD] ^ g[ODD_ROWS])
    return float(max(-800, min(800, value)))


@njit(cache=True, nogil=True)
def _features(current: int, mask: int, ply: int, g: np.ndarray, e: np.ndarray) -> float:
    """``FeatureEvaluator`` of an open position."""
    first = current if ply % 2 == 0 else current ^ mask
    second = mask ^ first
    _, first2, first3 = line_counts(first, second, g)
    _, second2, second3 = line_counts(second, first, g)
    twos = first2 - second2
    threes = first3 - second3
    centre = g[CENTRE]
    centre_stones = popcount(first & centre) - popcount(second & centre)
    first_threats = winning_cells(first, mask, g)
    second_threats = winning_cells(second, mask, g)
    odd = g[ODD_ROWS]
    even = g[BOARD] ^ odd
    parity = popcount(first_threats & odd) - popcount(second_threats & even)
    other = popcount(first_threats & even) - popcount(second_threats & odd)
    can_play = (mask + g[BOTTOM]) & g[BOARD]
    first_playable = first_threats & can_play
    second_playable = second_threats & can_play
    playable_threats = popcount(first_playable) - popcount(second_playable)
    if ply % 2 == 0:
        tempo = 1
        win_next = 1 if first_playable else 0
    else:
        tempo = -1
        win_next = -1 if second_playable else 0
    w = WEIGHTS
    value = (
        e[w] * twos
        + e[w + 1] * threes
        + e[w + 2] * centre_stones
        + e[w + 3] * parity
        + e[w + 4] * other
        + e[w + 5] * playable_threats
        + e[w + 6] * win_next
        + e[w + 7] * tempo
    )
    return float(max(-800.0, min(800.0, value)))


@njit(cache=True, nogil=True)
def _untransformed(current: int, mask: int, ply: int, winner: int, g: np.ndarray, e: np.ndarray) -> float:
    """The inner evaluator's value of the position (``winner`` as ``drop`` gives it)."""
    kind = int(e[KIND])
    if kind in (RIVEST, NEUTRAL):
        if winner == 0:
            return 512.0
        if winner == 1:
            return 1023.0 - ply / PLY_SCALE
        if winner == -1:
            return 1.0 + ply / PLY_SCALE
        return _rivest(current, mask, ply, g) if kind == RIVEST else 512.0
    if winner != 2:
        return float(winner * (1000 - ply))
    if kind == THREATS:
        return _threats(current, mask, ply, g)
    return _features(current, mask, ply, g, e)


@njit(cache=True, nogil=True)
def evaluate(current: int, mask: int, ply: int, winner: int, g: np.ndarray, e: np.ndarray) -> float:
    """The evaluator ``e``'s value of the position, first player's point of view."""
    x = _untransformed(current, mask, ply, winner, g, e)
    transform = int(e[TRANSFORM])
    if transform == IDENTITY:
        return x
    if transform == AFFINE:
        return float(e[SLOPE] * x + e[OFFSET])
    lo = e[LO]
    hi = e[HI]
    u = (x - lo) / (hi - lo)
    if transform == CUBE:
        h = (math.pow(2 * u - 1, 3.0) + 1) / 2
    elif transform == EXP:
        h = math.expm1(EXP_STRETCH * u) / math.expm1(EXP_STRETCH)
    else:
        h = math.log1p(math.expm1(EXP_STRETCH) * u) / EXP_STRETCH
    return float(lo + (hi - lo) * h)
