"""``plyscope rivest``: Rivest's 1988 experiment (Table 2) replayed, our table beside the paper's."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from rich.table import Table

from plyscope.engine.agents import check_seed
from plyscope.engine.arena.accuracy import TRUTH_NODES, AccuracyTally
from plyscope.engine.arena.openings import select_openings
from plyscope.engine.games import Connect4
from plyscope.engine.games.notation import spell
from plyscope.engine.rivest_experiment import (
    AB,
    AB_SPEC,
    MM,
    MM_SPEC,
    RIVEST_SPRT,
    RivestRow,
    parse_values,
    rivest_rows,
    rivest_tasks,
)
from plyscope.engine.stats import MIN_INTERVAL_PAIRS, EloEstimate
from plyscope.tui.commands.arena import make_console, play_with_progress, report_end, results_file
from plyscope.tui.commands.options import add_cluster, add_compiled, add_no_book, add_truth_nodes
from plyscope.tui.commands.output import print_table
from plyscope.tui.formatting import signed


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bound", choices=("moves", "seconds"), default="moves", help="budget per turn (default moves)"
    )
    parser.add_argument(
        "--values",
        metavar="V,V,...",
        help="bounds to play (default 1000,2000,3000,4000,5000 moves or 1,2,3,4,5 seconds)",
    )
    parser.add_argument(
        "--openings",
        default="all2",
        metavar="all2|NUMBER|balanced:N|FILE",
        help="every two-move opening (default, as Rivest); or as plyscope arena --openings",
    )
    parser.add_argument(
        "--mm", metavar="SPEC", help="another MM agent (default rivest:mode=reverse,accounting=true,eval=rivest)"
    )
    parser.add_argument("--ab", metavar="SPEC", help="another AB agent (default ab-rivest)")
    add_truth_nodes(parser, TRUTH_NODES)
    add_no_book(parser)
    add_compiled(parser)
    add_cluster(parser)


def run(args: argparse.Namespace) -> int:
    game = Connect4()
    seed = check_seed(args.seed)
    values = parse_values(args.bound, args.values)
    openings = select_openings(game, args.openings, seed)
    mm_spec = MM_SPEC if args.mm is None else args.mm
    ab_spec = AB_SPEC if args.ab is None else args.ab
    tasks = rivest_tasks(
        game, args.bound, values, openings, seed, mm_spec, ab_spec, args.truth_nodes, compiled=args.compiled
    )
    meta = {
        "command": "rivest",
        "game": game.name,
        "agents": {MM: mm_spec, AB: ab_spec},
        "bound": args.bound,
        "compiled": args.compiled,
        "values": list(values),
        "seed": seed,
        "openings": [spell(game.start(), opening) for opening in openings],
        "truth_nodes": args.truth_nodes,
    }

    results = results_file(
        args, meta, lambda done: {"table": [row.as_dict() for row in rivest_rows(done, args.bound, values)]}
    )
    outcome = play_with_progress(
        tasks,
        workers=args.workers,
        scheduler=args.scheduler,
        results=results,
        title=f"Rivest's experiment, {args.bound} bound",
    )
    console = make_console()
    rows = rivest_rows(outcome.records, args.bound, values)
    print_table(console, rivest_table(rows, len(openings), mm_spec, ab_spec))
    if args.truth_nodes:
        print_table(console, accuracy_table(rows, args.truth_nodes))
    report_end(console, outcome, len(tasks), results)
    return 130 if outcome.interrupted else 0


def rivest_table(rows: Sequence[RivestRow], openings: int, mm_spec: str, ab_spec: str) -> Table:
    """Our MM wins / AB wins / ties per bound with MM's Elo difference, beside Rivest's Table 2."""
    table = Table(
        title=f"Rivest's Table 2 replayed: {openings} opening{'s' if openings != 1 else ''} x 2 colours per bound",
        title_justify="left",
        caption_justify="left",
        caption=f"MM = {mm_spec}; AB = {ab_spec}. Paper: Rivest, AI 34 (1988), Table 2, 98 games per row.\n"
        "Elo: MM's Elo difference to AB +/- half its 95% interval, ours from the opening pairs (pentanomial), "
        "the paper's from its wins and ties (trinomial); * marks an interval without 0 (significant); "
        f"-: none (ours: fewer than {MIN_INTERVAL_PAIRS} opening pairs, too few for an interval; "
        "the paper's: no such row).\n"
        f"SPRT: fastchess's on our opening pairs, {RIVEST_SPRT.text()}: LLR, then MM (H1: MM the stronger), AB (H0: "
        f"AB the stronger) once it is beyond {RIVEST_SPRT.upper:.2f} or {RIVEST_SPRT.lower:.2f}, else undecided.",
    )
    table.add_column("bound per turn")
    columns = ("MM wins", "AB wins", "ties", "errors", "Elo", "SPRT", "paper MM", "paper AB", "paper ties", "paper Elo")
    for column in columns:
        table.add_column(column, justify="right")
    for row in rows:
        paper = ("-", "-", "-") if row.paper is None else tuple(str(n) for n in row.paper)
        table.add_row(
            row.label,
            str(row.mm_wins),
            str(row.ab_wins),
            str(row.ties),
            str(row.errors),
            elo_cell(row.estimate()),
            sprt_cell(row.sprt()),
            *paper,
            elo_cell(row.paper_estimate()),
            end_section=row is rows[-2],
        )
    return table


def accuracy_table(rows: Sequence[RivestRow], truth_nodes: int) -> Table:
    """MM's and AB's moves against perfect play per bound: the share that keep the game-theoretic value, the mean
    score given away, and the share judged (``plyscope.engine.arena.accuracy``)."""
    table = Table(
        title="Move quality against perfect play",
        title_justify="left",
        caption_justify="left",
        caption="kept: the share of the judged moves after which the position is still a win, draw or loss for the "
        "player who moved; loss: the mean of Pons' score given away per judged move; judged: the share of the moves "
        f"whose positions before and after the solver settled within {truth_nodes:,} nodes each (--truth-nodes), "
        "going back from each game's end.",
    )
    table.add_column("bound per turn")
    for column in ("MM kept", "MM loss", "MM judged", "AB kept", "AB loss", "AB judged"):
        table.add_column(column, justify="right")
    for row in rows:
        table.add_row(
            row.label, *_accuracy_cells(row.mm_accuracy), *_accuracy_cells(row.ab_accuracy), end_section=row is rows[-2]
        )
    return table


def _accuracy_cells(tally: AccuracyTally) -> tuple[str, str, str]:
    """kept, loss and judged, as ``accuracy_table`` shows them (``-``: no move judged)."""
    kept, loss, judged = tally.kept_share, tally.mean_loss, tally.judged_share
    return (
        "-" if kept is None else f"{100 * kept:.1f}%",
        "-" if loss is None else f"{loss:.2f}",
        "-" if judged is None else f"{100 * judged:.0f}%",
    )


def sprt_cell(test: dict[str, object]) -> str:
    """``+3.10 MM``: the SPRT's LLR, and the stronger agent once it decided (``undecided`` before)."""
    llr = test["llr"]
    assert isinstance(llr, float)
    decided = {"H1": MM, "H0": AB}.get(str(test["result"]), "undecided")  # (``None``: undecided)
    return f"{signed(llr, 2)} {decided}"


def elo_cell(estimate: EloEstimate | None) -> str:
    """``+45 +/- 40 *``: an Elo difference, half its 95% interval, and a star when the interval leaves out 0."""
    if estimate is None:
        return "-"
    return f"{signed(estimate.elo)} +/- {estimate.error:.0f}{' *' if estimate.significant() else ''}"
