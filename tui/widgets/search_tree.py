"""The search-tree pane: a ``Tree`` over a searcher's own tree, built lazily.

Widget nodes exist only for branches that are open (opened by the user, or by follow
mode along the path of the last step); a node with many children shows its ``top_k``
most worked-on ones (``Node.work()``, the algorithm's own measure) and a "… N more" line.
Children are listed in move order (Connect Four columns left to right, Nim as its moves are
listed), the same for every algorithm; ``O`` lists them by work instead, most first.

Each line is the mover's glyph (``●`` the first player, ``○`` the second), the move and
the numbers the algorithm keeps (``Searcher.numbers(node)``, written generically), with the
principal variation highlighted, the nodes changed by the last step marked ``◂`` and
cut-off nodes (``Node.cut_off``) marked ``✂``.  A line too wide for the pane gives up its last numbers
for an ``…``, keeping its move, its truth column and its marks in view.
With the truth column on (``truth``), each line also gives the exact value of its position for
the player to move there (``│ ○ win in 3``; ``?`` not found yet, ``…`` not settled within the
solver's budget), which the ``SearchPane`` finds in the background and hands in (``set_truths``).

The pane keeps one record (``Shown``) per node it shows, and nothing for the others: a tree of
millions of nodes costs it what its few hundred lines cost.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from plyscope.engine.games import Move, is_chance, outcome_probability
from plyscope.engine.kits import kit_of
from plyscope.engine.search.base import Node, Searcher, Step
from plyscope.tui.formatting import TRUTH_PENDING, format_numbers, player_glyph
from plyscope.tui.session import Batch

CHANGED_MARK = " ◂"
CUT_MARK = " ✂"
FOOLED_MARK = " ✗"
"""After a node where the searcher prefers a move worse, with perfect play, than one of its siblings."""
ELLIPSIS = "…"


def truth_column(truth: str) -> str:
    """A line's truth column as shown, right after its move (so that a line cut at the pane's edge keeps it)."""
    return f" [{truth}]"


class MoreChildren:
    """The "… N more" line under a node whose children are not all shown."""

    __slots__ = ("hidden", "parent")

    def __init__(self, parent: Node, hidden: int) -> None:
        self.parent = parent
        self.hidden = hidden


TreeItem = Node | MoreChildren
View = TreeNode[TreeItem]


class Shown:
    """What the pane keeps of one searcher node it shows (its line), as of the node's last change."""

    __slots__ = ("auto_opened", "cut", "limit", "move", "mover", "numbers", "truth", "view")

    def __init__(self, view: View) -> None:
        self.view = view
        """The widget node drawing it."""
        self.move = ""
        """The mover's glyph and the move (``● 4``)."""
        self.numbers = ""
        """Its numbers as written (``v=528 n=12``)."""
        self.mover = 1
        """Who made the move: +1 the first player, -1 the second."""
        self.cut = False
        """Whether a cut-off there left children unsearched (``Node.cut_off``)."""
        self.auto_opened = False
        """Whether follow mode opened it (and will close it when the path moves away)."""
        self.limit: int | None = None
        """Children to show under it, once "… N more" was chosen there (``None``: ``top_k``)."""
        self.truth = TRUTH_PENDING
        """Its truth column (shown while the tree's ``truth`` is on): the exact value for the player to move there
        (``○ win in 3``), ``?`` until found, ``…`` when the solver's budget could not settle it."""


def move_order(move: Move) -> tuple[int, object]:
    """A sort key putting moves in their natural order (columns left to right, Nim's piles largest first)."""
    if isinstance(move, int):
        return (0, move)
    if isinstance(move, tuple) and all(isinstance(part, int) for part in move):
        return (1, tuple(-part for part in move))
    return (2, repr(move))


