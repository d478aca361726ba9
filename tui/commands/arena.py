"""``plyscope arena``: agents play each other over a set of openings; results in cutechess-cli's and Ordo's words.

The running of games with a progress bar, the saving of the results file (atomic, now and
then, or after every game with ``--resume``) and the resuming of a run are shared with
``plyscope rivest`` (and the progress bar with ``plyscope tune``).  The statistics are
``plyscope.engine.stats``'s; see the module's docstring for the formulas.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from plyscope.engine import memory
from plyscope.engine.agents import Agent, check_seed, limit_text, turn_limit
from plyscope.engine.arena.accuracy import TRUTH_NODES, AccuracyTally, judged_game, load_judge
from plyscope.engine.arena.openings import select_openings
from plyscope.engine.arena.pool import RunOutcome, open_executor, run_games
from plyscope.engine.arena.records import GameRecord
from plyscope.engine.arena.results import GameTexts, results_text, resumed_games
from plyscope.engine.arena.schedule import GameTask, pairings, schedule
from plyscope.engine.arena.summary import (
    PairingStats,
    RunningSummary,
    SprtWatch,
    accuracy,
    pairing_stats,
    ratings,
    summary,
)
from plyscope.engine.errors import UserError
from plyscope.engine.exact import Exact
from plyscope.engine.files import check_writable, write_atomic
from plyscope.engine.game_record import controller_text, first_choice, parse_controller
from plyscope.engine.games import Game
from plyscope.engine.games.notation import spell
from plyscope.engine.kits import make_game
from plyscope.engine.numbers import shown
from plyscope.engine.processes import interrupts_held
from plyscope.engine.search import registry
from plyscope.engine.search.base import Limit, SearchError
from plyscope.engine.stats import MIN_INTERVAL_PAIRS, RatingList, Sprt, parse_sprt
from plyscope.tui.commands.options import add_budget, add_cluster, add_compiled, add_game, add_no_book, add_truth_nodes
from plyscope.tui.formatting import format_memory
from plyscope.tui.interrupts import ended_at_once

SAVE_EVERY = 5.0
"""Seconds between two saves of ``--out`` during a run (``--resume``'s file is saved after every game)."""
PLAIN_PROGRESS_SECONDS = 5.0
"""Seconds between two progress lines when stderr is not a terminal (a terminal has the bar)."""
OPENINGS_HELP = (
    "every two-move opening (all2, the default); that many of them drawn with --seed; balanced:N, the N whose exact "
    "score is nearest a draw (ties drawn with --seed); or a file of move strings, one a line"
)


def sprt(text: str) -> Sprt:
    """An argparse ``type`` reading ``--sprt`` (``plyscope.engine.stats.parse_sprt``), its refusal in one line."""
    try:
        return parse_sprt(text)
    except UserError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("--sprt: ").removeprefix("--sprt ")) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--agents",
        nargs="+",
        required=True,
        metavar="SPEC",
        help="two agents (head-to-head) or more (round robin), e.g. minimax:depth=3 mcts:c=1.4,k=32; "
        "moves=N or seconds=S in a spec: that agent's own budget per turn",
    )
    parser.add_argument("--openings", default="all2", metavar="all2|NUMBER|balanced:N|FILE", help=OPENINGS_HELP)
    parser.add_argument(
        "--sprt",
        type=sprt,
        metavar="elo0=E0,elo1=E1,alpha=A,beta=B",
        help="a head-to-head stops as soon as this sequential test decides (as fastchess spells it; "
        "model=normalized (default) or logistic)",
    )
    parser.add_argument(
        "--tournament",
        choices=("round-robin", "gauntlet"),
        default="round-robin",
        help="three agents or more: every pair meets (default), or the first meets each of the others",
    )
    parser.add_argument(
        "--anchor", metavar="AGENT", help="the agent rated 0 in the rating list (default: the ratings average 0)"
    )
    add_budget(
        parser, moves="per turn: calls to the move operator (default 1000)", seconds="per turn: wall-clock seconds"
    )
    add_truth_nodes(parser, TRUTH_NODES)
    add_no_book(parser)
    add_compiled(parser)
    add_cluster(parser)
    add_game(parser)


