"""``plyscope serve``: the explorer as a web page (textual-serve), one app process per browser tab."""

from __future__ import annotations

import argparse
import shlex
import sys

from engine.errors import UserError
from tui.cli import Parser, add_explore_arguments
from tui.commands import explore

INSTALL_HINT = "plyscope serve needs textual-serve: pip install 'plyscope[web]'"


def explore_words(args: argparse.Namespace) -> list[str]:
    """The explorer arguments in ``args`` as ``plyscope explore`` takes them (those left at their default omitted)."""
    words: list[str] = []
    probe = Parser(prog="plyscope explore")
    add_explore_arguments(probe)
    for action in probe._actions:
        if not action.option_strings and action.dest != "help":
            value = getattr(args, action.dest)
            if value is not None:
                words.append(str(value))
        elif action.dest != "help":
            value = getattr(args, action.dest)
            values = value if isinstance(value, list) else [value]
            if value != action.default:
                for item in values:
                    words += [action.option_strings[-1], str(item)]
    return words


def app_command(args: argparse.Namespace) -> str:
    """The shell command each session runs: this Python's ``plyscope explore`` with the explorer arguments."""
    files = [] if args.allow_files else ["--no-files"]
    return shlex.join([sys.executable, "-m", "tui.cli", "explore", *explore_words(args), *files])


def check_public_url(url: str | None) -> None:
    if url is not None and not url.startswith(("http://", "https://")):
        raise UserError(f"--public-url '{url}': give the address browsers open, starting http:// or https://")


def run(args: argparse.Namespace) -> int:
    check_public_url(args.public_url)
    explore.session_for(args)  # a bad position, algorithm or parameter is refused here, not in the browser
    try:
        from tui.web.server import PlyscopeServer, exposure_warning
    except ImportError:
        raise UserError(INSTALL_HINT) from None
    warning = exposure_warning(args.host)
    if warning:
        print(warning, file=sys.stderr)
    server = PlyscopeServer(
        app_command(args),
        host=args.host,
        port=args.port,
        max_sessions=args.max_sessions,
        public_url=args.public_url,
        say=lambda line: print(line, flush=True),
    )

    def ready(url: str) -> None:
        print(f"plyscope serve: open {url} in a browser ({args.max_sessions} tabs at most; Ctrl-C stops)", flush=True)

    status = server.run(ready)  # Ctrl-C raises KeyboardInterrupt: "interrupted", exit status 130
    print("plyscope serve: stopped", file=sys.stderr)
    return status
