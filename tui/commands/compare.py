"""``plyscope compare POSITION --agents A B [C D]``: agents side by side at equal budgets (over the explorer)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from plyscope.engine.agents import check_seed, turn_limit
from plyscope.engine.errors import UserError
from plyscope.engine.kits import make_game
from plyscope.tui.commands.options import SEED, add_budget, add_game, add_truth_budget
from plyscope.tui.contest import compared_agents
from plyscope.tui.session import SearchConfig, Session, parse_position

if TYPE_CHECKING:
    from plyscope.tui.app import PlyscopeApp


def app_for(args: argparse.Namespace) -> PlyscopeApp:
    """The app ``plyscope compare`` runs: the compare screen over the explorer; bad input fails here."""
    game = make_game(args.game)
    state = parse_position(game, "" if args.position.strip() == "-" else args.position)
    if state.is_terminal():
        raise UserError(f"position '{args.position}': the game is already over there, nothing to compare")
    from plyscope.tui.screens.compare import COMPARE_MOVES, CompareScreen

    neither = args.moves is None and args.seconds is None
    total = turn_limit(COMPARE_MOVES if neither else args.moves, args.seconds)
    agents = compared_agents(args.agents, total, game)
    seed = check_seed(args.seed)
    explorer = Session.create(SearchConfig(game=game.name, position=state.text()))
    from plyscope.tui.app import PlyscopeApp

    return PlyscopeApp(
        explorer,
        truth_nodes=args.truth_nodes,
        opening=lambda: CompareScreen(state, agents, total, seed=seed, match=args.match),
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_truth_budget(parser)
    parser.add_argument("position", help="move string or piles ('-' for the start)")
    parser.add_argument(
        "--agents",
        nargs="+",
        required=True,
        metavar="SPEC",
        help="two to four agents, e.g. rivest:p=10 mcts:k=32 alphabeta",
    )
    add_game(parser)
    add_budget(
        parser,
        moves="each agent's budget: calls to the move operator (default 10000)",
        seconds="each agent's budget: seconds of search",
    )
    parser.add_argument("--seed", type=SEED, default=0, help="every searcher's seed (default 0)")
    parser.add_argument("--match", action="store_true", help="start with the first two agents playing each other")


def run(args: argparse.Namespace) -> int:
    from plyscope.tui.app import run_app

    return run_app(app_for(args), "compare")