def run(args: argparse.Namespace) -> int:
    game = make_game(args.game)
    seed = check_seed(args.seed)
    limit = turn_limit(args.moves, args.seconds)
    agents = make_agents(args.agents, limit, game, compiled=args.compiled)
    names = [agent.label for agent in agents]
    sprt: Sprt | None = args.sprt
    if sprt is not None and len(agents) != 2:
        raise UserError(f"--sprt tests a head-to-head: give two agents, not {len(agents)}")
    gauntlet = args.tournament == "gauntlet"
    if args.anchor is not None and args.anchor not in names:
        raise UserError(f"--anchor '{shown(args.anchor, 60)}' is not one of the agents: {', '.join(names)}")
    openings = select_openings(game, args.openings, seed)
    truth_nodes = args.truth_nodes if judged_game(game, args.truth_nodes) else 0
    tasks = schedule(game, agents, openings, seed, gauntlet=gauntlet, truth_nodes=truth_nodes)
    meta = {
        "command": "arena",
        "game": game.name,
        "agents": names,
        "budget": {"moves": limit.moves, "seconds": limit.seconds},
        "seed": seed,
        "openings": [spell(game.start(), opening) for opening in openings],
        "tournament": args.tournament,
        "sprt": None if sprt is None else sprt.text(),
        "anchor": args.anchor,
        "truth_nodes": truth_nodes,
        "compiled": args.compiled,
    }
    results = results_file(
        args,
        meta,
        lambda done: summary(done, names, gauntlet=gauntlet, sprt=sprt, anchor=args.anchor),
        RunningSummary(names, gauntlet=gauntlet, sprt=sprt, anchor=args.anchor),
    )
    watch = None if sprt is None else SprtWatch(sprt, names[0])
    outcome = play_with_progress(
        tasks,
        workers=args.workers,
        scheduler=args.scheduler,
        results=results,
        watch=watch,
        title=f"{' vs '.join(names)}, {budgets_text(agents)}",
    )
    console = make_console()
    meetings = pairings(len(names), gauntlet)
    for i, j in meetings:
        print_lines(console, match_lines(pairing_stats(outcome.records, names[i], names[j]), sprt))
    tallies = {name: accuracy(outcome.records, name) for name in names}
    if truth_nodes:
        print_lines(console, accuracy_lines(tallies, truth_nodes))
    if len(names) > 2:
        listed = ratings(outcome.records, names, meetings, args.anchor)
        print_lines(console, rating_lines(listed, tallies if truth_nodes else None))
    report_end(console, outcome, len(tasks), results, watch)
    return 130 if outcome.interrupted else 0


def make_console(*, stderr: bool = False) -> Console:
    """Rich's console on stdout (or ``stderr``); wide when the output is a file or a pipe, so that lines are not
    folded."""
    console = Console(stderr=stderr)
    return console if console.is_terminal else Console(stderr=stderr, width=160)


def make_agents(
    texts: Sequence[str], limit: Limit, game: Game, *, compiled: bool = True, fewest: int = 2, command: str = "an arena"
) -> list[Agent]:
    """The agents of ``--agents``, each checked against the registry and ``game``, with the budget ``limit`` per
    turn unless their spec names their own (``mcts:moves=50``, then part of their name); repeated agents get
    ``#2``...; ``compiled``: each searches with its compiled twin where it has one (``--no-compiled``: never).
    ``fewest``: the agents needed (a study takes one); ``command`` names what refuses a human."""
    if len(texts) < fewest:
        raise UserError("--agents needs at least two agents (two: a head-to-head; more: a round robin)")
    agents: list[Agent] = []
    for text in texts:
        try:
            agent = parse_controller(text, limit, game)
            if agent is None:
                raise SearchError(f"agent '{text}': {command} plays agents, not humans")
            agent.spec.make(first_choice(game))
        except SearchError as error:
            message = str(error)
            raise SearchError(message if message.startswith("agent ") else f"agent '{text}': {message}") from None
        own = Agent(agent.spec, agent.limit, controller_text(agent) if agent.limit != limit else "", compiled)
        taken = sum(1 for other in agents if (other.spec, other.limit) == (own.spec, own.limit))
        agents.append(Agent(own.spec, own.limit, f"{own.label} #{taken + 1}", compiled) if taken else own)
    return agents


def budgets_text(agents: Sequence[Agent]) -> str:
    """The agents' budgets: ``1000 moves per turn`` when they share one, else each agent's in their order
    (``50 moves / 80 moves per turn``)."""
    budgets = [limit_text(agent.limit) for agent in agents]
    return f"{budgets[0] if len(set(budgets)) == 1 else ' / '.join(budgets)} per turn"


