"""Hand-written game trees, as a textbook draws them: ``--game tree``.

A position is a tree written as nested lists of leaf values::

    ((3,12,8),(2,4,6),(14,5,2))              the three-by-three tree of AIMA's figure 5.2
    A(B(3,12,8),C(2,4,6),D(14,5,2))          the same, inner nodes labelled A to D
    A(B=5(3,12,8),C(2,4,6),D(14,5,2))        B's static value is 5 (what a depth-limited search sees)
    min:(3,(1,7))                            MIN moves at the root
    (?(0.5:3, 0.5:(1,7)), 4)                 a chance node: 3 or the MIN node (1,7), each with probability 1/2
    (x=3, y=5)                               labelled leaves

* Leaves are terminal.  Their values are from the first player's (MAX's) point of view, like every
  evaluator's, and a leaf's sign is its result: above 0 MAX won, below 0 MIN won, 0 a draw (what
  proof-number search and MCTS see).
* MAX moves at the root (``min:`` puts MIN there) and the players alternate; below a chance node the
  player is the one who did not move into it (``?`` marks it, its children written ``PROBABILITY:NODE``,
  the probabilities a number or a fraction ``1/6``, above 0 and summing to 1).
* An inner node's static value (``B=5(...)``) is what a searcher that evaluates it before expanding it
  sees; without one it is the mean of the leaf values below it (``Tree.static``).
* A label is a letter followed by letters, digits, ``_`` or ``'``, and no two children of one node share one.
  A move is a child's index (0 first); it is written as the child's label when it has one, else as its number
  counted from 1.
* ``#`` starts a comment to the end of the line; spaces and line breaks are free.

``TreeGame.parse`` also takes a built-in tree's name (``BUILT_IN``) or the name of a file holding a
tree (any other text without ``(``, ``:`` or ``=`` that is not a number).  Each parsed tree is its own
``TreeGame``: ``TreeState.game`` is the tree the position belongs to, and ``TreeState.text()`` writes
the subtree at the position, so the text of any position reads back as that position.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from plyscope.engine.errors import UserError
from plyscope.engine.files import read_regular_file
from plyscope.engine.games.base import CHANCE, Move, Player, PositionError
from plyscope.engine.numbers import shown

NAME = "tree"
MAX_NODES = 100_000
"""The most nodes a tree may have."""
MAX_DEPTH = 64
"""The deepest a tree may go, in plies below its root."""
MAX_VALUE = 1e9
"""The largest leaf or static value, either sign."""
MAX_FILE_BYTES = 1 << 20
"""The largest file a tree is read from."""

BUILT_IN: dict[str, str] = {
    # AIMA's figure 5.2: minimax value 3; alpha-beta prunes C's last two leaves.
    "classic": "A(B(3,12,8),C(2,4,6),D(14,5,2))",
    # The classic tree's branches in another order: value 3, and alpha-beta prunes nothing.
    "order": "A(B(2,4,6),C(14,5,2),D(3,12,8))",
    # Three plies (MAX, MIN, MAX): value 17; alpha-beta prunes E's 12 (18 is more than B allows already) and G
    # whole (C holds MAX to 3).
    "deep": "A(B(D(3,17),E(18,12)),C(F(2,3),G(15,25)))",
    # Expectiminimax: B (7 for sure) beats C (6.5 on average), but under transform=cube C is chosen.
    "chance": "A(B?(0.5:7,0.5:7),C?(0.5:10,0.5:3),D?(0.5:0,0.5:5))",
}
"""The trees ``--position NAME`` names, by name."""

_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


class TreeError(PositionError):
    """A tree that cannot be read; the message names the character where it fails."""


@dataclass(frozen=True, eq=False)
class Tree:
    """A parsed tree: its nodes by index in preorder (the root is 0, a parent before its children)."""

    parent: tuple[int, ...]
    """Each node's parent (-1 for the root)."""
    children: tuple[tuple[int, ...], ...]
    """Each node's children, left to right (empty for a leaf)."""
    labels: tuple[str, ...]
    """Each node's label (``""`` for none)."""
    values: tuple[float | None, ...]
    """A leaf's value; an inner node's static value as written (``None``: not written)."""
    static: tuple[float, ...]
    """Every node's static value, MAX's point of view: a leaf's value, an inner node's written one, else the mean
    of the leaf values below it."""
    probabilities: tuple[str, ...]
    """A chance node's child's probability as written (``""`` below a player's node)."""
    player: tuple[Player, ...]
    """The player to move at each node: +1 MAX, -1 MIN, ``CHANCE`` at a chance node (alternating below the root,
    a chance node's children moved by the player who did not move into it)."""
    depth: tuple[int, ...]
    """Plies below the root."""
    text: str
    """The whole tree, written as ``TreeGame.parse`` reads it back (canonical: no spaces, no comments)."""

    @property
    def lo(self) -> float:
        """The least static value in the tree (leaves included)."""
        return min(self.static)

    @property
    def hi(self) -> float:
        """The greatest static value in the tree (leaves included)."""
        return max(self.static)

    @property
    def has_chance(self) -> bool:
        """Whether some node is a chance node."""
        return CHANCE in self.player

    @cached_property
    def _ranks(self) -> dict[float, int]:
        """Each leaf value's rank among the distinct leaf values of its sign: 1, 2... away from 0, signed."""
        values = {value for node, value in enumerate(self.static) if not self.children[node]}
        above = sorted(v for v in values if v > 0)
        below = sorted((v for v in values if v < 0), reverse=True)
        ranks = {0.0: 0}
        ranks.update({v: rank for rank, v in enumerate(above, start=1)})
        ranks.update({v: -rank for rank, v in enumerate(below, start=1)})
        return ranks

    def outcome(self, node: int) -> int:
        """The leaf ``node``'s result as a whole number that orders the leaves as their values do and has their
        sign (its rank among the distinct values of its sign, counted from 0 outwards): for searchers that bound
        a game's result by whole numbers (best-first minimax)."""
        return self._ranks[self.static[node]]

    def open_outcomes(self) -> tuple[int, int]:
        """Bounds on the ``outcome`` of a node not searched yet: one beyond the lowest and the highest, so that a
        node is only exact once every leaf that could matter below it has been reached."""
        ranks = self._ranks.values()
        return (min(ranks) - 1, max(ranks) + 1)

    @cached_property
    def exact(self) -> tuple[float, ...]:
        """Each node's exact value, MAX's point of view: a leaf's value, the best child's for the player to move,
        a chance node's expectation (expectiminimax; minimax on a tree without chance)."""
        values = list(self.static)
        for node in range(len(values) - 1, -1, -1):
            kids = self.children[node]
            if not kids:
                continue
            player = self.player[node]
            if player == CHANCE:
                values[node] = sum(self.probability(kid) * values[kid] for kid in kids)
            else:
                values[node] = max(values[k] for k in kids) if player == 1 else min(values[k] for k in kids)
        return tuple(values)

    def is_leaf(self, node: int) -> bool:
        """Whether ``node`` has no children (a terminal position)."""
        return not self.children[node]

    def probability(self, node: int) -> float:
        """The probability of ``node`` below its chance node (1 below a player's node)."""
        return _probability(self.probabilities[node]) if self.probabilities[node] else 1.0

    def subtree_text(self, node: int) -> str:
        """The subtree at ``node``, written as the tree is (with ``min:`` when MIN moves first there)."""
        return ("min:" if self.first_player(node) == -1 else "") + self._written(node)

    def first_player(self, node: int) -> Player:
        """The player at ``node``, or at a chance node the player who chooses after nature."""
        while self.player[node] == CHANCE:
            node = self.children[node][0]
        return self.player[node]

    def _written(self, node: int) -> str:
        parts: list[str] = []
        stack: list[tuple[int, int]] = [(node, 0)]
        while stack:
            at, child = stack.pop()
            kids = self.children[at]
            if child == 0:
                if at != node and self.probabilities[at]:
                    parts.append(self.probabilities[at] + ":")
                parts.append(_head(self.labels[at], self.values[at], bool(kids), self.player[at] == CHANCE))
                if not kids:
                    continue
                parts.append("(")
            elif child < len(kids):
                parts.append(",")
            if child < len(kids):
                stack.append((at, child + 1))
                stack.append((kids[child], 0))
            else:
                parts.append(")")
        return "".join(parts)

    def with_value(self, node: int, value: float) -> Tree:
        """This tree with the leaf ``node``'s value set to ``value`` (nothing else changes)."""
        if not self.is_leaf(node):
            raise TreeError("only a leaf's value can be edited")
        check_value(value)
        values = list(self.values)
        values[node] = value
        return _build(self.parent, self.children, self.labels, values, self.probabilities, self.player)


