"""A hand-written game tree drawn top-down, as a textbook draws it (the board of ``--game tree``).

Each node is written on its level's row: an inner node as its label (or the move to it) and its player's
glyph, ``▲`` MAX, ``▽`` MIN, ``?`` nature (a chance node's children after their probability, ``½:``); a leaf
as its value, MAX's point of view.  Under each inner node a row of lines joins it to its children.  The
path from the position to the node chosen is drawn reversed.

A tree too large for the room is drawn around the node chosen: from at most ``ABOVE`` levels above it,
``LEVELS`` levels deep, and at each node the children nearest the path, the others counted in a ``…N``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rich.style import Style
from rich.text import Text

from plyscope.engine.games import CHANCE
from plyscope.engine.games.tree import Tree, number_text

GLYPHS = {1: "▲", -1: "▽", CHANCE: "?"}
"""Each player's glyph: MAX, MIN, nature."""
LEVELS = 5
"""Levels drawn when the whole tree does not fit."""
WHOLE_LEVELS = 8
"""The most levels a tree drawn whole may have."""
ABOVE = 2
"""Levels drawn above the node chosen when the tree is drawn around it."""

Styler = Callable[[str], Style]
"""The board's styles by name: ``first``, ``second``, ``muted``, ``best`` (the path)."""


@dataclass(slots=True)
class _Shown:
    """A node as drawn: a tree node (``node >= 0``) or ``…N``, children left out (``node = -1``)."""

    node: int
    text: str
    children: list[_Shown] = field(default_factory=list)
    width: int = 0
    centre: int = 0


def node_text(tree: Tree, node: int, move: int | None) -> str:
    """What a node shows: a leaf its value, an inner node its label (else the move to it, 1 first) and glyph;
    below a chance node, its probability first."""
    if tree.children[node]:
        name = tree.labels[node] or ("" if move is None else str(move + 1))
        text = name + GLYPHS[tree.player[node]]
    else:
        text = number_text(tree.static[node])
    probability = tree.probabilities[node]
    return f"{probability}:{text}" if probability else text


def draw_tree(tree: Tree, top: int, path: Sequence[int], room: int, styles: Styler) -> Text:
    """The tree below ``top`` (the position), ``path`` (nodes from ``top`` down to the one chosen) reversed, in
    ``room`` cells across; around the chosen node when the whole tree does not fit."""
    path = [top, *path]
    text = Text()
    shown = _view(tree, top, None, path, WHOLE_LEVELS, None) if len(tree.parent) <= 2 * room else None
    if shown is None or shown.width > room or _cut(shown):
        start = path[max(0, len(path) - 1 - ABOVE)]
        if start != top:
            above = " › ".join(node_text(tree, node, _move(tree, node)) for node in path[: path.index(start)])
            text.append(f"{above} › …\n", styles("muted"))
        shown = _view(tree, start, _move(tree, start) if start != top else None, path, LEVELS, room)
    _place(shown, 0)
    on_path = set(path)
    rows: list[list[_Shown]] = []
    _rows(shown, 0, rows)
    for depth, row in enumerate(rows):
        text.append_text(_node_row(tree, row, on_path, styles))
        text.append("\n")
        if depth + 1 < len(rows):
            text.append(_joins(row), styles("muted"))
            text.append("\n")
    return text


def _move(tree: Tree, node: int) -> int | None:
    up = tree.parent[node]
    return None if up < 0 else tree.children[up].index(node)


def _view(tree: Tree, node: int, move: int | None, path: Sequence[int], levels: int, room: int | None) -> _Shown:
    """The node as drawn, ``levels`` levels deep (an inner node at the last level drawn with ``…``), its children
    kept to ``room`` cells (``None``: all of them), those nearest the path first."""
    shown = _Shown(node, node_text(tree, node, move))
    kids = tree.children[node]
    if not kids:
        shown.width = len(shown.text)
        return shown
    if levels <= 1:
        shown.text += "…"
        shown.width = len(shown.text)
        return shown
    if room is None:
        views = [_view(tree, kid, index, path, levels - 1, None) for index, kid in enumerate(kids)]
    else:
        views = _kept(tree, kids, path, levels - 1, room)
    shown.children = views
    shown.width = max(len(shown.text), sum(v.width for v in views) + len(views) - 1)
    return shown


