"""The ``plyscope`` command line: the explorer by default, and the batch commands.

Every command module has ``run(args) -> int``; user mistakes (a bad position, an unknown
algorithm, a parameter out of range) are reported as one line on stderr with exit status 2, and
a Ctrl-C as one line with exit status 130 (``tui.entry``, the console script, answers one at once
until the command's module is loaded; then the command keeps what it has and ``run_command`` says so).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn, TextIO, TypeVar

from engine.errors import UserError, one_line
from engine.games import GAME_NAMES
from engine.numbers import MAX_MOVES, MAX_NODES, MAX_SECONDS, MAX_SEED, NumberError, parse_float, parse_int
from engine.stats import Sprt, parse_sprt
from tui.crash import CRASH_EXIT_STATUS, crash_line, save_crash
from tui.entry import interrupted, interruptible

T = TypeVar("T")

SEARCH_DEFAULT_MOVES = 10_000
"""The budget of ``plyscope search`` when none is given: calls to the move operator."""
MAX_WORKERS = 4096
"""The most worker processes an option may ask for (more than the machine's cores are capped, with a notice)."""


class Parser(argparse.ArgumentParser):
    """argparse, but a mistake on the command line is one line on stderr and exit status 2 (no usage dump)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {one_line(message)}\n")


def number(parse: Callable[[object, str], T], field: str, **bounds: float) -> Callable[[str], T]:
    """An argparse ``type`` reading ``field`` with ``parse`` (``engine.numbers``), its refusal in one line."""

    def convert(text: str) -> T:
        try:
            return parse(text, field, **bounds)
        except NumberError as error:
            raise argparse.ArgumentTypeError(str(error).removeprefix(f"{field}: ")) from None

    convert.__name__ = field
    return convert


def sprt(text: str) -> Sprt:
    """An argparse ``type`` reading ``--sprt`` (``engine.stats.parse_sprt``), its refusal in one line."""
    try:
        return parse_sprt(text)
    except UserError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("--sprt: ").removeprefix("--sprt ")) from None


MOVES = number(parse_int, "--moves", lo=1, hi=MAX_MOVES)
SECONDS = number(parse_float, "--seconds", above=0.0, hi=MAX_SECONDS)
SEED = number(parse_int, "--seed", lo=0, hi=MAX_SEED)
WORKERS = number(parse_int, "--workers", lo=1, hi=MAX_WORKERS)
NODES = number(parse_int, "--max-nodes", lo=1, hi=MAX_NODES)
POSITIONS = number(parse_int, "--positions", lo=10, hi=1_000_000)
L2 = number(parse_float, "--l2", lo=0.0, hi=1e6)
DOT_NODES = number(parse_int, "--dot-nodes", lo=1, hi=100_000)
PORT = number(parse_int, "--port", lo=1, hi=65_535)
MAX_SESSIONS = number(parse_int, "--max-sessions", lo=1, hi=64)
IDLE_MINUTES = number(parse_float, "--idle-minutes", above=0.0, hi=24 * 60)
DEFAULT_SESSION_MEMORY_MB = 2048
"""A served session's address space by default: the app (about 0.6 GB with its threads) and one search tree at
its default node cap (about 1 GB)."""
SESSION_MEMORY = number(parse_int, "--session-memory", lo=64, hi=1 << 20)


def _add_game(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game",
        default="connect4",
        metavar="GAME",
        help=f"{' | '.join(GAME_NAMES)} | connect4:WxH (default: connect4)",
    )


def _add_budget(parser: argparse.ArgumentParser) -> None:
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


def _add_cluster(parser: argparse.ArgumentParser) -> None:
    """Where games run, their seeds, and the results file (arena and rivest)."""
    parser.add_argument(
        "--workers", type=WORKERS, metavar="N", help="local worker processes (default, and at most: one per core)"
    )
    parser.add_argument("--scheduler", metavar="ADDRESS", help="run on an existing Dask cluster, e.g. tcp://HOST:8786")
    parser.add_argument("--seed", type=SEED, default=0, help="the seed every game's seed is drawn from (default 0)")
    results = parser.add_mutually_exclusive_group()
    results.add_argument("--out", metavar="FILE.json", help="write every game and the summary here (atomically)")
    results.add_argument(
        "--resume",
        metavar="FILE.json",
        help="like --out, saved after every game; run the same command again to continue an "
        "interrupted run from it (finished games are not played again)",
    )


def add_explore_arguments(parser: argparse.ArgumentParser) -> None:
    """The explorer's arguments: ``plyscope explore`` takes them, and ``plyscope serve`` passes them on."""
    _add_game(parser)
    parser.add_argument("position", nargs="?", default=None, help="move string or piles")
    parser.add_argument("--algo", default=None, help="algorithm from the registry")
    parser.add_argument("--param", action="append", default=[], metavar="K=V", help="algorithm parameter")
    parser.add_argument("--seed", type=SEED, default=0, help="seed of the searcher's random generator")
    parser.add_argument("--moves", type=MOVES, metavar="N", help="budget: calls to the move operator")


OPENINGS_HELP = (
    "every two-move opening (all2, the default); that many of them drawn with --seed; balanced:N, the N whose exact "
    "score is nearest a draw (ties drawn with --seed); or a file of move strings, one a line"
)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="plyscope",
        description="A terminal explorer for game-tree search. With no command, opens the explorer.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    explore = commands.add_parser("explore", help="open the explorer (the default)")
    add_explore_arguments(explore)
    files = explore.add_mutually_exclusive_group()
    files.add_argument(
        "--no-files",
        action="store_true",
        help="no file is read or written from the screens (w and o refuse); serve sets it",
    )
    files.add_argument(
        "--files-in",
        metavar="DIR",
        help="read and write files from the screens only inside DIR, where a bare name goes; serve --allow-files "
        "sets it",
    )

    solve = commands.add_parser("solve", help="exact value of a position and of each move")
    solve.add_argument("position", help="Pons move string (e.g. 4453) or piles (e.g. 3,4,5)")
    _add_game(solve)
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    solve.add_argument("--nodes", metavar="N", help="budget: solver nodes (Connect Four)")
    solve.add_argument(
        "--seconds",
        metavar="S",
        help="budget: wall-clock seconds (Connect Four; default 60 when neither budget is given)",
    )

    search = commands.add_parser(
        "search",
        help="run one searcher on a position",
        epilog=f"Without --moves, --seconds or --iterations the search spends {SEARCH_DEFAULT_MOVES:,} moves, or the "
        "algorithm's own default (the solver's: 10^9 of its nodes).",
    )
    search.add_argument("position", nargs="?", default=None, help="move string or piles")
    search.add_argument("--algo", help="algorithm name (see --list)")
    search.add_argument("--param", action="append", default=[], metavar="K=V", help="algorithm parameter")
    _add_budget(search)
    search.add_argument("--seed", type=SEED, default=0, help="seed of the searcher's random generator (default 0)")
    _add_game(search)
    search.add_argument(
        "--max-nodes",
        type=NODES,
        metavar="N",
        help="the tree's node cap (default: about 1 GB of tree for the algorithm)",
    )
    search.add_argument("--list", action="store_true", help="list the algorithms and their parameters")
    search.add_argument("--json", action="store_true", help="print one JSON object")
    search.add_argument(
        "--export",
        metavar="FILE",
        help="write the search: FILE.json (its timeline and tree; plyscope replay opens it) or FILE.dot (Graphviz)",
    )
    search.add_argument(
        "--dot-nodes",
        type=DOT_NODES,
        default=200,
        metavar="N",
        help="nodes drawn in a .dot export (default 200; at most 6 children each)",
    )

    serve = commands.add_parser(
        "serve",
        help="serve the explorer to web browsers, one app process per tab",
        epilog="Any other arguments are the explorer's (a position, --game, --algo, --param, --seed, --moves), "
        "as plyscope explore takes them; each browser tab opens the explorer with them.",
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: browsers on this machine only)",
    )
    serve.add_argument("--port", type=PORT, default=8000, help="the port to listen on (default 8000)")
    serve.add_argument(
        "--public-url",
        metavar="URL",
        help="the address browsers open, where it differs from the one they reach (a proxy, https)",
    )
    serve.add_argument(
        "--max-sessions",
        type=MAX_SESSIONS,
        default=4,
        metavar="N",
        help="tabs open at once, each an app process (default 4); the next one is refused. One more process, "
        "started ahead (about 45 MB, under the same memory limit), waits for the next tab",
    )
    serve.add_argument(
        "--idle-minutes",
        type=IDLE_MINUTES,
        default=30.0,
        metavar="M",
        help="end a session after M minutes without a key or a click from its page (default 30)",
    )
    serve.add_argument(
        "--session-memory",
        type=SESSION_MEMORY,
        default=DEFAULT_SESSION_MEMORY_MB,
        metavar="MB",
        help=f"each session's memory limit, its address space (default {DEFAULT_SESSION_MEMORY_MB:,} MB: one search "
        "tree at its default node cap); a session that reaches it ends, and its page says so",
    )
    serve.add_argument(
        "--allow-files",
        action="store_true",
        help="let the served screens write and read files (w, o), in one folder only: --files, else a new one "
        "under ~/.local/state/plyscope; off by default",
    )
    serve.add_argument(
        "--files",
        metavar="DIR",
        help="the folder the served screens write and read files in, and nowhere else (implies --allow-files)",
    )
    add_explore_arguments(serve)

    replay = commands.add_parser("replay", help="open a search saved with --export or w in the explorer")
    replay.add_argument("file", help="a .json file written by plyscope search --export or the explorer's w")
    replay.add_argument(
        "--check", action="store_true", help="rebuild the search, check it against the saved tree and say so; no screen"
    )

    bench = commands.add_parser("bench", help="measure the engine (and the UI with --ui)")
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")
    bench.add_argument("--quick", action="store_true", help="small samples, for a first look")
    bench.add_argument("--only", action="append", default=[], metavar="SECTION", help="run only these sections")
    bench.add_argument("--ui", action="store_true", help="measure the explorer headless")
    bench.add_argument(
        "--web",
        action="store_true",
        help="measure plyscope serve in headless Chromium (needs selenium, chromium, chromedriver)",
    )

    arena = commands.add_parser("arena", help="agents play each other over a set of openings")
    arena.add_argument(
        "--agents",
        nargs="+",
        required=True,
        metavar="SPEC",
        help="two agents (head-to-head) or more (round robin), e.g. minimax:depth=3 mcts:c=1.4,k=32; "
        "moves=N or seconds=S in a spec: that agent's own budget per turn",
    )
    arena.add_argument("--openings", default="all2", metavar="all2|NUMBER|balanced:N|FILE", help=OPENINGS_HELP)
    arena.add_argument(
        "--sprt",
        type=sprt,
        metavar="elo0=E0,elo1=E1,alpha=A,beta=B",
        help="a head-to-head stops as soon as this sequential test decides (as fastchess spells it; "
        "model=normalized (default) or logistic)",
    )
    arena.add_argument(
        "--tournament",
        choices=("round-robin", "gauntlet"),
        default="round-robin",
        help="three agents or more: every pair meets (default), or the first meets each of the others",
    )
    arena.add_argument(
        "--anchor", metavar="AGENT", help="the agent rated 0 in the rating list (default: the ratings average 0)"
    )
    arena_budget = arena.add_mutually_exclusive_group()
    arena_budget.add_argument(
        "--moves", type=MOVES, metavar="N", help="per turn: calls to the move operator (default 1000)"
    )
    arena_budget.add_argument("--seconds", type=SECONDS, metavar="S", help="per turn: wall-clock seconds")
    _add_cluster(arena)
    _add_game(arena)

    rivest = commands.add_parser("rivest", help="Rivest's 1988 experiment: min/max approximation against alpha-beta")
    rivest.add_argument(
        "--bound", choices=("moves", "seconds"), default="moves", help="budget per turn (default moves)"
    )
    rivest.add_argument(
        "--values",
        metavar="V,V,...",
        help="bounds to play (default 1000,2000,3000,4000,5000 moves or 1,2,3,4,5 seconds)",
    )
    rivest.add_argument(
        "--openings",
        default="all2",
        metavar="all2|NUMBER|balanced:N|FILE",
        help="every two-move opening (default, as Rivest); or as plyscope arena --openings",
    )
    rivest.add_argument(
        "--mm", metavar="SPEC", help="another MM agent (default rivest:mode=reverse,accounting=true,eval=rivest)"
    )
    rivest.add_argument("--ab", metavar="SPEC", help="another AB agent (default ab-rivest)")
    _add_cluster(rivest)

    play = commands.add_parser("play", help="play a game: each side a human or an agent")
    _add_game(play)
    play.add_argument(
        "--first",
        default="human",
        metavar="human|AGENT",
        help="who moves first: human (default) or an agent such as mcts:c=1.4,k=32,moves=2000",
    )
    play.add_argument("--second", metavar="human|AGENT", help="who moves second (default: the game's default agent)")
    play.add_argument("--position", default="", help="start from this position (move string or piles)")
    play.add_argument("--hint", metavar="AGENT", help="the agent asked for hints (default: the agent side)")
    play.add_argument("--load", metavar="FILE", help="continue a saved game (its sides and position)")
    play_budget = play.add_mutually_exclusive_group()
    play_budget.add_argument(
        "--moves",
        type=MOVES,
        metavar="N",
        help="per turn, for agents whose spec has no moves= or seconds=: calls to the move operator (default 1000)",
    )
    play_budget.add_argument("--seconds", type=SECONDS, metavar="S", help="per turn, likewise: seconds of search")
    play.add_argument("--seed", type=SEED, default=0, help="the seed each agent turn's seed is drawn from (default 0)")

    compare = commands.add_parser("compare", help="agents side by side on one position, at equal budgets")
    compare.add_argument("position", help="move string or piles ('-' for the start)")
    compare.add_argument(
        "--agents",
        nargs="+",
        required=True,
        metavar="SPEC",
        help="two to four agents, e.g. rivest:p=10 mcts:k=32 alphabeta",
    )
    _add_game(compare)
    compare_budget = compare.add_mutually_exclusive_group()
    compare_budget.add_argument(
        "--moves", type=MOVES, metavar="N", help="each agent's budget: calls to the move operator (default 10000)"
    )
    compare_budget.add_argument("--seconds", type=SECONDS, metavar="S", help="each agent's budget: seconds of search")
    compare.add_argument("--seed", type=SEED, default=0, help="every searcher's seed (default 0)")
    compare.add_argument("--match", action="store_true", help="start with the first two agents playing each other")

    tune = commands.add_parser("tune", help="fit the eval=features weights to solved positions; play them")
    tune.add_argument(
        "--out",
        required=True,
        metavar="FILE.json",
        help="the weights file to write (atomically); eval=features,weights=FILE reads it",
    )
    tune.add_argument(
        "--positions", type=POSITIONS, default=2000, metavar="N", help="positions to fit on (default 2000)"
    )
    tune.add_argument(
        "--plies",
        default="12-34",
        metavar="A-B",
        help="positions are cut from games at a ply drawn from A to B (default 12-34)",
    )
    tune.add_argument(
        "--source",
        choices=("random", "selfplay"),
        default="selfplay",
        help="games of the hand-set evaluator with one move in five random (default), or of random moves",
    )
    tune.add_argument(
        "--labels",
        choices=("solver", "games"),
        default="solver",
        help="each position's result: with perfect play (the exact solver, default), or the result "
        "of the self-play game it came from",
    )
    tune.add_argument("--l2", type=L2, default=1e-4, metavar="X", help="ridge penalty of the fit (default 1e-4)")
    tune.add_argument(
        "--match",
        default="alphabeta:depth=4,ordering=history",
        metavar="SPEC",
        help="the searcher both evaluators play with (default alphabeta:depth=4,ordering=history)",
    )
    tune.add_argument("--no-match", action="store_true", help="fit and write the weights, play no match")
    tune.add_argument(
        "--openings",
        default="all2",
        metavar="all2|NUMBER|balanced:N|FILE",
        help="the match's openings: every two-move opening (default); or as plyscope arena --openings",
    )
    tune.add_argument("--moves", type=MOVES, metavar="N", help="the match's budget per turn in moves (default 20000)")
    tune.add_argument(
        "--workers", type=WORKERS, metavar="N", help="the match's worker processes (default: one per core)"
    )
    tune.add_argument("--seed", type=SEED, default=0, help="seed of the positions and of the match (default 0)")
    _add_game(tune)
    tune.add_argument("--json", action="store_true", help="print one JSON object")

    return parser


