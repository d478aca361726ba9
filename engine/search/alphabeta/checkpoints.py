"""Alpha-beta's way back: checkpoints of its frame stack, and a short replay (``searcher.AlphaBeta``).

A step back must give back the frame stack (each open node's children to try, its window,
its best move so far, its horizon flag), the values and windows of the open nodes, the
tree as it was (the nodes visited since removed), the iteration's bookkeeping, and the
table's and the history's contents.  A journal of all that costs tens of bytes a step
(the old numbers of every node a step completes, the frames it closes), while a step makes
one node of 192 bytes: with the timeline's own 20 or so bytes a step, past the timeline's
budget of a quarter of the tree's memory.  The trade-off taken instead: a little memory,
and at most ``CHECKPOINT_STEPS`` steps replayed per step back.

* After each iteration's first step, and then at the first visit of an inner node once
  ``CHECKPOINT_STEPS`` steps have passed, the search notes its frame stack in flat arrays:
  per open node its next child, horizon flag, best move so far, value, alpha and beta
  (33 bytes), and the stats.  Nothing else is needed: the open nodes are a chain (each
  is the last child visited of the one below), and a node, once complete, never changes.
* The table's writes are journalled (only with the table): a write notes its key and the
  entry it replaces, in arrays (10 bytes, 22 when it replaces one).  The history's scores
  (a score per player and move: a few dozen numbers) are copied into each checkpoint.
* Going back to step ``k`` starts from the last checkpoint at or before it: the open
  nodes get back their numbers there and lose the children visited since, the frames
  closed since are made again from their nodes (their children's moves in order, then
  the count pruned; the positions replayed from their parents'), the table's journal is
  rolled back, and the search is replayed on the fast path for the steps from the
  checkpoint to ``k`` (the searcher is deterministic, so they are the steps it took).

One step back (or a thousand) therefore costs a restore and about ``CHECKPOINT_STEPS``
steps replayed at most (5-10 ms for alpha-beta, 10-20 for ``ab-rivest``) whatever the
length of the search, for about 0.3 KB a checkpoint: with 1,024 steps between them, well
under 1% of the tree's memory.  Halving the interval would halve the replay and double
that; a full journal would make a step back cost one step but take 10-20% of the tree.

Earlier iterations: a new iteration's tree replaces the last complete one, and when it
completes the one before is let go.  That tree is kept only along its principal variation
(each node there with its best child alone: what ``best_move``, ``value`` and
``principal_path`` read of the last complete iteration while the next one runs), so a
step back into the iteration still running finds it as it was for those.  A step in an
iteration whose tree is no longer whole is reached by going back to that iteration's
start and replaying it, ``REPLAY_SLICE`` steps a call (its cost is at most that
iteration's length, a fraction of the whole search since iterations grow geometrically).
"""

from __future__ import annotations

import math
import sys
from array import array
from bisect import bisect_right
from collections.abc import Hashable, Sequence

from plyscope.engine.games.base import Move, State
from plyscope.engine.search.alphabeta.searcher import (
    EXACT,
    LOWER,
    NO_EVALS,
    UPPER,
    AlphaBeta,
    AlphaBetaNode,
    Frame,
    TableEntry,
    best_completed_child,
    table_key,
)
from plyscope.engine.search.base import NO_CHILDREN, Limit
from plyscope.engine.travel.protocol import Travel

INF = math.inf

BOUNDS = (EXACT, LOWER, UPPER)
"""The bounds by code, in the journals."""

CHECKPOINT_STEPS = 1024
"""Steps between two checkpoints of the frame stack (a few more: one is taken when an inner node is visited):
going back replays about this many steps at most."""
REPLAY_SLICE = 4 * CHECKPOINT_STEPS
"""The most steps ``back`` replays in one call (about 20-40 ms)."""
RESTORE_COST = 64
"""What restoring a checkpoint costs (frames made again from their nodes), in steps replayed, roughly."""
_CP = 8
"""Numbers per checkpoint in ``Checkpoints.checkpoints``: step, iteration (index in ``rounds``), moves, nodes,
max depth, table journal length, end of its history scores and of its frames in the arrays that keep them."""


