"""The board of a hand-written game tree (``--game tree``): the tree drawn top-down, as a textbook draws it, a child
played by its number key.

Each node is written on its level's row: an inner node as its label (or the move to it) and its player's
glyph, ``▲`` MAX, ``▽`` MIN, ``?`` nature (a chance node's children after their probability, ``½:``); a leaf
as its value, MAX's point of view.  Under each inner node a row of lines joins it to its children.  The
path from the position to the node chosen is drawn reversed; the edge into a child a search's cut-off left
unsearched is cut, ``✂``, and that child's subtree drawn muted.

A tree too large for the room is drawn around the node chosen: from at most ``ABOVE`` levels above it,
``LEVELS`` levels deep, and at each node the children nearest the path, the others counted in a ``…N``.  Each
child's exact value, where asked for (``show_scores``), is listed under the tree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from rich.style import Style
from rich.text import Text

from plyscope.engine.analysis import ScoresSnapshot
from plyscope.engine.games import CHANCE, State
from plyscope.engine.games.tree import Tree, TreeState, number_text
from plyscope.engine.search.base import Node, Searcher
from plyscope.tui.widgets.boards.base import Board, DigitKeys, Note, digit_keys

GLYPHS = {1: "▲", -1: "▽", CHANCE: "?"}
"""Each player's glyph: MAX, MIN, nature."""
LEVELS = 5
"""Levels drawn when the whole tree does not fit."""
WHOLE_LEVELS = 8
"""The most levels a tree drawn whole may have."""
ABOVE = 2
"""Levels drawn above the node chosen when the tree is drawn around it."""
PRUNED_UP_TO = 5_000
"""The largest search tree whose cut-offs the drawing marks (walked at every repaint)."""

Styler = Callable[[str], Style]
"""The board's styles by name: ``first``, ``second``, ``muted``, ``best`` (the path)."""


@dataclass(slots=True)
class _Shown:
    """A node as drawn: a tree node (``node >= 0``) or ``…N``, children left out (``node = -1``)."""

    node: int
    text: str
    cut: bool = False
    """Whether the node is in a subtree a cut-off left unsearched."""
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


def draw_tree(
    tree: Tree, top: int, path: Sequence[int], room: int, styles: Styler, pruned: AbstractSet[int] = frozenset()
) -> Text:
    """The tree below ``top`` (the position), ``path`` (nodes from ``top`` down to the one chosen) reversed, in
    ``room`` cells across; around the chosen node when the whole tree does not fit.  The edges into ``pruned``
    nodes are cut."""
    path = [top, *path]
    text = Text()
    cut = _Cut(pruned)
    shown = _view(tree, top, None, path, WHOLE_LEVELS, None, cut) if len(tree.parent) <= 2 * room else None
    if shown is None or shown.width > room or _cut(shown):
        start = path[max(0, len(path) - 1 - ABOVE)]
        if start != top:
            above = " › ".join(node_text(tree, node, _move(tree, node)) for node in path[: path.index(start)])
            text.append(f"{above} › …\n", styles("muted"))
        shown = _view(tree, start, _move(tree, start) if start != top else None, path, LEVELS, room, cut)
    _place(shown, 0)
    on_path = set(path)
    rows: list[list[_Shown]] = []
    _rows(shown, 0, rows)
    for depth, row in enumerate(rows):
        text.append_text(_node_row(tree, row, on_path, styles))
        text.append("\n")
        if depth + 1 < len(rows):
            text.append(_joins(row, pruned), styles("muted"))
            text.append("\n")
    return text


def _move(tree: Tree, node: int) -> int | None:
    up = tree.parent[node]
    return None if up < 0 else tree.children[up].index(node)


@dataclass(frozen=True, slots=True)
class _Cut:
    """The nodes whose edge a cut-off cut (``pruned``)."""

    pruned: AbstractSet[int]

    def below(self, tree: Tree, node: int) -> bool:
        """Whether ``node`` or an ancestor of it is pruned."""
        while node >= 0:
            if node in self.pruned:
                return True
            node = tree.parent[node]
        return False


def _view(
    tree: Tree, node: int, move: int | None, path: Sequence[int], levels: int, room: int | None, cut: _Cut
) -> _Shown:
    """The node as drawn, ``levels`` levels deep (an inner node at the last level drawn with ``…``), its children
    kept to ``room`` cells (``None``: all of them), those nearest the path first."""
    shown = _Shown(node, node_text(tree, node, move), bool(cut.pruned) and cut.below(tree, node))
    kids = tree.children[node]
    if not kids:
        shown.width = len(shown.text)
        return shown
    if levels <= 1:
        shown.text += "…"
        shown.width = len(shown.text)
        return shown
    if room is None:
        views = [_view(tree, kid, index, path, levels - 1, None, cut) for index, kid in enumerate(kids)]
    else:
        views = _kept(tree, kids, path, levels - 1, room, cut)
    shown.children = views
    shown.width = max(len(shown.text), sum(v.width for v in views) + len(views) - 1)
    return shown


MARKS = 8
"""Cells kept for the two ``…N`` marks of the children left out."""


def _kept(tree: Tree, kids: Sequence[int], path: Sequence[int], levels: int, room: int, cut: _Cut) -> list[_Shown]:
    """The children drawn in ``room`` cells: the one on the path (else the first), then its neighbours while they
    fit, each drawn in the room left; the others counted as ``…N`` each side."""
    focus = next((i for i, kid in enumerate(kids) if kid in path), 0)
    views = {focus: _view(tree, kids[focus], focus, path, levels, room - MARKS, cut)}
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
            view = _view(tree, kids[index], index, path, levels, budget, cut)
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
        if shown.cut:
            style = styles("muted")
        if shown.node in on_path:
            style += styles("best")
        text.append(shown.text, style)
    return text


