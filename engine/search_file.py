"""Saved searches: a search written as JSON (to replay) or as Graphviz DOT (to look at), and read back.

A ``.json`` file holds what rebuilds the search (game, position, algorithm, parameters,
seed, budget, steps), its timeline (one event per step) and its tree as it stood (every
node's depth, move and numbers, depth first), so that a replay can check the tree it
rebuilds against the one saved.  Its shape is ``FORMAT`` at ``VERSION``; GUIDE.md's
"Saved searches" documents it.  Moves are the engine's own: a column index from 0 (Connect Four), a list
``[pile, take]`` (Nim).  Infinite and undefined numbers are the strings ``"inf"``,
``"-inf"`` and ``"nan"`` (JSON has none).
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import TypeVar

from plyscope.engine.collector import cyclic_gc_paused
from plyscope.engine.errors import UserError
from plyscope.engine.files import FileRefused, NotJson, check_writable, parse_json, read_regular_file, write_atomic
from plyscope.engine.games import State
from plyscope.engine.kits import make_game
from plyscope.engine.numbers import MAX_MOVES, NumberError, parse_int, parse_seed, shown
from plyscope.engine.search.base import Node, Searcher, Stats
from plyscope.engine.search.registry import algorithm, make_searcher
from plyscope.engine.timeline import Timeline
from plyscope.engine.travel.replay import rebuild

FORMAT = "plyscope-search"
VERSION = 1
"""The file format's version: a reader refuses any other."""
READ_LIMIT = 1 << 30
"""The largest saved search read back, in bytes."""
NESTING = 5
"""The deepest nesting of a saved search: the document, ``events``, an event, its path, a Nim move (the tree
goes to 4: ``tree``, a row, its move or its numbers); a file nested deeper is refused as it is read."""
DOT_CHILDREN = 6
"""Children drawn under a node of a DOT picture by default (the principal child always among them)."""
DOT_NODES = 200
"""Nodes drawn in a DOT picture by default."""
LET_GO_SLICE = 4096
"""Rows freed at a time by ``SavedSearch.let_go`` (about a millisecond each)."""
T = TypeVar("T")
"""The type of a field of a saved search."""


class SearchFileError(UserError):
    """A saved search that cannot be written or read back; the message says why."""


def plyscope_version() -> str:
    try:
        return metadata.version("plyscope")
    except metadata.PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True, slots=True)
class SearchRecipe:
    """What makes a search: the same recipe gives the same steps and the same tree."""

    game: str
    position: str
    """Move string or piles; blank for the start."""
    algorithm: str
    params: Mapping[str, object] = field(default_factory=dict)
    """Parameters other than the defaults (numbers, booleans or text)."""
    seed: int = 0
    budget: int | None = None
    """The move budget the search had (``None``: no bound)."""

    def state(self) -> State:
        game = make_game(self.game)
        return game.parse(self.position) if self.position.strip() else game.start()

    def maker(self) -> Callable[[], Searcher[Node]]:
        """A function that makes the fresh searcher (the position and parameters are checked once, here)."""
        state = self.state()
        params = algorithm(self.algorithm).validate(self.params)
        make_searcher(self.algorithm, state, params, seed=self.seed)
        return lambda: make_searcher(self.algorithm, state, params, seed=self.seed)


def _number(value: object) -> object:
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    return value


def _move(move: Hashable | None) -> object:
    return list(move) if isinstance(move, tuple) else move


def _unmove(move: object) -> Hashable:
    return tuple(move) if isinstance(move, list) else move


def tree_rows(searcher: Searcher[Node]) -> list[list[object]]:
    """The tree depth first: ``[depth, move, {name: number}]`` per node, as a saved search holds it."""
    return [
        [node.depth, _move(node.move), {k: _number(v) for k, v in searcher.numbers(node).items()}]
        for node in searcher.walk()
    ]


