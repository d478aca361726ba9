"""How a Ctrl-C is answered: at once while nothing is to be kept, else as ``KeyboardInterrupt`` the command answers.

The console script (``plyscope.tui.entry``) has a Ctrl-C end the process at once (``leave_now``) while
modules load; ``plyscope.tui.cli`` makes it raise ``KeyboardInterrupt`` again (``interruptible``) once the
command's module is loaded, and says so in the same words (``interrupted``); a command has it end the process at
once again where nothing is to be kept and an exception would do harm (``ended_at_once``).  This module imports
nothing but the standard library.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
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


@contextmanager
def ended_at_once() -> Iterator[None]:
    """Within: a Ctrl-C ends the process at once (``leave_now``), where it would raise ``KeyboardInterrupt``; for
    work in which nothing is to be kept and an exception raised at any moment does harm (numba loading machine code:
    raised in one of its destructors, it is lost; in a callback of its compiler library, the process may crash).
    Elsewhere than in the main thread, or under another handler (a test's), nothing changes."""
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    signal.signal(signal.SIGINT, leave_now)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
