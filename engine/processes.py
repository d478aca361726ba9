"""Child processes that end with the process that started them (the arena's workers, ``plyscope serve``'s sessions).

No Textual, no Rich, nothing heavy: a served session calls ``end_with_parent`` before it imports the app.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from contextlib import suppress

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
