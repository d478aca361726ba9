"""The ``plyscope`` console script: ``tui.cli.main``, with Ctrl-C answered at any moment, loading included.

Loading the command line and then a command's modules (numpy, numba, Rich, Textual...) takes up to a second;
a Ctrl-C then raises ``KeyboardInterrupt`` inside an import, where nothing of ``tui.cli`` can catch it yet
(Python printed a traceback of 20 to 40 lines and died of the signal).  This module imports nothing but the
standard library's ``os``, ``signal`` and ``sys`` before its ``try``: from there on a Ctrl-C is one line on
stderr and exit status 130, as ``tui.cli.main`` answers one during a command.  Once the command is over, a
Ctrl-C while the interpreter shuts down (joining threads, ending worker processes) ends it at once, saying so
in one line, rather than with a traceback.  Only Python's own start-up (some tens of milliseconds, before any
line of plyscope runs) is out of reach.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType

INTERRUPTED_EXIT_STATUS = 130
"""The exit status after a Ctrl-C (128 + SIGINT, as a shell reports a program the signal ended)."""


def interrupted(command: str) -> int:
    """Say on stderr that ``command`` (``""``: before it was known) was interrupted; the exit status to end with."""
    print(f"plyscope {command}: interrupted" if command else "plyscope: interrupted", file=sys.stderr)
    return INTERRUPTED_EXIT_STATUS


def main() -> int:
    """Run the command line (``tui.cli.main``) and return its exit status; 130 on a Ctrl-C at any moment."""
    try:
        try:
            from tui.cli import main as command_line

            return command_line()
        finally:  # before anything else: a Ctrl-C from now on, even while the one below is said, ends at once
            signal.signal(signal.SIGINT, _leave_now)
    except KeyboardInterrupt:
        return interrupted("")


def _leave_now(signum: int, frame: FrameType | None) -> None:
    """A Ctrl-C once the command is over: end the process at once (its output is written), in one line."""
    os.write(2, b"plyscope: interrupted\n")
    os._exit(INTERRUPTED_EXIT_STATUS)


if __name__ == "__main__":
    sys.exit(main())
