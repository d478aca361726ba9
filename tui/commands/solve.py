"""``plyscope solve``: the exact value of a position and of each legal move, within a budget, for every game with
exact values (``plyscope.engine.solve``, through the one door ``plyscope.engine.exact.Exact``).

Connect Four scores are Pons' (``plyscope.engine.solver``), Nim scores ``+1`` (win) or ``-1``
(loss), tic-tac-toe's ``+1``, ``0`` or ``-1``.  The position's score is for the player to move; a move's score is
for the player who plays it.  A hand-written tree's values are MAX's, as its leaves are written.

A Connect Four solve stops at its budget (``--nodes``, ``--seconds``; 60 seconds when
neither is given) or at ctrl+c, and then shows what it knows: each move's bounds.  Once it
has run two seconds it shows its progress on stderr: a status line on a terminal, else a
plain line every ``PLAIN_PROGRESS_SECONDS``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from types import TracebackType

from rich.console import Console
from rich.status import Status
from rich.table import Table

from plyscope.engine.errors import UserError
from plyscope.engine.games import CHANCE, State
from plyscope.engine.games.tree import number_text
from plyscope.engine.kits import kit_of, make_game
from plyscope.engine.kits.base import ExactValues, Number
from plyscope.engine.numbers import NumberError, OutOfRange, parse_float, parse_int
from plyscope.engine.pov import PovScore
from plyscope.engine.solve import PositionSolve, Solution, Stop
from plyscope.tui.commands.options import add_game, add_no_book, add_position
from plyscope.tui.commands.output import print_table
from plyscope.tui.formatting import signed
from plyscope.tui.session import parse_position

DEFAULT_SECONDS = 60.0
"""The budget of a solve given neither ``--nodes`` nor ``--seconds``."""
MAX_NODES = 10**15
"""The largest ``--nodes`` (some three years of the compiled solver)."""
MAX_SECONDS = 10**8
"""The largest ``--seconds`` (some three years)."""
PROGRESS_AFTER_SECONDS = 2.0
"""A solve shows its progress on stderr once it has run this long."""
PLAIN_PROGRESS_SECONDS = 5.0
"""Seconds between two progress lines when stderr is not a terminal."""
STATUS_REFRESH_SECONDS = 0.25
"""Seconds between two updates of the progress line on a terminal."""
INTERRUPTED = 130
"""The exit status after ctrl+c (128 + SIGINT), as shells report it."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_position(parser, "Pons move string (e.g. 4453), piles (e.g. 3,4,5) or a tree")
    add_game(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--nodes", metavar="N", help="budget: solver nodes (Connect Four)")
    parser.add_argument(
        "--seconds",
        metavar="S",
        help="budget: wall-clock seconds (Connect Four; default 60 when neither budget is given)",
    )
    add_no_book(parser)


def run(args: argparse.Namespace) -> int:
    nodes = parse_nodes(args.nodes)
    seconds = parse_seconds(args.seconds)
    if nodes is None and seconds is None:
        seconds = DEFAULT_SECONDS
    game = make_game(args.game)
    if args.position is None:
        raise UserError("a position is needed: write it after the options, or as --position TEXT")
    state = parse_position(game, args.position)
    solving = PositionSolve(state)
    if solving.values.first_player:
        return print_tree(solving.solution(), as_json=args.json)
    stop: Stop | None = None
    with ProgressLine(solving) as progress:
        try:
            stop = solving.run(nodes=nodes, seconds=seconds, tick=progress.tick)
        except KeyboardInterrupt:
            stop = None
    solution = solving.solution()
    if stop is None:
        print(
            f"plyscope solve: interrupted after {solution.nodes:,} nodes and {solution.seconds:.1f} s; "
            f"{known(solution)}",
            file=sys.stderr,
            flush=True,
        )
    elif stop is Stop.NODES:
        print(
            f"plyscope solve: not finished: the budget of {nodes:,} nodes is spent; {known(solution)} "
            "(--nodes gives more)",
            file=sys.stderr,
            flush=True,
        )
    elif stop is Stop.SECONDS:
        given = "" if args.seconds is not None else " (the default)"
        print(
            f"plyscope solve: not finished: the budget of {seconds:g} s{given} ran out after {solution.nodes:,} "
            f"nodes; {known(solution)} (--seconds or --nodes gives more)",
            file=sys.stderr,
            flush=True,
        )
    if args.json:
        print(json.dumps(solution.as_json()))
    else:
        print_solution(solution, state, solving.values)
    return INTERRUPTED if stop is None else 0


def parse_nodes(text: str | None) -> int | None:
    """``--nodes``: a whole number of solver nodes, 0 to ``MAX_NODES`` (read by ``plyscope.engine.numbers``: ``_`` or
    ``,`` may group digits)."""
    if text is None:
        return None
    try:
        return parse_int(text, "--nodes", lo=0, hi=MAX_NODES)
    except OutOfRange:
        raise
    except NumberError:
        raise UserError(f"--nodes: '{shown(text)}' is not a whole number of nodes from 0 to {MAX_NODES:,}") from None


def parse_seconds(text: str | None) -> float | None:
    """``--seconds``: a number of seconds, 0 to ``MAX_SECONDS`` (read by ``plyscope.engine.numbers``: finite, digits, a
    decimal point, an exponent)."""
    if text is None:
        return None
    try:
        return parse_float(text, "--seconds", lo=0.0, hi=MAX_SECONDS)
    except OutOfRange:
        raise
    except NumberError:
        raise UserError(f"--seconds: '{shown(text)}' is not a number of seconds from 0 to {MAX_SECONDS:,}") from None


def shown(text: str) -> str:
    """``text`` as a one-line message quotes it: control characters escaped, cut to 24 characters when longer."""
    cut = text if len(text) <= 24 else text[:24]
    printable = "".join(c if c.isprintable() else repr(c)[1:-1] for c in cut)
    return printable if cut == text else f"{printable}… ({len(text):,} characters)"


def known(solution: Solution) -> str:
    """``3 of 7 moves scored exactly; the score lies between -2 and +5`` (the position's, for the player to move)."""
    moves = solution.moves
    exact = sum(score is not None for score in moves.values())
    lowest, highest = solution.score_bounds.pov(solution.player)
    score = (
        f"the score is {signed(lowest)}"
        if lowest == highest
        else f"the score lies between {signed(lowest)} and {signed(highest)}"
    )
    return f"{exact} of {len(moves)} moves scored exactly; {score} for the player to move"


class ProgressLine:
    """The progress of a solve on stderr, once it has run ``PROGRESS_AFTER_SECONDS``: a Rich status line on a
    terminal, else a plain line every ``PLAIN_PROGRESS_SECONDS``.  ``tick`` is called between two slices."""

    def __init__(self, solving: PositionSolve) -> None:
        self.solving = solving
        self.console = Console(stderr=True)
        self.started = time.perf_counter()
        self.due = self.started + PROGRESS_AFTER_SECONDS
        """When the next line or update is due."""
        self.status: Status | None = None

    def __enter__(self) -> ProgressLine:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self.status is not None:
            self.status.stop()

    def tick(self) -> None:
        now = time.perf_counter()
        if now < self.due:
            return
        solution = self.solving.solution()
        exact = sum(score is not None for score in solution.moves.values())
        text = (
            f"solving: {now - self.started:.0f} s, {solution.nodes:,} nodes, {exact} of {len(solution.moves)} "
            f"moves exact, score {written(*solution.score_bounds.pov(solution.player))}"
        )
        if not self.console.is_terminal:
            print(f"plyscope solve: {text}", file=sys.stderr, flush=True)
            self.due = now + PLAIN_PROGRESS_SECONDS
            return
        if self.status is None:
            self.status = self.console.status(text)
            self.status.start()
        else:
            self.status.update(text)
        self.due = now + STATUS_REFRESH_SECONDS


def print_solution(solution: Solution, state: State, values: ExactValues) -> None:
    """The position's score and each move's, with what they mean (``values``' words), as a Rich table on stdout; the
    caption says what the scores are and how they were found (``ExactValues.note``: the opening book)."""
    names = kit_of(state.game).player_names
    mover = "the player to move"
    if names is not None:
        mover = f"{names[0] if solution.player == 1 else names[1]} to move"
    lowest, highest = solution.score_bounds.pov(solution.player)

    def words(score: Number) -> str:
        return values.words(PovScore(score, state.player), state)

    cost = f"{solution.nodes:,} node{'' if solution.nodes == 1 else 's'} in {solution.seconds:.3f} s"
    note = values.note()
    position = solution.position or "start (empty board)"
    table = Table(
        title=f"{solution.game} {position}: {mover}: {meaning(lowest, highest, words)} "
        f"(score {written(lowest, highest)})",
        title_justify="left",
        caption=f"{cost}{'' if solution.finished else ' (not finished)'}; {values.legend}; each move's for the player "
        f"who plays it{'; ' + note if note else ''}",
        caption_justify="left",
    )
    table.add_column("move")
    table.add_column("score", justify="right")
    table.add_column("for the player who plays it")
    table.add_column("best", justify="center")
    best = set(solution.best_moves)
    for label, bounds in solution.bounds.items():
        low, high = bounds.pov(solution.player)  # the player to move plays every move
        table.add_row(label, written(low, high), meaning(low, high, words), "★" if label in best else "")
    print_table(Console(), table)


def print_tree(solution: Solution, *, as_json: bool) -> int:
    """A tree's exact value and each move's (MAX's point of view), as JSON or a table; the exit status (0)."""
    if as_json:
        print(json.dumps(solution.as_json()))
        return 0
    mover = {1: "MAX to move", -1: "MIN to move", CHANCE: "nature moves"}[solution.player]
    kind = "expectiminimax" if solution.player == CHANCE or "?" in solution.position else "minimax"
    position = solution.position if len(solution.position) <= 80 else shown(solution.position)
    table = Table(
        title=f"tree {position}: {mover}: {kind} value {number_text(float(solution.value or 0))}",
        title_justify="left",
        caption=f"{solution.nodes:,} nodes valued in {solution.seconds:.3f} s; every value is MAX's (the leaves')",
        caption_justify="left",
    )
    table.add_column("move")
    table.add_column("value", justify="right")
    table.add_column("best", justify="center")
    best = set(solution.best_moves)
    for label, value in solution.moves.items():
        shown_value = "…" if value is None else number_text(float(value.first()))
        table.add_row(label, shown_value, "★" if label in best and solution.player != CHANCE else "")
    print_table(Console(), table)
    return 0


def written(lowest: Number, highest: Number) -> str:
    """A score, ``+3``, or the bounds on it while it is not known, ``-2..+5``."""
    return signed(lowest) if lowest == highest else f"{signed(lowest)}..{signed(highest)}"


def meaning(lowest: Number, highest: Number, words: Callable[[Number], str]) -> str:
    """What a score known to lie in ``[lowest, highest]`` says about the player it is for: its ``words`` once it is
    exact (``win in 3``, ``draw``, ``loss``); while it is not, as much as its sign says (``draws or wins``)."""
    if lowest != highest:
        if lowest > 0:
            return "wins (how soon is not known yet)"
        if highest < 0:
            return "loses (how soon is not known yet)"
        if lowest == 0:
            return "draws or wins (not known yet)"
        if highest == 0:
            return "draws or loses (not known yet)"
        return "may win, draw or lose (not known yet)"
    return words(lowest)
