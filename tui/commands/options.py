"""What the commands' arguments share: the parser, number types read in one line, the game, the cluster options.

``plyscope.tui.cli`` builds the command line from these and each command module's ``add_arguments``; a
command's own option types stay in its module.  Nothing heavy is imported here: ``plyscope
--help`` loads this module and no command's.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn, TypeVar

from plyscope.engine.errors import one_line
from plyscope.engine.exact import NODE_BUDGET
from plyscope.engine.kits import game_names
from plyscope.engine.numbers import MAX_MOVES, MAX_NODES, MAX_SECONDS, MAX_SEED, NumberError, parse_float, parse_int

T = TypeVar("T")

MAX_WORKERS = 4096
"""The most worker processes an option may ask for (more than the machine's cores are capped, with a notice)."""


class Parser(argparse.ArgumentParser):
    """argparse, but a mistake on the command line is one line on stderr and exit status 2 (no usage dump)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {one_line(message)}\n")


def number(parse: Callable[[object, str], T], field: str, **bounds: float) -> Callable[[str], T]:
    """An argparse ``type`` reading ``field`` with ``parse`` (``plyscope.engine.numbers``), its refusal in one line."""

    def convert(text: str) -> T:
        try:
            return parse(text, field, **bounds)
        except NumberError as error:
            raise argparse.ArgumentTypeError(str(error).removeprefix(f"{field}: ")) from None

    convert.__name__ = field
    return convert


MOVES = number(parse_int, "--moves", lo=1, hi=MAX_MOVES)
SECONDS = number(parse_float, "--seconds", above=0.0, hi=MAX_SECONDS)
SEED = number(parse_int, "--seed", lo=0, hi=MAX_SEED)
WORKERS = number(parse_int, "--workers", lo=1, hi=MAX_WORKERS)
TRUTH_NODES = number(parse_int, "--truth-nodes", lo=0, hi=MAX_NODES)


def add_truth_nodes(parser: argparse.ArgumentParser, default: int) -> None:
    """``--truth-nodes N``: the solver nodes per position for judging the agents' moves against perfect play."""
    parser.add_argument(
        "--truth-nodes",
        type=TRUTH_NODES,
        default=default,
        metavar="N",
        help="judge every move against perfect play (games with exact values), each position solved within N "
        f"solver nodes (default {default:,}; 0: no judging)",
    )


def add_truth_budget(parser: argparse.ArgumentParser) -> None:
    """``--truth-nodes N``: the truth column's budget (``T``), solver nodes one position may take
    (``plyscope.engine.exact.Exact.budget``)."""
    parser.add_argument(
        "--truth-nodes",
        type=TRUTH_NODES,
        default=NODE_BUDGET,
        metavar="N",
        help=f"the truth column (T): solver nodes one position may take before it is left unsettled, … (default "
        f"{NODE_BUDGET:,})",
    )


class _NoBook(argparse.Action):
    """``--no-book``: from the moment it is read, every solver of this process, and of the processes it starts,
    searches without the opening book (``plyscope.engine.solver.book.forbid_book``)."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object, option: str | None = None
    ) -> None:
        from plyscope.engine.solver.book import forbid_book

        forbid_book()
        setattr(namespace, self.dest, True)


def add_no_book(parser: argparse.ArgumentParser) -> None:
    """``--no-book``: the exact solver searches every position itself, without Thill's opening book (7x6)."""
    parser.add_argument(
        "--no-book",
        action=_NoBook,
        nargs=0,
        default=False,
        help="Connect Four 7x6: the exact solver searches every position itself, without the opening book "
        "of positions with 12 stones (slower in the opening; the same scores)",
    )


def add_game(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game",
        default="connect4",
        metavar="GAME",
        help=f"{' | '.join(game_names())} (default: connect4)",
    )


def add_position(parser: argparse.ArgumentParser, what: str) -> None:
    """The position, written after the options or as ``--position TEXT`` (``None`` when neither is given)."""
    parser.add_argument("position", nargs="?", default=argparse.SUPPRESS, help=what)
    parser.add_argument(
        "--position",
        dest="position",
        default=None,
        metavar="TEXT",
        help="the position, as an option (a tree: its text, a built-in tree's name or a file)",
    )


def add_budget(parser: argparse.ArgumentParser, *, moves: str, seconds: str) -> None:
    """A turn's budget, ``--moves N`` or ``--seconds S`` (one of them), with the command's help for each."""
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--moves", type=MOVES, metavar="N", help=moves)
    budget.add_argument("--seconds", type=SECONDS, metavar="S", help=seconds)


def add_compiled(parser: argparse.ArgumentParser) -> None:
    """``--compiled`` (the default) or ``--no-compiled``: whether the agents search with their compiled twins
    (``Agent.compiled``) or with the Python searchers (arena and rivest)."""
    parser.add_argument(
        "--compiled",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="search with the compiled twins where an agent has one (numba; the same moves as the Python searchers, "
        "many times sooner: only a seconds bound differs); --no-compiled: the Python searchers (default: compiled)",
    )


def add_cluster(
    parser: argparse.ArgumentParser,
    *,
    item: str = "game",
    seed: str = "the seed every game's seed is drawn from",
    saved: str = "after every game",
) -> None:
    """Where a run's work goes (``item``: a game, a search...), its ``seed``, and the results file, ``saved`` so
    with ``--resume`` (arena, rivest and study)."""
    parser.add_argument(
        "--workers", type=WORKERS, metavar="N", help="local worker processes (default, and at most: one per core)"
    )
    parser.add_argument("--scheduler", metavar="ADDRESS", help="run on an existing Dask cluster, e.g. tcp://HOST:8786")
    parser.add_argument("--seed", type=SEED, default=0, help=f"{seed} (default 0)")
    results = parser.add_mutually_exclusive_group()
    results.add_argument("--out", metavar="FILE.json", help=f"write every {item} and the summary here (atomically)")
    results.add_argument(
        "--resume",
        metavar="FILE.json",
        help=f"like --out, saved {saved}; run the same command again to continue an "
        f"interrupted run from it (finished {item}s are not run again)",
    )
