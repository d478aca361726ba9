"""Static evaluators, kept apart from the game states.

Every evaluator scores a position from the **first player's** point of view (the first
player is MAX) and handles terminal positions too.  ``lo`` and ``hi`` bound every value it
returns: ``hi`` means "the first player has won", ``lo`` "the second player has won".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from engine.games.base import Game, PositionError, State
from engine.games.connect4 import Bitboard, Connect4, Connect4State


class Evaluator(Protocol):
    """A static evaluation function with a stated range."""

    name: str
    lo: float
    """The value of a won game for the second player (the least any position scores)."""
    hi: float
    """The value of a won game for the first player (the most any position scores)."""

    def __call__(self, state: State) -> float: ...


def _segment_starts(game: Connect4) -> tuple[tuple[int, Bitboard], ...]:
    """For each direction, its bit shift and the cells where a line of four on the board starts."""
    board = game.board_mask
    return tuple(
        (shift, board & (board >> shift) & (board >> 2 * shift) & (board >> 3 * shift)) for shift in game.shifts
    )


def _line_counts(own: Bitboard, other: Bitboard, starts: tuple[tuple[int, Bitboard], ...]) -> tuple[int, int, int]:
    """How many lines of four hold exactly 1, 2 and 3 of ``own``'s stones and none of ``other``'s.

    Bit-parallel: for each direction, the four cells of every line are added up as bits.
    """
    ones = twos = threes = 0
    for shift, valid in starts:
        a = own
        b = own >> shift
        c = own >> 2 * shift
        d = own >> 3 * shift
        blocked = other | (other >> shift) | (other >> 2 * shift) | (other >> 3 * shift)
        open_lines = valid & ~blocked
        low1 = a ^ b
        high1 = a & b
        low2 = c ^ d
        high2 = c & d
        bit0 = low1 ^ low2
        bit1 = high1 ^ high2 ^ (low1 & low2)
        ones += (open_lines & bit0 & ~bit1).bit_count()
        twos += (open_lines & bit1 & ~bit0).bit_count()
        threes += (open_lines & bit0 & bit1).bit_count()
    return ones, twos, threes


class RivestEvaluator:
    """Rivest's Connect Four evaluator (AI 34, 1988, section 5.2): values 1..1023.

    1023 = first player ("Black") has won, 1 = second player ("Red") has won, 512 = draw.
    Otherwise 512, plus 16 if Black is to move (minus 16 if Red), plus for each of the
    lines of four (69 on 7x6) holding only Black stones 1, 10 or 50 for 1, 2 or 3 stones,
    minus the same for Red-only lines; clamped to 2..1022.

    Bit-parallel over all four directions at once: one integer holds four lanes, one per
    direction, each wide enough for the board shifted by up to three steps.  Multiplying a
    player's stones by ``_cell_multipliers[j]`` puts, in each lane, the ``j``-th cell of
    every line of that direction on the line's start cell; adding the four up bit by bit
    gives every line's stone count.  (A line holding four stones is a win, handled first.)
    """

    name = "rivest"
    lo = 1.0
    hi = 1023.0

    def __init__(self, game: Connect4) -> None:
        self.game = game
        reach = 3 * max(game.shifts)  # room in each lane for the cells a line reaches: three longest shifts
        lane = game.width * game.column_bits + reach
        self._cell_multipliers = tuple(
            sum(1 << (lane * k + reach - j * shift) for k, shift in enumerate(game.shifts)) for j in range(4)
        )
        self._line_starts = sum(valid << (lane * k + reach) for k, (_, valid) in enumerate(_segment_starts(game)))
        """Start cells of the lines of four on the board, in each direction's lane."""

    def __call__(self, state: State) -> float:
        assert isinstance(state, Connect4State)
        winner = state.winner()
        if winner is not None:
            return 512.0 + 511.0 * winner
        m0, m1, m2, m3 = self._cell_multipliers
        starts = self._line_starts
        own = state.current
        other = own ^ state.mask
        a, b, c, d = own * m0, own * m1, own * m2, own * m3
        e, f, g, h = other * m0, other * m1, other * m2, other * m3
        own_lines = starts & ~(e | f | g | h)
        other_lines = starts & ~(a | b | c | d)
        # Stone counts of each line, bit 0 and bit 1 (counts go up to 3).
        low_ab, low_cd = a ^ b, c ^ d
        own_bit0 = low_ab ^ low_cd
        own_bit1 = (a & b) ^ (c & d) ^ (low_ab & low_cd)
        low_ef, low_gh = e ^ f, g ^ h
        other_bit0 = low_ef ^ low_gh
        other_bit1 = (e & f) ^ (g & h) ^ (low_ef & low_gh)
        own_odd = own_lines & own_bit0
        other_odd = other_lines & other_bit0
        # Score per line 1, 10, 50 for 1, 2, 3 stones = bit0 + 10 * bit1 + 39 * (bit0 and bit1).
        mover_score = (
            own_odd.bit_count() - other_odd.bit_count()
            + 10 * ((own_lines & own_bit1).bit_count() - (other_lines & other_bit1).bit_count())
            + 39 * ((own_odd & own_bit1).bit_count() - (other_odd & other_bit1).bit_count())
        )
        value = 528 + mover_score if state.ply % 2 == 0 else 496 - mover_score
        return float(min(1022, max(2, value)))