@dataclass(frozen=True, slots=True)
class ResultsFile:
    """Where a run's results go, and what goes in them."""

    path: Path
    meta: Mapping[str, object]
    """The command's settings, written first in the file (and checked against the file by ``--resume``)."""
    summary_of: Callable[[Sequence[GameRecord]], object]
    """The file's ``summary`` of the games finished so far."""
    resume: bool
    """``--resume``: games already in the file are kept, and the file is saved after every game."""
    running: RunningSummary | None = None
    """The same summary kept game by game, for the saves during the run (``None``: ``summary_of`` each time)."""


def results_file(
    args: argparse.Namespace,
    meta: Mapping[str, object],
    summary_of: Callable[[Sequence[GameRecord]], object],
    running: RunningSummary | None = None,
) -> ResultsFile | None:
    """The file of ``--out`` or ``--resume`` (``None`` without either); refused at once unless a file can be
    written there (``plyscope.engine.files.check_writable``)."""
    written = args.resume if args.resume is not None else args.out
    if written is None:
        return None
    path = check_writable(written, "--resume" if args.resume is not None else "--out")
    return ResultsFile(path, meta, summary_of, args.resume is not None, running)


def play_with_progress(
    tasks: Sequence[GameTask],
    *,
    workers: int | None,
    scheduler: str | None,
    results: ResultsFile | None,
    title: str,
    watch: SprtWatch | None = None,
) -> RunOutcome:
    """Run ``tasks`` with a progress bar on stderr, saving ``results`` as they come and at the end.

    With ``--resume``, the games already in the file are not played again; with ``watch``, the
    match ends as soon as its SPRT decides, and the games after the deciding pair are dropped.
    """
    done, todo = _resumed(tasks, results, watch)
    finished: list[GameRecord] = list(done)
    worker_count = workers_here(workers, scheduler)
    saver = None if results is None else _ResultsSaver(results, len(tasks))
    note = cap_note(tasks)
    if note:
        print(note, file=sys.stderr)
    if saver is not None:  # before the workers start and the bar is drawn: a file that cannot be written is one line
        saver.save_resumed(done)
    load_compiled(todo)
    outcome = RunOutcome([], False)
    try:
        with (
            open_executor(worker_count, scheduler) as (executor, in_flight),
            Progress(*_PROGRESS_COLUMNS, console=make_console(stderr=True), auto_refresh=False) as progress,
            _Refresher(progress),
        ):
            bar = progress.add_task(title, total=len(tasks), completed=len(done), test=_test_text(watch), turns="")
            under_way: dict[int, tuple[int, float]] = {}
            """Each game under way (that has begun a turn), by task index: the turn it plays and when that began."""
            started = last_line = time.monotonic()

            def on_turns(reports: Sequence[tuple[int, int]]) -> None:
                nonlocal last_line
                now = time.monotonic()
                under_way.update((index, (played + 1, now)) for index, played in reports)
                progress.update(bar, turns=_turns_text(under_way, now))
                if not progress.console.is_terminal and now - last_line >= PLAIN_PROGRESS_SECONDS:
                    last_line = now
                    line = f"{title}: {now - started:.0f} s, {len(finished)} of {len(tasks)} games finished"
                    turns = _turns_text(under_way, now)
                    print(f"{line}{'; ' if turns else ''}{turns}", file=sys.stderr, flush=True)

            def on_game(record: GameRecord) -> None:
                under_way.pop(record.index, None)
                finished.append(record)
                if watch is not None:
                    watch.add(record)
                progress.update(bar, advance=1, test=_test_text(watch))
                if saver is not None:
                    saver.game_finished(record, finished)

            outcome = run_games(
                todo,
                executor,
                in_flight=in_flight,
                on_game=on_game,
                enough=None if watch is None else lambda: watch.decision is not None,
                progress=on_turns,
            )
    except KeyboardInterrupt:  # as the run started or wound down (the bar, the worker processes): the games are kept
        outcome = RunOutcome(outcome.records, True)
    return _ended(tasks, done, outcome, saver, watch)


