"""Static evaluators, kept apart from the game states.

Every evaluator scores a position from the **first player's** point of view (the first
player is MAX) and handles terminal positions too, a finished game's value carrying its
length (a quicker win, or a slower loss, is worth more: ``finished_on_rivest_scale``, and
``±(1000 - ply)`` for the threat and feature evaluators).  ``lo`` and ``hi`` bound every value
it returns: near ``hi``, "the first player has won", near ``lo``, "the second player has won".

The evaluators here are Rivest's, the threat heuristic, the weighted features (``FeatureEvaluator``,
whose weights come from ``parse_weights``: hand-set, ``NAME:VALUE`` pairs or a weights file), the
neutral one and a hand-written tree's own values; on Connect Four with chance a board evaluator
values each position by its board (``ChanceBoardEvaluator``).  A game's kit names the ones that fit
it (``plyscope.engine.kits.evaluation.make_evaluator`` builds one by name), and ``transformed``
passes its values through a strictly increasing ``Transform`` (``TRANSFORMS``).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Protocol

from plyscope.engine.errors import UserError
from plyscope.engine.files import FileRefused, NotJson, parse_json, read_regular_file, write_atomic
from plyscope.engine.games.base import State
from plyscope.engine.games.chance import ChanceDrop, Connect4ChanceState, connect4_grid
from plyscope.engine.games.connect4 import Bitboard, Connect4, Connect4State
from plyscope.engine.games.tree import TreeGame, TreeState
from plyscope.engine.numbers import NumberError, parse_float, shown


class Evaluator(Protocol):
    """A static evaluation function with a stated range."""

    name: str
    lo: float
    """The least any position scores (a game the second player won at its first ply would)."""
    hi: float
    """The most any position scores (a game the first player won at its first ply would)."""

    def __call__(self, state: State) -> float: ...


def _segment_starts(game: Connect4) -> tuple[tuple[int, Bitboard], ...]:
    """For each direction, its bit shift and the cells where a line of four on the board starts."""
    board = game.board_mask
    return tuple(
        (shift, board & (board >> shift) & (board >> 2 * shift) & (board >> 3 * shift)) for shift in game.shifts
    )


def line_masks(own: Bitboard, other: Bitboard, shift: int, valid: Bitboard) -> tuple[Bitboard, Bitboard, Bitboard]:
    """The lines of four in one direction (``shift``; ``valid``: the cells where such a line starts on the board) that
    hold exactly 1, 2 and 3 of ``own``'s stones and none of ``other``'s, by their start cells.

    Bit-parallel: the four cells of every line are added up as bits.  The compiled searchers' evaluators run this
    very function, compiled (``plyscope.engine.compiled.board``)."""
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
    return open_lines & bit0 & ~bit1, open_lines & bit1 & ~bit0, open_lines & bit0 & bit1


def _line_counts(own: Bitboard, other: Bitboard, starts: tuple[tuple[int, Bitboard], ...]) -> tuple[int, int, int]:
    """How many lines of four hold exactly 1, 2 and 3 of ``own``'s stones and none of ``other``'s (``line_masks`` in
    each direction of ``starts``)."""
    ones = twos = threes = 0
    for shift, valid in starts:
        one, two, three = line_masks(own, other, shift, valid)
        ones += one.bit_count()
        twos += two.bit_count()
        threes += three.bit_count()
    return ones, twos, threes


def _lanes(game: Connect4) -> tuple[tuple[int, int, int, int], int]:
    """The lanes that count every line of four's stones at once (see ``RivestEvaluator``).

    Returns the four cell multipliers (stones times the ``j``-th puts, in each direction's
    lane, the ``j``-th cell of every line on the line's start cell) and the start cells of
    the lines of four on the board, in each direction's lane.
    """
    reach = 3 * max(game.shifts)  # room in each lane for the cells a line reaches: three longest shifts
    lane = game.width * game.column_bits + reach
    m0, m1, m2, m3 = (sum(1 << (lane * k + reach - j * shift) for k, shift in enumerate(game.shifts)) for j in range(4))
    starts = sum(valid << (lane * k + reach) for k, (_, valid) in enumerate(_segment_starts(game)))
    return (m0, m1, m2, m3), starts


PLY_SCALE = 1000
"""A ply takes ``1 / PLY_SCALE`` off a finished game's value on Rivest's scale (``finished_on_rivest_scale``)."""


def finished_on_rivest_scale(winner: int, ply: int) -> float:
    """A finished game on Rivest's 1..1023 scale (first player's point of view): 512 for a draw, and a win
    ``1023 - ply / 1000`` for the first player (``winner`` +1), ``1 + ply / 1000`` for the second (-1).

    Rivest scores every win 1023 and every loss 1; the thousandths added here make a quicker win and a slower
    loss worth more, as Pons' scores do (Pons 2019, "Solving Connect 4: how to build a perfect AI"), and
    are read off the value (``1.038``: the second player won at ply 38).  They stay outside the open
    positions' 2..1022 for games of up to 999 plies (Connect Four has at most 100) and, for the neutral
    evaluator, outside its 512 for games of up to 510,000 (Nim has at most 32,000).
    """
    if winner == 0:
        return 512.0
    return 1023.0 - ply / PLY_SCALE if winner > 0 else 1.0 + ply / PLY_SCALE


class RivestEvaluator:
    """Rivest's Connect Four evaluator (AI 34, 1988, section 5.2): values 1..1023.

    1023 = first player ("Black") has won, 1 = second player ("Red") has won, 512 = draw; a finished game
    carries its length as thousandths (``finished_on_rivest_scale``: 1022.962 is Black's win at ply 38).
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
        self._cell_multipliers, self._line_starts = _lanes(game)

    def __call__(self, state: State) -> float:
        assert isinstance(state, Connect4State)
        winner = state.winner()
        if winner is not None:
            return finished_on_rivest_scale(winner, state.ply)
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
            own_odd.bit_count()
            - other_odd.bit_count()
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


@dataclass(frozen=True, slots=True)
class Feature:
    """One feature of ``FeatureEvaluator``: its name, its hand-set weight and what it counts."""

    name: str
    weight: float
    """The hand-set weight, in hundredths of a logit of the first player's expected score."""
    counts: str


FEATURES: tuple[Feature, ...] = (
    Feature("twos", 4.0, "open lines of four (no stone of the other side) holding two of a side's stones"),
    Feature("threes", 15.0, "open lines of four holding three of a side's stones"),
    Feature("centre", 4.0, "stones in the centre column (both middle columns on an even width)"),
    Feature(
        "parity_threats",
        40.0,
        "threats (empty cells that complete a four) on the rows zugzwang gives "
        "their owner: odd rows (1 = bottom) for the first player, even rows for the second",
    ),
    Feature("other_threats", 15.0, "threats on the other rows"),
    Feature("playable_threats", 25.0, "threats that can be played now (the cell below is filled)"),
    Feature(
        "win_next",
        500.0,
        "+1 when the first player is to move and has a playable threat (wins next move), -1 when the second player is",
    ),
    Feature("tempo", 10.0, "+1 when the first player is to move, -1 when the second is"),
)
"""The features of ``eval=features``.  Every count is the first player's minus the second player's
(``win_next`` and ``tempo`` are already signed), so each feature is from the first player's point of view."""
FEATURE_NAMES = tuple(feature.name for feature in FEATURES)
HAND_SET_WEIGHTS = tuple(feature.weight for feature in FEATURES)
FEATURE_SCALE = 100.0
"""``FeatureEvaluator`` values are this many times the logit of the first player's expected score
(``plyscope tune`` fits the weights on that scale): 100 is a 73% expected score, -200 is 12%."""
FEATURE_CLAMP = 800.0
"""Open positions score within +-800 (an expected score within 0.03% of certain); won games +-(1000 - ply)."""


class FeatureEvaluator:
    """A weighted linear sum of Connect Four features (``FEATURES``), in -1000..1000.

    ``value = sum of weight x feature`` over ``FEATURES``, clamped to +-``FEATURE_CLAMP``; a won game
    scores ``+-(1000 - ply)`` (quicker wins higher), a drawn one 0.  The weights are on the scale
    of ``FEATURE_SCALE``: ``value / 100`` is meant as the logit of the first player's expected score
    (win 1, draw 1/2), which is what ``plyscope tune`` fits.  Bit-parallel: the line counts come from
    the lanes of ``RivestEvaluator``, the threats from ``Connect4.winning_cells``.
    """

    name = "features"
    lo = -1000.0
    hi = 1000.0

    def __init__(self, game: Connect4, weights: Sequence[float] = HAND_SET_WEIGHTS) -> None:
        if len(weights) != len(FEATURES):
            raise ValueError(f"{len(FEATURES)} weights needed, not {len(weights)}")
        self.game = game
        self.weights = tuple(float(w) for w in weights)
        """One weight per feature, in the order of ``FEATURES``."""
        self._cell_multipliers, self._line_starts = _lanes(game)
        odd_rows = 0
        for row in range(0, game.height, 2):
            odd_rows |= game.bottom_mask << row
        self._odd_rows = odd_rows
        """Rows 1, 3, 5... counted from 1 at the bottom."""
        self._even_rows = game.board_mask ^ odd_rows
        centre = game.column_mask[game.width // 2]
        if game.width % 2 == 0:
            centre |= game.column_mask[game.width // 2 - 1]
        self._centre = centre

    def features(self, state: Connect4State) -> tuple[int, ...]:
        """The feature values of the open position ``state``, in the order of ``FEATURES``."""
        game = self.game
        mask = state.mask
        first = state.current if state.ply % 2 == 0 else state.current ^ mask
        second = mask ^ first
        m0, m1, m2, m3 = self._cell_multipliers
        starts = self._line_starts
        a, b, c, d = first * m0, first * m1, first * m2, first * m3
        e, f, g, h = second * m0, second * m1, second * m2, second * m3
        first_lines = starts & ~(e | f | g | h)
        second_lines = starts & ~(a | b | c | d)
        # Stone counts of each line, bit 0 and bit 1: two stones is bit 1 alone, three both bits.
        low_ab, low_cd = a ^ b, c ^ d
        first_bit0 = low_ab ^ low_cd
        first_bit1 = (a & b) ^ (c & d) ^ (low_ab & low_cd)
        low_ef, low_gh = e ^ f, g ^ h
        second_bit0 = low_ef ^ low_gh
        second_bit1 = (e & f) ^ (g & h) ^ (low_ef & low_gh)
        first_pairs = first_lines & first_bit1
        second_pairs = second_lines & second_bit1
        twos = (first_pairs & ~first_bit0).bit_count() - (second_pairs & ~second_bit0).bit_count()
        threes = (first_pairs & first_bit0).bit_count() - (second_pairs & second_bit0).bit_count()
        centre = self._centre
        centre_stones = (first & centre).bit_count() - (second & centre).bit_count()
        first_threats = game.winning_cells(first, mask)
        second_threats = game.winning_cells(second, mask)
        odd, even = self._odd_rows, self._even_rows
        parity = (first_threats & odd).bit_count() - (second_threats & even).bit_count()
        other = (first_threats & even).bit_count() - (second_threats & odd).bit_count()
        playable = (mask + game.bottom_mask) & game.board_mask
        first_playable = first_threats & playable
        second_playable = second_threats & playable
        playable_threats = first_playable.bit_count() - second_playable.bit_count()
        if state.ply % 2 == 0:
            tempo = 1
            win_next = 1 if first_playable else 0
        else:
            tempo = -1
            win_next = -1 if second_playable else 0
        return twos, threes, centre_stones, parity, other, playable_threats, win_next, tempo

    def __call__(self, state: State) -> float:
        assert isinstance(state, Connect4State)
        winner = state.winner()
        if winner is not None:
            return float(winner * (1000 - state.ply)) if winner else 0.0
        f0, f1, f2, f3, f4, f5, f6, f7 = self.features(state)
        w0, w1, w2, w3, w4, w5, w6, w7 = self.weights
        value = w0 * f0 + w1 * f1 + w2 * f2 + w3 * f3 + w4 * f4 + w5 * f5 + w6 * f6 + w7 * f7
        return max(-FEATURE_CLAMP, min(FEATURE_CLAMP, value))


@dataclass(frozen=True, slots=True)
class FeatureTerm:
    """One feature of a position, as an explorer shows it: ``value x weight = contribution``."""

    name: str
    value: int
    """The feature's value (first player's count minus the second's)."""
    weight: float
    contribution: float
    """``value * weight``; the position's evaluation is the sum of the contributions, clamped."""


def feature_terms(state: State, weights: str = "") -> list[FeatureTerm]:
    """The named feature vector of a Connect Four position (or of a chance game's board), with the weights
    the ``weights`` parameter text chooses (``""``: the hand-set ones).  Empty for a finished game."""
    board = connect4_grid(state)
    if board is None:
        raise EvaluatorError(f"features are defined for Connect Four boards only, not for {state.game.name}")
    if board.is_terminal():
        return []
    evaluator = FeatureEvaluator(board.game, parse_weights(weights))
    values = evaluator.features(board)
    return [
        FeatureTerm(feature.name, value, weight, value * weight)
        for feature, value, weight in zip(FEATURES, values, evaluator.weights, strict=True)
    ]


# --- weights ---------------------------------------------------------------------------------

WEIGHTS_FORMAT = "plyscope-weights"
"""The ``format`` field of a weights file."""
MAX_WEIGHTS_FILE_BYTES = 1 << 20
WEIGHTS_NESTING = 3
"""The deepest nesting of a weights file: the document, ``weights`` (or what ``plyscope tune`` records: ``fit``,
``match``), a list in those (an interval); a file nested deeper is refused as it is read."""


class EvaluatorError(UserError):
    """Bad ``weights`` or ``transform`` text, or a weights file that cannot be read; the message says why."""


def parse_weights(text: str) -> tuple[float, ...]:
    """The feature weights the ``weights`` parameter text chooses, in the order of ``FEATURES``.

    * ``""``: the hand-set weights (``FEATURES``);
    * ``NAME:VALUE,NAME:VALUE...`` (e.g. ``threes:20,centre:0``): those features re-weighted, the
      others hand-set;
    * anything else is the path of a weights file (``read_weights_file``).
    """
    text = text.strip()
    if not text:
        return HAND_SET_WEIGHTS
    if re.fullmatch(r"[A-Za-z_]\w*\s*:[^,:]+(\s*,\s*[A-Za-z_]\w*\s*:[^,:]+)*", text):
        chosen: dict[str, object] = {}
        for item in text.split(","):
            name, _, value = item.partition(":")
            chosen[name.strip()] = value.strip()
        return _weights_from(chosen, f"weights '{text}'")
    return read_weights_file(text)


MAX_WEIGHT = 1e6
"""The largest weight a feature may be given (either sign)."""


def _weights_from(chosen: Mapping[str, object], where: str) -> tuple[float, ...]:
    """The hand-set weights with ``chosen`` ones (name -> number or text) put in; raises ``EvaluatorError``."""
    weights = dict(zip(FEATURE_NAMES, HAND_SET_WEIGHTS, strict=True))
    for name, value in chosen.items():
        if name not in weights:
            raise EvaluatorError(f"{where}: no feature '{name}' (features: {', '.join(FEATURE_NAMES)})")
        try:
            if not isinstance(value, int | float | str):
                raise NumberError(f"the weight of {name}: {shown(repr(value))} is not a number")
            number = parse_float(value, f"the weight of {name}", lo=-MAX_WEIGHT, hi=MAX_WEIGHT)
        except NumberError as error:
            raise EvaluatorError(f"{where}: {error}") from None
        weights[name] = number
    return tuple(weights.values())


def read_weights_file(path: str | Path) -> tuple[float, ...]:
    """The weights in the file ``path`` (see ``weights_document``); features it leaves out keep their
    hand-set weights.  Raises ``EvaluatorError`` naming the file and the problem."""
    path = Path(path)
    try:
        stat = path.stat()
    except (OSError, ValueError):  # (ValueError: a NUL in the name)
        raise EvaluatorError(
            f"weights '{path}': no such file (weights are a file or NAME:VALUE pairs such as threes:20,centre:0)"
        ) from None
    return _read_weights(path.resolve(), stat.st_mtime_ns, stat.st_size)


@cache
def _read_weights(path: Path, mtime_ns: int, size: int) -> tuple[float, ...]:
    """The weights of the file ``path`` as it was at ``mtime_ns`` and ``size`` (cached: an arena agent
    builds a searcher every turn)."""
    where = f"weights file {path}"
    try:
        document = parse_json(read_regular_file(path, MAX_WEIGHTS_FILE_BYTES, "a weights file"), WEIGHTS_NESTING)
    except FileRefused as error:
        raise EvaluatorError(str(error)) from None
    except NotJson as error:
        raise EvaluatorError(f"{where}: {error}, so not a weights file") from None
    if not isinstance(document, dict) or document.get("format") != WEIGHTS_FORMAT:
        raise EvaluatorError(f'{where}: not a weights file (no "format": "{WEIGHTS_FORMAT}")')
    weights = document.get("weights")
    if not isinstance(weights, dict):
        raise EvaluatorError(f'{where}: "weights" must map feature names to numbers')
    return _weights_from(weights, where)


def weights_document(weights: Sequence[float], **about: object) -> dict[str, object]:
    """A weights file's contents: ``format``, ``weights`` (feature name -> weight) and anything in ``about``
    (``plyscope tune`` records its fit there).  ``eval=features,weights=FILE`` reads ``weights`` only."""
    return {
        "format": WEIGHTS_FORMAT,
        "evaluator": FeatureEvaluator.name,
        "weights": dict(zip(FEATURE_NAMES, (float(w) for w in weights), strict=True)),
        **about,
    }


def write_weights_file(path: str | Path, weights: Sequence[float], **about: object) -> None:
    """Write a weights file atomically (see ``weights_document``)."""
    write_atomic(path, json.dumps(weights_document(weights, **about), indent=1, allow_nan=False) + "\n")


class NeutralEvaluator:
    """Knows only the rules: won, lost or drawn at the end, 512 before it.

    For games with no heuristic (the Nim family); values 1..1023 like Rivest's so that the
    generalized means of the min/max approximation stay positive, a finished game's carrying
    its length as Rivest's do (``finished_on_rivest_scale``).
    """

    name = "neutral"
    lo = 1.0
    hi = 1023.0

    def __call__(self, state: State) -> float:
        winner = state.winner()
        return 512.0 if winner is None else finished_on_rivest_scale(winner, state.ply)


class TreeEvaluator:
    """A hand-written tree's own values (``plyscope.engine.games.tree``): a leaf's value, an inner node's static
    value (written ``B=5(...)``, else the mean of the leaf values below it), MAX's point of view.

    ``lo`` and ``hi`` are the least and greatest of the tree's values (one apart when they are all equal, so that a
    transform has a range to work in)."""

    name = "tree"

    def __init__(self, game: TreeGame) -> None:
        tree = game.tree
        self.lo = tree.lo
        self.hi = tree.hi if tree.hi > tree.lo else tree.lo + 1

    def __call__(self, state: State) -> float:
        assert isinstance(state, TreeState)
        return state.value()


# --- monotonic transforms ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Transform:
    """A strictly increasing function applied to an evaluator's values (``transform=NAME``).

    ``identity``, ``cube``, ``exp`` and ``log`` keep the evaluator's range [lo, hi]: with
    ``u = (x - lo) / (hi - lo)`` in [0, 1] they return ``lo + (hi - lo) h(u)`` for an increasing
    ``h`` with ``h(0) = 0`` and ``h(1) = 1``, so wins and losses keep their values and Rivest's
    positive scale stays positive.  ``affine:A,B`` is ``A x + B`` (``A > 0``), range and all.
    """

    name: str
    a: float = 1.0
    """``affine``'s slope."""
    b: float = 0.0
    """``affine``'s offset."""

    def __call__(self, x: float, lo: float, hi: float) -> float:
        """``x`` transformed, for an evaluator whose values lie in [``lo``, ``hi``]."""
        name = self.name
        if name == "affine":
            return self.a * x + self.b
        if name == "identity":
            return x
        u = (x - lo) / (hi - lo)
        if name == "cube":
            h = ((2 * u - 1) ** 3 + 1) / 2
        elif name == "exp":
            h = math.expm1(EXP_STRETCH * u) / math.expm1(EXP_STRETCH)
        else:  # log
            h = math.log1p(math.expm1(EXP_STRETCH) * u) / EXP_STRETCH
        return lo + (hi - lo) * h

    def label(self) -> str:
        return f"affine:{self.a:g},{self.b:g}" if self.name == "affine" else self.name


EXP_STRETCH = 8.0
"""``exp``'s ``h(u) = (e^(8u) - 1) / (e^8 - 1)`` and its inverse ``log``'s ``h(u) = ln(1 + (e^8 - 1) u) / 8``."""

TRANSFORMS: dict[str, str] = {
    "identity": "x: the evaluator's own values",
    "affine:A,B": "A x + B with A > 0: the only kind of transform that keeps expectiminimax's choice",
    "cube": "about the middle of the range, cubed: m + r ((x - m) / r)^3 (m the middle, r half the range): flattens "
    "values near the middle, keeps the ends",
    "exp": "convex: lo + (hi - lo)(e^(8u) - 1)/(e^8 - 1), u = (x - lo)/(hi - lo): squeezes the lower values, "
    "stretches the upper ones",
    "log": "concave, the inverse of exp: lo + (hi - lo) ln(1 + (e^8 - 1) u) / 8",
}
"""The ``transform`` parameter's values: each a strictly increasing function of the evaluation."""


AFFINE_SLOPES = (1e-6, 1e6)
"""The slopes ``affine:A,B`` takes: steeper ones overflow to infinity (``affine:1e308,0``) and flatter ones lose
the order of the values in rounding (``affine:1e-320,0``)."""
AFFINE_OFFSET = 1e9
"""The largest offset ``affine:A,B`` takes, either sign."""


def parse_transform(text: str) -> Transform:
    """The transform written ``text`` (see ``TRANSFORMS``); raises ``EvaluatorError`` with the choices."""
    name, colon, rest = text.strip().partition(":")
    if name in ("identity", "cube", "exp", "log") and not colon:
        return Transform(name)
    if name == "affine" and colon:
        parts = rest.split(",")
        try:
            if len(parts) != 2:
                raise ValueError
            a, b = (parse_float(part, "affine") for part in parts)
        except (ValueError, NumberError):
            raise EvaluatorError(
                f"transform '{shown(text)}': write affine:A,B with two numbers, e.g. affine:2,10"
            ) from None
        if not a > 0:
            raise EvaluatorError(
                f"transform '{shown(text)}': A must be above 0 and both finite (a transform must be strictly "
                "increasing)"
            )
        if not (AFFINE_SLOPES[0] <= a <= AFFINE_SLOPES[1] and abs(b) <= AFFINE_OFFSET):
            raise EvaluatorError(
                f"transform '{shown(text)}': A must be from {AFFINE_SLOPES[0]:g} to {AFFINE_SLOPES[1]:g} and B from "
                f"{-AFFINE_OFFSET:g} to {AFFINE_OFFSET:g} (beyond, the values overflow or lose their order)"
            )
        return Transform("affine", a, b)
    raise EvaluatorError(f"transform '{shown(text)}' is not one of {', '.join(TRANSFORMS)}")


class TransformedEvaluator:
    """An evaluator's values through a ``Transform``; the range is the transformed range."""

    def __init__(self, inner: Evaluator, transform: Transform) -> None:
        self.inner = inner
        self.transform = transform
        self.name = inner.name
        self.lo = transform(inner.lo, inner.lo, inner.hi)
        self.hi = transform(inner.hi, inner.lo, inner.hi)

    def __call__(self, state: State) -> float:
        inner = self.inner
        return self.transform(inner(state), inner.lo, inner.hi)


class ChanceBoardEvaluator:
    """A Connect Four evaluator on the positions of Connect Four with chance.

    A position where a player chooses is valued by its board; a chance node (a disc not landed
    yet) by the expected value of its outcomes' boards (the boards are made for it, uncounted).
    """

    def __init__(self, inner: Evaluator) -> None:
        self.inner = inner
        self.name = inner.name
        self.lo = inner.lo
        self.hi = inner.hi

    def __call__(self, state: State) -> float:
        if isinstance(state, Connect4ChanceState):
            return self.inner(state.board)
        assert isinstance(state, ChanceDrop)
        board = state.board
        return sum(p * self.inner(board.play(landing)) for landing, p in state.outcomes())


def transformed(evaluator: Evaluator, transform: Transform) -> Evaluator:
    """``evaluator``'s values through ``transform``; an evaluator of expectations (``ChanceBoardEvaluator``) averages
    its boards' transformed values."""
    if isinstance(evaluator, ChanceBoardEvaluator):
        return ChanceBoardEvaluator(transformed(evaluator.inner, transform))
    return TransformedEvaluator(evaluator, transform)
