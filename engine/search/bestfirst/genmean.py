"""Generalized means and their exact derivatives (Rivest, AI 34, 1988, section 3).

For positive ``a_1..a_n`` and ``p != 0``: ``M_p(a) = ((1/n) sum a_i^p)^(1/p)``; ``M_0`` is the
geometric mean, the limit as ``p -> 0``.  ``M_p`` tends to ``max(a)`` as ``p -> +inf`` and to
``min(a)`` as ``p -> -inf``; its derivative is ``dM_p/da_i = (1/n)(a_i / M_p(a))^(p-1)``.

The min/max approximation works with logarithms (an edge weight is ``-ln`` of a
derivative), so ``log_generalized_mean`` takes and returns logarithms; it scales by the
largest (``p > 0``) or smallest (``p < 0``) term so that no power overflows, whatever ``p``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def log_generalized_mean(logs: Sequence[float], p: float) -> float:
    """``ln M_p(a)`` from ``logs = [ln a_1, ..., ln a_n]`` (n >= 1)."""
    n = len(logs)
    if p == 0:
        return math.fsum(logs) / n
    anchor = max(logs) if p > 0 else min(logs)
    exp = math.exp
    scaled = math.fsum(exp(p * (x - anchor)) for x in logs)
    return anchor + math.log(scaled / n) / p
