"""``plyscope serve``: the explorer as a web page (textual-serve), one app process per browser tab."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
import time
from pathlib import Path

from engine.errors import UserError
from engine.numbers import shown
from tui.cli import Parser, add_explore_arguments
from tui.commands import explore
from tui.crash import state_directory
from tui.web.session import session_command

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
        from tui.web.app_process import SessionProcess
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
        from tui.web.server import PlyscopeServer, exposure_warning

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