def _head(label: str, value: float | None, inner: bool, chance: bool) -> str:
    """A node as written before its children: ``B``, ``B?``, ``B=5``, ``x=3``, ``3``."""
    number = "" if value is None else number_text(value)
    if not inner:
        return f"{label}={number}" if label else number
    return label + ("?" if chance else "") + (f"={number}" if number else "")


def number_text(value: float) -> str:
    """``3``, ``-2.5``: a value as a tree writes it (a whole number without its point)."""
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def check_value(value: float) -> None:
    """Raise ``TreeError`` unless ``value`` can be a leaf's value (finite, within ``MAX_VALUE``)."""
    if not (math.isfinite(value) and abs(value) <= MAX_VALUE):
        raise TreeError(f"value {value:g}: a value must be a number from -{MAX_VALUE:,.0f} to {MAX_VALUE:,.0f}")


def _probability(text: str) -> float:
    """A probability as written: ``0.5`` or ``1/6``."""
    top, slash, bottom = text.partition("/")
    return float(top) / float(bottom) if slash else float(top)


_TOKEN = re.compile(
    r"(?P<space>(?:\s|#[^\n]*)+)"
    r"|(?P<number>[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?(?:/[0-9]+)?)"
    r"|(?P<label>[A-Za-z][A-Za-z0-9_']*)"
    r"|(?P<mark>.)",
    re.DOTALL,
)
"""The words of a tree: spaces and comments (skipped), numbers (a fraction too, for probabilities), labels and
single characters."""