def search_document(recipe: SearchRecipe, searcher: Searcher[Node], timeline: Timeline) -> dict[str, object]:
    """The JSON document of a search after ``len(timeline)`` steps."""
    stats = searcher.stats
    steps = list(timeline.events())
    events = [[list(map(_move, e.path)), e.added, e.changed, _move(e.best), _number(e.value)] for e in steps]
    return {
        "format": FORMAT,
        "version": VERSION,
        "plyscope": plyscope_version(),
        "game": recipe.game,
        "position": recipe.position,
        "algorithm": recipe.algorithm,
        "params": dict(recipe.params),
        "seed": recipe.seed,
        "budget": recipe.budget,
        "steps": len(timeline),
        "stats": {
            "moves": stats.moves,
            "nodes": stats.nodes,
            "max_depth": stats.max_depth,
            "playouts": stats.playouts,
            "playout_moves": stats.playout_moves,
        },
        "best_move": _move(searcher.best_move()),
        "value": _number(searcher.value().first()),
        "finished": searcher.finished,
        "principal_variation": [_move(move) for move in searcher.principal_variation()],
        "event_fields": ["path", "added", "changed", "best", "value"],
        "events": events,
        "marks": [e.marks for e in steps],
        "tree": tree_rows(searcher),
        "work": [_work(node.work()) for node in searcher.walk()],
    }


def _work(value: float) -> float | int:
    """A node's measure of work as saved: an integer when it is one (as a count of visits or children)."""
    return int(value) if value.is_integer() else value if math.isfinite(value) else 0


def to_dot(searcher: Searcher[Node], *, children: int = DOT_CHILDREN, nodes: int = DOT_NODES) -> str:
    """Graphviz DOT of the tree: the principal variation in bold, each node's numbers as its label.

    The whole principal variation is drawn, as far as the tree holds its moves (alpha-beta's line is
    its last complete iteration's, in a tree of its own, while the tree drawn is the iteration under
    way), then breadth first from the root at most ``children`` children per node (the most searched
    first) and ``nodes`` nodes in all; what is left out is counted in a "+N more" box under its parent.
    """
    return dot_drawing(searcher, children=children, nodes=nodes)[0]


def dot_drawing(searcher: Searcher[Node], *, children: int = DOT_CHILDREN, nodes: int = DOT_NODES) -> tuple[str, int]:
    """``to_dot``'s text, and how many of the tree's nodes it draws."""
    line = searcher.nodes_along(searcher.principal_variation())
    principal = {id(node) for node in line}
    lines = ["digraph search {", '  node [shape=box, fontname="monospace", fontsize=10];', "  edge [fontsize=10];"]
    ids = {id(node): f"n{index}" for index, node in enumerate(line)}
    queue: list[tuple[Node, State]] = [(searcher.root, searcher.root_state)]
    drawn = len(line)
    head = 0
    while head < len(queue):
        node, state = queue[head]
        head += 1
        name = ids[id(node)]
        label = "\\n".join(
            ["root" if node.move is None else f"depth {node.depth}"]
            + [f"{k}={_dot_number(v)}" for k, v in searcher.numbers(node).items() if v is not None]
        )
        style = ', style=bold, color="red"' if id(node) in principal else ""
        lines.append(f'  {name} [label="{label}"{style}];')
        ordered = sorted(node.children, key=lambda c: (id(c) not in principal, -c.work()))
        on_line = int(bool(ordered) and id(ordered[0]) in principal)
        room = on_line + max(0, min(children - on_line, nodes - drawn))
        for child in ordered[:room]:
            child_name = ids.get(id(child))
            if child_name is None:
                child_name = ids[id(child)] = f"n{drawn}"
                drawn += 1
            bold = ', penwidth=2, color="red"' if id(child) in principal else ""
            lines.append(f'  {name} -> {child_name} [label="{state.move_label(child.move)}"{bold}];')
            queue.append((child, state.play(child.move)))
        hidden = len(node.children) - room
        if hidden > 0:
            lines.append(f'  {name}_more [label="+{hidden} more", shape=plaintext];')
            lines.append(f"  {name} -> {name}_more [style=dotted];")
    lines.append("}")
    return "\n".join(lines) + "\n", len(queue)


