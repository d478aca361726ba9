"""A game played (``GameRecord``), by whom, how it ended and what each side spent; its JSON form.

A game in which an agent raises (or proposes an illegal move) is recorded with ``result =
"error"`` and the message; it counts for neither side: it is left out of wins, draws, losses,
the score and the Elo difference, and shown in a column of its own.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field

from plyscope.engine.agents import Decision
from plyscope.engine.arena.accuracy import Verdict
from plyscope.engine.kits.base import Number
from plyscope.engine.numbers import shown

RESULTS = ("first", "second", "draw", "error")
"""A game's ``result``: who won (by colour), a draw, or an error (counted for nobody)."""


@dataclass(slots=True)
class SideStats:
    """What one agent spent over one game, summed over its turns."""

    turns: int = 0
    fallbacks: int = 0
    """Turns where the searcher proposed no move and the agent played its fallback move."""
    moves: int = 0
    """Calls to the move operator by the searches (``Stats.moves``)."""
    playout_moves: int = 0
    nodes: int = 0
    """Nodes in the turn's tree at the end of each turn, summed."""
    seconds: float = 0.0
    """Time spent in the searches."""
    judged: int = 0
    """Moves judged against perfect play (``plyscope.engine.arena.accuracy``): both positions settled."""
    kept: int = 0
    """Of the moves judged, those that keep the game-theoretic value."""
    loss: Number = 0
    """The exact score the moves judged gave away, in the game's units (``plyscope.engine.arena.accuracy``)."""

    def add(self, decision: Decision) -> None:
        self.turns += 1
        self.fallbacks += decision.fallback
        self.moves += decision.stats.moves
        self.playout_moves += decision.stats.playout_moves
        self.nodes += decision.stats.nodes
        self.seconds += decision.stats.seconds

    def judged_move(self, verdict: Verdict | None) -> None:
        """Count a move's verdict against perfect play (``None``: not judged)."""
        if verdict is not None:
            self.judged += 1
            self.kept += verdict.kept
            self.loss += verdict.loss


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game played (or stopped by an error), with its agents' names by colour."""

    index: int
    group: str
    first: str
    """The name of the agent that moved first (after the opening, too: openings have two moves)."""
    second: str
    opening: str
    seed: int
    moves: str
    """The whole game from the start, opening included (a Pons move string for Connect Four)."""
    result: str
    """One of ``RESULTS``: ``first``, ``second``, ``draw`` or ``error``."""
    error: str | None = None
    """``Type: message`` of what went wrong, for ``result == "error"``."""
    error_agent: str | None = None
    """The name of the agent whose turn raised (``None`` if the game could not run at all)."""
    first_stats: SideStats = field(default_factory=SideStats)
    second_stats: SideStats = field(default_factory=SideStats)

    def winner(self) -> str | None:
        """The winning agent's name (``None`` for a draw or an error)."""
        return {"first": self.first, "second": self.second}.get(self.result)

    def as_dict(self) -> dict[str, object]:
        data = asdict(self)
        data["stats"] = {"first": data.pop("first_stats"), "second": data.pop("second_stats")}
        return data

    @classmethod
    def from_dict(cls, data: object) -> GameRecord:
        """The record ``as_dict`` wrote (raises ``KeyError``, ``TypeError`` or ``ValueError`` if it is not one)."""
        if not isinstance(data, Mapping):
            raise TypeError("a game record must be an object")
        fields = {key: data[key] for key in RECORD_FIELDS}
        index, seed = fields["index"], fields["seed"]
        if not (type(index) is int and index >= 0 and type(seed) is int and seed >= 0):
            raise ValueError("index and seed must be whole numbers")
        texts = [text for text in (fields[key] for key in TEXT_FIELDS) if type(text) is str]
        if len(texts) < len(TEXT_FIELDS):
            raise ValueError("group, first, second, opening, moves and result must be text")
        group, first, second, opening, moves, result = texts
        error, error_agent = fields["error"], fields["error_agent"]
        if not ((error is None or type(error) is str) and (error_agent is None or type(error_agent) is str)):
            raise ValueError("error and error_agent must be text or null")
        if result not in RESULTS:
            raise ValueError(f"result {shown(result)!r} is not one of {', '.join(RESULTS)}")
        stats = data["stats"]
        if not isinstance(stats, Mapping):
            raise TypeError("stats must be an object")
        return cls(
            index=index,
            group=group,
            first=first,
            second=second,
            opening=opening,
            seed=seed,
            moves=moves,
            result=result,
            error=error,
            error_agent=error_agent,
            first_stats=_side_stats(stats["first"]),
            second_stats=_side_stats(stats["second"]),
        )


def _side_stats(data: object) -> SideStats:
    """``SideStats`` from their JSON form; raises ``ValueError`` or ``TypeError`` if it is not theirs."""
    if not isinstance(data, dict):
        raise TypeError("a side's stats must be an object")
    stats = SideStats(**data)
    for name, value in asdict(stats).items():
        if type(value) not in ((int, float) if name == "seconds" else (int,)) or not 0 <= value < math.inf:
            raise ValueError(f"stats: {name} must be a number, 0 or more")
    return stats


RECORD_FIELDS = ("index", "group", "first", "second", "opening", "seed", "moves", "result", "error", "error_agent")
"""The fields of a ``GameRecord`` in its JSON form, besides ``stats``."""
TEXT_FIELDS = ("group", "first", "second", "opening", "moves", "result")
"""Those of ``RECORD_FIELDS`` that are text."""
