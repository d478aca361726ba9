"""``plyscope search``: run one registered searcher on a position and report what it found.

``plyscope search --list`` prints the registry instead: every algorithm, its one-line
description and its parameters with type, default and range.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from plyscope.engine.errors import UserError
from plyscope.engine.exact import NODE_BUDGET, Exact
from plyscope.engine.games import State
from plyscope.engine.games.base import Move
from plyscope.engine.kits import make_game
from plyscope.engine.numbers import MAX_MOVES, MAX_NODES, parse_int
from plyscope.engine.search.base import Limit, Node, Result, Searcher
from plyscope.engine.search.entry import AlgorithmInfo, Param
from plyscope.engine.search.registry import algorithm, algorithms, compiled_twin, kits_played, make_searcher
from plyscope.engine.search_file import SearchRecipe, export_path, write_search
from plyscope.engine.timeline import recorded
from plyscope.engine.truth import OUTCOME_NAMES, Judgement, WorkShares, work_shares
from plyscope.tui.commands.explore import parse_params
from plyscope.tui.commands.options import SECONDS, SEED, TRUTH_NODES, add_game, add_no_book, add_position, number
from plyscope.tui.formatting import format_memory, significant
from plyscope.tui.session import parse_position

if TYPE_CHECKING:
    from plyscope.engine.compiled.base import CompiledSearch

SEARCH_DEFAULT_MOVES = 10_000
"""The budget of ``plyscope search`` when none is given: calls to the move operator."""
NODES = number(parse_int, "--max-nodes", lo=1, hi=MAX_NODES)
DOT_NODES = number(parse_int, "--dot-nodes", lo=1, hi=100_000)
VALUE_FOR = "first player"
"""Every searcher's root value is from the first player's point of view (the first player is MAX)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        f"Without --moves, --seconds or --iterations the search spends {SEARCH_DEFAULT_MOVES:,} moves, or the "
        "algorithm's own default (the solver's: 10^9 of its nodes)."
    )
    add_position(parser, "move string, piles or a tree")
    parser.add_argument("--algo", help="algorithm name (see --list)")
    parser.add_argument("--param", action="append", default=[], metavar="K=V", help="algorithm parameter")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument(
        "--moves",
        type=number(parse_int, "--moves", lo=0, hi=MAX_MOVES),
        metavar="N",
        help="budget: calls to the move operator (0: none)",
    )
    budget.add_argument("--seconds", type=SECONDS, metavar="S", help="budget: wall-clock seconds")
    budget.add_argument(
        "--iterations",
        type=number(parse_int, "--iterations", lo=0, hi=MAX_MOVES),
        metavar="N",
        help="budget: steps (expansions, iterations, visits)",
    )
    parser.add_argument("--seed", type=SEED, default=0, help="seed of the searcher's random generator (default 0)")
    add_game(parser)
    parser.add_argument(
        "--max-nodes",
        type=NODES,
        metavar="N",
        help="the tree's node cap (default: about 1 GB of tree for the algorithm)",
    )
    parser.add_argument(
        "--truth-nodes",
        type=TRUTH_NODES,
        default=NODE_BUDGET,
        metavar="N",
        help=f"solver nodes to settle each root move's exact value (default {NODE_BUDGET:,}; 0: none where values "
        "take a "
        "search, as Connect Four's)",
    )
    add_no_book(parser)
    parser.add_argument(
        "--compiled",
        action="store_true",
        help="search with the compiled twin (alpha-beta, Rivest's method, MCTS with k=1, on Connect Four): the same "
        "result and counts, many times sooner, but no tree (no --export, no work below the root moves)",
    )
    parser.add_argument("--list", action="store_true", help="list the algorithms and their parameters")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--export",
        metavar="FILE",
        help="write the search: FILE.json (its timeline and tree; plyscope replay opens it) or FILE.dot (Graphviz)",
    )
    parser.add_argument(
        "--dot-nodes",
        type=DOT_NODES,
        default=200,
        metavar="N",
        help="nodes drawn in a .dot export (default 200; at most 6 children each)",
    )


