"""A uniform synthetic game tree for search tests: branching ``b``, depth ``d``, given leaf values.

Positions are numbered like the nodes of a complete ``b``-ary tree: the root is ``0`` at ply
0, and move ``i`` (``0 <= i < b``) from position ``n`` leads to ``n * b + i``.  The first
player (MAX) moves at even plies.  Every value here is from the first player's point of view.

Leaf values come in one of three ways:

* ``perfect`` (the default): the first child of every node is the best one for the player to
  move there, so alpha-beta meets the perfect ordering of Knuth and Moore.
* ``worst``: the best child of every node comes last, and alpha-beta prunes nothing.
* ``leaves``: an explicit list of the ``b ** d`` leaf values, left to right.

Built trees (``perfect`` and ``worst``) give a leaf the value of its moves read as digits in
base ``W = 2b``, most significant first: move ``i`` at ply ``k`` adds ``i * W ** (d - 1 - k)``,
counted positive when it helps the player who chose it in a ``worst`` tree and negative in a
``perfect`` one.  Since ``W > 2b - 1``, the leaves below one child all lie on one side of the
leaves below its sibling, so all leaves differ, every node's children are strictly ordered,
and no bound from an ancestor's other branches ever falls inside a later subtree: a ``worst``
tree really is searched in full.

``SyntheticEvaluator`` scores a leaf by its value, and an inner position by its exact minimax
value in ``perfect`` and ``worst`` trees (a perfect static evaluator), or by its leftmost
leaf's value for explicit leaves.  ``utility()`` is the sign of a leaf's value.
"""

from __future__ import annotations

from collections.abc import Sequence


class SyntheticGame:
    """A uniform tree of branching ``branching`` and depth ``depth``; also the ``Game`` object."""

    kit = "hand-made"
    """The tests' kit (``tests.conftest.HandMadeKit``)."""

    def __init__(
        self, branching: int, depth: int, *, leaves: Sequence[float] | None = None, order: str = "perfect"
    ) -> None:
        if leaves is not None and len(leaves) != branching**depth:
            raise ValueError(f"{len(leaves)} leaf values for a tree with {branching**depth} leaves")
        if order not in ("perfect", "worst"):
            raise ValueError(f"order '{order}' is not perfect or worst")
        self.branching = branching
        self.depth = depth
        self.leaves = None if leaves is None else tuple(leaves)
        self.order = order
        self.name = f"synthetic:{branching}x{depth}"

    def weight(self, ply: int) -> int:
        """The place value of a move at ``ply`` in a built tree's leaf values."""
        return int((2 * self.branching) ** (self.depth - 1 - ply))

    def best_continuation(self, ply: int) -> int:
        """What best play from ``ply`` to the leaves adds to a built tree's value: 0 in a ``perfect``
        tree (every first move), the last move everywhere in a ``worst`` one."""
        if self.order == "perfect":
            return 0
        last = self.branching - 1
        return sum((1 if k % 2 == 0 else -1) * last * self.weight(k) for k in range(ply, self.depth))

    def start(self) -> SyntheticState:
        return SyntheticState(self, 0, 0, 0)

    def parse(self, text: str) -> SyntheticState:
        """The position after the moves written as digits separated by spaces (``"0 2 1"``)."""
        state = self.start()
        for word in text.split():
            state = state.play(state.parse_move(word))
        return state


class SyntheticState:
    """A node of the synthetic tree: its number at its ply, and the digits its moves wrote so far."""

    __slots__ = ("game", "index", "ply", "score")

    def __init__(self, game: SyntheticGame, index: int, ply: int, score: int) -> None:
        self.game = game
        self.index = index
        """The node's position among the nodes of its ply, left to right."""
        self.ply = ply
        self.score = score
        """The signed digits of the moves so far (built trees; first player's view)."""

    @property
    def player(self) -> int:
        return 1 if self.ply % 2 == 0 else -1

    def legal_moves(self) -> Sequence[int]:
        return range(self.game.branching) if self.ply < self.game.depth else ()

    def play(self, move: object) -> SyntheticState:
        assert isinstance(move, int)
        game = self.game
        digit = move * self.player * game.weight(self.ply)
        score = self.score - digit if game.order == "perfect" else self.score + digit
        return SyntheticState(game, self.index * game.branching + move, self.ply + 1, score)

    def is_terminal(self) -> bool:
        return self.ply >= self.game.depth

    def leaf_value(self) -> float:
        """The value of this leaf, or of the leftmost leaf below this node (first player's view)."""
        game = self.game
        if game.leaves is None:
            return float(self.score + game.best_continuation(self.ply))
        return float(game.leaves[self.index * int(game.branching ** (game.depth - self.ply))])

    def winner(self) -> int | None:
        if not self.is_terminal():
            return None
        value = self.leaf_value()
        return (value > 0) - (value < 0)

    def utility(self) -> int:
        winner = self.winner()
        if winner is None:
            raise ValueError("utility() of an inner node")
        return winner

    def key(self) -> tuple[int, int]:
        return (self.ply, self.index)

    def move_label(self, move: object) -> str:
        return str(move)

    def parse_move(self, text: str) -> int:
        move = int(text)
        if move not in self.legal_moves():
            raise ValueError(f"move '{text}' is not legal here")
        return move

    def text(self) -> str:
        digits = []
        index = self.index
        for _ in range(self.ply):
            index, move = divmod(index, self.game.branching)
            digits.append(str(move))
        return " ".join(reversed(digits))


class SyntheticEvaluator:
    """Scores synthetic positions from the first player's point of view (see the module docstring)."""

    name = "synthetic"
    lo = -1e9
    hi = 1e9

    def __call__(self, state: object) -> float:
        assert isinstance(state, SyntheticState)
        return state.leaf_value()


def knuth_moore_leaves(branching: int, depth: int) -> int:
    """Leaves alpha-beta evaluates on a uniform tree with perfect ordering: b^ceil(d/2) + b^floor(d/2) - 1."""
    return int(branching ** ((depth + 1) // 2) + branching ** (depth // 2) - 1)
