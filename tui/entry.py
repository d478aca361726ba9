"""The ``plyscope`` console script: ``plyscope.tui.cli.main``, with Ctrl-C answered at any moment, loading included.

Loading the command line and then a command's modules (numpy, numba, Rich, Textual...) takes up to a second.
A Ctrl-C then raised ``KeyboardInterrupt`` inside an import, where nothing of ``plyscope.tui.cli`` could catch it yet
(Python printed a traceback of 20 to 40 lines and died of the signal), or inside a callback of the import
machinery, which only prints it ("Exception ignored") and goes on, so that the command ran regardless.  Here
a Ctrl-C ends the process at once (``plyscope.tui.interrupts.leave_now``: one line on stderr, exit status 130) until
the command's module is loaded; then ``interruptible`` gives the command ``KeyboardInterrupt`` back, which
``plyscope.tui.cli`` answers the same way once a command has kept what it must (an arena its finished games).  Once the
command is over, a Ctrl-C while the interpreter shuts down (joining threads, ending worker processes) ends it
at once too.  This module imports nothing but the standard library and ``plyscope.tui.interrupts`` (which imports only
the standard library), so only Python's own start-up, before any line of plyscope runs, is out of reach.
"""

from __future__ import annotations

import signal
import sys

from plyscope.tui.interrupts import interrupted, leave_now

signal.signal(signal.SIGINT, leave_now)  # from the moment this module is loaded, before ``main`` is even called


def main() -> int:
    """Run the command line (``plyscope.tui.cli.main``) and return its exit status; 130 on a Ctrl-C at any moment."""
    signal.signal(signal.SIGINT, leave_now)
    try:
        try:
            from plyscope.tui.cli import main as command_line

            return command_line()
        finally:  # before anything else: a Ctrl-C from now on, even while the one below is said, ends at once
            signal.signal(signal.SIGINT, leave_now)
    except KeyboardInterrupt:  # (one that came just as the command ended)
        return interrupted("")


if __name__ == "__main__":
    sys.exit(main())
