"""``plyscope tune``: fit the weights of ``eval=features`` to solved positions, write them, and play them.

Positions are drawn and labelled (``plyscope.engine.tuning``), the weights fitted by logistic regression
and written atomically to ``--out`` (a file ``eval=features,weights=FILE`` reads), and then,
unless ``--no-match``, the tuned evaluator plays the hand-set one through the arena: the same
searcher (``--match``) on both sides, every opening twice with colours swapped.  The weights file
is written again at the end with the fit and the match's result in it.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

from plyscope.engine.agents import Agent, check_seed, limit_text, turn_limit
from plyscope.engine.arena.openings import select_openings
from plyscope.engine.arena.pool import RunOutcome
from plyscope.engine.arena.schedule import schedule
from plyscope.engine.arena.summary import tally
from plyscope.engine.errors import UserError
from plyscope.engine.files import check_writable
from plyscope.engine.games import Connect4
from plyscope.engine.games.evaluators import FEATURE_NAMES, FEATURES, FeatureEvaluator, write_weights_file
from plyscope.engine.kits import kit_of, make_game
from plyscope.engine.numbers import parse_float, parse_int, signed
from plyscope.engine.search.base import Limit, SearchError
from plyscope.engine.search.registry import AgentSpec, algorithm
from plyscope.engine.stats import Tally
from plyscope.engine.tuning import TuneReport, parse_plies, sample_positions, tune
from plyscope.tui.commands.arena import make_console, play_with_progress, report_end
from plyscope.tui.commands.options import MOVES, SEED, WORKERS, add_game, number
from plyscope.tui.commands.output import print_table, print_words

TUNED = "tuned"
HAND_SET = "hand-set"
"""The two agents' names in the match."""
MATCH_MOVES = 20_000
"""The match's budget per turn when ``--moves`` is not given: enough for ``alphabeta:depth=4`` to finish."""
MAX_POSITIONS = 1_000_000
POSITIONS = number(parse_int, "--positions", lo=10, hi=MAX_POSITIONS)
L2 = number(parse_float, "--l2", lo=0.0, hi=1e6)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        required=True,
        metavar="FILE.json",
        help="the weights file to write (atomically); eval=features,weights=FILE reads it",
    )
    parser.add_argument(
        "--positions", type=POSITIONS, default=2000, metavar="N", help="positions to fit on (default 2000)"
    )
    parser.add_argument(
        "--plies",
        default="12-34",
        metavar="A-B",
        help="positions are cut from games at a ply drawn from A to B (default 12-34)",
    )
    parser.add_argument(
        "--source",
        choices=("random", "selfplay"),
        default="selfplay",
        help="games of the hand-set evaluator with one move in five random (default), or of random moves",
    )
    parser.add_argument(
        "--labels",
        choices=("solver", "games"),
        default="solver",
        help="each position's result: with perfect play (the exact solver, default), or the result "
        "of the self-play game it came from",
    )
    parser.add_argument("--l2", type=L2, default=1e-4, metavar="X", help="ridge penalty of the fit (default 1e-4)")
    parser.add_argument(
        "--match",
        default="alphabeta:depth=4,ordering=history",
        metavar="SPEC",
        help="the searcher both evaluators play with (default alphabeta:depth=4,ordering=history)",
    )
    parser.add_argument("--no-match", action="store_true", help="fit and write the weights, play no match")
    parser.add_argument(
        "--openings",
        default="all2",
        metavar="all2|NUMBER|balanced:N|FILE",
        help="the match's openings: every two-move opening (default); or as plyscope arena --openings",
    )
    parser.add_argument("--moves", type=MOVES, metavar="N", help="the match's budget per turn in moves (default 20000)")
    parser.add_argument(
        "--workers", type=WORKERS, metavar="N", help="the match's worker processes (default: one per core)"
    )
    parser.add_argument("--seed", type=SEED, default=0, help="seed of the positions and of the match (default 0)")
    add_game(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    named = make_game(args.game)
    game = kit_of(named).features(named)
    if game is None:
        raise UserError(f"tune fits Connect Four weights: --game connect4 or connect4:WxH, not {named.name}")
    seed = check_seed(args.seed)
    if not 1 <= args.positions <= MAX_POSITIONS:
        raise UserError(f"--positions must be from 1 to {MAX_POSITIONS:,}, not {args.positions}")
    plies = parse_plies(args.plies, game)
    out = check_writable(args.out, "--out")
    limit = turn_limit(MATCH_MOVES if args.moves is None else args.moves, None)
    agents = None if args.no_match else match_agents(args.match, out.resolve(), limit, game)
    openings = None if args.no_match else select_openings(game, args.openings, seed)
    console = make_console()
    started = time.perf_counter()
    with console.status(f"drawing and labelling {args.positions:,} positions ({args.source}, {args.labels})..."):
        sample = sample_positions(game, args.positions, plies, seed, source=args.source, labels=args.labels)
    positions = sample.positions
    labelled_in = time.perf_counter() - started
    report = tune(positions, game, l2=args.l2)
    about: dict[str, object] = {
        "game": game.name,
        "seed": seed,
        "source": args.source,
        "labels": args.labels,
        "plies": list(plies),
        "skipped": sample.skipped,
        "l2": args.l2,
        "fit": report.as_dict(),
    }
    save(out, report, about)
    if not args.json:
        print_fit(console, report, labelled_in, args, sample.skipped)
        console.print(f"weights written to {out}", highlight=False)
    outcome: RunOutcome | None = None
    match: Tally | None = None
    if agents is not None and openings is not None:
        tasks = schedule(game, agents, openings, seed)
        outcome = play_with_progress(
            tasks,
            workers=args.workers,
            scheduler=None,
            results=None,
            title=f"{TUNED} vs {HAND_SET}: {agents[0].spec.label()}, {limit_text(agents[0].limit)} per turn",
        )
        match = tally(outcome.records, TUNED, HAND_SET)
        about["match"] = {
            "searcher": args.match,
            "budget": {"moves": agents[0].limit.moves},
            "openings": len(openings),
            **match.as_dict(),
            "games_planned": len(tasks),
            "interrupted": outcome.interrupted,
        }
        save(out, report, about)
        if not args.json:
            print_table(console, tally_table("The tuned weights against the hand-set ones", [match]))
            report_end(console, outcome, len(tasks), None)
    if args.json:
        print(
            json.dumps({"out": str(out), "weights": dict(zip(FEATURE_NAMES, report.fit.weights, strict=True)), **about})
        )
    return 130 if outcome is not None and outcome.interrupted else 0


def match_agents(text: str, weights: Path, limit: Limit, game: Connect4) -> list[Agent]:
    """The tuned and the hand-set agent: the searcher ``text`` with ``eval=features``, with and without the weights."""
    try:
        spec = AgentSpec.parse(text)
    except SearchError as error:
        raise SearchError(f"--match '{text}': {error}") from None
    names = [param.name for param in algorithm(spec.name).params]
    if "eval" not in names:
        raise SearchError(f"--match '{text}': {spec.name} uses no evaluator")
    chosen = {key for key in spec.params if key in ("eval", "weights")}
    if chosen:
        raise SearchError(f"--match '{text}': leave out {' and '.join(sorted(chosen))}, tune sets them")
    tuned = AgentSpec(spec.name, {**spec.params, "eval": FeatureEvaluator.name, "weights": str(weights)})
    hand_set = AgentSpec(spec.name, {**spec.params, "eval": FeatureEvaluator.name})
    try:
        hand_set.make(game.start())
    except SearchError as error:
        raise SearchError(f"--match '{text}': {error}") from None
    return [Agent(tuned, limit, TUNED), Agent(hand_set, limit, HAND_SET)]


def save(path: Path, report: TuneReport, about: dict[str, object]) -> None:
    try:
        write_weights_file(path, report.fit.weights, **about)
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror or error}") from None