class _Reader:
    """Reads one tree's text, word by word, naming the place where it fails."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._matches = (match for match in _TOKEN.finditer(text) if match.lastgroup != "space")
        self.words: list[tuple[str, str, int]] = []
        """The words read so far: kind, text and where each starts (read as the parser needs them, so that the node
        cap stops a huge text early)."""
        self.at = 0
        """The next word's index."""
        self.parent: list[int] = []
        self.children: list[list[int]] = []
        self.labels: list[str] = []
        self.values: list[float | None] = []
        self.probabilities: list[str] = []
        self.chance: list[bool] = []
        self.sibling_labels: set[tuple[int, str]] = set()
        """Each labelled node's parent and label: siblings' labels must differ (a move names a child by its label)."""

    def word(self, index: int) -> tuple[str, str, int]:
        """The ``index``-th word (``("end", "", length)`` past the last one)."""
        words = self.words
        while len(words) <= index:
            match = next(self._matches, None)
            if match is None:
                words.append(("end", "", len(self.text)))
            else:
                words.append((match.lastgroup or "", match.group(), match.start()))
        return words[index]

    def fail(self, what: str, word: int | None = None) -> TreeError:
        """An error naming the character where the word ``word`` (the next by default) starts."""
        kind, _, at = self.word(self.at if word is None else word)
        text = self.text
        if kind == "end":
            where = "at the end"
        else:
            line = text.count("\n", 0, at) + 1
            column = at - (text.rfind("\n", 0, at) + 1) + 1
            place = f"character {at + 1}" if "\n" not in text else f"line {line}, column {column}"
            where = f"at {place} ('{shown(text[at])}')"
        return TreeError(f"tree {where}: {what}")

    def peek(self) -> str:
        """The next word if it is a mark (``(``, ``)``, ``,``, ``:``, ``?``, ``=``), ``""`` at the end, else its
        kind."""
        kind, written, _ = self.word(self.at)
        return written if kind == "mark" else "" if kind == "end" else kind

    def number(self, what: str) -> float:
        """The number next (``what`` the error says when there is none)."""
        kind, written, _ = self.word(self.at)
        if kind != "number" or "/" in written:
            raise self.fail(what)
        value = float(written)
        if not (math.isfinite(value) and abs(value) <= MAX_VALUE):
            raise self.fail(f"{shown(written)} is beyond ±{MAX_VALUE:,.0f}")
        self.at += 1
        return value

    def probability_text(self) -> str:
        start = self.at
        kind, written, _ = self.word(start)
        if kind != "number" or written[0] in "+-":
            raise self.fail("a probability (like 0.5 or 1/6) expected below a chance node ?")
        self.at += 1
        if self.peek() != ":":
            raise self.fail("':' expected: a chance node's child is written PROBABILITY:NODE, like 0.5:3")
        self.at += 1
        try:
            value = _probability(written)
        except ZeroDivisionError:
            raise self.fail(f"{written} divides by 0", start) from None
        if not 0 < value <= 1:
            raise self.fail(f"probability {written} is not above 0 and at most 1", start)
        return written

    def node(self, parent: int, probability: str) -> int:
        """Read a node's head (label, ``?``, ``=value`` or a leaf value); returns its index.  Its children, if it
        has any, are read by ``read``."""
        if len(self.parent) >= MAX_NODES:
            raise self.fail(f"more than {MAX_NODES:,} nodes")
        label = ""
        if self.peek() == "label":
            label = self.word(self.at)[1]
            if (parent, label) in self.sibling_labels:
                raise self.fail(
                    f"a second child labelled {label} here: siblings need different labels (a move names one)"
                )
            self.sibling_labels.add((parent, label))
            self.at += 1
        chance = self.peek() == "?"
        if chance:
            self.at += 1
        value: float | None = None
        if self.peek() == "=":
            self.at += 1
            value = self.number("a value expected after '='")
        elif not label and not chance and self.peek() != "(":
            value = self.number("a node expected: a value, a label or '('")
        if self.peek() != "(" and (chance or value is None):
            raise self.fail(f"'(' expected after {'the chance node' if chance else 'the label ' + label}")
        index = len(self.parent)
        self.parent.append(parent)
        self.children.append([])
        self.labels.append(label)
        self.values.append(value)
        self.probabilities.append(probability)
        self.chance.append(chance)
        if parent >= 0:
            self.children[parent].append(index)
        return index

    def read(self) -> Tree:
        root_player = 1
        first, colon = self.word(0), self.word(1)
        if first[0] == "label" and first[1] in ("min", "max") and colon[1] == ":" and colon[0] == "mark":
            root_player = -1 if first[1] == "min" else 1
            self.at = 2
        open_nodes: list[int] = []
        """The inner nodes whose children are being read, outermost first."""
        node = self.node(-1, "")
        while True:
            if self.peek() == "(":
                if len(open_nodes) >= MAX_DEPTH:
                    raise self.fail(f"deeper than {MAX_DEPTH} plies")
                self.at += 1
                open_nodes.append(node)
                if self.peek() == ")":
                    raise self.fail("a node needs at least one child: '()' is empty")
            elif self._closed(open_nodes):
                break
            parent = open_nodes[-1]
            probability = self.probability_text() if self.chance[parent] else ""
            node = self.node(parent, probability)
        players = _players(self.parent, self.chance, root_player)
        return _build(self.parent, self.children, self.labels, self.values, self.probabilities, players)

    def _closed(self, open_nodes: list[int]) -> bool:
        """After a node: read the ``)`` that close ``open_nodes`` and the ``,`` before the next node; true when the
        tree is over (and nothing follows it)."""
        while open_nodes:
            char = self.peek()
            if char == ",":
                self.at += 1
                return False
            if char == ")":
                self.at += 1
                self._close(open_nodes.pop())
                continue
            if char == "":
                raise self.fail(f"{len(open_nodes)} '(' not closed")
            raise self.fail("',' or ')' expected")
        if self.peek():
            raise self.fail("the tree is over: nothing may follow it")
        return True

    def _close(self, node: int) -> None:
        """Check the children of the chance node ``node`` as its ``)`` is read."""
        if not self.chance[node]:
            return
        total = sum(_probability(self.probabilities[child]) for child in self.children[node])
        if not math.isclose(total, 1.0, abs_tol=1e-9):
            raise self.fail(f"the probabilities of this chance node's children add up to {total:g}, not 1", self.at - 1)


