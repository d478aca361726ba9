"""``plyscope study``: anytime curves, how often each searcher's move is optimal as its budget grows.

The positions, the searches, their judging and the results file are ``plyscope.engine.study``'s; the searches run
as the arena's games do (``plyscope.engine.arena.pool.run_tasks``: here, in local worker processes or on a Dask
cluster), with a progress bar on stderr.  The tables and the terminal's curve go to stdout (``--json``: the results
document instead), the rows to ``--csv``, the curves to ``--plot`` (``plyscope.tui.curves``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from plyscope.engine.agents import Agent, check_seed
from plyscope.engine.arena.pool import open_executor, run_tasks
from plyscope.engine.arena.schedule import GameTask
from plyscope.engine.errors import UserError
from plyscope.engine.exact import NODE_BUDGET
from plyscope.engine.files import check_writable
from plyscope.engine.games import Game
from plyscope.engine.kits import make_game
from plyscope.engine.numbers import MAX_NODES, parse_int, parse_moves, parse_seconds
from plyscope.engine.search.base import Limit
from plyscope.engine.study import (
    MAX_BUDGETS,
    PONS_SHORT,
    Choice,
    CurvePoint,
    PositionCounts,
    PositionSource,
    StudyPosition,
    StudyResults,
    StudyTask,
    choose,
    curve,
    failed,
    judging_refusal,
    resumed_rows,
    study_exact,
    study_row,
    study_tasks,
    uniform_share,
)
from plyscope.tui.commands.arena import (
    PLAIN_PROGRESS_SECONDS,
    SAVE_EVERY,
    load_compiled,
    make_agents,
    make_console,
    save,
    workers_here,
)
from plyscope.tui.commands.options import add_cluster, add_compiled, add_game, add_no_book, number
from plyscope.tui.commands.output import print_table, print_words
from plyscope.tui.curves import budget_label, check_plot, lines, save_plot, terminal_curve

DEFAULT_BUDGETS = (100, 300, 1000, 3000, 10000)
"""Moves per search when neither ``--budgets`` nor ``--seconds`` is given."""
RESUME_SAVE_SECONDS = 1.0
"""Seconds between two saves of ``--resume``'s file during a study (and at its end)."""
CURVE_SIZE = (100, 22)
"""The terminal curve's largest width and its height, in cells."""
POSITIONS_HELP = (
    "random:N (N random midgames from --seed; random:N:A-B, cut at plies A to B), one of Pons' sets "
    f"({', '.join(PONS_SHORT)}; NAME:N, N of it drawn with --seed) or a file of positions, one a line (default "
    "random:100)"
)


def budget_list(option: str, parse: Callable[[object, str], int | float]) -> Callable[[str], tuple[int | float, ...]]:
    """An argparse ``type`` reading a list of budgets (``100,1000,10000``) with ``parse``, in increasing order,
    each once; its refusal in one line."""

    def convert(text: str) -> tuple[int | float, ...]:
        items = [item.strip() for item in text.split(",")]
        if len(items) > MAX_BUDGETS:
            raise argparse.ArgumentTypeError(f"{len(items)} budgets are too many (at most {MAX_BUDGETS})")
        try:
            budgets = [parse(item, "a budget") for item in items]
        except UserError as error:
            raise argparse.ArgumentTypeError(f"{error} (write budgets as 100,1000,10000)") from None
        if len(set(budgets)) < len(budgets):
            raise argparse.ArgumentTypeError(f"'{text}' gives a budget twice")
        return tuple(sorted(budgets))

    convert.__name__ = option
    return convert


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--agents",
        nargs="+",
        required=True,
        metavar="SPEC",
        help="one agent or more, as the arena writes them (e.g. rivest alphabeta mcts:c=1.4); the budgets are "
        "--budgets' or --seconds'",
    )
    parser.add_argument("--positions", default="random:100", metavar="random:N|SET[:N]|FILE", help=POSITIONS_HELP)
    budgets = parser.add_mutually_exclusive_group()
    budgets.add_argument(
        "--budgets",
        type=budget_list("--budgets", parse_moves),
        metavar="N,N,...",
        help=f"moves per search: calls to the move operator (default {','.join(map(str, DEFAULT_BUDGETS))})",
    )
    budgets.add_argument(
        "--seconds", type=budget_list("--seconds", parse_seconds), metavar="S,S,...", help="seconds per search"
    )
    parser.add_argument(
        "--truth-nodes",
        type=number(parse_int, "--truth-nodes", lo=1, hi=MAX_NODES),
        default=NODE_BUDGET,
        metavar="N",
        help=f"solver nodes the exact values of one position may take, each (default {NODE_BUDGET:,}); a move whose "
        "values are not settled within them is not judged",
    )
    parser.add_argument("--json", action="store_true", help="print the results document (JSON) instead of tables")
    parser.add_argument("--csv", metavar="FILE", help="write every search's row here (CSV)")
    parser.add_argument(
        "--plot", metavar="FILE.svg|FILE.png", help="draw the curves to this file (needs plyscope[plots]: matplotlib)"
    )
    add_no_book(parser)
    add_compiled(parser)
    add_cluster(
        parser,
        item="search",
        seed="the seed of random positions, of a set's sample and of every search",
        saved="every second",
    )
    add_game(parser)


