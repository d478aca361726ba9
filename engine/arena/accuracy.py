"""Accuracy against perfect play: how many of an agent's moves keep the game-theoretic value, and what the others
cost.

A move *keeps the value* when the position it leads to is still a win, a draw or a loss for the player who moved,
as the position before it was (``ExactValues.outcome``: a hand-written tree's value itself).  Its *loss* is how much
of the exact value it gives away, in the units of the game's exact scores (through the one door,
``plyscope.engine.exact.Exact``): Pons' score for Connect Four (a win with one more stone to play is 1 less; a move
that turns a win into a draw loses the whole score), 0 or 2 for Nim (a win is +1, a loss -1).
A move is *judged* only when both positions are settled within the solver's node budget per position
(``Truth.settled``); on 7x6 the opening book settles every position of at most 12 stones, and the budget most of
those past it, but not all (the hardest, just past the book, take millions of nodes), so the share of moves judged
is reported beside the others.

Every position's value is solved once (the position after a move is the one before the next), from the end of the
game back to the first position the solver cannot settle, then the book's alone (``judge_game``).  A thread judges
its games with two solvers it keeps (``_Judges``): one, its table kept from game to game, for the positions settled
whatever the budget (exact values, the same whatever it solved before), and one, its table emptied as each game
starts, for the others (whether one is settled within the budget depends on what the table holds): so a game's
verdicts are the same whichever worker process judges it, after whichever games.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass

from plyscope.engine.exact import Exact
from plyscope.engine.games import Game, State
from plyscope.engine.kits.base import Number, Truth
from plyscope.engine.solver.book import book_allowed

TRUTH_NODES = 100_000
"""The solver nodes one position past the opening book may take, by default, before it is left unsettled (some 16 ms
compiled): with it some 95% of the moves of an arena run on 7x6 are judged (GUIDE.md, "Accuracy against perfect
play", has the figures)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """One move against perfect play, for the player who made it."""

    kept: bool
    """Whether the move keeps the position's value (win, draw or loss)."""
    loss: Number
    """The exact score given away (0 for a perfect move), in the game's units."""


def judged_game(game: Game, budget: int) -> bool:
    """Whether moves in ``game`` are judged at ``budget`` nodes per position: a budget, and exact values
    (``Exact.refusal``)."""
    return budget > 0 and Exact().refusal(game) is None


def load_judge(game: Game) -> Future[object] | None:
    """Start loading what judging moves of ``game`` needs (Connect Four: the solver's machine code and the opening
    book) in a thread of its own; the load, to wait for (``None``: nothing to load).  The arena starts it before its
    other loads and waits for it before its worker processes fork, so that none loads it again."""
    return Exact().prepare(game)


GAME_TABLE = 1 << 18
"""The transposition table of each of a thread's two judging solvers (``table_limit``: 2^18 slots, about 3 MB
compiled): a game's positions at ``TRUTH_NODES`` each take a few hundred thousand nodes in all."""
SETTLED_ENTRIES = 1 << 14
"""Positions whose value (or that they are not settled whatever the budget) ``_Judges.settled`` keeps at most."""


class _Judges:
    """The two solvers (behind ``Exact``) with which a thread judges its games (``judge_game``)."""

    def __init__(self) -> None:
        self.settled = Exact(budget=0, table=GAME_TABLE, capacity=SETTLED_ENTRIES)
        """Asked first, with no budget: it settles only what is settled whatever the budget (Connect Four on 7x6:
        positions of at most 12 stones, by a search down to the opening book); its table and values are kept from
        game to game, which changes what it costs, never what it finds."""
        self.game = Exact(table=GAME_TABLE)
        """Asked about the other positions, within the budget; emptied as each game starts (``Exact.clear``: as a
        fresh solver), so that what it settles does not depend on the games judged before."""


_THREAD = threading.local()
"""This thread's ``_Judges``, by whether solvers may use the opening book (``book_allowed``: ``--no-book``)."""


def _judges() -> _Judges:
    """This thread's judging solvers, made on its first game (a worker process's games run in one thread)."""
    made: dict[bool, _Judges] = _THREAD.__dict__.setdefault("judges", {})
    book = book_allowed()
    if book not in made:
        made[book] = _Judges()
    return made[book]


def judge_game(moves: Sequence[tuple[State, State]], budget: int) -> list[Verdict | None]:
    """A verdict on each move of a game, given as the positions before and after it (``None``: not judged).

    The moves are judged from the game's end back to its start, so that each position's solve finds the positions
    after it in the solver's table, and starts from what the move played from it is worth (or, where the position
    before it is settled whatever the budget, just past the book, from what that one's value leaves it, if more).
    A position not settled within ``budget`` solver nodes leaves the moves into and out of it unjudged; from there
    back to the start, only the positions settled whatever the budget are looked at (Connect Four's positions the
    opening book reaches, of at most 12 stones, on 7x6): without the book, early positions take millions of nodes,
    and would each spend the whole budget for nothing.  The verdicts are the same whichever thread or worker
    process judges the game, after whichever games (``_Judges``)."""
    judges = _judges()
    judges.game.clear()
    verdicts: list[Verdict | None] = [None] * len(moves)
    spent = budget
    """The budget of the positions still to look at: 0 once one was not settled (the book's are, whatever it is)."""

    def truth(state: State, at_least: Number | None = None, parent: State | None = None) -> Truth:
        """``state``'s value, ``at_least`` what its player to move is known to get; ``parent``: the position before
        it, whose value (if settled whatever the budget) bounds its value too."""
        known = judges.settled.truth(state, at_least=at_least)
        if known.score is not None or not spent:
            return known
        if parent is not None and parent.player == -state.player:
            bound = judges.settled.truth(parent).score  # (just past the book, the position before it is the book's)
            if bound is not None:
                at_least = bound.pov(state.player) if at_least is None else max(at_least, bound.pov(state.player))
        return judges.game.truth(state, at_least=at_least, budget=spent)

    for index in range(len(moves) - 1, -1, -1):
        before, after = moves[index]
        now = truth(after)
        if now.score is None:
            spent = 0
            continue
        player = before.player
        value_now = now.score.pov(player)
        parent = moves[index - 1][0] if index and moves[index - 1][1] is before else None
        then = truth(before, value_now, parent)  # (the move is worth that much: its search starts there)
        if then.score is None:
            spent = 0
            continue
        verdicts[index] = verdict(then.score.pov(player), value_now, judges.settled.values(before.game).outcome)
    return verdicts


def verdict(before: Number, after: Number, outcome: Callable[[Number], Number] | None = None) -> Verdict:
    """A move judged by the exact values, for the player who made it, of the positions ``before`` and ``after`` it
    (``plyscope study`` judges its moves so too): it keeps the value when both have the same ``outcome``
    (``ExactValues.outcome``; ``None``: the sign, wins, draws or losses alike); its loss is what it gives away."""
    same = _sign if outcome is None else outcome
    return Verdict(same(before) == same(after), before - after)


def _sign(value: Number) -> Number:
    return (value > 0) - (value < 0)


@dataclass(slots=True)
class AccuracyTally:
    """An agent's moves against perfect play, summed over games (``plyscope.engine.arena.records.SideStats``
    holds one game's)."""

    moves: int = 0
    """Moves the agent played."""
    judged: int = 0
    """Of those, moves judged (both positions settled)."""
    kept: int = 0
    """Of those judged, moves that keep the value."""
    loss: Number = 0
    """The score given away over the moves judged, in the game's units."""

    def add(self, moves: int, judged: int, kept: int, loss: Number) -> None:
        self.moves += moves
        self.judged += judged
        self.kept += kept
        self.loss += loss

    @property
    def judged_share(self) -> float | None:
        """The share of the moves judged (``None``: no move)."""
        return self.judged / self.moves if self.moves else None

    @property
    def kept_share(self) -> float | None:
        """The share of the moves judged that keep the value (``None``: none judged)."""
        return self.kept / self.judged if self.judged else None

    @property
    def mean_loss(self) -> float | None:
        """The mean score given away per move judged (``None``: none judged)."""
        return self.loss / self.judged if self.judged else None

    def as_dict(self) -> dict[str, object]:
        """For JSON: ``null`` for a share of nothing."""
        return {
            "moves": self.moves,
            "judged": self.judged,
            "judged_share": self.judged_share,
            "kept": self.kept,
            "kept_share": self.kept_share,
            "mean_loss": self.mean_loss,
        }

    def text(self) -> str:
        """``812 of 900 judged moves keep the value (90.2%), mean loss 0.41; 900 of 1,200 moves judged (75.0%)``."""
        if not self.judged:
            return f"no move judged (0 of {self.moves:,} moves settled within the solver's budget)"
        return (
            f"{self.kept:,} of {self.judged:,} judged moves keep the value ({100 * (self.kept_share or 0):.1f}%), "
            f"mean loss {self.mean_loss:.2f}; {self.judged:,} of {self.moves:,} moves judged "
            f"({100 * (self.judged_share or 0):.1f}%)"
        )
