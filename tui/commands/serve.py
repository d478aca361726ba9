"""``plyscope serve``: the explorer as a web page (textual-serve), one app process per browser tab."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from plyscope.engine.errors import UserError
from plyscope.engine.numbers import parse_float, parse_int, shown
from plyscope.tui.commands import explore
from plyscope.tui.commands.options import Parser, add_no_book, number
from plyscope.tui.crash import state_directory

INSTALL_HINT = "plyscope serve needs textual-serve: pip install 'plyscope[web]'"
PORT = number(parse_int, "--port", lo=1, hi=65_535)
MAX_SESSIONS = number(parse_int, "--max-sessions", lo=1, hi=64)
IDLE_MINUTES = number(parse_float, "--idle-minutes", above=0.0, hi=24 * 60)
DEFAULT_SESSION_MEMORY_MB = 2048
"""A served session's address space by default: the app (about 0.6 GB with its threads and the exact solver) and
one search tree at its default node cap (about 1 GB)."""
IDLE_SESSION_MB = 150
"""The address space of an idle session of the default explorer, waiting for a key (its ``VmPeak``: 153,552 kB
measured); a searcher that uses numpy takes about 115 MB more, the exact solver (the truth column) about 500 MB."""
MIN_SESSION_MEMORY_MB = 256
"""The least ``--session-memory``: an idle session and room for its first trees (a smaller limit ends every session
as it starts)."""
SESSION_MEMORY = number(parse_int, "--session-memory", lo=1, hi=1 << 20)


def session_memory(text: str) -> int:
    """``--session-memory``'s megabytes, refused in one line below ``MIN_SESSION_MEMORY_MB``."""
    megabytes = SESSION_MEMORY(text)
    if megabytes < MIN_SESSION_MEMORY_MB:
        raise argparse.ArgumentTypeError(
            f"{megabytes:,} MB is less than a session needs: give {MIN_SESSION_MEMORY_MB} or more (an idle "
            f"explorer takes about {IDLE_SESSION_MB} MB of address space)"
        )
    return megabytes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "Any other arguments are the explorer's (a position, --game, --algo, --param, --seed, --moves, --theme), "
        "as plyscope explore takes them; each browser tab opens the explorer with them (--theme: in that theme; "
        "ansi-light, made for a light terminal's own colours, is not offered in a browser)."
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: browsers on this machine only)",
    )
    parser.add_argument("--port", type=PORT, default=8000, help="the port to listen on (default 8000)")
    parser.add_argument(
        "--public-url",
        metavar="URL",
        help="the address browsers open, where it differs from the one they reach (a proxy, https)",
    )
    parser.add_argument(
        "--max-sessions",
        type=MAX_SESSIONS,
        default=4,
        metavar="N",
        help="tabs open at once, each an app process (default 4); the next one is refused. One more process, "
        "started ahead (about 45 MB, under the same memory limit), waits for the next tab",
    )
    parser.add_argument(
        "--idle-minutes",
        type=IDLE_MINUTES,
        default=30.0,
        metavar="M",
        help="end a session after M minutes without a key or a click from its page (default 30)",
    )
    parser.add_argument(
        "--session-memory",
        type=session_memory,
        default=DEFAULT_SESSION_MEMORY_MB,
        metavar="MB",
        help=f"each session's memory limit, its address space (default {DEFAULT_SESSION_MEMORY_MB:,} MB: one search "
        f"tree at its default node cap; at least {MIN_SESSION_MEMORY_MB}); a session that reaches it ends, and its "
        "page says so",
    )
    parser.add_argument(
        "--allow-files",
        action="store_true",
        help="let the served screens write and read files (w, o), in one folder only: --files, else a new one "
        "under ~/.local/state/plyscope; off by default",
    )
    parser.add_argument(
        "--files",
        metavar="DIR",
        help="the folder the served screens write and read files in, and nowhere else (implies --allow-files)",
    )
    explore.add_explore_arguments(parser)
    add_no_book(parser)  # the sessions' processes inherit it (an environment variable)


