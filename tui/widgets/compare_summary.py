"""The compare screen's summary: the move each agent would play, what it has spent, the solver's verdict on it."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from plyscope.engine.analysis import ScoresSnapshot
from plyscope.engine.exact import Exact
from plyscope.engine.games import Move, State
from plyscope.engine.search.base import Limit
from plyscope.tui.contest import analysis_refusal
from plyscope.tui.formatting import format_count, signed
from plyscope.tui.session import Session

LETTERS = "ABCD"
"""How the compared agents are named."""

Row = tuple[str, str, str, Text]
"""A summary row: the agent's letter, the move it would play, what it has spent, the solver's verdict."""


def analysed(state: State) -> bool:
    """Whether the board shows the exact score of ``state``'s moves (``plyscope.tui.contest.analysis_refusal``)."""
    return analysis_refusal(state, Exact()) is None


def summary_rows(state: State, sessions: Sequence[Session], total: Limit, scores: ScoresSnapshot | None) -> list[Row]:
    """For each compared agent: its letter, the move it would play now, what it has spent (moves, or seconds),
    and where the board shows the moves' exact scores (``analysed``) that move's for the player to move (``+2 ✓``
    among the best, ``-1 ✗`` not, ``…`` unknown)."""
    shown = analysed(state)
    rows = []
    for letter, session in zip(LETTERS, sessions, strict=False):
        with session.lock:
            move = session.searcher.best_move()
            stats = session.searcher.stats
            spent = f"{stats.seconds:.2f}" if total.seconds is not None else format_count(stats.moves)
        played = "–" if move is None else state.move_label(move)
        rows.append((letter, played, spent, verdict(move, scores) if shown else Text("")))
    return rows


def verdict(move: Move | None, scores: ScoresSnapshot | None) -> Text:
    """The exact score of ``move`` (``scores``: the analysis so far) and whether it is among the best."""
    if move is None:
        return Text("")
    if scores is None or move not in scores.bounds:
        return Text("…")
    exact = scores.exact(move)
    note = signed(exact) if exact is not None else ("?" if scores.done else "…")
    if move in scores.best():
        return Text(f"{note} ✓", "bold green")
    if scores.worse(move):
        return Text(f"{note} ✗", "red")
    return Text(note)


class CompareSummary(Static):
    """A table of the compared agents' choices (see ``summary_rows``)."""

    def show(
        self, state: State, sessions: Sequence[Session], total: Limit, scores: ScoresSnapshot | None, where: str
    ) -> None:
        """The table; ``where``: where the board shows each move's score (``Board.scores_where``)."""
        table = Table(box=None, padding=(0, 1), show_edge=False, expand=True, caption_justify="left")
        table.add_column("", style="bold")
        table.add_column("plays", justify="center")
        table.add_column("seconds" if total.seconds is not None else "moves", justify="right")
        solver = analysed(state)
        if solver:
            table.add_column("solver", justify="right")
            table.caption = (
                "solver: the move's exact score for the player to move (+ wins, 0 draws, - loses); "
                f"✓ among the best. {where}"
            )
        for letter, move, spent, judged in summary_rows(state, sessions, total, scores):
            table.add_row(letter, move, spent, *([judged] if solver else []))
        self.update(table)
