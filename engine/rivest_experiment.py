"""Rivest's 1988 experiment (AI 34, section 5, Table 2): min/max approximation against alpha-beta.

His setup, as the registry spells it:

* both players use his Connect Four evaluator (values 1..1023);
* **AB** = ``ab-rivest``: iterative deepening from depth 2, children in static-evaluation
  order at every inner node (so every child of a visited node, the parents of leaves
  included, is generated and paid for), the move of the last complete iteration, and the
  same move accounting as MM's (a move for each child generated, and one for each edge
  walked down to a child it visits);
* **MM** = ``rivest:mode=reverse,accounting=true,eval=rivest``: the reverse approximation
  with edge weight 0.05 + |ln v(c) - ln v(best sibling)| and his move accounting (one move
  call for every edge walked down from the root, as well as for each child generated);
* both break ties between equally valued moves the same way: by the children's static
  values (with wins worth 1023 and losses 1 at any depth, won and lost positions are full
  of ties; the paper does not say how it broke them);
* a budget per turn in calls to the move operator, or in seconds, nothing carried over;
* for each bound, the 49 two-move openings, each played twice with colours swapped.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from plyscope.engine.agents import Agent
from plyscope.engine.arena.accuracy import AccuracyTally
from plyscope.engine.arena.records import GameRecord
from plyscope.engine.arena.schedule import GameTask, schedule
from plyscope.engine.arena.summary import accuracy, pentanomial, sprt_summary, tally
from plyscope.engine.errors import UserError
from plyscope.engine.games import Game, Move
from plyscope.engine.numbers import parse_moves, parse_seconds, shown
from plyscope.engine.search.base import Limit, SearchError
from plyscope.engine.search.registry import algorithms
from plyscope.engine.stats import EloEstimate, Pentanomial, Sprt, Trinomial

MM_SPEC = "rivest:mode=reverse,accounting=true,eval=rivest"
AB_SPEC = "ab-rivest"
MM = "MM"
AB = "AB"

DEFAULT_VALUES = {"moves": (1000, 2000, 3000, 4000, 5000), "seconds": (1.0, 2.0, 3.0, 4.0, 5.0)}
"""The bounds of Table 2, by kind."""

PAPER_TABLE: dict[str, dict[float, tuple[int, int, int]]] = {
    "seconds": {1: (41, 46, 11), 2: (40, 42, 16), 3: (36, 44, 18), 4: (39, 52, 7), 5: (30, 55, 13)},
    "moves": {1000: (47, 35, 16), 2000: (50, 35, 13), 3000: (42, 47, 9), 4000: (49, 42, 7), 5000: (61, 31, 6)},
}
"""Rivest's Table 2: (MM wins, AB wins, ties) per bound; 98 games per row."""

TOTAL_LABEL = {"seconds": "time total", "moves": "move total"}

RIVEST_SPRT = Sprt(elo0=-10.0, elo1=10.0)
"""The SPRT beside each row (fastchess's, on our opening pairs, MM's point of view): H1, MM stronger than AB by 10
normalized Elo, against H0, weaker by as much; a row whose LLR reaches neither bound has not decided."""

NEEDED = {
    "rivest": "MM, Rivest's min/max approximation",
    "ab-rivest": "AB, alpha-beta in Rivest's configuration",
}


def require_agents(*specs: str) -> None:
    """Raise ``SearchError`` naming the algorithms of ``specs`` (default MM's and AB's) not in the registry."""
    names = [spec.partition(":")[0].strip() for spec in specs or (MM_SPEC, AB_SPEC)]
    missing = [
        f"'{name}' ({NEEDED[name]})" if name in NEEDED else f"'{shown(name)}'"
        for name in names
        if name not in algorithms()
    ]
    if missing:
        raise SearchError(f"Rivest's experiment needs {' and '.join(missing)}, not in the registry yet")


MAX_VALUES = 50
"""The most bounds one run plays (each is 98 games over every two-move opening)."""


def parse_values(bound: str, text: str | None) -> tuple[float, ...]:
    """The bounds of ``--values`` (``DEFAULT_VALUES`` if ``None``): whole moves, or seconds."""
    if text is None:
        return DEFAULT_VALUES[bound]
    values: list[float] = []
    items = text.split(",")
    if len(items) > MAX_VALUES:
        raise UserError(f"--values: {len(items)} bounds are too many (at most {MAX_VALUES})")
    for item in items:
        values.append(parse_seconds(item, "--values") if bound == "seconds" else parse_moves(item, "--values"))
    return tuple(values)


def bound_label(bound: str, value: float) -> str:
    """How a bound is written in tables and in ``GameRecord.group``: ``1000 moves``, ``2 s``."""
    return f"{value:g} s" if bound == "seconds" else f"{int(value)} moves"


def limit_for(bound: str, value: float) -> Limit:
    return Limit(seconds=float(value)) if bound == "seconds" else Limit(moves=int(value))