class SearchTree(Tree[TreeItem]):
    """A searcher's tree, lazily shown, relabelled in place for the nodes each batch of steps changed.

    The root is not a line of its own (its numbers are the pane's title): a change at the
    root would otherwise repaint every line below it.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "open_node", "Open node / first child", show=False),
        Binding("left", "close_node", "Close node / go to parent", show=False),
        Binding("c", "close_all", "Close every branch", show=False),
        Binding("O", "toggle_order", "List children by move / by work (most first)", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "search-tree--move",
        "search-tree--numbers",
        "search-tree--pv",
        "search-tree--changed",
        "search-tree--cutoff",
        "search-tree--fooled",
        "search-tree--more",
        "search-tree--first",
        "search-tree--second",
    }

    DEFAULT_CSS = """
    SearchTree > .search-tree--move { text-style: bold; }
    SearchTree > .search-tree--numbers { color: $text-muted; }
    SearchTree > .search-tree--pv { color: $success; text-style: bold; }
    SearchTree > .search-tree--changed { color: $warning; text-style: bold; }
    SearchTree > .search-tree--cutoff { color: $error; }
    SearchTree > .search-tree--fooled { color: #d33682; text-style: bold; }
    SearchTree > .search-tree--more { color: $text-muted; text-style: italic; }
    SearchTree > .search-tree--first { color: #e8413c; }
    SearchTree > .search-tree--second { color: #f2c12e; }
    """

    follow: reactive[bool] = reactive(True)
    """Keep the node of the last step in view, opening the branches on its path (and closing them after)."""
    by_work: reactive[bool] = reactive(False)
    """List children by the work spent below them (most first) instead of in move order."""
    truth: reactive[bool] = reactive(False)
    """Show the truth column: each node's exact value for the player to move there."""

    class NodeChosen(Message):
        """The user chose a node of the search tree (enter or click) to see its position."""

        def __init__(self, node: Node) -> None:
            super().__init__()
            self.node = node

    def __init__(
        self,
        *,
        top_k: int = 8,
        max_lines: int = 2000,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        """``top_k``: children shown under a node before "… N more"; ``max_lines``: widget nodes at most."""
        super().__init__(Text("(no search)"), None, name=name, id=id, classes=classes, disabled=disabled)
        self.set_reactive(Tree.guide_depth, 2)
        self.set_reactive(Tree.show_root, False)
        self.set_reactive(Tree.auto_expand, False)
        self.top_k = top_k
        self.max_lines = max_lines
        self._searcher: Searcher[Node] | None = None
        self._lock: AbstractContextManager[object] = nullcontext()
        self._root_player = 1
        """The player to move at the root: the mover of a node at an odd depth."""
        self._shown: dict[Node, Shown] = {}
        """The record of each searcher node the pane shows (the root's included), and of no other."""
        self._chance = False
        """Whether the game has chance nodes (their outcomes are labelled with their probability)."""
        self._by_position = False
        """Whether each move is labelled in its own position: with chance, or where the kit says labels depend on the
        position (``GameKit.labels_by_position``: OpenSpiel's action strings)."""
        self._pv: set[Node] = set()
        """The principal variation's nodes (shown or not: always listed, even beyond ``top_k``)."""
        self._marked: set[Node] = set()
        """The nodes the last step acted on and changed (marked ``◂`` where shown)."""
        self._fooled: set[Node] = set()
        """The nodes where the searcher prefers a move worse than a sibling (marked ``✗`` with the truth column on)."""
        self._trail: set[Node] = set()
        """The path of the last step: always listed, even beyond ``top_k``."""
        self._strips: LRUCache[tuple[object, ...], tuple[int, Strip]] = LRUCache(1024)
        """Drawn lines by what they show, and the line each was drawn at (``_render_line``): Textual's own cache
        is emptied whenever a branch opens, closes or grows, which in follow mode is every step, and whenever the
        screen is styled again (a focus change)."""

    # ----------------------------------------------------------------- public API

    @property
    def searcher(self) -> Searcher[Node] | None:
        """The searcher whose tree is shown."""
        return self._searcher

    @property
    def shown_nodes(self) -> int:
        """Searcher nodes the pane shows, the root's included (its visible lines are at most this many)."""
        return len(self._shown)

    def show_searcher(
        self,
        searcher: Searcher[Node] | None,
        lock: AbstractContextManager[object] | None = None,
        last: Step[Node] | None = None,
    ) -> None:
        """Show ``searcher``'s tree from scratch (``None``: an empty pane); ``lock`` guards reading it while another
        thread steps it; ``last`` is the step that made it (``Timeline.marked``), whose nodes are marked."""
        self._searcher = searcher
        self._lock = lock if lock is not None else nullcontext()
        for store in (self._shown, self._pv, self._marked, self._trail):
            store.clear()
        if last is not None:
            self._marked = {last.node, *last.changed}
            self._trail = set(last.path)
        self.clear()
        self.root.data = None
        self.border_title = ""
        if searcher is not None:
            with self._lock:
                self._root_player = searcher.root_state.player
                game = searcher.root_state.game
                kit = kit_of(game)
                self._chance = kit.has_chance(game)
                self._by_position = self._chance or kit.labels_by_position(game)
                self._adopt_root(searcher)

    def apply(self, batch: Batch, principal_path: Sequence[Node]) -> None:
        """Show what ``batch`` changed (call with the session's lock held): labels, new children, marks, PV."""
        searcher = self._searcher
        if searcher is None:
            return
        if searcher.root is not self.root.data:
            self._forget_all()
            self._adopt_root(searcher)
        structural = self._structural(batch.changed)
        dirty = set(structural)
        """Shown nodes to relabel."""
        last = batch.last
        phase = batch.phase
        marked = set() if last is None else {last.node, *last.changed}
        trail = None if last is None else last.path
        if phase is not None:  # (phase mode: the phase's nodes, not the whole step's)
            marked = {phase.path[-1], *phase.changed, *phase.added}
            trail = phase.path
        dirty |= self._marked ^ marked
        self._marked = marked
        pv = set(principal_path)
        restyled = self._pv ^ pv
        self._pv = pv
        if trail is not None:
            self._trail = set(trail)
        for view in self._views(structural):
            self._sync(view)
        if self.follow and trail is not None:
            self._reveal(trail)
        for view in self._views(dirty):
            self._relabel(view)
        for view in self._views(restyled - dirty):
            view.refresh()

    def _structural(self, changed: Iterable[Node]) -> set[Node]:
        """The shown nodes among ``changed``, and the shown parents of nodes ``changed``: their lists of children
        may differ."""
        shown = self._shown
        structural: set[Node] = set()
        for node in changed:
            if node in shown:
                structural.add(node)
            parent = node.parent
            if parent is not None and parent in shown:
                structural.add(parent)
        return structural

    def _views(self, nodes: Iterable[Node]) -> Iterator[View]:
        """The widget nodes of those of ``nodes`` the pane shows, each looked up as it is reached (what comes before
        may have shown or dropped it)."""
        shown = self._shown
        for node in nodes:
            record = shown.get(node)
            if record is not None:
                yield record.view

    def reveal(self, path: Sequence[Node]) -> None:
        """Open the branches down to the last node of ``path`` (root first) and bring it into view."""
        with self._lock:
            self._trail = set(path)
            self._reveal(path, user=True)

    def reveal_moves(self, moves: Sequence[Move]) -> int:
        """Open the branches along ``moves`` from the shown root, as far as the shown tree has them; returns
        how many of the moves it followed (a searcher such as alpha-beta may show a newer tree than its line)."""
        searcher = self._searcher
        if searcher is None:
            return 0
        with self._lock:
            path = searcher.nodes_along(moves)
            self._trail = set(path)
            self._reveal(path, user=True)
        return len(path) - 1

    def awaiting_truth(self) -> list[Node]:
        """The nodes shown whose exact value is not found yet, shallowest first (the root, then its children)."""
        waiting = [node for node, record in self._shown.items() if record.truth == TRUTH_PENDING]
        return sorted(waiting, key=lambda node: node.depth)

    def shown(self) -> list[Node]:
        """The searcher nodes shown, the root's first."""
        return list(self._shown)

    def set_fooled(self, fooled: set[Node]) -> None:
        """Mark ``fooled`` (and only them) ``✗``: only the lines whose mark changed are drawn again."""
        changed = self._fooled ^ fooled
        self._fooled = fooled
        with self._lock:
            for node in changed:
                record = self._shown.get(node)
                if record is not None:
                    self._relabel(record.view)

    def truths(self) -> list[str]:
        """The truth column of every node shown, the root's first (``?`` where not found yet)."""
        return [record.truth for record in self._shown.values()]

    def set_truths(self, found: Sequence[tuple[Node, str]]) -> None:
        """Give nodes their truth column (``truth_words``); only the lines whose column changed are drawn again."""
        with self._lock:
            for node, truth in found:
                record = self._shown.get(node)
                if record is not None and record.truth != truth:
                    record.truth = truth
                    if self.truth:
                        self._relabel(record.view)

    # ----------------------------------------------------------------- actions

    def action_open_node(self) -> None:
        view = self.cursor_node
        if view is None:
            return
        if view.allow_expand and not view.is_expanded:
            view.expand()
        elif view.children:
            self.move_cursor(view.children[0])

    def action_close_node(self) -> None:
        view = self.cursor_node
        if view is None:
            return
        if view.is_expanded and view.allow_expand and view is not self.root:
            view.collapse()
        elif view.parent is not None:
            self.move_cursor(view.parent)

    def action_close_all(self) -> None:
        """Close every branch below the root."""
        for view in list(self.root.children):
            if view.is_expanded:
                view.collapse()
        self._forget_auto_opened()

    def action_toggle_order(self) -> None:
        self.by_work = not self.by_work
        self.notify("children by work, most first" if self.by_work else "children in move order", timeout=2)

    # ----------------------------------------------------------------- events

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[TreeItem]) -> None:
        view = event.node
        if view.is_expanded and self._current(view):
            with self._lock:
                self._sync(view)
                self._relabel(view)

    def on_tree_node_collapsed(self, event: Tree.NodeCollapsed[TreeItem]) -> None:
        view = event.node
        if not view.is_expanded and view is not self.root and self._current(view):
            if isinstance(view.data, Node):
                self._shown[view.data].auto_opened = False
            for child in list(view.children):
                self._forget(child)
            view.remove_children()
            with self._lock:
                self._relabel(view)

    def on_tree_node_selected(self, event: Tree.NodeSelected[TreeItem]) -> None:
        if not self._current(event.node):
            return
        item = event.node.data
        if isinstance(item, MoreChildren):
            parent = self._shown.get(item.parent)
            if parent is not None:
                parent.limit = self._limit(item.parent) + self.top_k
                with self._lock:
                    self._sync(parent.view)
        elif isinstance(item, Node):
            self.post_message(self.NodeChosen(item))

    def watch_show_vertical_scrollbar(self, shown: bool) -> None:
        """Put the thumb where the tree is scrolled to when the scroll bar appears.

        Textual moves the thumb only while the bar is shown, so a follow-mode scroll made in the frame
        where the tree grew past its height (the bar not yet shown) left the thumb where it was last,
        possibly below the bar: a bar with no thumb until the next scroll."""
        if shown:
            self.vertical_scrollbar.position = self.scroll_y

    def watch_follow(self, follow: bool) -> None:
        if not follow:
            self._forget_auto_opened()

    def watch_truth(self) -> None:
        """Show or hide the truth column on every line."""
        with self._lock:
            for record in list(self._shown.values()):
                self._relabel(record.view)

    def watch_by_work(self) -> None:
        """Re-list the open branches in the new order."""
        with self._lock:
            for record in list(self._shown.values()):
                if record.view.is_expanded:
                    self._sync(record.view, reorder=True)

    # ----------------------------------------------------------------- rendering

    def render_label(self, node: View, base_style: Style, style: Style) -> Text:
        text = super().render_label(node, base_style, style)
        item = node.data
        label = node.label
        start = len(text.plain) - len(label.plain if isinstance(label, Text) else label)
        if isinstance(item, MoreChildren):
            text.stylize(self.get_component_rich_style("search-tree--more", partial=True), start)
            return text
        record = None if item is None else self._shown.get(item)
        if item is None or record is None:
            return text
        move, numbers = record.move, record.numbers
        mover = "first" if record.mover == 1 else "second"
        text.stylize(self.get_component_rich_style(f"search-tree--{mover}", partial=True), start, start + 1)
        move_style = self.get_component_rich_style("search-tree--move", partial=True)
        if item in self._pv:
            move_style += self.get_component_rich_style("search-tree--pv", partial=True)
        text.stylize(move_style, start + 2, start + len(move))
        after = start + len(move) + (len(truth_column(record.truth)) if self.truth else 0)
        text.stylize(
            self.get_component_rich_style("search-tree--numbers", partial=True), after + 1, after + 1 + len(numbers)
        )
        if record.cut:
            at = text.plain.find(CUT_MARK, start)
            text.stylize(self.get_component_rich_style("search-tree--cutoff", partial=True), at, at + len(CUT_MARK))
        if item in self._marked:
            text.stylize(
                self.get_component_rich_style("search-tree--changed", partial=True), start + 2, start + len(move)
            )
            at = text.plain.rfind(CHANGED_MARK)
            text.stylize(
                self.get_component_rich_style("search-tree--changed", partial=True), at, at + len(CHANGED_MARK)
            )
        if self.truth and item in self._fooled:
            at = text.plain.rfind(FOOLED_MARK)
            text.stylize(self.get_component_rich_style("search-tree--fooled", partial=True), at, at + len(FOOLED_MARK))
        return text

    def get_label_width(self, node: View) -> int:
        """The width of ``node``'s line as ``render_label`` draws it, without drawing it (Textual measures every
        line this way each time a branch opens, closes or grows): the label, after the open/closed icon."""
        icon = (self.ICON_NODE_EXPANDED if node.is_expanded else self.ICON_NODE) if node.allow_expand else ""
        label = node.label
        return cell_len(icon) + (label.cell_len if isinstance(label, Text) else cell_len(label))

    def _render_line(self, y: int, x1: int, x2: int, base_style: Style) -> Strip:
        """Tree line ``y``, drawn again only if something it shows changed since it was last drawn (at any line:
        a line drawn before at another ``y`` is moved there, which is a tenth of the cost of drawing it)."""
        lines = self._tree_lines
        if y >= len(lines):
            return super()._render_line(y, x1, x2, base_style)
        line = lines[y]
        view = line.node
        item = view.data
        record = self._shown.get(item) if isinstance(item, Node) else None
        width = max(self.virtual_size.width, self.size.width)
        key = (
            width,
            self.app.theme,
            base_style,
            self._pseudo_class_state,
            self.has_focus,
            self.cursor_line == y,
            self.hover_line == y,
            line.last,
            tuple((step, step.is_last, step._hover, step._selected) for step in line.path),  # the guides
            view._updates,  # its label, set or restyled
            view.is_expanded,
            item in self._pv,
            item in self._marked,
            item in self._fooled,
            None if record is None else (record.move, record.numbers, record.mover, record.cut, record.truth),
            self.truth,
        )
        drawn = self._strips.get(key)
        if drawn is None:
            strip = super()._render_line(y, 0, width, base_style)
        elif drawn[0] != y:  # the mouse finds a line by the number in its styles' metadata
            moved = Style(meta={"line": y})
            strip = Strip(
                [Segment(text, style + moved if style else style, control) for text, style, control in drawn[1]],
                drawn[1].cell_length,
            )
        else:
            strip = drawn[1]
        self._strips[key] = (y, strip)
        return strip.crop(x1, x2)

    def render_line(self, y: int) -> Strip:
        """The line as ``Tree`` draws it, made to fit when it goes on past the pane's edge (or under its vertical
        scroll bar): its numbers cut after the last whole one that fits, an ellipsis in their place, so that the move,
        its truth column and the marks after the numbers (``✂``, ``(7)``, ``◂``, ``✗``) stay in view; a line too
        narrow even for those ends with an ellipsis at the edge.  Nothing is drawn past the ellipsis (the cells under
        the scroll bar are blank): no piece of the line's end is left there to be read as part of it."""
        scroll_x, scroll_y = self.scroll_offset
        shown = self.scrollable_content_region.width
        view = self.get_node_at_line(y + scroll_y)
        if view is None or shown < 2 or self._line_width(view) <= scroll_x + shown:
            return super().render_line(y)
        width = self.size.width
        whole = self._render_line(y + scroll_y, 0, max(self.virtual_size.width, width), self.rich_style)
        fitted = self._fitted(whole, view, scroll_x + shown)
        if fitted is not None:
            return fitted.crop(scroll_x, scroll_x + width).extend_cell_length(width, self.rich_style)
        strip = whole.crop(scroll_x, scroll_x + shown - 1)
        ellipsis = Strip([Segment(ELLIPSIS, _style_at(whole, scroll_x + shown - 1))], 1)
        return Strip.join([strip, ellipsis]).extend_cell_length(width, self.rich_style)

    def _fitted(self, whole: Strip, view: View, end: int) -> Strip | None:
        """``view``'s whole line (``whole``) cut to end by cell ``end``: its numbers after the last whole one that fits
        with an ellipsis and what follows the numbers; ``None`` if even no number at all would not fit."""
        item = view.data
        record = self._shown.get(item) if isinstance(item, Node) else None
        label = view.label
        plain = label.plain if isinstance(label, Text) else label
        if record is None or not record.numbers:
            return None
        head = f"{record.move}{truth_column(record.truth) if self.truth else ''} "
        if not plain.startswith(head + record.numbers):
            return None
        line_width = self._line_width(view)
        numbers_start = line_width - cell_len(plain) + cell_len(head)
        numbers_end = numbers_start + cell_len(record.numbers)
        marks = line_width - numbers_end
        room = end - numbers_start - cell_len(ELLIPSIS) - marks  # cells the numbers kept may take
        kept = [0] + [cell_len(record.numbers[: index + 1]) for index, c in enumerate(record.numbers) if c == " "]
        fits = [cells for cells in kept if cells <= room]
        if not fits:
            return None
        cut = numbers_start + fits[-1]
        ellipsis = Strip([Segment(ELLIPSIS, _style_at(whole, numbers_start))], 1)
        return Strip.join([whole.crop(0, cut), ellipsis, whole.crop(numbers_end, whole.cell_length)])

    def _line_width(self, view: View) -> int:
        """The cells ``view``'s whole line takes: its guides (``guide_depth`` a level below the root's
        children), its open or closed icon and its label (as ``render_label`` draws them)."""
        level = 0
        parent = view.parent
        while parent is not None and parent is not self.root:
            level += 1
            parent = parent.parent
        icon = (self.ICON_NODE_EXPANDED if view.is_expanded else self.ICON_NODE) if view.allow_expand else ""
        label = view.label
        return level * self.guide_depth + cell_len(icon) + cell_len(label.plain if isinstance(label, Text) else label)

    # ----------------------------------------------------------------- internals

    def _current(self, view: View) -> bool:
        """Whether ``view`` belongs to the tree shown now (events of a tree replaced since are dropped)."""
        if view is self.root:
            return True
        item = view.data
        if item is None:
            return False
        if isinstance(item, MoreChildren):
            parent = self._shown.get(item.parent)
            return parent is not None and view.parent is parent.view
        record = self._shown.get(item)
        return record is not None and record.view is view

    def _move_text(self, node: Node) -> tuple[str, int]:
        """``● 4`` (the mover's glyph and the move) and the mover; with chance, an outcome of a chance node is
        ``○ ↓5 20%`` (the falling disc's owner, where it lands, and how likely that is)."""
        searcher = self._searcher
        assert searcher is not None and node.parent is not None
        if not self._by_position:
            mover = self._root_player if node.depth % 2 == 1 else -self._root_player
            return f"{player_glyph(mover)} {searcher.root_state.move_label(node.move)}", mover
        before = searcher.state_at(node.parent)
        if is_chance(before):
            chance = outcome_probability(before, node.move) or 0.0
            owner = before.mover
            return f"{player_glyph(owner)} ↓{before.move_label(node.move)} {chance:.0%}", owner
        return f"{player_glyph(before.player)} {before.move_label(node.move)}", before.player

    def _adopt_root(self, searcher: Searcher[Node]) -> None:
        root = searcher.root
        self.root.data = root
        self._shown[root] = Shown(self.root)
        self._relabel(self.root)
        self.root.expand()
        self._sync(self.root)

    def _forget_all(self) -> None:
        for view in list(self.root.children):
            self._forget(view)
        self.root.remove_children()
        self._shown.clear()

    def _forget(self, view: View) -> None:
        """Drop the records of ``view`` and of every widget node below it."""
        stack = [view]
        while stack:
            current = stack.pop()
            if isinstance(current.data, Node):
                self._shown.pop(current.data, None)
            stack.extend(current.children)

    def _forget_auto_opened(self) -> None:
        """Leave every branch follow mode opened to the user (follow mode no longer closes them)."""
        for record in self._shown.values():
            record.auto_opened = False

    def _limit(self, node: Node) -> int:
        record = self._shown.get(node)
        return self.top_k if record is None or record.limit is None else record.limit

    def _ordered(self, children: Sequence[Node]) -> list[Node]:
        if self.by_work:
            return sorted(children, key=lambda child: (-child.work(), move_order(child.move)))
        return sorted(children, key=lambda child: move_order(child.move))

    def _shown_children(self, node: Node) -> tuple[list[Node], int]:
        """The children to show under ``node``, in the pane's order, and how many are left out.

        Always shown: the children on the principal variation, on the last step's path and
        those already open; the rest by the work spent below them, ties in move order.
        """
        children = node.children
        shown = self._shown
        limit = min(self._limit(node), max(1, self.max_lines - len(shown)))
        if len(children) <= limit:
            return self._ordered(children), 0
        keep = {
            child: None
            for child in children
            if child in self._pv
            or child in self._trail
            or ((record := shown.get(child)) is not None and record.view.is_expanded)
        }
        for child in sorted(children, key=lambda c: (-c.work(), move_order(c.move))):
            if len(keep) >= limit:
                break
            keep.setdefault(child)
        return self._ordered(list(keep)), len(children) - len(keep)

    def _sync(self, view: View, reorder: bool = False) -> None:
        """Make ``view``'s widget children match its searcher node's children (only if it is open)."""
        node = view.data
        if not isinstance(node, Node):
            return
        expandable = bool(node.children)
        if view.allow_expand != expandable:
            view.allow_expand = expandable
        if not view.is_expanded:
            return
        wanted, hidden = self._shown_children(node)
        wanted_set = set(wanted)
        more: View | None = None
        for child_view in list(view.children):
            item = child_view.data
            if isinstance(item, MoreChildren):
                more = child_view
            elif isinstance(item, Node) and (reorder or item not in wanted_set):
                # A change of order rebuilds the branch; otherwise only the children no longer wanted go
                # (by work, the order is the one at the last rebuild: work changes at every step).
                self._forget(child_view)
                child_view.remove()
        for index, child in enumerate(wanted):
            if child in self._shown:
                continue
            # The "… N more" line stays last: inserting before ``index`` keeps the pane's order.
            before = index if index < len(view.children) else None
            child_view = view.add(Text(""), child, before=before, allow_expand=bool(child.children))
            self._shown[child] = Shown(child_view)
            self._relabel(child_view)
        _set_more(view, node, more, hidden)

    def _reveal(self, path: Sequence[Node], user: bool = False) -> None:
        """Open the widget branches down ``path`` and its last node; follow mode remembers what it opened."""
        view = self.root
        for node in path:
            record = self._shown.get(node)
            if record is None:
                break
            view = record.view
            if node.children and not view.is_expanded:
                if not user:
                    record.auto_opened = True
                view.expand()
            self._sync(view)
        if not user:
            self._close_stale(set(path))
        if user:
            self.call_after_refresh(self.move_cursor, view)
        else:
            self.call_after_refresh(self.scroll_to_node, view, False)

    def _close_stale(self, on_path: set[Node]) -> None:
        """Close the branches follow mode opened that are off ``on_path`` and do not hold the cursor."""
        keep = set(on_path)
        cursor = self.cursor_node
        while cursor is not None:
            if isinstance(cursor.data, Node):
                keep.add(cursor.data)
            cursor = cursor.parent
        stale = [record for node, record in self._shown.items() if record.auto_opened and node not in keep]
        for record in stale:
            record.auto_opened = False
            if record.view.is_expanded:
                record.view.collapse()

    def _relabel(self, view: View) -> None:
        """Rewrite ``view``'s label from its node's numbers; a line is repainted only if its text changed."""
        node = view.data
        if not isinstance(node, Node):
            return
        searcher = self._searcher
        values = node.numbers() if searcher is None else searcher.numbers(node)
        numbers = format_numbers(values)
        if view is self.root:
            root = self._shown.get(node)
            truth = truth_column(root.truth) if self.truth and root is not None else ""
            self.border_title = f"root{truth} {numbers}"
            return
        record = self._shown.get(node)
        if node.parent is None or searcher is None or record is None:
            return  # a root of a tree no longer shown
        record.move, record.mover = self._move_text(node)
        record.numbers = numbers
        record.cut = node.cut_off
        suffix = ""
        if record.cut:
            suffix += CUT_MARK
        if node.children and not view.is_expanded:
            suffix += f" ({len(node.children)})"
        if node in self._marked:
            suffix += CHANGED_MARK
        if self.truth and node in self._fooled:
            suffix += FOOLED_MARK
        truth = truth_column(record.truth) if self.truth else ""
        text = f"{record.move}{truth} {numbers}{suffix}"
        label = view.label
        if (label.plain if isinstance(label, Text) else label) != text:
            view.set_label(Text(text))


def _style_at(strip: Strip, x: int) -> Style | None:
    """The style of ``strip``'s cell ``x`` (``None`` past its end)."""
    cell = list(strip.crop(x, x + 1))
    return cell[0].style if cell else None


def _set_more(view: View, node: Node, more: View | None, hidden: int) -> None:
    """Make the "… N more" line under ``view`` (``more``, if there is one) say ``hidden`` of ``node``'s children, or
    go when ``hidden`` is 0; it is last among ``view``'s children."""
    if hidden and more is None:
        view.add(Text(f"… {hidden} more"), MoreChildren(node, hidden), allow_expand=False)
    elif hidden and more is not None and isinstance(more.data, MoreChildren) and more.data.hidden != hidden:
        more.data.hidden = hidden
        more.set_label(Text(f"… {hidden} more"))
    elif not hidden and more is not None:
        more.remove()