def run(args: argparse.Namespace) -> int:
    if args.list:
        list_algorithms(args.json)
        return 0
    if not args.algo:
        raise UserError("choose an algorithm with --algo NAME (plyscope search --list shows them)")
    game = make_game(args.game)
    state = parse_position(game, args.position or "")
    info = algorithm(args.algo)
    params = info.validate(parse_params(args.param))
    limit = budget(args, info)
    cap = info.node_cap if args.max_nodes is None else args.max_nodes
    if args.export is not None:
        export_path(args.export, "--export")
    searcher = make_searcher(info.name, state, params, seed=args.seed)
    result = run_reporting(searcher if not args.compiled else compiled(searcher, args.export), limit, cap)
    capped = not result.finished and result.stats.nodes >= cap
    if capped:
        memory = format_memory(cap * info.node_bytes)
        print(
            f"plyscope search: stopped at the node cap of {cap:,} node{'' if cap == 1 else 's'} ({memory} of tree); "
            "--max-nodes N raises it; the result so far:",
            file=sys.stderr,
        )
    report = {
        "algo": info.name,
        "params": params,
        "game": game.name,
        "position": state.text(),
        "seed": args.seed,
        "best_move": None if result.best_move is None else state.move_label(result.best_move),
        "value": result.value.first(),
        "value_for": VALUE_FOR,
        "pv": line_labels(state, result),
        "moves": result.stats.moves,
        "nodes": result.stats.nodes,
        "max_depth": result.stats.max_depth,
        "iterations": result.stats.iterations,
        "seconds": result.stats.seconds,
        "finished": result.finished,
        "node_cap": cap,
        "stopped_at_node_cap": capped,
        **truth_fields(searcher, args.truth_nodes, result.best_move),
    }
    if args.compiled:  # no tree: no work below the root moves
        report.update(losing_work_share=None, work_by_outcome=None, work_unit=None)
    if args.export is not None:
        explicit = {key: value for key, value in params.items() if value != info.param(key).default}
        recipe = SearchRecipe(
            game.name, state.text() if args.position else "", info.name, explicit, args.seed, limit.moves
        )
        replayed, timeline = recorded(recipe.maker(), result.stats.iterations)
        said = write_search(args.export, recipe, replayed, timeline, dot_nodes=args.dot_nodes)
        print(f"plyscope search: {said}", file=sys.stderr)
    if args.json:
        print(json.dumps(report))
    else:
        print_report(report)
    return 0


def compiled(searcher: Searcher[Node], export: str | None) -> CompiledSearch:
    """``searcher``'s compiled twin (``--compiled``); ``UserError`` if it has none, or with ``--export``."""
    if export is not None:
        raise UserError("--compiled keeps no tree to export: leave out --compiled or --export")
    twin = compiled_twin(searcher)
    if twin is None:
        twinned = [info.name for info in algorithms().values() if info.twin is not None]
        raise UserError(
            f"--compiled: {searcher.name} has no compiled twin here ({', '.join(twinned)} have one, on Connect Four "
            "boards of at most 62 bits; mcts with k=1)"
        )
    return twin


PROGRESS_AFTER = 2.0
"""Seconds of search after which progress is shown on stderr."""
SLICE_SECONDS = 0.25
"""A search runs in slices this long, between which its progress is shown."""


def run_reporting(searcher: Searcher[Node] | CompiledSearch, limit: Limit, cap: int) -> Result:
    """``searcher.run(limit)`` held to ``cap`` nodes, showing its progress on stderr after ``PROGRESS_AFTER`` s.

    The search runs in slices (the same steps as one run: each slice continues where the last
    stopped); a terminal gets one line rewritten in place, anything else a line every few seconds.
    """
    started = time.perf_counter()
    stats = searcher.stats
    moves_at, iterations_at = stats.moves, stats.iterations
    terminal = sys.stderr.isatty()
    shown_at = 0.0
    while True:
        elapsed = time.perf_counter() - started
        left = Limit(
            moves=None if limit.moves is None else limit.moves - (stats.moves - moves_at),
            iterations=None if limit.iterations is None else limit.iterations - (stats.iterations - iterations_at),
            seconds=SLICE_SECONDS if limit.seconds is None else max(0.0, min(SLICE_SECONDS, limit.seconds - elapsed)),
            nodes=cap,
        )
        before = (stats.moves, stats.iterations)
        result = searcher.run(left)
        elapsed = time.perf_counter() - started
        done = (
            result.finished
            or stats.nodes >= cap
            or left.moves == 0
            or left.iterations == 0
            or (limit.seconds is not None and elapsed >= limit.seconds)
            or (before == (stats.moves, stats.iterations) and limit.seconds is None)
        )
        if elapsed >= PROGRESS_AFTER and (done or elapsed - shown_at >= (0.5 if terminal else 5.0)):
            line = (
                f"plyscope search: {elapsed:.0f} s, {stats.moves:,} moves, {stats.nodes:,} nodes "
                f"(cap {cap:,}), depth {stats.max_depth}"
            )
            print(f"\r{line}\x1b[K" if terminal else line, end="" if terminal else "\n", file=sys.stderr, flush=True)
            shown_at = elapsed
        if done:
            if terminal and shown_at:
                print(file=sys.stderr)
            return result


def budget(args: argparse.Namespace, info: AlgorithmInfo) -> Limit:
    """The one budget option given, else the algorithm's ``default_budget`` or ``SEARCH_DEFAULT_MOVES`` moves; a
    negative budget raises ``SearchError``."""
    if args.moves is None and args.seconds is None and args.iterations is None:
        return Limit(moves=SEARCH_DEFAULT_MOVES if info.default_budget is None else info.default_budget)
    return Limit(moves=args.moves, seconds=args.seconds, iterations=args.iterations)


