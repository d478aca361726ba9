"""How the explorer writes numbers: a searcher's ``numbers()``, values, counts and rates.

Every searcher names its own numbers (``v``, ``alpha``, ``n``, ``ucb``, ``pn``...); they are
written here generically, so a new algorithm needs no UI change.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from plyscope.engine.games import Move, State
from plyscope.engine.numbers import signed as signed  # (how the screens write a signed score)

if TYPE_CHECKING:
    from plyscope.engine.exact import Exact
    from plyscope.engine.kits.base import Truth

Number = float | int | str | None
"""One entry of ``Searcher.numbers(node)``."""


def format_number(value: Number) -> str:
    """``value`` written short: ``528``, ``1.376``, ``∞``, ``-∞``, ``–`` for ``None``, text as is."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    if value.is_integer() and abs(value) < 1e7:
        return str(int(value))
    return significant(value, 4)


def significant(value: float, digits: int) -> str:
    """``value`` (finite) to ``digits`` significant digits, but to the thousandth from 1,000 to 10,000: a finished
    game's value on Rivest's scale carries its ply in its thousandths (``1022.962``: a win at ply 38)."""
    if 1000 <= abs(value) < 10_000:
        return f"{value:.3f}".rstrip("0").rstrip(".")
    return f"{value:.{digits}g}"


def format_value(value: float) -> str:
    """A value that has a side, always signed: ``+528``, ``-3.5``, ``0``, ``+∞``."""
    shown = format_number(value)
    return "+" + shown if value > 0 else shown


def format_numbers(numbers: Mapping[str, Number]) -> str:
    """A node's numbers as ``v=528 n=12``, in the order the searcher gave them."""
    return " ".join(f"{name}={format_number(value)}" for name, value in numbers.items())


def format_count(value: int) -> str:
    """A count with thousands separators: ``12,345``."""
    return f"{value:,}"


def format_rate(per_second: float | None) -> str:
    """Steps (or moves) per second, ``–`` when not measured."""
    if per_second is None:
        return "–"
    if per_second >= 100:
        return f"{per_second:,.0f}"
    return f"{per_second:.1f}"


def format_memory(size: int) -> str:
    """``size`` bytes said roughly, as a tree's memory is: ``about 1,024 MB``, ``about 586 KB``, ``under 1 KB``
    (in the largest unit it holds one of, rounded)."""
    for unit, name in ((1 << 20, "MB"), (1 << 10, "KB")):
        if size >= unit:
            return f"about {round(size / unit):,} {name}"
    return "under 1 KB"


PLAYER_GLYPHS = {1: "●", -1: "○", 0: "↓"}
"""How the two players are drawn everywhere (board, tree, move lists): the first filled, the second hollow,
so that they differ without colour; with chance, nature's move (where a disc lands) is ``↓``."""


def player_glyph(player: int) -> str:
    """``●`` for the first player (+1), ``○`` for the second (-1), ``↓`` for nature (a chance node, 0)."""
    return PLAYER_GLYPHS[player]


def verdict_words(lowest: int, highest: int) -> str:
    """A proven verdict (the first player's lowest and highest result: +1 win, 0 draw, -1 loss) in words."""
    if lowest == highest:
        return {1: "first player wins", 0: "a draw", -1: "second player wins"}[lowest]
    if lowest == 0:
        return "first player does not lose"
    if highest == 0:
        return "second player does not lose"
    return "open"


def truth_words(truth: Truth, state: State, exact: Exact) -> str:
    """A position's exact value for its player to move, with their glyph, in ``exact``'s words (``Exact.words``):
    ``○ win in 3``, ``● draw``, ``○ loss``, ``○ lost`` where the game is over, ``● value 5`` (a tree's, MAX's);
    ``…`` when the budget could not settle it."""
    words = exact.words(truth, state)
    return TRUTH_UNSETTLED if words is None else f"{player_glyph(state.player)} {words}"


TRUTH_PENDING = "?"
"""The truth column of a node whose exact value is not found yet."""
TRUTH_UNSETTLED = "…"
"""The truth column of a node whose exact value the solver's budget could not settle."""


def move_labels(state: State, moves: Sequence[Move]) -> str:
    """``moves`` played from ``state``, as the game writes them, space-separated: ``4 3 5`` or ``7=4+3 4=3+1``."""
    labels = []
    for move in moves:
        labels.append(state.move_label(move))
        state = state.play(move)
    return " ".join(labels)