def session_command(parent: int, memory_mb: int, explore_words: Sequence[str]) -> list[str]:
    """The command line of one session's process (``plyscope.tui.web.session``): ``plyscope explore`` with
    ``explore_words``, ending with the process ``parent`` and held to ``memory_mb`` megabytes of address space."""
    return [sys.executable, "-m", "plyscope.tui.web.session", str(parent), str(memory_mb), "explore", *explore_words]


def explore_words(args: argparse.Namespace) -> list[str]:
    """The explorer arguments in ``args`` as ``plyscope explore`` takes them (those left at their default omitted)."""
    words: list[str] = []
    probe = Parser(prog="plyscope explore")
    explore.add_explore_arguments(probe)
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


def app_words(args: argparse.Namespace, files: Path | None) -> list[str]:
    """What each session's ``plyscope explore`` is given: the explorer arguments, and where its files are kept
    (``files``; ``None``: nowhere, files are off)."""
    kept = ["--no-files"] if files is None else ["--files-in", str(files)]
    return [*explore_words(args), *kept]


def files_folder(args: argparse.Namespace) -> Path | None:
    """The one folder served sessions read and write files in (``None``: files are off): ``--files DIR``, which
    must be a folder, or with ``--allow-files`` alone a new folder under plyscope's state directory."""
    if args.files is not None:
        folder = Path(args.files).expanduser()
        if not folder.is_dir():
            problem = "is not a folder" if folder.exists() else "does not exist"
            raise UserError(f"--files {shown(args.files, 200)} {problem}: name a folder for the sessions' files")
        return folder.resolve()
    if not args.allow_files:
        return None
    parent = state_directory()
    try:
        parent.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=time.strftime("served-%Y%m%d-%H%M%S-"), dir=parent))
    except OSError as error:
        reason = error.strerror or error
        raise UserError(f"cannot make a folder for the sessions' files in {parent}: {reason}") from None


def check_public_url(url: str | None) -> None:
    if url is not None and not url.startswith(("http://", "https://")):
        raise UserError(f"--public-url '{url}': give the address browsers open, starting http:// or https://")


def run(args: argparse.Namespace) -> int:
    check_public_url(args.public_url)
    explore.session_for(args)  # a bad position, algorithm or parameter is refused here, not in the browser
    try:
        from plyscope.tui.web.app_process import SessionProcess
    except ImportError:
        raise UserError(INSTALL_HINT) from None
    files = files_folder(args)
    command = session_command(os.getpid(), args.session_memory, app_words(args, files))

    def ready(url: str, others: list[str]) -> None:
        tabs = "1 tab" if args.max_sessions == 1 else f"{args.max_sessions} tabs"
        also = f"; from other machines also {', '.join(others)}" if others else ""
        print(f"plyscope serve: open {url} in a browser ({tabs} at most; Ctrl-C stops){also}", flush=True)
        if files is not None:
            print(f"plyscope serve: the sessions read and write files in {files} only", flush=True)

    async def serve() -> int:
        spare = None
        with contextlib.suppress(OSError):  # the server says so when it tries again
            spare = await SessionProcess.started(command, args.session_memory)  # it loads while the server does
        if args.theme is not None:  # (checked once the spare loads: the themes are Textual's, which serve needs not)
            from plyscope.tui.themes import check_theme

            try:
                check_theme(args.theme, in_a_browser=True)
            except UserError:
                if spare is not None:
                    await spare.stop()
                raise
        from plyscope.tui.web.server import PlyscopeServer, exposure_warning

        warning = exposure_warning(args.host)
        if warning:
            print(warning, file=sys.stderr)
        server = PlyscopeServer(
            command,
            host=args.host,
            port=args.port,
            max_sessions=args.max_sessions,
            idle_seconds=args.idle_minutes * 60,
            memory_mb=args.session_memory,
            public_url=args.public_url,
            say=lambda line: print(line, flush=True),
            spare=spare,
        )
        return await server.run(ready)

    status = asyncio.run(serve())  # Ctrl-C raises KeyboardInterrupt: "interrupted", exit status 130
    print("plyscope serve: stopped", file=sys.stderr)
    return status