MARKS = 8
"""Cells kept for the two ``…N`` marks of the children left out."""


def _kept(tree: Tree, kids: Sequence[int], path: Sequence[int], levels: int, room: int) -> list[_Shown]:
    """The children drawn in ``room`` cells: the one on the path (else the first), then its neighbours while they
    fit, each drawn in the room left; the others counted as ``…N`` each side."""
    focus = next((i for i, kid in enumerate(kids) if kid in path), 0)
    views = {focus: _view(tree, kids[focus], focus, path, levels, room - MARKS)}
    used = views[focus].width
    low = high = focus
    open_sides = {1, -1}
    while open_sides:
        for step in sorted(open_sides, reverse=True):
            index = high + 1 if step > 0 else low - 1
            budget = room - MARKS - used - 1
            if not 0 <= index < len(kids) or budget < 1:
                open_sides.discard(step)
                continue
            view = _view(tree, kids[index], index, path, levels, budget)
            if view.width > budget:
                open_sides.discard(step)
                continue
            views[index] = view
            used += 1 + view.width
            low, high = min(low, index), max(high, index)
    kept = [views[index] for index in range(low, high + 1)]
    if low > 0:
        kept.insert(0, _Shown(-1, f"…{low}", width=len(f"…{low}")))
    if high < len(kids) - 1:
        rest = f"…{len(kids) - 1 - high}"
        kept.append(_Shown(-1, rest, width=len(rest)))
    return kept


def _cut(shown: _Shown) -> bool:
    """Whether a node was drawn with ``…`` (levels left out)."""
    return shown.text.endswith("…") or any(_cut(kid) for kid in shown.children)


def _place(shown: _Shown, left: int) -> None:
    """Set the centres of ``shown`` and its children, its subtree starting ``left`` cells in."""
    kids = shown.children
    if not kids:
        shown.centre = left + (shown.width - 1) // 2
        return
    inner = sum(k.width for k in kids) + len(kids) - 1
    at = left + (shown.width - inner) // 2
    for kid in kids:
        _place(kid, at)
        at += kid.width + 1
    shown.centre = (kids[0].centre + kids[-1].centre) // 2


def _rows(shown: _Shown, depth: int, rows: list[list[_Shown]]) -> None:
    if len(rows) <= depth:
        rows.append([])
    rows[depth].append(shown)
    for kid in shown.children:
        _rows(kid, depth + 1, rows)


def _node_row(tree: Tree, row: list[_Shown], on_path: set[int], styles: Styler) -> Text:
    """One level's nodes, each centred on its place."""
    text = Text()
    for shown in row:
        start = max(len(text), shown.centre - (len(shown.text) - 1) // 2)
        text.append(" " * (start - len(text)))
        if shown.node < 0:
            text.append(shown.text, styles("muted"))
            continue
        player = tree.player[shown.node]
        style = Style() if not tree.children[shown.node] else styles({1: "first", -1: "second"}.get(player, "muted"))
        if shown.node in on_path:
            style += styles("best")
        text.append(shown.text, style)
    return text


def _joins(row: list[_Shown]) -> str:
    """The lines from each node of a level down to its children."""
    cells: dict[int, str] = {}
    for shown in row:
        kids = shown.children
        if not kids:
            continue
        first, last = kids[0].centre, kids[-1].centre
        for x in range(first, last + 1):
            cells[x] = "─"
        for kid in kids:
            cells[kid.centre] = "┬"
        cells[first] = "┌" if first < last else "│"
        if last > first:
            cells[last] = "┐"
        up = shown.centre
        if first == last:
            cells[up] = "│"
        elif up == first:
            cells[up] = "├"
        elif up == last:
            cells[up] = "┤"
        else:
            cells[up] = "┼" if cells.get(up) == "┬" else "┴"
    width = max(cells, default=-1) + 1
    return "".join(cells.get(x, " ") for x in range(width))
