"""``plyscope arena``: agents play each other over a set of openings; a results table and a JSON file.

The running of games with a progress bar, the periodic (atomic) saving of the results file
and the result tables are shared with ``plyscope rivest``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from engine.agents import Agent, check_seed, limit_text, turn_limit
from engine.arena import (
    GameRecord,
    GameTask,
    RunOutcome,
    Tally,
    open_executor,
    pairing_tallies,
    results_document,
    run_games,
    schedule,
    select_openings,
    spell,
    summary,
    tally,
    write_json_atomic,
)
from engine.errors import UserError
from engine.games import Game, make_game
from engine.search.base import Limit, SearchError

SAVE_EVERY = 5.0
"""Seconds between two saves of the results file during a run (it is also saved at the end)."""

Document = Callable[[Sequence[GameRecord], bool], object]
"""Builds the results file's contents from the games finished so far and whether the run was interrupted."""


def run(args: argparse.Namespace) -> int:
    game = make_game(args.game)
    seed = check_seed(args.seed)
    limit = turn_limit(args.moves, args.seconds)
    agents = make_agents(args.agents, limit, game)
    openings = select_openings(game, args.openings, seed)
    tasks = schedule(game, agents, openings, seed)
    names = [agent.label for agent in agents]
    meta = {
        "command": "arena",
        "game": game.name,
        "agents": names,
        "budget": {"moves": limit.moves, "seconds": limit.seconds},
        "seed": seed,
        "openings": [spell(game.start(), opening) for opening in openings],
    }

    def document(records: Sequence[GameRecord], interrupted: bool) -> object:
        return results_document(meta, records, len(tasks), interrupted, lambda done: summary(done, names))

    console = make_console()
    outcome = play_with_progress(
        tasks, workers=args.workers, scheduler=args.scheduler, out=args.out, document=document,
        console=console, title=f"{' vs '.join(names)}, {limit_text(limit)} per turn",
    )
    console.print(tally_table("Head to head" if len(names) == 2 else "Pairings",
                              pairing_tallies(outcome.records, names)))
    if len(names) > 2:
        console.print(tally_table("Standings (every opponent)", [tally(outcome.records, n) for n in names]))
    report_end(console, outcome, len(tasks), args.out)
    return 130 if outcome.interrupted else 0


def make_console() -> Console:
    """Rich's console; wide when the output is a file or a pipe, so that tables are not folded."""
    console = Console()
    return console if console.is_terminal else Console(width=160)


def make_agents(texts: Sequence[str], limit: Limit, game: Game) -> list[Agent]:
    """The agents of ``--agents``, each checked against the registry and ``game``; repeated specs get ``#2``..."""
    if len(texts) < 2:
        raise UserError("--agents needs at least two agents (two: a head-to-head; more: a round robin)")
    agents: list[Agent] = []
    for text in texts:
        try:
            agent = Agent.parse(text, limit)
            agent.spec.make(game.start())
        except SearchError as error:
            message = str(error)
            raise SearchError(message if message.startswith("agent ") else f"agent '{text}': {message}") from None
        taken = sum(1 for other in agents if other.spec == agent.spec)
        agents.append(Agent(agent.spec, limit, f"{agent.label} #{taken + 1}") if taken else agent)
    return agents


def play_with_progress(
    tasks: Sequence[GameTask],
    *,
    workers: int | None,
    scheduler: str | None,
    out: str | None,
    document: Document,
    console: Console,
    title: str,
) -> RunOutcome:
    """Run ``tasks`` with a progress bar, saving ``document`` to ``out`` now and then and at the end."""
    path = Path(out) if out else None
    if path is not None and not path.parent.is_dir():
        raise UserError(f"--out {out}: the folder {path.parent} does not exist")
    finished: list[GameRecord] = []
    last_save = time.monotonic()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
               TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn())
    cores = os.cpu_count() or 1
    if workers is not None and workers > cores and not scheduler:
        print(f"--workers {workers}: this machine has {cores} cores; running {cores} workers", file=sys.stderr)
        workers = cores
    with (
        open_executor(cores if workers is None else workers, scheduler) as (executor, in_flight),
        Progress(*columns, console=console) as progress,
    ):
        if path is not None:
            save(path, document([], False))
        bar = progress.add_task(title, total=len(tasks))

        def on_game(record: GameRecord) -> None:
            nonlocal last_save
            finished.append(record)
            progress.advance(bar)
            if path is not None and time.monotonic() - last_save >= SAVE_EVERY:
                save(path, document(sorted(finished, key=lambda r: r.index), False))
                last_save = time.monotonic()

        outcome = run_games(tasks, executor, in_flight=in_flight, on_game=on_game)
    if path is not None:
        save(path, document(outcome.records, outcome.interrupted))
    return outcome


def save(path: Path, contents: object) -> None:
    try:
        write_json_atomic(path, contents)
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror or error}") from None


def report_end(console: Console, outcome: RunOutcome, planned: int, out: str | None) -> None:
    """Errors, interruption and where the results went, one line each."""
    errors = [r for r in outcome.records if r.result == "error"]
    for record in errors[:5]:
        console.print(f"[red]game {record.index} ({record.first} vs {record.second}, opening {record.opening}): "
                      f"{record.error_agent or 'worker'}: {record.error}[/red]", highlight=False)
    if len(errors) > 5:
        console.print(f"[red]... and {len(errors) - 5} more games stopped by errors[/red]")
    if outcome.interrupted:
        console.print(f"[yellow]interrupted: {len(outcome.records)} of {planned} games finished[/yellow]")
    if out:
        console.print(f"results written to {out}", highlight=False)


SCORE_NOTE = (
    "Score = (wins + draws/2) / games, for the agent on the left; 95% Wilson interval; "
    "Elo = -400 log10(1/score - 1). Games stopped by an error count for nobody."
)


def tally_table(title: str, tallies: Sequence[Tally]) -> Table:
    """Wins, draws, losses, errors, score with its interval and Elo difference, one row per tally."""
    table = Table(title=title, title_justify="left", caption=SCORE_NOTE, caption_justify="left")
    table.add_column("agent", overflow="fold")
    table.add_column("vs", overflow="fold")
    for column in ("games", "wins", "draws", "losses", "errors", "score", "score 95%", "Elo", "Elo 95%"):
        table.add_column(column, justify="right")
    for row in tallies:
        interval = row.interval()
        elo_interval = row.elo_interval()
        table.add_row(
            row.agent, row.opponent or "all", str(row.games), str(row.wins), str(row.draws), str(row.losses),
            str(row.errors), _number(row.score(), "{:.3f}"),
            "-" if interval is None else f"{interval[0]:.3f}..{interval[1]:.3f}",
            _elo(row.elo()), "-" if elo_interval is None else f"{_elo(elo_interval[0])}..{_elo(elo_interval[1])}",
        )
    return table


def _number(value: float | None, pattern: str) -> str:
    return "-" if value is None else pattern.format(value)


def _elo(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{'+' if value > 0 else '-'}inf" if math.isinf(value) else f"{round(value):+d}"