def _ended(
    tasks: Sequence[GameTask],
    done: Sequence[GameRecord],
    outcome: RunOutcome,
    saver: _ResultsSaver | None,
    watch: SprtWatch | None,
) -> RunOutcome:
    """The run's outcome: the games ``done`` before it (``--resume``) with those it played (those after the deciding
    pair of ``watch``'s SPRT dropped), saved in the results file; a Ctrl-C does not cut the save short, it is raised
    after it."""
    records = sorted([*done, *outcome.records], key=lambda r: r.index)
    if watch is not None:
        records = watch.kept(records)
    decided = watch is not None and watch.decision is not None
    outcome = RunOutcome(records, outcome.interrupted and not decided)
    if saver is not None:
        with interrupts_held():
            saver.save_end(records, complete=decided or len(records) == len(tasks), interrupted=outcome.interrupted)
    return outcome


COMPILING = "plyscope: compiling {what}, once: about {seconds} s (numba keeps them in {folder})"
"""Said on stderr before numba compiles the searchers or the solver, on the first run after an install
(``load_compiled``)."""
COMPILE_SECONDS = {"searchers": 15, "solver": 3}
"""About how long each takes to compile, measured on 2 cores shared with other work (load 2 to 6, 2026-11-28): the
searchers 10.7 to 19.1 s, the solver 2.8 s (loading them once compiled: 0.4 to 0.8 s and under 0.5 s)."""


def load_compiled(tasks: Sequence[GameTask]) -> None:
    """Load the machine code the games of ``tasks`` run (numba's: the compiled searchers the agents play with, the
    solver that judges their moves), here, before the worker processes fork (they inherit it: none loads it again)
    and before the bar starts (no turn's clock runs meanwhile).  On the first run after an install numba compiles
    it, which is said first (``COMPILING``).  A Ctrl-C meanwhile ends the process at once, in one line: nothing is
    to be kept yet, and inside numba's loading a ``KeyboardInterrupt`` is lost or worse (raised in a destructor or a
    callback of its compiler library)."""
    if not tasks:
        return
    loads = _loads(tasks)
    if not loads:
        return
    from plyscope.engine import numba_cache

    cold = [(what, sources) for what, sources, _ in loads if not numba_cache.holds(what, sources)]
    if cold:
        what = " and ".join(f"the {name}" for name in COMPILE_SECONDS if name in dict(cold))  # (searchers first)
        seconds = sum(COMPILE_SECONDS[name] for name, _ in cold)
        print(COMPILING.format(what=what, seconds=seconds, folder=numba_cache.cache_dir()), file=sys.stderr, flush=True)
    with ended_at_once():
        started = [run() for _, _, run in loads]
        for loading in started:  # (a load that goes on in a thread of its own, beside the next ones: waited for now)
            if isinstance(loading, Future):
                loading.result()
        gc.collect()  # (what the loading left to collect, collected now rather than in the middle of a game)
    for name, sources in cold:
        numba_cache.mark(name, sources)


def _loads(tasks: Sequence[GameTask]) -> list[tuple[str, Sequence[str], Callable[[], object]]]:
    """What the games of ``tasks`` load from numba's cache: the solver (moves judged on a board the compiled solver
    plays; first, as its load goes on in a thread of its own, the opening book's read beside the searchers' load) and
    the searchers (an agent with a compiled twin), each with its source files and its load."""
    game = make_game(tasks[0].game)
    start = first_choice(game)
    agents = {agent.label: agent for task in tasks for agent in (task.first, task.second) if agent.compiled}
    loads: list[tuple[str, Sequence[str], Callable[[], object]]] = []
    exact = Exact()
    sources = exact.values(game).compiled() if tasks[0].truth_nodes and exact.refusal(game) is None else ()
    if sources:
        loads.append(("solver", sources, partial(load_judge, game)))
    if agents and any(registry.twin_kind(agent.spec.make(start)) is not None for agent in agents.values()):
        loads.append(("searchers", registry.twin_sources(), registry.load_twins))
    return loads


