"""``plyscope explore`` (and ``plyscope`` with no command): open the explorer."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from plyscope.engine.errors import UserError
from plyscope.engine.files import NO_FILES, set_files_folder, set_files_off
from plyscope.engine.numbers import shown
from plyscope.engine.search.base import SearchError
from plyscope.tui.commands.options import MOVES, SEED, add_game, add_no_book, add_position, add_truth_budget
from plyscope.tui.session import SearchConfig, Session, default_budget

if TYPE_CHECKING:
    from plyscope.tui.app import PlyscopeApp


def parse_params(items: list[str]) -> dict[str, str]:
    """``--param K=V`` items as a mapping (the registry checks names and values)."""
    params: dict[str, str] = {}
    for item in items:
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise SearchError(f"--param '{shown(item)}' is not KEY=VALUE")
        if key.strip() in params:
            raise SearchError(f"--param {shown(key.strip())} is given twice")
        params[key.strip()] = value.strip()
    return params


def config_from_args(args: argparse.Namespace) -> SearchConfig:
    if args.algo is not None and not args.algo.strip():
        raise SearchError("--algo: no algorithm named (leave the option out for the game's default)")
    return SearchConfig(
        game=args.game,
        position=args.position or "",
        algorithm=args.algo,
        params=parse_params(args.param),
        seed=args.seed,
        budget=default_budget(args.algo) if args.moves is None else args.moves,
    )


def session_for(args: argparse.Namespace) -> Session:
    """The search ``plyscope explore`` opens on; bad input fails here (without loading Textual: ``plyscope serve``
    checks its explorer arguments with it before serving)."""
    return Session.create(config_from_args(args))  # a weights file the command line names is read here


def app_for(args: argparse.Namespace) -> PlyscopeApp:
    """The app ``plyscope explore`` runs; bad input fails here, before the screen is taken over."""
    from plyscope.tui.app import PlyscopeApp
    from plyscope.tui.themes import check_theme

    session = session_for(args)
    if args.theme is not None:
        check_theme(args.theme)
    files = not getattr(args, "no_files", False)
    if not files:  # from now on no file a user names is read or written (the setup form's weights=, w, o)
        set_files_off(NO_FILES)
    folder = getattr(args, "files_in", None)
    if folder is not None:  # from now on only files inside the folder, where a bare name goes
        keep_files_in(folder)
    return PlyscopeApp(
        session, files=files, theme=args.theme, truth_nodes=args.truth_nodes, load_ahead=not args.solver_on_demand
    )


def keep_files_in(folder: str) -> None:
    """Read and write files only inside ``folder`` from now on, and make it the current folder (a bare name's)."""
    try:
        os.chdir(folder)
    except OSError as error:
        raise UserError(f"--files-in {shown(folder)}: {error.strerror or error}") from None
    set_files_folder(".")


def add_explore_arguments(parser: argparse.ArgumentParser) -> None:
    """The explorer's arguments: ``plyscope explore`` takes them, and ``plyscope serve`` passes them on."""
    add_game(parser)
    add_position(parser, "move string, piles or a tree")
    parser.add_argument("--algo", default=None, help="algorithm from the registry")
    parser.add_argument("--param", action="append", default=[], metavar="K=V", help="algorithm parameter")
    parser.add_argument("--seed", type=SEED, default=0, help="seed of the searcher's random generator")
    parser.add_argument("--moves", type=MOVES, metavar="N", help="budget: calls to the move operator")
    add_truth_budget(parser)
    parser.add_argument(
        "--theme",
        metavar="NAME",
        help="the theme to start in (t goes through them all); projector: black on white, every glyph 7:1",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_explore_arguments(parser)
    add_no_book(parser)  # (not among the arguments serve passes on: its sessions inherit it from its environment)
    parser.add_argument(
        "--solver-on-demand",
        action="store_true",
        help="load the truth column's solver only when T asks, not as soon as a search shows; serve's sessions set it",
    )
    files = parser.add_mutually_exclusive_group()
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


def run(args: argparse.Namespace) -> int:
    from plyscope.tui.app import run_app

    return run_app(app_for(args), "explore")