COMMANDS = {
    "explore": "tui.commands.explore",
    "solve": "tui.commands.solve",
    "search": "tui.commands.search",
    "bench": "tui.commands.bench",
    "arena": "tui.commands.arena",
    "rivest": "tui.commands.rivest",
    "play": "tui.commands.play",
    "compare": "tui.commands.compare",
    "tune": "tui.commands.tune",
    "replay": "tui.commands.replay",
    "serve": "tui.commands.serve",
}


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    """``argv`` parsed; without a command (nothing, an option such as ``--game``, or a position), ``explore``'s."""
    arguments = list(argv)
    first = arguments[0] if arguments else ""
    if not arguments or (first.startswith("-") and first not in ("-h", "--help")) or re.fullmatch(r"[\d,/]+", first):
        arguments.insert(0, "explore")
    return build_parser().parse_args(arguments)


class WatchedOutput:
    """Standard output, noting a write to it that failed (a full disk, a closed pipe), so that such a failure is
    told from a crash of ours."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.failed: OSError | None = None

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except OSError as error:
            self.failed = error
            raise

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as error:
            self.failed = error
            raise

    def __getattr__(self, name: str) -> object:
        return getattr(self.stream, name)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    command = ""
    output = WatchedOutput(sys.stdout)
    sys.stdout = output
    try:
        try:
            args = parse_arguments(arguments)
        except SystemExit as exited:  # --help (0), or a command line argparse refused (2, one line said why)
            status = exited.code if isinstance(exited.code, int) else 2
        else:
            command = args.command
            try:
                status = run_command(command, args, output)
            except SystemExit:  # Rich's way out when the output's reader is gone (Console.on_broken_pipe)
                if output.failed is None:
                    raise
                status = 2
        output.flush()  # here, not at the interpreter's exit, where a failure would go unsaid
    except OSError:
        if output.failed is None:
            raise
    except KeyboardInterrupt:  # while the command line is read (one during the command: run_command says so)
        status = interrupted(command)
    finally:
        sys.stdout = output.stream
    if output.failed is not None:  # raised, or swallowed on the way (argparse ignores a --help it cannot write)
        return output_failed(command, output.failed)
    return status


def run_command(command: str, args: argparse.Namespace, output: WatchedOutput) -> int:
    """Run ``command`` (its module loaded here): its exit status; bad input is one line and status 2, a Ctrl-C one
    line and status 130, a crash one line and status 1."""
    try:
        module = importlib.import_module(COMMANDS[command])
        interruptible()  # (the console script ended the process at once on a Ctrl-C until now)
        return int(module.run(args))
    except UserError as error:
        print(f"plyscope {command}: {one_line(error)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return interrupted(command)
    except Exception as error:  # a crash: never a traceback on the screen, never exit status 0
        if isinstance(error, OSError) and output.failed is not None:
            raise  # the output cannot be written (a full disk, a closed pipe): not a crash of ours; main says so
        print(crash_line(command, error, save_crash(error)), file=sys.stderr)
        return CRASH_EXIT_STATUS


def output_failed(command: str, error: OSError) -> int:
    """Standard output cannot be written: exit status 2, with one line saying why unless its reader is gone (as
    with ``| head``, where a message would be noise)."""
    try:  # what is still buffered would fail again, with a traceback, at the interpreter's exit
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno() if sys.__stdout__ is not None else 1)
        os.close(devnull)
    except (OSError, ValueError):
        pass
    if not isinstance(error, BrokenPipeError):
        name = f"plyscope {command}" if command else "plyscope"
        with contextlib.suppress(OSError):
            print(f"{name}: cannot write the output ({one_line(error.strerror or error)})", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
