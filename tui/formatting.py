"""How the explorer writes numbers: a searcher's ``numbers()``, values, counts and rates.

Every searcher names its own numbers (``v``, ``alpha``, ``n``, ``ucb``, ``pn``...); they are
written here generically, so a new algorithm needs no UI change.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

Number = float | int | str | None
"""One entry of ``Node.numbers()``."""


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
    return f"{value:.4g}"


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
