"""Child processes that end with the process that started them (the arena's workers, ``plyscope serve``'s sessions),
and the work a Ctrl-C must not cut short (``interrupts_held``: worker processes winding down, a file being saved).

No Textual, no Rich, nothing heavy: a served session calls ``end_with_parent`` before it imports the app.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress

PR_SET_PDEATHSIG = 1
"""``prctl`` option: the signal a process gets when its parent dies (Linux)."""
ORPHAN_CHECK_SECONDS = 1.0
"""How often a child checks that its parent still runs (where the kernel cannot be asked to tell it)."""


def end_with_parent(parent: int) -> None:
    """End this process when ``parent`` (the pid that started it) ends, even when it is SIGKILLed.

    On Linux the kernel sends SIGKILL to this process when its parent dies (``PR_SET_PDEATHSIG``);
    everywhere, a watchdog thread exits when the parent is gone (this process's parent pid is no
    longer ``parent``).  A parent that died before this call is noticed at once: no orphan lives on.
    """
    if sys.platform.startswith("linux"):
        with suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(ORPHAN_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Run the block to its end whatever a Ctrl-C does meanwhile, and raise ``KeyboardInterrupt`` after it if one
    came (once the block is over: its own exception, if it raised one, goes on instead).

    For what a Ctrl-C must not cut in two: a pool of worker processes winding down (cut short, the pool's threads
    race the interpreter's exit on its closed pipes: ``OSError: [Errno 9] Bad file descriptor``), a results file
    being saved.  Only where Python's own handler would raise ``KeyboardInterrupt``, in the main thread: any other
    handler (``plyscope.tui.interrupts.leave_now``'s ending at once, a test's) is left to answer as it does.
    """
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    came: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, frame: came.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if came:
        raise KeyboardInterrupt