def _dot_number(value: object) -> str:
    if isinstance(value, float):
        return (f"{value:+.4g}" if value else "0") if math.isfinite(value) else str(_number(value))  # (no "-0")
    return str(value)


def export_path(name: str, option: str) -> Path:
    """The file ``name`` names, to write a search to before it is searched or written; raises ``SearchFileError``
    (one line, starting with ``option``) unless it ends in .json or .dot, ``FileRefused`` unless a file can be
    written there (``check_writable``)."""
    if Path(name).suffix.lower() not in (".json", ".dot"):
        raise SearchFileError(
            f"{option} {shown(name, 80)}: the file's name ends in .json (to replay) or .dot (Graphviz)"
        )
    return check_writable(name, option)


def write_search(
    path: Path | str, recipe: SearchRecipe, searcher: Searcher[Node], timeline: Timeline, *, dot_nodes: int = DOT_NODES
) -> str:
    """Write the search to ``path`` (``.json`` or ``.dot``, atomically); says what was written, in one line: the
    steps, the nodes the search counts and those the file holds (``1,664 nodes searched, 1,664 saved``; a picture's
    ``60 drawn``)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".json":
        document = search_document(recipe, searcher, timeline)
        text = json.dumps(document, separators=(",", ":"), allow_nan=False)
        rows = document["tree"]
        assert isinstance(rows, list)
        held = f"{len(rows):,} saved"
    elif suffix == ".dot":
        text, drawn = dot_drawing(searcher, nodes=dot_nodes)
        held = f"{drawn:,} drawn"
    else:
        raise SearchFileError(f"{path}: a saved search ends in .json (to replay) or .dot (Graphviz)")
    try:
        write_atomic(path, text)
    except OSError as error:
        raise SearchFileError(f"cannot write {path}: {error.strerror or error}") from None
    return f"wrote {path} ({len(timeline):,} steps, {searcher.stats.nodes:,} nodes searched, {held})"


@dataclass(frozen=True, slots=True)
class SavedSearch:
    """A saved search read back: its recipe, steps, timeline and tree, and the search's answers at its last step
    as the file gives them (what ``plyscope.engine.saved_tree.SavedTree`` shows until the search is rebuilt)."""

    recipe: SearchRecipe
    steps: int
    timeline: Timeline
    tree: list[list[object]]
    """The rows ``[depth, move, {name: number}]``, depth first, as read (checked only for their depths)."""
    depths: list[int]
    """Each row's depth: 0 for the first row only, then at most one more than the row before."""
    saved_by: str
    """The plyscope version that wrote it."""
    stats: Stats = field(default_factory=Stats)
    best_move: Hashable | None = None
    value: float = 0.0
    """The root value, from the first player's point of view."""
    finished: bool = False
    principal_variation: tuple[Hashable, ...] = ()
    work: list[object] | None = None
    """Each row's measure of work (``Node.work``); ``None`` in a file written before it was saved."""

    def let_go(self, stop: threading.Event | None = None) -> None:
        """Empty the rows and the work list a slice at a time, letting other threads run between slices.

        Freeing a big tree's rows (millions of objects, hundreds of MB) in one go would hold the GIL for the
        whole deallocation, a few hundred milliseconds in which the screen could not answer a key.  Only once
        nothing reads them any more (a ``SavedTree`` over them is no longer shown).  ``stop`` ends it early
        (the rest is then freed with this object)."""
        for items in (self.tree, self.work or []):
            while items and not (stop is not None and stop.is_set()):
                del items[-LET_GO_SLICE:]
                time.sleep(0)

    def rebuilt(self, stop: threading.Event | None = None) -> Searcher[Node] | None:
        """The search rebuilt to its last step, checked against the saved events as it goes (``check_step`` after
        every chunk of steps: a file whose events are not its search's is refused within a chunk, not after
        the whole rebuild) and then against the saved tree (``None`` if ``stop`` came first)."""
        searcher = rebuild(self.recipe.maker(), self.steps, stop, self.check_step)
        if searcher is None:
            return None
        if searcher.stats.iterations != self.steps:
            raise SearchFileError(
                f"the rebuilt search ends after {searcher.stats.iterations:,} steps, the file has {self.steps:,}: "
                f"{self._written_by()}"
            )
        self.check(searcher)
        return searcher

    def check_step(self, searcher: Searcher[Node]) -> None:
        """Raise ``SearchFileError`` unless ``searcher``'s best move and root value are those of the saved event of
        its last step."""
        step = searcher.stats.iterations
        if step == 0:
            return
        value, saved = searcher.value().first(), self.timeline.value(step)  # (the saved values are all numbers)
        if searcher.best_move() != self.timeline.best(step) or value != saved:
            raise SearchFileError(
                f"the rebuilt search differs from the saved one at step {step:,} (its best move or root value): "
                f"{self._written_by()}"
            )

    def check(self, searcher: Searcher[Node]) -> None:
        """Raise ``SearchFileError`` unless ``searcher``'s tree is the saved one, node for node and number for
        number (each node as ``tree_rows`` writes it, and as JSON reads it back: equal numbers compare equal)."""
        saved = self.tree
        count = 0
        for count, node in enumerate(searcher.walk()):
            row = [node.depth, _move(node.move), {k: _number(v) for k, v in searcher.numbers(node).items()}]
            if count >= len(saved) or row != saved[count]:
                self._differs(count, sum(1 for _ in searcher.walk()))
        if count + 1 != len(saved):
            self._differs(count + 1, count + 1)

    def _differs(self, first: int, rebuilt: int) -> None:
        raise SearchFileError(
            f"the rebuilt tree differs from the saved one at node {first:,} ({rebuilt:,} nodes rebuilt, "
            f"{len(self.tree):,} saved): {self._written_by()}"
        )

    def _written_by(self) -> str:
        return f"the file was written by plyscope {self.saved_by}, this is {plyscope_version()}, or it was edited"