class _Refresher(threading.Thread):
    """Redraws the progress bar ten times a second, as Rich's own refresh thread does, but lives through a
    ``MemoryError``.  With ``--workers 1`` the games run in this process, and when a search runs it out of memory,
    this thread may be the first to find out: it then draws nothing more until the game's handler has freed the
    memory (``plyscope.engine.memory.recover``), and takes no memory meanwhile (no lock to wait on: it sleeps, and
    reads a number).  A context manager: started on entry, stopped on exit."""

    def __init__(self, progress: Progress) -> None:
        super().__init__(name="progress-refresh", daemon=True)
        self.progress = progress
        self.stopping = False

    def run(self) -> None:
        short_since: int | None = None
        """``memory.recoveries`` when a redraw ran out of memory (``None``: none has since the last recovery)."""
        while not self.stopping:
            time.sleep(REFRESH_SECONDS)
            if short_since == memory.recoveries:
                continue
            try:
                self.progress.refresh()
                short_since = None
            except MemoryError:
                short_since = memory.recoveries

    def __enter__(self) -> _Refresher:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stopping = True
        self.join()


REFRESH_SECONDS = 0.1
"""How often ``_Refresher`` redraws the bar (Rich's own refresh thread: ten times a second)."""


_PROGRESS_COLUMNS = (
    TextColumn("{task.description}"),
    BarColumn(),
    MofNCompleteColumn(),
    TextColumn("games"),
    TimeElapsedColumn(),
    TextColumn("ETA"),
    TimeRemainingColumn(),
    TextColumn("{task.fields[test]}"),
    TextColumn("{task.fields[turns]}"),
)
"""The progress bar of ``play_with_progress``."""


def _resumed(
    tasks: Sequence[GameTask], results: ResultsFile | None, watch: SprtWatch | None
) -> tuple[list[GameRecord], list[GameTask]]:
    """The games ``results`` already holds (with ``--resume``; else none), given to ``watch`` too, and the tasks
    still to play (none once ``watch`` decided)."""
    done = [] if results is None or not results.resume else resumed_games(results.path, results.meta, tasks)
    if watch is not None:
        for record in sorted(done, key=lambda r: r.index):
            watch.add(record)
        if watch.decision is not None:
            return done, []
    played = {record.index for record in done}
    return done, [task for task in tasks if task.index not in played]


def workers_here(workers: int | None, scheduler: str | None) -> int:
    """How many workers to run for ``--workers`` (``None``: one per core): no more than this machine's cores unless
    a cluster runs the games (a line on stderr says so)."""
    cores = os.cpu_count() or 1
    if workers is None:
        return cores
    if workers > cores and not scheduler:
        print(f"--workers {workers}: this machine has {cores} cores; running {cores} workers", file=sys.stderr)
        return cores
    return workers


class _ResultsSaver:
    """A run's results file as the run goes on: each finished game's text made once, the file saved every
    ``SAVE_EVERY`` seconds (after every game with ``--resume``) and at the end."""

    def __init__(self, results: ResultsFile, total: int) -> None:
        self.results = results
        self.total = total
        """The games of the whole run."""
        self.texts = GameTexts()
        """Each finished game as the file writes it, made once."""
        self.last_save = time.monotonic()

    def add(self, record: GameRecord) -> None:
        """Take in a finished game: its text, and the running summary if there is one."""
        self.texts.add(record)
        if self.results.running is not None:
            self.results.running.add(record)

    def save_resumed(self, done: Sequence[GameRecord]) -> None:
        """Take in the games ``done`` before the run (``--resume``) and save the file at once."""
        for record in done:
            self.add(record)
        self.save_during(done)

    def game_finished(self, record: GameRecord, finished: Sequence[GameRecord]) -> None:
        """Take in ``record``, just finished, and save the games ``finished`` (it among them) if it is time to."""
        self.add(record)
        if self.results.resume or time.monotonic() - self.last_save >= SAVE_EVERY:
            self.save_during(finished)

    def save_during(self, finished: Sequence[GameRecord]) -> None:
        """Save the games ``finished`` so far (their summary kept game by game, if the run keeps one)."""
        results = self.results
        running = results.running
        summary = running.document() if running is not None else results.summary_of(sorted(finished, key=_index))
        text = results_text(
            results.meta, self.texts.listed(), self.total, complete=False, interrupted=False, summary=summary
        )
        save(results.path, text)
        self.last_save = time.monotonic()

    def save_end(self, records: Sequence[GameRecord], *, complete: bool, interrupted: bool) -> None:
        """Save the run's ``records`` as it ends (``complete``: every game of the run played, or the SPRT decided)."""
        results = self.results
        text = results_text(
            results.meta,
            self.texts.listed(records),
            self.total,
            complete=complete,
            interrupted=interrupted,
            summary=results.summary_of(records),
        )
        save(results.path, text)