def print_fit(console: Console, report: TuneReport, seconds: float, args: argparse.Namespace, skipped: int) -> None:
    """The data, the weights side by side, and how each set predicts the results."""
    slow = f" ({skipped:,} more skipped: the solver could not settle them within its node budget)" if skipped else ""
    print_words(
        console,
        f"{report.positions:,} positions ({args.source}, plies {args.plies}, labels: {args.labels}) in "
        f"{seconds:.1f} s: {report.wins:,} first-player wins, {report.draws:,} draws, {report.losses:,} second-player "
        f"wins{slow}",
    )
    weights = Table(
        title="Feature weights (hundredths of a logit of the first player's expected score)", title_justify="left"
    )
    weights.add_column("feature")
    weights.add_column("hand-set", justify="right")
    weights.add_column("tuned", justify="right")
    for feature, tuned in zip(FEATURES, report.fit.weights, strict=True):
        weights.add_row(feature.name, f"{feature.weight:g}", f"{tuned:.1f}")
    print_table(console, weights)
    fit = Table(
        title=f"Fit: logistic regression, l2 {args.l2:g}, {report.fit.iterations} Newton steps"
        + ("" if report.fit.converged else " (not converged)"),
        title_justify="left",
        caption="cross-entropy in nats per position; squared error of the predicted expected score (Texel's E); "
        "accuracy: decisive results whose winner the sign of the evaluation names",
        caption_justify="left",
    )
    fit.add_column("on these positions")
    fit.add_column("hand-set", justify="right")
    fit.add_column("tuned", justify="right")
    fit.add_row("cross-entropy", f"{report.hand_set.cross_entropy:.4f}", f"{report.tuned.cross_entropy:.4f}")
    fit.add_row("squared error", f"{report.hand_set.squared_error:.4f}", f"{report.tuned.squared_error:.4f}")
    fit.add_row("accuracy", f"{report.hand_set.accuracy:.1%}", f"{report.tuned.accuracy:.1%}")
    print_table(console, fit)


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
            row.agent,
            row.opponent or "all",
            str(row.games),
            str(row.wins),
            str(row.draws),
            str(row.losses),
            str(row.errors),
            _number(row.score(), "{:.3f}"),
            "-" if interval is None else f"{interval[0]:.3f}..{interval[1]:.3f}",
            _elo(row.elo()),
            "-" if elo_interval is None else f"{_elo(elo_interval[0])}..{_elo(elo_interval[1])}",
        )
    return table


def _number(value: float | None, pattern: str) -> str:
    return "-" if value is None else pattern.format(value)


def _elo(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{'+' if value > 0 else '-'}inf" if math.isinf(value) else signed(value)