def _joins(row: list[_Shown], pruned: AbstractSet[int]) -> str:
    """The lines from each node of a level down to its children, ``✂`` on an edge into a pruned child."""
    cells: dict[int, str] = {}
    for shown in row:
        if shown.children:
            _join(shown, pruned, cells)
    width = max(cells, default=-1) + 1
    return "".join(cells.get(x, " ") for x in range(width))


def _join(shown: _Shown, pruned: AbstractSet[int], cells: dict[int, str]) -> None:
    """The lines from ``shown`` down to its children, into ``cells`` (by column)."""
    kids = shown.children
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
    elif up in (first, last):
        cells[up] = "├" if up == first else "┤"
    else:
        cells[up] = "┼" if cells.get(up) == "┬" else "┴"
    for kid in kids:
        if kid.node in pruned:
            cells[kid.centre] = "✂"


def pruned_nodes(searcher: Searcher[Node], state: TreeState) -> frozenset[int]:
    """The tree's nodes (below ``state``, the search's root) whose edge a cut-off of ``searcher`` left unsearched:
    at each node of its tree marked ``cut_off``, the children it never generated.  Empty for a search tree of more
    than ``PRUNED_UP_TO`` nodes (call with the session's lock held)."""
    if searcher.stats.nodes > PRUNED_UP_TO:
        return frozenset()
    tree = state.tree
    pruned: set[int] = set()
    for node in searcher.walk():
        if node.cut_off:
            at = state
            for move in node.moves():
                at = at.play(move)
            searched = {child.move for child in node.children}
            pruned.update(kid for move, kid in enumerate(tree.children[at.node]) if move not in searched)
    return frozenset(pruned)


class TreeBoard(Board):
    """A hand-written tree below the position, the line's path reversed; a child played by its number key."""

    wide = True
    scores_where = "Under the tree: each child's value."

    def __init__(self, state: State, *, playable: bool = True) -> None:
        super().__init__(state, playable=playable)
        self.pruned: frozenset[int] = frozenset()
        """The nodes a cut-off of the search shown left unsearched (``pruned_nodes``)."""

    @property
    def tree_state(self) -> TreeState:
        """The position shown."""
        state = self.state
        assert isinstance(state, TreeState), f"the tree board shows {state.game.name}"
        return state

    def searched(self, searcher: Searcher[Node], state: State) -> None:
        assert isinstance(state, TreeState)
        pruned = pruned_nodes(searcher, state)
        if pruned != self.pruned:
            self.pruned = pruned
            self.refresh()

    def how_to_move(self) -> str:
        return "a child's number key (1 the leftmost)"

    def digits(self) -> DigitKeys | None:
        children = len(self.state.legal_moves())
        return digit_keys(children, "Play that child (1 the leftmost)", "Play child {}", "Child…")

    def play_digit(self, index: int) -> None:
        """Move to the ``index``-th child (0 the leftmost)."""
        state = self.state
        if index in state.legal_moves():
            self.play(index)
        elif state.is_terminal():
            self.refuse("this node is a leaf: the game is over")
        else:
            count = len(state.legal_moves())
            self.refuse(f"there is no child {index + 1} here: the children are 1 to {count}")

    def _value_note(self, move: int) -> Note:
        """The child ``move``'s exact value as the tree writes values, MAX's (its kind, and best, for the player to
        move)."""
        note, kind = self.note(move) or ("", "")
        scores = self.shown_scores
        if scores is not None and scores.exact(move) is not None:
            note = number_text(float(scores.bounds[move][0]) * self.state.player)
        return note, kind

    def scores_caption(self, scores: ScoresSnapshot | None, node_budget: int, legend: str) -> Text:
        if scores is not None and scores.complete:
            return Text(
                "under the tree: each child's exact value, MAX's; reversed: the best for the player to move", "dim"
            )
        return super().scores_caption(scores, node_budget, legend)

    def render_board(self) -> Text:
        """The tree below the position, the line's path reversed, and who moves."""
        state = self.tree_state
        path: list[int] = []
        current = state
        for move in self.line:
            if move not in current.legal_moves():
                break
            current = current.play(move)
            path.append(current.node)
        room = max(20, (self.size.width or 36) - 2)
        text = draw_tree(state.tree, state.node, path, room, self.style, self.pruned)
        mover = state.player
        if state.is_terminal():
            text.append(f"a leaf worth {number_text(state.value())}: the game is over", self.style("muted"))
            return text
        if self.scoring:
            text.append("values", self.style("muted"))
            for move in state.legal_moves():
                note, kind = self._value_note(move)
                text.append(f" {state.move_label(move)} ", self.style("muted"))
                text.append(note, self.note_style(kind))
            text.append("\n")
        whose = {1: "MAX to move", -1: "MIN to move"}.get(mover, "nature moves")
        text.append(GLYPHS[mover], self.player_style(mover) if mover else self.style("muted"))
        text.append(f" {whose} (▲ MAX is ●, ▽ MIN is ○)\nleaves: MAX's values", self.style("muted"))
        if current is not state:
            worth = f", a leaf worth {number_text(current.value())}" if current.is_terminal() else ""
            text.append(f"\nthe line ends at {current.label()}{worth}", self.style("muted"))
        return text


VIEW = TreeBoard