def _index(record: GameRecord) -> int:
    return record.index


def cap_note(tasks: Sequence[GameTask]) -> str:
    """One line when an agent's budget per turn is above its tree's node cap (``Agent.decide``), which then ends its
    turns first, as it ends ``plyscope search``; ``""`` when none is."""
    largest: dict[str, Agent] = {}
    for agent in (side for task in tasks for side in (task.first, task.second)):
        known = largest.get(agent.label)
        if agent.limit.moves is not None and (known is None or agent.limit.moves > (known.limit.moves or 0)):
            largest[agent.label] = agent
    capped = []
    for label, agent in largest.items():
        info = agent.spec.info
        cap = info.node_cap if agent.limit.nodes is None else agent.limit.nodes
        if agent.limit.moves is not None and agent.limit.moves > cap:
            capped.append(f"{label} at {cap:,} nodes ({format_memory(cap * info.node_bytes)} of tree)")
    if not capped:
        return ""
    return (
        f"plyscope: a turn whose budget is above its tree's node cap stops at the cap: {', '.join(capped)}, "
        "in each worker process"
    )


def _turns_text(under_way: Mapping[int, tuple[int, float]], now: float) -> str:
    """The progress bar's turns column, a long game's progress: the turn each game under way plays, and for how
    long (``under_way``: task index -> the turn and when it began)."""
    if not under_way:
        return ""
    turns = (f"turn {turn} for {now - since:.0f} s" for _, (turn, since) in sorted(under_way.items()))
    return "under way: " + ", ".join(turns)


def _test_text(watch: SprtWatch | None) -> str:
    """The progress bar's SPRT column: the LLR against its bounds."""
    if watch is None:
        return ""
    sprt = watch.sprt
    return f"LLR {watch.llr:.2f} ({sprt.lower:.2f}, {sprt.upper:.2f}), {watch.evaluated} pairs"


def save(path: Path, text: str) -> None:
    """Write the results file ``text`` to ``path`` atomically (a reader sees the old file or the new one)."""
    try:
        write_atomic(path, text)
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror or error}") from None


def report_end(
    console: Console, outcome: RunOutcome, planned: int, results: ResultsFile | None, watch: SprtWatch | None = None
) -> None:
    """Errors, an SPRT's early end, an interruption and where the results went, one line each."""
    errors = [r for r in outcome.records if r.result == "error"]
    for record in errors[:5]:
        console.print(
            f"[red]game {record.index} ({record.first} vs {record.second}, opening {record.opening}): "
            f"{record.error_agent or 'worker'}: {record.error}[/red]",
            highlight=False,
        )
    if len(errors) > 5:
        console.print(f"[red]... and {len(errors) - 5} more games stopped by errors[/red]")
    if watch is not None and watch.decision is not None:
        console.print(
            f"the SPRT accepted {watch.decision} after {watch.evaluated} of {planned // 2} opening pairs",
            highlight=False,
        )
    if outcome.interrupted:
        console.print(f"[yellow]interrupted: {len(outcome.records)} of {planned} games finished[/yellow]")
    if results is not None:
        console.print(f"results written to {results.path}", highlight=False)


def print_lines(console: Console, lines: Sequence[str]) -> None:
    """``lines`` as they are: no markup, no highlighting, no wrapping (scripts read them)."""
    for line in lines:
        console.print(line, markup=False, highlight=False, soft_wrap=True)


