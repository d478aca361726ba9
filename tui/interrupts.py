"""How a Ctrl-C is answered: at once while nothing is to be kept, else as ``KeyboardInterrupt`` the command answers.

The console script (``plyscope.tui.entry``) has a Ctrl-C end the process at once (``leave_now``) while
modules load; ``plyscope.tui.cli`` makes it raise ``KeyboardInterrupt`` again (``interruptible``) once the
command's module is loaded, and says so in the same words (``interrupted``).  This module imports
nothing but the standard library.
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


def leave_now(signum: int, frame: FrameType | None) -> None:
    """SIGINT's handler while nothing is to be kept (modules loading, the interpreter shutting down): end the
    process at once, in one line."""
    os.write(2, b"plyscope: interrupted\n")
    os._exit(INTERRUPTED_EXIT_STATUS)


def interruptible() -> None:
    """From now on a Ctrl-C raises ``KeyboardInterrupt`` (the command runs: it keeps what it has, says so and
    ends with 130), where the console script had it end the process at once; elsewhere (``plyscope.tui.cli.main`` called
    by a test) nothing changes."""
    if signal.getsignal(signal.SIGINT) is leave_now:
        signal.signal(signal.SIGINT, signal.default_int_handler)