class ThreatEvaluator:
    """A threat-aware Connect Four heuristic for depth-limited search, in -1000..1000.

    A won game scores ``±(1000 - ply)``, so quicker wins score higher.  Otherwise the sum
    of: a win next move for the side to move (±900, it cannot be stopped); open lines of
    four holding 2 or 3 stones (4 and 16 each); threats (empty cells completing a four),
    worth 40 on rows that favour their owner under zugzwang (odd rows, counted from 1 at
    the bottom, for the first player; even rows for the second) and 20 elsewhere, 0 if the
    cell right below is the opponent's own threat; and 3 per stone in the centre column.
    """

    name = "threats"
    lo = -1000.0
    hi = 1000.0

    def __init__(self, game: Connect4) -> None:
        self.game = game
        self._starts = _segment_starts(game)
        odd_rows = 0
        for row in range(0, game.height, 2):
            odd_rows |= game.bottom_mask << row
        self._odd_rows = odd_rows
        self._centre = game.column_mask[game.width // 2]
        if game.width % 2 == 0:
            self._centre |= game.column_mask[game.width // 2 - 1]

    def __call__(self, state: State) -> float:
        assert isinstance(state, Connect4State)
        winner = state.winner()
        if winner is not None:
            return float(winner * (1000 - state.ply))
        game = self.game
        mask = state.mask
        first = state.stones(1)
        second = mask ^ first
        first_threats = game.winning_cells(first, mask)
        second_threats = game.winning_cells(second, mask)
        playable = (mask + game.bottom_mask) & game.board_mask
        mover_threats = first_threats if state.player == 1 else second_threats
        if mover_threats & playable:
            return float(state.player * 900)
        _, f2, f3 = _line_counts(first, second, self._starts)
        _, s2, s3 = _line_counts(second, first, self._starts)
        value = 4 * (f2 - s2) + 16 * (f3 - s3)
        value += 3 * ((first & self._centre).bit_count() - (second & self._centre).bit_count())
        value += self._threat_score(first_threats & ~(second_threats << 1), self._odd_rows)
        value -= self._threat_score(second_threats & ~(first_threats << 1), game.board_mask ^ self._odd_rows)
        return float(max(-800, min(800, value)))

    @staticmethod
    def _threat_score(threats: Bitboard, good_rows: Bitboard) -> int:
        return 40 * (threats & good_rows).bit_count() + 20 * (threats & ~good_rows).bit_count()


class NeutralEvaluator:
    """Knows only the rules: won, lost or drawn at the end, ``mid`` before it.

    For games with no heuristic (the Nim family); values 1..1023 like Rivest's so that the
    generalized means of the min/max approximation stay positive.
    """

    name = "neutral"
    lo = 1.0
    hi = 1023.0

    def __call__(self, state: State) -> float:
        winner = state.winner()
        return 512.0 if winner is None else 512.0 + 511.0 * winner


EVALUATORS: dict[str, str] = {
    "rivest": "Rivest's 1988 Connect Four evaluator, values 1..1023",
    "threats": "threat-aware Connect Four heuristic, values -1000..1000",
    "neutral": "rules only: win, loss or draw at the end, 512 before it",
}


def make_evaluator(name: str, game: Game) -> Evaluator:
    """The evaluator ``name`` for ``game``; raises ``PositionError`` if it does not fit the game."""
    factories: dict[str, Callable[[], Evaluator]] = {"neutral": NeutralEvaluator}
    if isinstance(game, Connect4):
        factories["rivest"] = lambda: RivestEvaluator(game)
        factories["threats"] = lambda: ThreatEvaluator(game)
    if name not in factories:
        raise PositionError(
            f"evaluator '{name}' does not fit {game.name}: choose {' or '.join(sorted(factories))}"
        )
    return factories[name]()


def default_evaluator(game: Game) -> str:
    """The evaluator a searcher uses unless told otherwise: Rivest's for Connect Four."""
    return "rivest" if isinstance(game, Connect4) else "neutral"