def match_lines(stats: PairingStats, sprt: Sprt | None = None) -> list[str]:
    """One pairing in cutechess-cli's lines (``Score of``, ``Elo difference``, ``SPRT``), with fastchess's
    pentanomial counts and normalized Elo (``Ptnml(0-2)``) between the last two.  With too few opening pairs
    for an interval (``plyscope.engine.stats.MIN_INTERVAL_PAIRS``) the Elo line and the nElo say so."""
    games = stats.games
    estimate = stats.estimate()
    draws = games.trinomial().draw_ratio()
    counts = f"Ptnml(0-2): [{', '.join(str(n) for n in stats.pairs.counts())}]"
    draw_ratio = f"DrawRatio: {_fixed(None if draws is None else 100 * draws)} %"
    lines = [
        # cutechess-cli's own line, to the byte (two spaces before "["): qInfo("Score of %s vs %s: %d - %d - %d
        # [%.3f] %d", ...) in EngineMatch::onGameFinished, projects/cli/src/enginematch.cpp
        f"Score of {games.agent} vs {games.opponent}: {games.wins} - {games.losses} - {games.draws}  "
        f"[{_fixed(games.score(), 3)}] {games.games}",
    ]
    if estimate is None:
        too_few = "too few opening pairs for an interval"
        lines += [
            f"Elo difference: {too_few} ({stats.pairs.pairs} of at least {MIN_INTERVAL_PAIRS}), {draw_ratio}",
            f"{counts}, nElo: {too_few}",
        ]
    else:
        lines += [
            f"Elo difference: {_fixed(estimate.elo)} +/- {_fixed(estimate.error)}, "
            f"LOS: {_fixed(100 * estimate.los)} %, {draw_ratio}",
            f"{counts}, nElo: {_fixed(estimate.nelo)} +/- {_fixed(estimate.nelo_error)}",
        ]
    if sprt is not None:
        llr = sprt.llr(stats.pairs)
        decision = sprt.decision(llr)
        lines.append(
            f"SPRT: llr {llr:.2f} ({100 * sprt.fraction(llr):.1f}%), lbound {sprt.lower:.2f}, "
            f"ubound {sprt.upper:.2f}" + (f" - {decision} was accepted" if decision else "")
        )
    return lines


def _fixed(value: float | None, decimals: int = 1) -> str:
    """``value`` with ``decimals`` decimals; ``-`` when there is none (no game), where cutechess-cli prints nan."""
    return "-" if value is None else f"{value:.{decimals}f}"


def accuracy_lines(tallies: Mapping[str, AccuracyTally], truth_nodes: int) -> list[str]:
    """Each agent's moves against perfect play (``plyscope.engine.arena.accuracy``), a line each, and what they
    mean."""
    width = max(len(name) for name in tallies)
    lines = [f"Accuracy of {name + ':':<{width + 1}} {tally.text()}" for name, tally in tallies.items()]
    lines.append(
        "A move keeps the value when the position after it is still a win, draw or loss for its player; its loss is "
        f"the exact score it gives away (Connect Four: Pons' score; Nim: 2 for a win thrown away); a move is judged "
        f"when both positions are solved within {truth_nodes:,} solver nodes each (--truth-nodes)."
    )
    return lines


def rating_lines(listed: RatingList, tallies: Mapping[str, AccuracyTally] | None = None) -> list[str]:
    """A rating list in Ordo's columns: ``# PLAYER : RATING ERROR POINTS PLAYED (%)``, then with ``tallies`` each
    player's ``KEPT(%)`` and mean ``LOSS`` (``accuracy_lines``), then what it means."""
    width = max(len("PLAYER"), *(len(rating.player) for rating in listed.ratings))
    head = f"{'#':>4} {'PLAYER':<{width}}    : {'RATING':>7} {'ERROR':>6} {'POINTS':>7} {'PLAYED':>7} {'(%)':>5}"
    lines = [head + (f" {'KEPT(%)':>7} {'LOSS':>6}" if tallies is not None else "")]
    for rank, rating in enumerate(listed.ratings, start=1):
        value = "-" if rating.rating is None else f"{rating.rating:.1f}"
        error = "-" if rating.rating is None else "----" if rating.error is None else f"{rating.error:.1f}"
        share = "-" if not rating.played else f"{100 * rating.points / rating.played:.1f}"
        line = (
            f"{rank:>4} {rating.player:<{width}}    : {value:>7} {error:>6} {rating.points:>7.1f} "
            f"{rating.played:>7} {share:>5}"
        )
        if tallies is not None:
            kept, loss = tallies[rating.player].kept_share, tallies[rating.player].mean_loss
            line += f" {'-' if kept is None else f'{100 * kept:.1f}':>7} {'-' if loss is None else f'{loss:.2f}':>6}"
        lines.append(line)
    zero = f"{listed.anchor} is rated 0 (the anchor)" if listed.anchor else "the ratings average 0"
    lines.append(
        f"Logistic Elo by maximum likelihood over every game (a draw is half a win); {zero}; "
        "ERROR: half the 95% interval."
    )
    if listed.virtual_draws:
        lines.append(
            "An agent won (or lost) every game against the rest: one virtual draw between every two agents "
            "keeps the ratings finite (the points are the real ones)."
        )
    return lines