def read_search(path: Path | str) -> SavedSearch:
    """A saved search from ``path``; a file that is not one, or is damaged, raises a one-line ``UserError``.

    The cycle collector is held off meanwhile: a big file is millions of small objects, which each
    collection would walk for nothing (they are all kept)."""
    with cyclic_gc_paused():
        try:
            data = read_regular_file(path, READ_LIMIT, "a saved search")
            document = parse_json(data, NESTING)
        except FileRefused:
            raise
        except NotJson as error:
            raise SearchFileError(f"{path} is not a saved search: {error}") from None
        return parse_document(document, str(path))


def parse_document(document: object, where: str) -> SavedSearch:
    """A saved search from its JSON document (``where`` names it in messages)."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise SearchFileError(f'{where} is not a saved search (no "format": "{FORMAT}")')
    version = document.get("version")
    if type(version) is not int or version != VERSION:  # not true, not 1.0
        raise SearchFileError(
            f"{where} is a saved search of format version {str(version)[:20]}; "
            f"this plyscope reads version {VERSION} only"
        )

    def need(name: str, kind: type[T]) -> T:
        value = document.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise SearchFileError(f'{where}: field "{name}" is missing or of the wrong type')
        return value

    recipe = SearchRecipe(
        game=need("game", str),
        position=need("position", str),
        algorithm=need("algorithm", str),
        params=need("params", dict),
        seed=need("seed", int),
        budget=None if document.get("budget") is None else need("budget", int),
    )
    try:
        parse_seed(recipe.seed, 'field "seed"')
        if recipe.budget is not None:
            parse_int(recipe.budget, 'field "budget"', lo=0, hi=MAX_MOVES)
    except NumberError as error:
        raise SearchFileError(f"{where}: {error}") from None
    steps = need("steps", int)
    events = need("events", list)
    tree = need("tree", list)
    if steps < 0 or len(events) != steps:
        raise SearchFileError(f"{where}: {len(events):,} events for {steps:,} steps: the file is damaged")
    try:
        scale = _Scale(recipe.algorithm, *recipe.maker()().value_scale())
    except UserError as error:
        raise SearchFileError(f"{where}: {error}") from None
    root = recipe.state()
    timeline = _timeline(events, root, where, document.get("marks"), scale=scale)
    depths = _depths(tree, where)
    stats = document.get("stats")
    numbers = (
        {name: value for name, value in stats.items() if type(value) is int and value >= 0}
        if isinstance(stats, dict)
        else {}
    )
    work = document.get("work")
    line = document.get("principal_variation")
    value = scale.check(document.get("value"), 'field "value"', where)
    best = _unmove(document.get("best_move"))
    return SavedSearch(
        recipe,
        steps,
        timeline,
        tree,
        depths,
        str(document.get("plyscope", "unknown")),
        stats=Stats(
            moves=numbers.get("moves", 0),
            iterations=steps,
            nodes=numbers.get("nodes", len(tree)),
            max_depth=numbers.get("max_depth", max(depths)),
            playouts=numbers.get("playouts", 0),
            playout_moves=numbers.get("playout_moves", 0),
        ),
        best_move=best if best is not None and _legal(root, best) else None,
        value=value,
        finished=document.get("finished") is True,
        principal_variation=_legal_line(root, line),
        work=work if isinstance(work, list) and len(work) == len(tree) else None,
    )


_INTS = frozenset({int})
"""The type of every move of a Connect Four path (a set, to check a path's moves' types in one call)."""


@dataclass(frozen=True, slots=True)
class _Scale:
    """The root values a saved search's algorithm gives (``Searcher.value_scale``, first player's point of view)."""

    algorithm: str
    lo: float
    hi: float

    def check(self, value: object, field: str, where: str) -> float:
        """``value`` as a float if it is a number on this scale (give or take a rounding: a billionth of the
        scale), else ``SearchFileError`` naming ``field`` (infinite and undefined values are off every scale)."""
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise SearchFileError(f"{where}: {field} is {_kind(value)}, not a number")
        slack = 1e-9 * (self.hi - self.lo)
        if not self.lo - slack <= value <= self.hi + slack:
            raise SearchFileError(
                f"{where}: {field} is {value:g}, off the scale of {self.algorithm}'s values "
                f"({self.lo:g} to {self.hi:g})"
            )
        return float(value)


def _kind(value: object) -> str:
    """What a JSON value is, in a word or two (``"inf"`` and the like quoted: a saved search writes no such value)."""
    if isinstance(value, str):
        return f"'{shown(value, 20)}'"
    return {bool: "true or false", list: "a list", dict: "an object", type(None): "null"}.get(type(value), "?")


def _event_fields(event: object) -> tuple[list[object], int, int, object, object]:
    """An event's path, counts of nodes added and changed, best move and value, its path a list and its counts
    integers (checked no further); ``ValueError`` if it is not that."""
    if type(event) is not list or len(event) != 5:
        raise ValueError
    moves, grown, touched, best, value = event
    if not (type(moves) is list and type(grown) is int and type(touched) is int):
        raise ValueError
    return moves, grown, touched, best, value


def _timeline(events: list[object], root: State, where: str, marks: object, *, scale: _Scale) -> Timeline:
    """The timeline of the file's ``events``, each checked as it is read: its path legal from ``root`` (its moves
    integers, or pairs of them in Nim: ``3.0`` is not ``3``), its counts whole numbers, its best move legal at the
    root, its value a number on ``scale``; ``SearchFileError`` naming the first damaged event.  ``marks`` (each
    step's ``Event.marks``) are taken if they are that, else left out (a file written before they were saved)."""
    reached: dict[tuple[Hashable, ...], tuple[State, tuple[Hashable, ...]]] = {(): (root, ())}
    legal_at_root = set() if root.is_terminal() else set(root.legal_moves())
    paths: list[tuple[Hashable, ...]] = []
    added: list[int] = []
    changed: list[int] = []
    bests: list[Hashable | None] = []
    values: list[float] = []
    try:
        for event in events:
            moves, grown, touched, best, value = _event_fields(event)
            values.append(scale.check(value, f'event {len(paths) + 1:,}\'s "value"', where))
            if _INTS.issuperset(map(type, moves)):
                key = tuple(moves)
            else:  # Nim's [pile, take]
                key = tuple(_unmove(m) for m in moves)
                if not all(map(_plain, key)):
                    raise ValueError
            known = reached.get(key)
            path = known[1] if known is not None else _walk(reached, key)
            if best is not None:
                best = _unmove(best)
                if not (_plain(best) and best in legal_at_root):
                    raise ValueError
            paths.append(path)
            added.append(grown)
            changed.append(touched)
            bests.append(best)
    except SearchFileError:
        raise
    except (TypeError, ValueError, OverflowError, KeyError):
        raise SearchFileError(f"{where}: event {len(paths) + 1:,} is damaged") from None
    try:
        return Timeline.from_columns(paths, added, changed, bests, values, _marks(marks, paths))
    except OverflowError:
        raise SearchFileError(f"{where}: an event's counts are out of range: the file is damaged") from None


def _marks(marks: object, paths: list[tuple[Hashable, ...]]) -> list[int] | None:
    """``marks`` if they are each step's ``Event.marks`` for the steps along ``paths``, else ``None`` (a file
    written before they were saved)."""
    if (
        isinstance(marks, list)
        and len(marks) == len(paths)
        and all(type(m) is int and 0 <= m < 1 << 2 * len(path) + 2 for m, path in zip(marks, paths, strict=True))
    ):
        return marks
    return None


def _depths(tree: list[object], where: str) -> list[int]:
    """Each row's depth; ``SearchFileError`` unless the rows are ``[depth, move, {...}]`` with depth 0 and move
    ``null`` first and only there, then each row at most one deeper than the row before (a tree written depth
    first), its depth a whole number and its move as a saved search writes one (an integer, or a pair of them in
    Nim: ``0.0`` and ``true`` are none)."""
    depths: list[int] = []
    previous = -1
    for row in tree:
        if type(row) is not list or len(row) != 3 or type(row[0]) is not int or type(row[2]) is not dict:
            break
        depth, move = row[0], row[1]
        if not (
            (depth == 0 and move is None)
            if previous < 0
            else 1 <= depth <= previous + 1 and (type(move) is int or _plain(_unmove(move)))
        ):
            break
        depths.append(depth)
        previous = depth
    if not depths or len(depths) != len(tree):
        raise SearchFileError(f'{where}: field "tree" is damaged (not the rows of a tree, depth first)')
    return depths


def _legal_line(root: State, line: object) -> tuple[Hashable, ...]:
    """The moves of ``line`` (a saved principal variation) as far as they are legal from ``root``."""
    moves: list[Hashable] = []
    state = root
    for move in line if isinstance(line, list) else []:
        move = _unmove(move)
        if not _legal(state, move):
            break
        moves.append(move)
        state = state.play(move)
    return tuple(moves)


def _plain(move: object) -> bool:
    """Whether ``move`` is of a type a saved search writes: an int, or a tuple of ints (Nim's ``(pile, take)``)."""
    return type(move) is int or (type(move) is tuple and all(type(part) is int for part in move))


def _legal(state: State, move: Hashable) -> bool:
    """Whether ``move``, as a saved search writes it (an int; a pair of ints in Nim), is a legal move in ``state``."""
    return _plain(move) and not state.is_terminal() and move in state.legal_moves()


def _walk(
    reached: dict[tuple[Hashable, ...], tuple[State, tuple[Hashable, ...]]], path: tuple[Hashable, ...]
) -> tuple[Hashable, ...]:
    """``path``, its moves played from the root (``reached[()]``), each position reached remembered with the
    path that leads there as checked (a move read as ``3.0`` finds the ``3`` checked before); ``ValueError`` at
    the first move that is not legal (an event of a damaged or edited file)."""
    depth = len(path)
    while path[:depth] not in reached:
        depth -= 1
    state, checked = reached[path[:depth]]
    for move in path[depth:]:
        if not _legal(state, move):
            raise ValueError
        state = state.play(move)
        checked = (*checked, move)
        reached[checked] = (state, checked)
    return checked