def run(args: argparse.Namespace) -> int:
    game = make_game(args.game)
    seed = check_seed(args.seed)
    exact = study_exact(args.truth_nodes)
    refusal = judging_refusal(game, exact)
    if refusal is not None:
        raise UserError(f"--game {game.name}: {refusal}")
    bound = "seconds" if args.seconds is not None else "moves"
    budgets: tuple[int | float, ...] = args.seconds or args.budgets or DEFAULT_BUDGETS
    agents = study_agents(args, game)
    names = [agent.label for agent in agents]
    files = Files.checked(args)
    source = PositionSource.read(game, args.positions, seed)
    bars = make_console(stderr=True)
    with Progress(*PROGRESS_COLUMNS, console=bars, transient=True, disable=not bars.is_terminal) as progress:
        bar = progress.add_task("valuing positions", total=None)
        positions, counts = source.valued(exact, lambda done, total: progress.update(bar, completed=done, total=total))
    if not positions:
        raise UserError(f"--positions {args.positions}: no position to study ({counts.text(args.truth_nodes)})")
    tasks = study_tasks(game, agents, bound, budgets, positions, seed)
    results = StudyResults(
        {
            "command": "study",
            "game": game.name,
            "agents": names,
            "bound": bound,
            "budgets": list(budgets),
            "seed": seed,
            "positions_from": counts.source,
            "truth_nodes": args.truth_nodes,
            "compiled": args.compiled,
            "positions": [position.text for position in positions],
        }
    )
    if args.resume is not None:
        results.rows = {row.index: row for row in resumed_rows(Path(args.resume), results.meta, tasks, positions)}
    study = Study(
        results, tasks, positions, counts, names, bound, budgets, files.results, resume=args.resume is not None
    )
    study.save(complete=False, interrupted=False)  # (a file that cannot be written: one line, before any search)
    load_twins(game, agents)
    interrupted = study.run(workers_here(args.workers, args.scheduler), args.scheduler)
    points = study.points()
    files.write(study, points, f"{game.name}: {len(positions):,} positions ({counts.source}), seed {seed}")
    if args.json:
        sys.stdout.write(results.document(study.summary(points), complete=study.complete, interrupted=interrupted))
    else:
        print_report(make_console(), study, points, args.truth_nodes)
    return 130 if interrupted else 0


def study_agents(args: argparse.Namespace, game: Game) -> list[Agent]:
    """The agents of ``--agents``, as the arena makes them (``--no-compiled`` too), none with a budget of its own."""
    agents = make_agents(args.agents, Limit(), game, compiled=args.compiled, fewest=1, command="a study")
    for agent in agents:
        if agent.limit != Limit():
            raise UserError(f"agent '{agent.label}': a study gives every agent the budgets of --budgets or --seconds")
    return agents


def load_twins(game: Game, agents: Sequence[Agent]) -> None:
    """Load the compiled twins ``agents`` search with, here, before the worker processes fork and any search is
    timed, as the arena does (its ``load_compiled``, told of a game of each agent against itself, not judged: the
    study's judging is the valuing of its positions, done before, here)."""
    load_compiled([GameTask(index, game.name, "", agent, agent, (), 0) for index, agent in enumerate(agents)])