def _players(parent: Sequence[int], chance: Sequence[bool], root_player: Player) -> list[Player]:
    """Each node's player: ``CHANCE`` at chance nodes; players alternate, and below a chance node moves the player
    who did not move into it (``root_player`` at the first choice when the tree starts with nature)."""
    players: list[Player] = []
    mover: list[Player] = []
    """For each node, the player who moves next after it (its children's player)."""
    for index, up in enumerate(parent):
        if up < 0:
            own = CHANCE if chance[index] else root_player
            after = root_player if chance[index] else -root_player
        else:
            own = CHANCE if chance[index] else mover[up]
            after = mover[up] if chance[index] else -own
        players.append(own)
        mover.append(after)
    return players


def _build(
    parent: Sequence[int],
    children: Sequence[Sequence[int]],
    labels: Sequence[str],
    values: Sequence[float | None],
    probabilities: Sequence[str],
    players: Sequence[Player],
) -> Tree:
    """The ``Tree`` of these nodes (in preorder): depths, static values and text worked out."""
    count = len(parent)
    depth = [0] * count
    for index in range(1, count):
        depth[index] = depth[parent[index]] + 1
    sums = [0.0] * count
    leaves = [0] * count
    for index in range(count - 1, -1, -1):
        if not children[index]:
            value = values[index]
            assert value is not None
            sums[index] += value
            leaves[index] += 1
        if index > 0:
            sums[parent[index]] += sums[index]
            leaves[parent[index]] += leaves[index]
    static = tuple(v if v is not None else sums[i] / leaves[i] for i, v in enumerate(values))
    tree = Tree(
        tuple(parent),
        tuple(tuple(kids) for kids in children),
        tuple(labels),
        tuple(values),
        static,
        tuple(probabilities),
        tuple(players),
        tuple(depth),
        "",
    )
    return replace(tree, text=tree.subtree_text(0))