class Round:
    """One iteration, for going back: the search as it was just before its first step, and the tree it builds."""

    __slots__ = (
        "checkpoints",
        "completed",
        "completed_nodes",
        "depth",
        "history",
        "max_depth",
        "moves",
        "nodes",
        "root",
        "start",
        "table",
        "whole",
    )

    def __init__(self, searcher: AlphaBeta, journal: Checkpoints, root: AlphaBetaNode) -> None:
        stats = searcher.stats
        self.start = stats.iterations + 1
        """The number of its first step (the one that opens its root)."""
        self.depth = searcher.iteration
        self.moves = stats.moves
        self.nodes = stats.nodes
        self.max_depth = stats.max_depth
        """The stats before its first step."""
        self.table = len(journal.table_keys)
        """The table journal's length before its first step."""
        self.history = {player: dict(scores) for player, scores in searcher.history.items()}
        """The history's scores before its first step."""
        self.checkpoints = len(journal.checkpoints) // _CP
        """The number of checkpoints taken before it."""
        self.completed = searcher.completed_root
        self.completed_nodes = searcher.completed_nodes
        """The last complete iteration's root (and its nodes) while this one runs."""
        self.root = root
        """The root of the tree it builds."""
        self.whole = True
        """False once the tree is kept only along its principal variation (two iterations later)."""