@dataclass(frozen=True, slots=True)
class Files:
    """The files a study writes, each checked before any work."""

    results: Path | None
    """``--out`` or ``--resume``'s."""
    csv: Path | None
    plot: Path | None

    @classmethod
    def checked(cls, args: argparse.Namespace) -> Files:
        """The files of ``args``, each refused in one line if it cannot be written (``--plot``: nor drawn)."""
        saved = args.resume if args.resume is not None else args.out
        return cls(
            None if saved is None else check_writable(saved, "--resume" if args.resume is not None else "--out"),
            None if args.csv is None else check_writable(args.csv, "--csv"),
            None if args.plot is None else check_plot(args.plot),
        )

    def write(self, study: Study, points: Sequence[CurvePoint], title: str) -> None:
        """Write the CSV and the plot, and say where each file went (on stderr)."""
        if self.csv is not None:
            save(self.csv, study.results.csv())
        if self.plot is not None:
            curves = lines(points, study.agents)
            save_plot(self.plot, curves, study.budgets, study.unit, uniform_share(study.positions), title)
        for path in (self.results, self.csv, self.plot):
            if path is not None:
                print(f"written to {path}", file=sys.stderr)


PROGRESS_COLUMNS = (
    TextColumn("{task.description}"),
    BarColumn(),
    MofNCompleteColumn(),
    TimeElapsedColumn(),
    TextColumn("ETA"),
    TimeRemainingColumn(),
)
"""The progress bars of ``plyscope study``: positions valued, then searches made."""


class Study:
    """A study as it runs: its searches, the rows made so far (``results``), and the saves of its file."""

    def __init__(
        self,
        results: StudyResults,
        tasks: Sequence[StudyTask],
        positions: Sequence[StudyPosition],
        counts: PositionCounts,
        agents: Sequence[str],
        unit: str,
        budgets: Sequence[int | float],
        path: Path | None,
        *,
        resume: bool,
    ) -> None:
        self.results = results
        self.tasks = tasks
        self.positions = positions
        self.counts = counts
        self.agents = agents
        """The agents' names, in ``--agents``' order."""
        self.unit = unit
        """What the budgets count: moves or seconds."""
        self.budgets = budgets
        self.path = path
        self.every = RESUME_SAVE_SECONDS if resume else SAVE_EVERY
        """Seconds between two saves of the file during the study."""
        self.last_save = time.monotonic()

    @property
    def complete(self) -> bool:
        """Whether every search has its row."""
        return len(self.results.rows) == len(self.tasks)

    def run(self, workers: int, scheduler: str | None) -> bool:
        """The searches not made yet, on ``workers`` local processes or the Dask cluster at ``scheduler``, with a
        progress bar on stderr, each row saved as they come; whether a Ctrl-C stopped them."""
        todo = [task for task in self.tasks if task.index not in self.results.rows]
        with (
            open_executor(workers, scheduler) as (executor, in_flight),
            Progress(*PROGRESS_COLUMNS, console=make_console(stderr=True)) as progress,
        ):
            bar = progress.add_task("searches", total=len(self.tasks), completed=len(self.tasks) - len(todo))
            plain = PlainProgress(progress.console, len(self.tasks))

            def on_done(choice: Choice) -> None:
                self.take(choice)
                progress.update(bar, advance=1)
                plain.tell(len(self.results.rows))
                if time.monotonic() - self.last_save >= self.every:
                    self.save(complete=False, interrupted=False)

            _, interrupted = run_tasks(todo, choose, failed, executor, in_flight=in_flight, on_done=on_done)
        self.save(complete=self.complete, interrupted=interrupted)
        return interrupted

    def take(self, choice: Choice) -> None:
        """A search's choice: its row, or its error."""
        task = self.tasks[choice.index]
        if choice.move is None:
            self.results.errors.append(
                {"agent": task.agent.label, "budget": task.budget, "position": task.text, "error": choice.error}
            )
            return
        position = self.positions[task.position]
        self.results.rows[task.index] = study_row(task, choice.move, choice.work, choice.seconds, position)

    def points(self) -> list[CurvePoint]:
        """Each agent's point at each budget, over the rows so far."""
        return curve(list(self.results.rows.values()), self.agents, self.budgets)

    def summary(self, points: Sequence[CurvePoint]) -> dict[str, object]:
        """The results document's summary: the positions, each agent's point at each budget, the errors."""
        return {
            "searches_planned": len(self.tasks),
            "searches_done": len(self.results.rows),
            "positions": {**self.counts.as_dict(), "uniform_share": uniform_share(self.positions)},
            "points": [point.as_dict() for point in points],
            "errors": self.results.errors,
        }

    def save(self, *, complete: bool, interrupted: bool) -> None:
        """Save the file (if the study has one) with the rows so far."""
        if self.path is None:
            return
        summary = self.summary(self.points())
        save(self.path, self.results.document(summary, complete=complete, interrupted=interrupted))
        self.last_save = time.monotonic()


