"""``plyscope play``: a game on the board, each side a human or an agent (over the explorer; escape goes back to it)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from plyscope.engine.agents import check_seed, turn_limit
from plyscope.engine.errors import UserError
from plyscope.engine.game_record import PlayedGame, parse_controller
from plyscope.engine.kits import make_game
from plyscope.tui.commands.options import SEED, add_budget, add_game, add_truth_budget
from plyscope.tui.session import SearchConfig, Session, default_algorithm, parse_position

if TYPE_CHECKING:
    from plyscope.tui.app import PlyscopeApp


def played_game(args: argparse.Namespace) -> PlayedGame:
    """The game the command line asks for: loaded with ``--load``, else new from ``--position`` and the sides."""
    limit = turn_limit(args.moves, args.seconds)
    if args.load:
        return PlayedGame.load(args.load, limit)
    game = make_game(args.game)
    start = parse_position(game, args.position)
    if start.is_terminal():
        raise UserError(f"position '{args.position}': the game is already over there")
    sides = []
    second = default_algorithm(game) if args.second is None else args.second
    for option, text in (("--first", args.first), ("--second", second)):
        try:
            sides.append(parse_controller(text, limit, game))
        except UserError as error:
            raise UserError(f"{option}: {error}") from None
    return PlayedGame(start, sides[0], sides[1], seed=check_seed(args.seed))


def app_for(args: argparse.Namespace) -> PlyscopeApp:
    """The app ``plyscope play`` runs: the play screen over the explorer; bad input fails here."""
    played = played_game(args)
    limit = turn_limit(args.moves, args.seconds)
    hint = None
    if args.hint is not None:
        hint = parse_controller(args.hint, limit, played.game)
        if hint is None:
            raise UserError("--hint: hints come from an agent, e.g. --hint alphabeta:depth=8")
    explorer = Session.create(SearchConfig(game=played.game.name))
    from plyscope.tui.app import PlyscopeApp
    from plyscope.tui.screens.play import PlayScreen

    return PlyscopeApp(
        explorer, truth_nodes=args.truth_nodes, opening=lambda: PlayScreen(played, default_limit=limit, hint=hint)
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_truth_budget(parser)
    add_game(parser)
    parser.add_argument(
        "--first",
        default="human",
        metavar="human|AGENT",
        help="who moves first: human (default) or an agent such as mcts:c=1.4,k=32,moves=2000",
    )
    parser.add_argument("--second", metavar="human|AGENT", help="who moves second (default: the game's default agent)")
    parser.add_argument("--position", default="", help="start from this position (move string or piles)")
    parser.add_argument("--hint", metavar="AGENT", help="the agent asked for hints (default: the agent side)")
    parser.add_argument("--load", metavar="FILE", help="continue a saved game (its sides and position)")
    add_budget(
        parser,
        moves="per turn, for agents whose spec has no moves= or seconds=: calls to the move operator (default 1000)",
        seconds="per turn, likewise: seconds of search",
    )
    parser.add_argument(
        "--seed", type=SEED, default=0, help="the seed each agent turn's seed is drawn from (default 0)"
    )


def run(args: argparse.Namespace) -> int:
    from plyscope.tui.app import run_app

    return run_app(app_for(args), "play")