class Checkpoints(Travel[AlphaBeta]):
    """What an ``AlphaBeta`` keeps for going back: its iterations, its checkpoints and its table's journal (see the
    module); the search tells it what it does through its hooks (``started``, ``checkpoint`` when ``due``,
    ``table_write``, ``completed``)."""

    __slots__ = (
        "checkpoints",
        "codes",
        "due",
        "frame_best",
        "frame_horizon",
        "frame_next",
        "frame_numbers",
        "moves_by_code",
        "rounds",
        "saved_moves",
        "saved_players",
        "saved_scores",
        "table_keys",
        "table_moves",
        "table_olds",
        "table_values",
    )

    def __init__(self, searcher: AlphaBeta) -> None:
        super().__init__(searcher)
        self.due = 0
        """The step after which the next checkpoint is due (``AlphaBeta._enter`` takes it)."""
        self.rounds: list[Round] = []
        """The iterations begun, in order."""
        self.checkpoints = array("q")
        """``_CP`` numbers per checkpoint, in step order."""
        self.frame_next = array("I")
        self.frame_horizon = array("b")
        self.frame_best = array("i")
        """Per frame of a checkpoint: its next child, its horizon flag, its best move's code (-1: none yet)..."""
        self.frame_numbers = array("d")
        """... and its node's value (0 while ``None``), alpha and beta."""
        self.table_keys: array[int] | list[Hashable] = array("Q")
        """The key of every table write, in order (in an array while the keys are integers of 64 bits, as
        Connect Four's are; a list otherwise)."""
        self.table_olds = array("H")
        """Per table write, the entry it replaced: 0 if there was none, else its remaining depth + 1 times 8, plus
        its bound's code, plus 4 if it reached the horizon..."""
        self.table_moves = array("i")
        self.table_values = array("d")
        """... and, for each write that replaced an entry (most are new), that entry's best move (code) and value."""
        self.saved_players = array("b")
        self.saved_moves = array("i")
        self.saved_scores = array("q")
        """The history's scores at each checkpoint: player, move's code, score (a checkpoint's run of them ends
        where its ``_CP`` numbers say)."""
        self.codes: dict[Move, int] = {}
        self.moves_by_code: list[Move] = []

    def started(self, root: AlphaBetaNode) -> None:
        """The step under way begins an iteration whose tree has ``root`` (before it changes anything)."""
        self.rounds.append(Round(self.searcher, self, root))

    def completed(self) -> None:
        """An iteration is complete: the tree of the one before it is let go, but for its principal variation (what
        a step back into the iteration running reads of the last complete one)."""
        rounds = self.rounds
        if len(rounds) > 1 and rounds[-2].whole:
            rounds[-2].whole = False
            _keep_principal_line(rounds[-2].root)

    def _code(self, move: Move) -> int:
        """A small number for ``move``, for the arrays of the checkpoints and journals."""
        code = self.codes.get(move)
        if code is None:
            code = self.codes[move] = len(self.moves_by_code)
            self.moves_by_code.append(move)
        return code

    def table_write(self, key: Hashable, old: TableEntry | None) -> None:
        """The step under way writes the table at ``key`` over ``old`` (``None``: no entry there yet)."""
        keys = self.table_keys
        if isinstance(keys, array) and isinstance(key, int) and 0 <= key < 1 << 64:
            keys.append(key)
        else:
            if isinstance(keys, array):  # (a key that is no integer of 64 bits: the keys from now on in a list)
                keys = self.table_keys = list[Hashable](keys)
            keys.append(key)
        if old is None:
            self.table_olds.append(0)
        else:
            move = old[3]
            self.table_olds.append(8 * (old[0] + 1) + BOUNDS.index(old[2]) + 4 * old[4])
            self.table_moves.append(-1 if move is None else self._code(move))
            self.table_values.append(old[1])

    def checkpoint(self, step: int) -> None:
        """Note the frame stack, the open nodes' numbers and the stats, as they are after ``step`` steps (at the
        start of a step that has changed nothing yet, or at the end of one not counted yet)."""
        searcher = self.searcher
        for player, scores in searcher.history.items():
            for move, score in scores.items():
                self.saved_players.append(player)
                self.saved_moves.append(self._code(move))
                self.saved_scores.append(score)
        numbers = self.frame_numbers
        for frame in searcher.frames:
            node = frame.node
            best = frame.best_move
            self.frame_next.append(frame.next)
            self.frame_horizon.append(frame.horizon)
            self.frame_best.append(-1 if best is None else self._code(best))
            value = node.value
            numbers.extend((0.0 if value is None else value, node.alpha, node.beta))
        stats = searcher.stats
        self.checkpoints.extend(
            (
                step,
                len(self.rounds) - 1,
                stats.moves,
                stats.nodes,
                stats.max_depth,
                len(self.table_keys),
                len(self.saved_scores),
                len(self.frame_next),
            )
        )
        self.due = step + CHECKPOINT_STEPS

    def _round_of(self, step: int) -> int:
        """The index in ``rounds`` of the iteration whose tree is the root after ``step`` (-1 for step 0)."""
        rounds = self.rounds
        index = len(rounds) - 1
        while index >= 0 and rounds[index].start > step:
            index -= 1
        return index

    def _checkpoint_before(self, step: int) -> int:
        """The index of the last checkpoint taken at or before ``step``."""
        checkpoints = self.checkpoints
        return bisect_right(range(len(checkpoints) // _CP), step, key=lambda index: checkpoints[_CP * index]) - 1

    def cost(self, step: int) -> float:
        searcher = self.searcher
        if step >= searcher.stats.iterations:
            return 0.0
        index = self._round_of(step)
        if index < 0:
            return 0.0
        round_ = self.rounds[index]
        if not round_.whole:
            return RESTORE_COST + step - (round_.start - 1)
        return RESTORE_COST + step - self.checkpoints[_CP * self._checkpoint_before(step)]

    def back(self, step: int) -> int:
        """Go back to the search as it was after ``step``: from the last checkpoint at or before it in an
        iteration whose tree is whole (the running one, or the last complete one), else from the start of the
        iteration, replaying the steps in between (see the module's docstring).

        From a checkpoint the replay is short and ``step`` is reached in one call.  From an iteration's start at
        most ``REPLAY_SLICE`` steps are replayed: the step returned is then below ``step``, and the caller runs
        the search on to it (as the timeline does going forward, a chunk at a time)."""
        searcher = self.searcher
        stats = searcher.stats
        if step >= stats.iterations:
            return stats.iterations
        seconds = stats.seconds
        index = self._round_of(max(step, 0))
        if index < 0:
            self._restore_round_start(0)
        elif self.rounds[index].whole:
            self._restore_checkpoint(self._checkpoint_before(step))
        else:
            self._restore_round_start(index)
        if stats.iterations < step:
            searcher.run(Limit(iterations=min(step - stats.iterations, REPLAY_SLICE)))
        stats.seconds = seconds
        return stats.iterations

    def _restore_round_start(self, index: int) -> None:
        """Put the search back as it was before the first step of the iteration ``rounds[index]``.

        The root is then the last complete iteration's (kept only along its principal variation, perhaps: the
        next step replaces it, and only its line is read before that), or a new root for the first iteration."""
        searcher = self.searcher
        round_ = self.rounds[index]
        if round_.completed is None:
            searcher.root = AlphaBetaNode(None, None, searcher.root_state.player, round_.depth, -INF, INF)
        else:
            searcher.root = round_.completed
        searcher.completed_root = round_.completed
        searcher.completed_nodes = round_.completed_nodes
        searcher.iteration = round_.depth
        searcher.solved = searcher.finished = False
        searcher.frames = []
        stats = searcher.stats
        stats.iterations = round_.start - 1
        stats.moves = round_.moves
        stats.nodes = round_.nodes
        stats.max_depth = round_.max_depth
        self._roll_back(round_.table)
        searcher.history = {player: dict(scores) for player, scores in round_.history.items()}
        self._drop_checkpoints(round_.checkpoints)
        del self.rounds[index:]
        self.due = 0

    def _restore_checkpoint(self, index: int) -> None:
        """Put the search back as it was at checkpoint ``index``, in place: its iteration's tree must be whole."""
        searcher = self.searcher
        checkpoints = self.checkpoints
        at = _CP * index
        step, round_index, moves, nodes, max_depth, table_length, scores_end, end = checkpoints[at : at + _CP]
        begin = checkpoints[at - 1] if index else 0
        scores_begin = checkpoints[at - 2] if index else 0
        round_ = self.rounds[round_index]
        assert round_.whole
        nexts = self.frame_next
        numbers = self.frame_numbers
        # First the frames, from the tree as it is (a frame closed since is made again from its node's children).
        old = searcher.frames
        frames: list[Frame] = []
        node = round_.root
        state = searcher.root_state
        alpha_in, beta_in = -INF, INF
        for depth in range(end - begin):
            frame = old[depth] if depth < len(old) and old[depth].node is node else None
            if frame is None:
                frame = self._reopened(node, state, alpha_in, beta_in)
            frames.append(frame)
            f = 3 * (begin + depth)
            alpha_in, beta_in = numbers[f + 1], numbers[f + 2]
            if depth + 1 < end - begin:
                child = nexts[begin + depth] - 1  # the open child: the last one visited
                states = frame.states
                node = node.children[child]
                state = frame.state.play(node.move) if states is None else states[child]
        # Then the open nodes' numbers, and their children as they were.
        decode = self.moves_by_code
        for depth, frame in enumerate(frames, begin):
            visited = nexts[depth]
            best = self.frame_best[depth]
            frame.next = visited
            frame.horizon = bool(self.frame_horizon[depth])
            frame.best_move = None if best < 0 else decode[best]
            node = frame.node
            f = 3 * depth
            node.value = None if best < 0 else numbers[f]
            node.alpha = numbers[f + 1]
            node.beta = numbers[f + 2]
            node.bound = None
            node.pruned = 0
            children = node.children
            if len(children) > visited:
                node.children = list(children[:visited]) if visited else NO_CHILDREN
        searcher.frames = frames
        searcher.root = round_.root
        searcher.completed_root = round_.completed
        searcher.completed_nodes = round_.completed_nodes
        searcher.iteration = round_.depth
        searcher.solved = searcher.finished = False
        stats = searcher.stats
        stats.iterations = step
        stats.moves = moves
        stats.nodes = nodes
        stats.max_depth = max_depth
        self._roll_back(table_length)
        history: dict[int, dict[Move, int]] = {1: {}, -1: {}}
        for saved in range(scores_begin, scores_end):
            history[self.saved_players[saved]][decode[self.saved_moves[saved]]] = self.saved_scores[saved]
        searcher.history = history
        self._drop_checkpoints(index + 1)
        del self.rounds[round_index + 1 :]
        self.due = step + CHECKPOINT_STEPS

    def _reopened(self, node: AlphaBetaNode, state: State, alpha_in: float, beta_in: float) -> Frame:
        """The frame that the complete ``node`` (at ``state``, entered with the window ``alpha_in, beta_in``) had
        while open: its visited children's moves in their order, then as many placeholders as it pruned (never
        visited again: going forward from the past, the node is complete again at the same step)."""
        searcher = self.searcher
        remaining = node.iteration - node.depth
        key = table_key(state, searcher.key_fixes_ply) if searcher.table is not None else None
        moves: list[Move] = [child.move for child in node.children]
        states: list[State] | None = None
        evals: Sequence[float] = NO_EVALS
        if searcher.sort_from and remaining >= searcher.sort_from:
            states = [state.play(move) for move in moves]
            evaluator = searcher.evaluator
            evals = [evaluator(child) for child in states] + [0.0] * node.pruned
            states += [state] * node.pruned
        moves += [moves[-1]] * node.pruned
        frame = Frame(node, state, remaining, key, moves, states, evals)
        frame.alpha_in = alpha_in
        frame.beta_in = beta_in
        return frame

    def _roll_back(self, table_length: int) -> None:
        """Undo the table writes journalled after the first ``table_length`` of them, newest first."""
        searcher = self.searcher
        decode = self.moves_by_code
        table = searcher.table
        keys = self.table_keys
        if table is not None and len(keys) > table_length:
            olds = self.table_olds
            moves = self.table_moves
            values = self.table_values
            replaced = len(values)
            for index in range(len(keys) - 1, table_length - 1, -1):
                old = olds[index]
                if not old:
                    del table[keys[index]]
                    continue
                replaced -= 1
                move = moves[replaced]
                best = None if move < 0 else decode[move]
                table[keys[index]] = (old // 8 - 1, values[replaced], BOUNDS[old & 3], best, bool(old & 4))
            del keys[table_length:]
            del olds[table_length:]
            del moves[replaced:]
            del values[replaced:]

    def _drop_checkpoints(self, count: int) -> None:
        """Keep only the first ``count`` checkpoints (those of the steps still taken)."""
        checkpoints = self.checkpoints
        end = checkpoints[_CP * count - 1] if count else 0
        saved = checkpoints[_CP * count - 2] if count else 0
        del checkpoints[_CP * count :]
        for frames in (self.frame_next, self.frame_horizon, self.frame_best):
            del frames[end:]
        del self.frame_numbers[3 * end :]
        for scores in (self.saved_players, self.saved_moves, self.saved_scores):
            del scores[saved:]

    def nbytes(self) -> int:
        """The checkpoints and journals, the iterations' records and the principal lines kept of earlier trees."""
        arrays: list[array[int] | array[float]] = [
            self.checkpoints,
            self.frame_next,
            self.frame_horizon,
            self.frame_best,
            self.frame_numbers,
            self.table_olds,
            self.table_moves,
            self.table_values,
            self.saved_players,
            self.saved_moves,
            self.saved_scores,
        ]
        keys = self.table_keys
        size = 0
        if isinstance(keys, array):
            arrays.append(keys)
        else:  # every key counted whole, as if none were shared with the table
            size = sys.getsizeof(keys) + sum(sys.getsizeof(key) for key in keys)
        size += sum(len(a) * a.itemsize for a in arrays)
        for round_ in self.rounds:
            size += 160 + sum(sys.getsizeof(scores) for scores in round_.history.values())
            if not round_.whole:
                node: AlphaBetaNode | None = round_.root
                while node is not None:
                    size += 200
                    node = node.children[0] if node.children else None
        return size


def _keep_principal_line(root: AlphaBetaNode) -> None:
    """Cut the complete tree under ``root`` down to its principal variation: each node there keeps its best
    child alone (``best_completed_child`` then still finds it), and the rest of the tree is let go."""
    node = root
    while (best := best_completed_child(node)) is not None:
        if len(node.children) > 1:
            node.children = [best]
        node = best
