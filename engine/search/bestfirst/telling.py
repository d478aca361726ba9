"""How the phases of an expansion are told (phase mode, ``Searcher.phased``): the sentences best-first minimax,
Rivest's method and proof-number search share.  Each names nodes by their moves from the root (``Searcher.label``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from plyscope.engine.search.base import Node, Searcher, listed

N = TypeVar("N", bound=Node)

MOST_CHILDREN = 9
"""Children an expansion's sentence lists by name; more are counted."""


def expansion_text(searcher: Searcher[N], leaf: N, children: Sequence[N], value: Callable[[N], str]) -> str:
    """``leaf``'s new children with the value each was given (``value``: a child's numbers as words)."""
    state = searcher.state_at(leaf)
    parts = [f"{state.move_label(child.move)} {value(child)}" for child in children[:MOST_CHILDREN]]
    if len(children) > MOST_CHILDREN:
        parts.append(f"and {len(children) - MOST_CHILDREN} more")
    return (
        f"expansion: {searcher.label(leaf)} gets its {len(children)} children ({len(children)} moves played), "
        "each valued on its own: " + "; ".join(parts)
    )


def back_up_text(searcher: Searcher[N], path: Sequence[N], before: Sequence[str], after: Callable[[N], str]) -> str:
    """The nodes of ``path`` whose numbers the back-up changed, deepest first, as ``before → after``; ``before``
    holds each node's numbers as words before the back-up, root first."""
    parts = [
        f"{searcher.label(node)} {was} → {now}"
        for node, was in zip(reversed(path), reversed(before), strict=True)
        if (now := after(node)) != was
    ]
    if not parts:
        return "back-up: no value on the path changes"
    unchanged = len(path) - len(parts)
    text = "back-up: from the expanded node towards the root, " + listed(parts)
    if unchanged:
        text += f"; the {unchanged} node(s) above keep their numbers"
    return text
