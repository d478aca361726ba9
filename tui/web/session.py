"""What runs in the process of one session of ``plyscope serve`` (``tui.web.app_process`` starts it).

The server starts each session's process directly, with no shell in between, as
``python -m tui.web.session PARENT MEMORY_MB explore ARGS...``, before a page asks for it: the
server keeps one such process started ahead, a *spare*, so that a page that connects is served by
an app that has already started.  ``main`` first makes the process end with the server, even when
the server is SIGKILLed (``engine.processes.end_with_parent``), and caps its address space at
``MEMORY_MB`` megabytes (``RLIMIT_AS``: a session that needs more fails to allocate, and ends);
it then runs ``plyscope explore ARGS`` with ``SPARE_DRIVER``, which starts the app writing nothing
until the server gives it a page (a line ``COLUMNS ROWS``, the page's screen, on stdin), and draws
it on the page from then on.  The process is named ``SPARE_NAME`` until it is given a page,
``PAGE_NAME`` from then on (what ``top``, ``ps -o comm`` and the tests see).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

MB = 1 << 20
SPARE_NAME = "plyscope-spare"
"""A session's process's name (``/proc/PID/comm``) until it is given a page."""
PAGE_NAME = "plyscope-page"
"""Its name once it has been given a page (the session is open)."""
PR_SET_NAME = 15
"""``prctl`` option: set the calling thread's name (Linux)."""
SPARE_DRIVER = "tui.web.spare_driver:SpareDriver"
"""The Textual driver of a session's app (``TEXTUAL_DRIVER``): textual-serve's, silent until the page is given."""
SIZE_LINE_BYTES = 32
"""The longest line the server gives a spare (``COLUMNS ROWS``): anything longer is not the server's."""


def size_line(columns: int, rows: int) -> bytes:
    """What the server writes to a spare's stdin to give it a page of ``columns`` x ``rows`` cells."""
    return f"{columns} {rows}\n".encode()


def read_size(stdin: int = 0) -> tuple[int, int] | None:
    """Wait for the server's ``size_line`` on the file descriptor ``stdin``, read a byte at a time so that
    nothing after it (the page's keys, for the app) is taken; the page's screen, or ``None`` when stdin ends
    first (the server never gave this process a page) or holds something else."""
    line = b""
    while not line.endswith(b"\n"):
        byte = os.read(stdin, 1)
        if not byte or len(line) >= SIZE_LINE_BYTES:
            return None
        line += byte
    words = line.split()
    if len(words) != 2 or not all(word.isdigit() for word in words):
        return None
    return int(words[0]), int(words[1])


def rename(name: str) -> None:
    """Name this process ``name`` (its ``/proc/PID/comm``, at most 15 bytes; Linux only)."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None).prctl(PR_SET_NAME, name.encode()[:15])


def main(argv: Sequence[str] | None = None) -> int:
    """In a session's process: end with the server, cap the address space, then run ``plyscope explore`` as a
    spare (its page given later)."""
    parent, memory_mb, *command = sys.argv[1:] if argv is None else argv
    from engine.processes import end_with_parent

    end_with_parent(int(parent))
    rename(SPARE_NAME)
    import resource

    limit = int(memory_mb) * MB
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    os.environ["TEXTUAL_DRIVER"] = SPARE_DRIVER
    from tui.cli import main as plyscope

    return plyscope(command)


if __name__ == "__main__":
    sys.exit(main())
