"""The ``plyscope`` command line: the explorer by default, and the batch commands.

Every command module has ``add_arguments(parser)`` and ``run(args) -> int``; this module lists the
commands and loads only the module of the one named, to read its arguments and run it
(``plyscope --help`` loads none).  User mistakes (a bad position, an unknown algorithm, a
parameter out of range) are reported as one line on stderr with exit status 2, and a Ctrl-C as
one line with exit status 130 (``plyscope.tui.entry``, the console script, answers one at once until the
command's module is loaded; then the command keeps what it has and ``run_command`` says so).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import re
import sys
from collections.abc import Collection, Sequence
from types import ModuleType
from typing import TextIO

from plyscope.engine import memory
from plyscope.engine.errors import UserError, one_line
from plyscope.engine.kits import report_problems_to
from plyscope.tui.commands.options import Parser
from plyscope.tui.crash import CRASH_EXIT_STATUS, failure_line
from plyscope.tui.interrupts import interrupted, interruptible

COMMANDS = {
    "explore": "plyscope.tui.commands.explore",
    "solve": "plyscope.tui.commands.solve",
    "search": "plyscope.tui.commands.search",
    "serve": "plyscope.tui.commands.serve",
    "replay": "plyscope.tui.commands.replay",
    "diff": "plyscope.tui.commands.diff",
    "bench": "plyscope.tui.commands.bench",
    "arena": "plyscope.tui.commands.arena",
    "rivest": "plyscope.tui.commands.rivest",
    "play": "plyscope.tui.commands.play",
    "compare": "plyscope.tui.commands.compare",
    "tune": "plyscope.tui.commands.tune",
    "study": "plyscope.tui.commands.study",
    "games": "plyscope.tui.commands.games",
}
"""Each command's module, in the order ``plyscope --help`` lists them."""
SUMMARIES = {
    "explore": "open the explorer (the default)",
    "solve": "exact value of a position and of each move",
    "search": "run one searcher on a position",
    "serve": "serve the explorer to web browsers, one app process per tab",
    "replay": "open a search saved with --export or w in the explorer",
    "diff": "two saved searches of one position, node by node",
    "bench": "measure the engine (and the UI with --ui)",
    "arena": "agents play each other over a set of openings",
    "rivest": "Rivest's 1988 experiment: min/max approximation against alpha-beta",
    "play": "play a game: each side a human or an agent",
    "compare": "agents side by side on one position, at equal budgets",
    "tune": "fit the eval=features weights to solved positions; play them",
    "study": "anytime curves: how often each searcher's move is optimal as its budget grows",
    "games": "every game --game takes, its exact values and the searchers that apply",
}
"""Each command's line in ``plyscope --help`` (here, so that the list loads no command's module)."""


def command_module(command: str) -> ModuleType:
    """The module of ``command`` (one of ``COMMANDS``), loaded now if it was not."""
    return importlib.import_module(COMMANDS[command])


def build_parser(commands: Collection[str] = tuple(COMMANDS)) -> argparse.ArgumentParser:
    """The command line: every command with its line of help, and the arguments of ``commands`` (their modules
    loaded for them: every command's by default; ``plyscope --help`` needs none)."""
    parser = Parser(
        prog="plyscope",
        description="A terminal explorer for game-tree search. With no command, opens the explorer.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, summary in SUMMARIES.items():
        subparser = subparsers.add_parser(name, help=summary)
        if name in commands:
            command_module(name).add_arguments(subparser)
    return parser


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    """``argv`` parsed; without a command (nothing, an option such as ``--game``, or a position), ``explore``'s."""
    arguments = list(argv)
    first = arguments[0] if arguments else ""
    if not arguments or (first.startswith("-") and first not in ("-h", "--help")) or re.fullmatch(r"[\d,/]+", first):
        arguments.insert(0, "explore")
    return build_parser(arguments[:1]).parse_args(arguments)  # (the named command's module alone is loaded)


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


def report_plugin_problem(line: str) -> None:
    """A game plugin that did not load, in one line on stderr (as the kits are first loaded)."""
    print(f"plyscope: {line}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    report_problems_to(report_plugin_problem)
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
        module = command_module(command)
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
        if isinstance(error, MemoryError):  # the reserve and what the error held let go, for the report to be made
            memory.recover(error)
        print(failure_line(command, error), file=sys.stderr)  # (out of memory: no crash report)
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
