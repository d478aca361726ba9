"""What the server and a spare app process of ``plyscope serve`` say to each other (``plyscope.tui.web.session``).

A spare waits for a line ``COLUMNS ROWS`` on its stdin (``size_line``, read by ``read_size``): the page it is
given, and that page's screen.  It names itself ``SPARE_NAME`` until then and ``PAGE_NAME`` after
(``rename``: what ``top``, ``ps -o comm`` and the tests see).  Nothing here imports the app.
"""

from __future__ import annotations

import os
import sys

SPARE_NAME = "plyscope-spare"
"""A session's process's name (``/proc/PID/comm``) until it is given a page."""
PAGE_NAME = "plyscope-page"
"""Its name once it has been given a page (the session is open)."""
PR_SET_NAME = 15
"""``prctl`` option: set the calling thread's name (Linux)."""
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