def line_labels(state: State, result: Result) -> list[str]:
    """The principal variation's moves written as the game writes them, each in the position it is played from."""
    labels = []
    for move in result.principal_variation:
        labels.append(state.move_label(move))
        state = state.play(move)
    return labels


def signed_value(value: object) -> str:
    """A root value with its sign, to six significant digits (the thousandths from 1,000 to 10,000: ``significant``)."""
    assert isinstance(value, float)
    return ("-" if value < 0 else "+") + significant(abs(value), 6)


def truth_fields(searcher: Searcher[Node], nodes: int, best: Move | None) -> dict[str, object]:
    """The root moves against perfect play (``WorkShares.as_json``), ``best`` the move the search chose, each move's
    value settled within ``nodes`` solver nodes (through the one door, ``Exact``; 0: none looked for where values take
    a search); ``null`` where not settled, and for a game with no exact values."""
    state = searcher.root_state
    exact = Exact(budget=nodes)
    reason = exact.refusal(state.game)
    if reason is not None:
        empty = WorkShares(Judgement((), None), (), "moves").as_json()
        return {**{key: None for key in empty}, "truth_refused": reason}
    values = exact.values(state.game)
    moves = list(state.legal_moves())
    looked = nodes > 0 or values.instant
    truths = [exact.truth(state.play(move)) if looked else None for move in moves]
    return work_shares(searcher.root, moves, best, truths, state.player, values).as_json()


def print_report(report: dict[str, object]) -> None:
    params = report["params"]
    assert isinstance(params, dict)
    settings = ", ".join(f"{k}={v}" for k, v in params.items())
    position = report["position"] or "start"
    print(f"{report['algo']} ({settings or 'no parameters'}) on {report['game']} {position}, seed {report['seed']}")
    line = report["pv"]
    assert isinstance(line, list)
    rows = [
        ("best move", report["best_move"] or "none"),
        ("value", f"{signed_value(report['value'])} (for the {VALUE_FOR})"),
        ("pv", " ".join(line) or "(empty)"),
        ("moves", f"{report['moves']:,}"),
        ("nodes", f"{report['nodes']:,}"),
        ("max depth", report["max_depth"]),
        ("iterations", f"{report['iterations']:,}"),
        ("seconds", f"{report['seconds']:.3f}"),
        (
            "finished",
            "yes"
            if report["finished"]
            else "no (node cap reached)"
            if report["stopped_at_node_cap"]
            else "no (budget reached)",
        ),
    ]
    rows += truth_rows(report)
    for label, value in rows:
        print(f"{label:<11} {value}")


def truth_rows(report: dict[str, object]) -> list[tuple[str, object]]:
    """The report's lines on the root moves against perfect play."""
    if report.get("truth_refused"):
        return [("truth", report["truth_refused"])]
    optimal, count, moves = report["best_move_optimal"], report["optimal_root_moves"], report["root_moves"]
    of = f"{count} of {moves} root moves are" if count is not None else "not every root move settled"
    said = "yes" if optimal is True else "no" if optimal is False else "not known"
    rows: list[tuple[str, object]] = [("optimal", f"{said} ({of})")]
    work = report["work_by_outcome"]
    if not isinstance(work, dict):  # a compiled search: no tree
        return rows
    total = sum(work.values())
    if total:
        parts = ", ".join(f"{work[name] / total:.0%} {name}" for name in OUTCOME_NAMES.values() if work[name])
        rows.append(("work", f"below root moves that: {parts} ({report['work_unit']}, for the player to move)"))
    return rows


def list_algorithms(as_json: bool) -> None:
    """The registry as a Rich table, or as a JSON list of algorithms."""
    entries = list(algorithms().values())
    if as_json:
        print(json.dumps([describe(info) for info in entries]))
        return
    table = Table(title="Search algorithms (plyscope search --algo NAME --param KEY=VALUE)", title_justify="left")
    table.add_column("algorithm", no_wrap=True)
    table.add_column("description", overflow="fold")
    table.add_column("parameters: type = default (range)", overflow="fold")
    table.add_column("games", max_width=9, overflow="fold")
    for info in entries:
        params = "\n".join(param_text(p) for p in info.params) or "-"
        table.add_row(info.name, info.description, params, "\n".join(kits_played(info)))
    Console().print(table)


def describe(info: AlgorithmInfo) -> dict[str, object]:
    """One registry entry as JSON: ``games`` lists the game kits it plays, ``chance`` whether it handles chance
    nodes."""
    return {
        "name": info.name,
        "description": info.description,
        "games": kits_played(info),
        "chance": info.chance,
        "params": [
            {"name": p.name, "type": p.kind.__name__, "default": p.default, "range": p.range_text(), "help": p.help}
            for p in info.params
        ],
    }


def param_text(param: Param) -> str:
    """``depth: int = 4 (0..12)``: a parameter as the listing shows it (booleans as true/false, like ``--param``)."""
    default = str(param.default).lower() if isinstance(param.default, bool) else param.default
    return f"{param.name}: {param.kind.__name__} = {default} ({param.range_text()})"