def read_tree(text: str) -> Tree:
    """The tree written ``text`` (see the module's docstring); raises ``TreeError`` naming the failing character."""
    return _Reader(text).read()


class TreeGame:
    """One hand-written tree: the ``Game`` whose positions are its nodes."""

    name = NAME
    kit = "tree"

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self._start = TreeState(self, 0)

    @classmethod
    def built_in(cls, name: str = "classic") -> TreeGame:
        """The built-in tree ``name`` (``BUILT_IN``)."""
        return cls(read_tree(BUILT_IN[name]))

    def __repr__(self) -> str:
        return f"TreeGame({shown(self.tree.text, 40)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TreeGame) and other.tree.text == self.tree.text

    def __hash__(self) -> int:
        return hash((NAME, self.tree.text))

    @property
    def family(self) -> str:
        """``tree``, or ``tree-chance`` when the tree has a chance node (the registry's game families)."""
        return "tree-chance" if self.tree.has_chance else "tree"

    def start(self) -> TreeState:
        """The root of the tree."""
        return self._start

    def parse(self, text: str) -> TreeState:
        """The root of the tree ``text`` writes, of the built-in tree it names, or of the tree in the file it names
        (text without ``(``, ``:`` or ``=`` that is not a number or a built-in name)."""
        written = text.strip()
        if written in BUILT_IN:
            return TreeGame.built_in(written).start()
        if not any(mark in written for mark in "(:=") and not _NUMBER.fullmatch(written):
            written = _read_file(written)
        return TreeGame(read_tree(written)).start()

    def with_value(self, node: int, value: float) -> TreeGame:
        """This tree with the leaf ``node`` valued ``value``."""
        return TreeGame(self.tree.with_value(node, value))


def _read_file(path: str) -> str:
    """The text of the tree file ``path``; a ``TreeError`` saying why it cannot be read."""
    if not path:
        raise TreeError(f"no tree: write one like ((3,12,8),(2,4,6),(14,5,2)), or name {', '.join(BUILT_IN)}")
    try:
        data = read_regular_file(path, MAX_FILE_BYTES, "a tree")
    except UserError as error:
        raise TreeError(
            f"'{shown(path)}' is not a tree, a built-in tree ({', '.join(BUILT_IN)}) or a readable file: {error}"
        ) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise TreeError(f"{shown(path)}: not a text file (UTF-8), so not a tree") from None