def rivest_tasks(
    game: Game,
    bound: str,
    values: Sequence[float],
    openings: Sequence[tuple[Move, ...]],
    seed: int,
    mm_spec: str = MM_SPEC,
    ab_spec: str = AB_SPEC,
    truth_nodes: int = 0,
    compiled: bool = True,
) -> list[GameTask]:
    """MM against AB on every opening, both colours, for each bound in ``values`` (``compiled``: each searching
    with its compiled twin, where it has one); ``truth_nodes``: the moves are judged against perfect play
    (``GameTask.truth_nodes``)."""
    require_agents(mm_spec, ab_spec)
    tasks: list[GameTask] = []
    for group_index, value in enumerate(values):
        limit = limit_for(bound, value)
        agents = [
            replace(Agent.parse(spec, limit, name), compiled=compiled) for spec, name in ((mm_spec, MM), (ab_spec, AB))
        ]
        tasks += schedule(
            game,
            agents,
            openings,
            seed,
            group=bound_label(bound, value),
            group_index=group_index,
            start_index=len(tasks),
            truth_nodes=truth_nodes,
        )
    return tasks


@dataclass(frozen=True, slots=True)
class RivestRow:
    """One row of Table 2: our games at one bound, beside the paper's (``None`` if he did not play it)."""

    label: str
    mm_wins: int
    ab_wins: int
    ties: int
    errors: int
    paper: tuple[int, int, int] | None
    pairs: Pentanomial
    """Our opening pairs, from MM's point of view."""
    mm_accuracy: AccuracyTally
    """MM's moves against perfect play (``plyscope.engine.arena.accuracy``)."""
    ab_accuracy: AccuracyTally

    def estimate(self) -> EloEstimate | None:
        """MM's Elo difference to AB from our opening pairs (``plyscope.engine.stats``: pentanomial)."""
        return self.pairs.estimate()

    def sprt(self) -> dict[str, object]:
        """``RIVEST_SPRT`` on our opening pairs (``plyscope.engine.arena.summary.sprt_summary``): H1 says MM is the
        stronger, H0 that AB is."""
        return sprt_summary(RIVEST_SPRT, self.pairs)

    def paper_estimate(self) -> EloEstimate | None:
        """MM's Elo difference to AB from the paper's wins and ties (trinomial: the paper gives no pairs)."""
        return None if self.paper is None else Trinomial(self.paper[0], self.paper[2], self.paper[1]).estimate()

    def as_dict(self) -> dict[str, object]:
        return {
            "bound": self.label,
            "mm_wins": self.mm_wins,
            "ab_wins": self.ab_wins,
            "ties": self.ties,
            "errors": self.errors,
            "pentanomial": list(self.pairs.counts()),
            **_elo_fields(self.estimate()),
            "sprt": self.sprt(),
            "paper": None
            if self.paper is None
            else {
                **dict(zip(("mm_wins", "ab_wins", "ties"), self.paper, strict=True)),
                **_elo_fields(self.paper_estimate()),
            },
            "mm_accuracy": self.mm_accuracy.as_dict(),
            "ab_accuracy": self.ab_accuracy.as_dict(),
        }


def _elo_fields(estimate: EloEstimate | None) -> dict[str, float | None]:
    """MM's Elo difference, half its 95% interval and its LOS, for JSON (``null``: none, or not finite)."""
    values = (None, None, None) if estimate is None else (estimate.elo, estimate.error, estimate.los)
    return {
        key: value if value is not None and math.isfinite(value) else None
        for key, value in zip(("elo", "elo_error", "los"), values, strict=True)
    }


def rivest_rows(records: Sequence[GameRecord], bound: str, values: Sequence[float]) -> list[RivestRow]:
    """A row per bound, then the total (with the paper's total when every bound is one of his)."""
    rows = []
    for value in values:
        label = bound_label(bound, value)
        counts = tally(records, MM, AB, label)
        rows.append(
            RivestRow(
                label,
                counts.wins,
                counts.losses,
                counts.draws,
                counts.errors,
                PAPER_TABLE[bound].get(value),
                pentanomial(records, MM, AB, label),
                accuracy(records, MM, label),
                accuracy(records, AB, label),
            )
        )
    papers = [row.paper for row in rows if row.paper is not None]
    paper_total = None
    if rows and len(papers) == len(rows):
        paper_total = (sum(p[0] for p in papers), sum(p[1] for p in papers), sum(p[2] for p in papers))
    rows.append(
        RivestRow(
            TOTAL_LABEL[bound],
            sum(r.mm_wins for r in rows),
            sum(r.ab_wins for r in rows),
            sum(r.ties for r in rows),
            sum(r.errors for r in rows),
            paper_total,
            pentanomial(records, MM, AB),
            accuracy(records, MM),
            accuracy(records, AB),
        )
    )
    return rows
