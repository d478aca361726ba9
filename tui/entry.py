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

import atexit
import os
import signal
import sys
from contextlib import suppress

from plyscope.tui.interrupts import interrupted, leave_now

signal.signal(signal.SIGINT, leave_now)  # from the moment this module is loaded, before ``main`` is even called

_status: int | None = None
"""The exit status ``main`` returned, which ``_exit_at_once`` ends the process with (``None``: not returned yet)."""


def main() -> int:
    """Run the command line (``plyscope.tui.cli.main``) and return its exit status; 130 on a Ctrl-C at any moment."""
    global _status
    signal.signal(signal.SIGINT, leave_now)
    if atexit._ncallbacks() == 0:  # (first: so run last; not after one of Python's start-up, as coverage's: see below)
        atexit.register(_exit_at_once)
    try:
        try:
            from plyscope.tui.cli import main as command_line

            _status = command_line()
        finally:  # before anything else: a Ctrl-C from now on, even while the one below is said, ends at once
            signal.signal(signal.SIGINT, leave_now)
    except KeyboardInterrupt:  # (one that came just as the command ended)
        _status = interrupted("")
    return _status


def _exit_at_once() -> None:
    """The interpreter's last exit function: end the process with ``main``'s status, once the exit functions of what
    the command loaded (registered after this one, so run before it: worker processes ended, logs flushed) are done.

    What Python's exit does after them (freeing every module: 0.4 to 0.6 s with numba loaded) needs no doing, and it
    does it with Ctrl-C set back to the system's default: a Ctrl-C then killed the process by the signal, with no
    line said, rather than ``leave_now``'s one line and exit status 130.

    Not registered where an exit function was registered before ``main`` ran (by a ``sitecustomize`` or ``.pth``
    file at Python's start-up, as coverage's, which saves what a measured run covered): that one would run after this
    one, so never; such a process ends as Python ends it."""
    if _status is None:
        return
    for stream in (sys.stdout, sys.stderr):
        with suppress(Exception):
            stream.flush()
    os._exit(_status)


if __name__ == "__main__":
    sys.exit(main())