class TreeState:
    """A node of a hand-written tree, as a game position."""

    __slots__ = ("game", "node")

    game: TreeGame
    node: int
    """The node's index in ``game.tree`` (0: the root)."""

    def __init__(self, game: TreeGame, node: int) -> None:
        self.game = game
        self.node = node

    @property
    def tree(self) -> Tree:
        return self.game.tree

    @property
    def player(self) -> Player:
        return self.game.tree.player[self.node]

    @property
    def mover(self) -> Player:
        """At a chance node, the player who moved into it (the other one moves after nature)."""
        return -self.game.tree.first_player(self.node)

    @property
    def ply(self) -> int:
        """Plies below the tree's root."""
        return self.game.tree.depth[self.node]

    def legal_moves(self) -> Sequence[int]:
        """The children's indices, left to right (0 first)."""
        return range(len(self.game.tree.children[self.node]))

    def play(self, move: Move) -> TreeState:
        assert isinstance(move, int)
        return TreeState(self.game, self.game.tree.children[self.node][move])

    def is_terminal(self) -> bool:
        return not self.game.tree.children[self.node]

    def value(self) -> float:
        """The static value (a leaf's value), MAX's point of view."""
        return self.game.tree.static[self.node]

    def winner(self) -> Player | None:
        """At a leaf, its value's sign (+1 MAX won, -1 MIN won, 0 a draw); ``None`` elsewhere."""
        if self.game.tree.children[self.node]:
            return None
        value = self.game.tree.static[self.node]
        return (value > 0) - (value < 0)

    def utility(self) -> int:
        winner = self.winner()
        if winner is None:
            raise ValueError("utility() of an inner node: the game goes on")
        return winner

    def key(self) -> int:
        """The node's index: every node is a position of its own (no two nodes transpose)."""
        return self.node

    def move_label(self, move: Move) -> str:
        """The child's label, else its number counted from 1."""
        assert isinstance(move, int)
        tree = self.game.tree
        return tree.labels[tree.children[self.node][move]] or str(move + 1)

    def parse_move(self, text: str) -> int:
        """The child written ``text``: its label or its number counted from 1."""
        written = text.strip()
        for move in self.legal_moves():
            if written == self.move_label(move) or written == str(move + 1):
                return move
        choices = ", ".join(self.move_label(move) for move in self.legal_moves())
        if not choices:
            raise PositionError(f"move '{shown(written)}': this node is a leaf, the game is over")
        raise PositionError(f"move '{shown(written)}' is not a child here: choose {choices}")

    def outcomes(self) -> Sequence[tuple[int, float]]:
        """At a chance node, each child with its probability."""
        tree = self.game.tree
        return [(move, tree.probability(child)) for move, child in enumerate(tree.children[self.node])]

    def outcome_for(self, draw: float) -> int:
        """The child a uniform ``draw`` in [0, 1) picks at a chance node (each with its probability)."""
        total = 0.0
        outcomes = self.outcomes()
        for move, probability in outcomes:
            total += probability
            if draw < total:
                return move
        return outcomes[-1][0]

    def text(self) -> str:
        """The subtree at this node, as ``TreeGame.parse`` reads it (``min:`` before it when MIN moves first)."""
        tree = self.game.tree
        return tree.text if self.node == 0 else tree.subtree_text(self.node)

    def label(self) -> str:
        """The node's label, else its nearest labelled ancestor's and the moves from there counted from 1 (``B.2``,
        ``2.1`` below an unlabelled root), or ``root``."""
        tree = self.game.tree
        path: list[str] = []
        node = self.node
        while node > 0 and not tree.labels[node]:
            up = tree.parent[node]
            path.append(str(tree.children[up].index(node) + 1))
            node = up
        if tree.labels[node]:
            path.append(tree.labels[node])
        return ".".join(reversed(path)) or "root"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TreeState) and self.node == other.node and self.game == other.game

    def __hash__(self) -> int:
        return hash((self.game, self.node))

    def __repr__(self) -> str:
        return f"<TreeState {self.label()} of {self.game!r}>"
