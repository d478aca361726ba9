"""What runs in the process of one session of ``plyscope serve`` (``tui.web.app_process`` starts it).

The server starts each session's process directly, with no shell in between, as
``python -m tui.web.session PARENT MEMORY_MB explore ARGS...``: ``main`` first makes the process
end with the server, even when the server is SIGKILLed (``engine.processes.end_with_parent``),
caps its address space at ``MEMORY_MB`` megabytes (``RLIMIT_AS``: a session that needs more fails
to allocate, and ends), then runs ``plyscope explore ARGS``.  It imports nothing heavy before that.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

MB = 1 << 20


def main(argv: Sequence[str] | None = None) -> int:
    """In a session's process: end with the server, cap the address space, then run ``plyscope explore``."""
    parent, memory_mb, *command = sys.argv[1:] if argv is None else argv
    from engine.processes import end_with_parent

    end_with_parent(int(parent))
    import resource

    limit = int(memory_mb) * MB
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from tui.cli import main as plyscope

    return plyscope(command)


if __name__ == "__main__":
    sys.exit(main())
