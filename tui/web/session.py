"""What runs in the process of one session of ``plyscope serve`` (``plyscope.tui.web.app_process`` starts it).

The server starts each session's process directly, with no shell in between, as
``python -m plyscope.tui.web.session PARENT MEMORY_MB explore ARGS...``, before a page asks for it: the
server keeps one such process started ahead, a *spare*, so that a page that connects is served by
an app that has already started.  ``main`` first makes the process end with the server, even when
the server is SIGKILLed (``plyscope.engine.processes.end_with_parent``), and caps its address space at
``MEMORY_MB`` megabytes (``RLIMIT_AS``: a session that needs more fails to allocate, and ends);
it then runs ``plyscope explore ARGS --solver-on-demand`` with ``SPARE_DRIVER``, which starts the app writing nothing
until the server gives it a page (a line ``COLUMNS ROWS``, the page's screen, on stdin), and draws
it on the page from then on.  The process is named ``SPARE_NAME`` until it is given a page,
``PAGE_NAME`` from then on (``plyscope.tui.web.spare``) (what ``top``, ``ps -o comm`` and the tests see).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from plyscope.tui.web.spare import SPARE_NAME, rename

MB = 1 << 20
SPARE_DRIVER = "plyscope.tui.web.spare_driver:SpareDriver"
"""The Textual driver of a session's app (``TEXTUAL_DRIVER``): textual-serve's, silent until the page is given."""


def main(argv: Sequence[str] | None = None) -> int:
    """In a session's process: end with the server, cap the address space, then run ``plyscope explore`` as a
    spare (its page given later)."""
    parent, memory_mb, *command = sys.argv[1:] if argv is None else argv
    from plyscope.engine.processes import end_with_parent

    end_with_parent(int(parent))
    rename(SPARE_NAME)
    import resource

    limit = int(memory_mb) * MB
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    os.environ["TEXTUAL_DRIVER"] = SPARE_DRIVER
    from plyscope.tui.cli import main as plyscope

    return plyscope([*command, "--solver-on-demand"])  # (it loads when a page's T asks, not in every spare)


if __name__ == "__main__":
    sys.exit(main())