class PlainProgress:
    """A line on stderr every ``PLAIN_PROGRESS_SECONDS`` when it is not a terminal (a terminal has the bar)."""

    def __init__(self, console: Console, total: int) -> None:
        self.console = console
        self.total = total
        self.started = self.last = time.monotonic()

    def tell(self, done: int) -> None:
        now = time.monotonic()
        if not self.console.is_terminal and now - self.last >= PLAIN_PROGRESS_SECONDS:
            self.last = now
            print(
                f"study: {now - self.started:.0f} s, {done} of {self.total} searches made", file=sys.stderr, flush=True
            )


def print_report(console: Console, study: Study, points: Sequence[CurvePoint], truth_nodes: int) -> None:
    """The positions, a table per agent, the curve, the errors and an interruption, on ``console``."""
    print_words(console, study.counts.text(truth_nodes))
    agents = study.agents
    for agent in agents:
        print_table(console, agent_table(agent, [point for point in points if point.agent == agent], study.unit))
    uniform = uniform_share(study.positions)
    notes = [
        "optimal: the share of the judged moves that keep the position's value (win, draw or loss), with Wilson's "
        "95% interval; loss: the exact score a move gives away (Connect Four: Pons' score; Nim: 2 for a win thrown "
        f"away); a move is judged when its values are settled within {truth_nodes:,} solver nodes each; work: calls "
        "to the move operator."
    ]
    if uniform is not None:
        notes.append(f"A uniformly random move is optimal {100 * uniform:.1f}% of the time in these positions.")
    print_words(console, " ".join(notes), "table.caption")
    if len(study.budgets) > 1:
        width = min(console.width, CURVE_SIZE[0])
        drawn = terminal_curve(lines(points, agents), study.budgets, study.unit, uniform, width, CURVE_SIZE[1])
        console.print(drawn, soft_wrap=True)
    errors = study.results.errors
    for error in errors[:5]:
        console.print(
            f"[red]{error['agent']} at {error['budget']} in {error['position'] or 'the start'}: {error['error']}[/red]",
            highlight=False,
        )
    if len(errors) > 5:
        console.print(f"[red]... and {len(errors) - 5} more searches stopped by errors[/red]")
    if not study.complete:
        console.print(f"[yellow]interrupted: {len(study.results.rows)} of {len(study.tasks)} searches made[/yellow]")


def seconds_text(seconds: float) -> str:
    """A search's time as a table writes it: ``85 µs``, ``8.9 ms``, ``1.02 s``."""
    if seconds < 1e-3:
        return f"{1e6 * seconds:.0f} µs"
    return f"{1e3 * seconds:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def agent_table(agent: str, points: Sequence[CurvePoint], unit: str) -> Table:
    """One agent's points, a row per budget (in ``unit``: moves or seconds)."""
    table = Table(title=f"{agent}: {unit} per search", title_justify="left")
    for column in (
        "budget",
        "searches",
        "judged",
        "optimal",
        "95% interval",
        "mean loss",
        "median work",
        "median time",
    ):
        table.add_column(column, justify="right")
    for point in points:
        interval = point.interval
        table.add_row(
            budget_label(point.budget),
            f"{point.searches:,}",
            f"{point.judged:,}",
            "-" if point.share is None else f"{100 * point.share:.1f}%",
            "-" if interval is None else f"{100 * interval[0]:.1f}-{100 * interval[1]:.1f}%",
            "-" if point.mean_loss is None else f"{point.mean_loss:.2f}",
            "-" if point.median_work is None else f"{point.median_work:,.0f}",
            "-" if point.median_seconds is None else seconds_text(point.median_seconds),
        )
    return table
