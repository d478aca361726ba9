"""Running out of memory without losing what was kept: an emergency reserve, and what a ``MemoryError`` held let go.

A search that runs out of memory has filled it to the brim, and whatever runs next (recording the game's
error, saving the results, a crash report) would fail in turn, while the error's traceback keeps the search's
frames, and with them its tree, alive.  So ``reserve()`` sets ``RESERVE_BYTES`` aside up front, and a handler
of a ``MemoryError`` first calls ``recover(error)``, which needs no memory of its own: it gives the reserve
back, clears the frames the error's traceback holds and the frames that called them (their locals: the
searcher and its tree), collects the tree's reference cycles, and sets the reserve aside again if it can.
"""

from __future__ import annotations

import gc
from contextlib import suppress
from types import FrameType

RESERVE_BYTES = 8 << 20
"""The emergency reserve: room for what a ``MemoryError``'s handler does before the memory the error held is free
(a crash report's traceback and its one line need well under a megabyte)."""

_reserve: bytes | None = None
"""The reserve while it is set aside (written through, so that it is resident memory, not only address space)."""

CHAIN_LIMIT = 100
"""The most exceptions of a chain (``__context__``) whose frames ``recover`` clears."""
recoveries = 0
"""How many times ``recover`` has freed memory in this process: another thread that ran out of memory waits for it to
change before it tries again (``plyscope.tui.commands.arena``'s progress bar)."""


def reserve() -> None:
    """Set the emergency reserve aside, if it is not already (nothing happens when there is no room for it)."""
    global _reserve
    if _reserve is None:
        with suppress(MemoryError):
            _reserve = b"\xff" * RESERVE_BYTES


def recover(error: BaseException) -> None:
    """The first thing a handler of the ``MemoryError`` ``error`` does: the reserve given back, then the frames of
    ``error``'s traceback (and of the exceptions it happened during) and their callers cleared of their locals,
    up to the frames still running, the reference cycles among what they held (a tree's nodes) collected, and the
    reserve set aside again if there is room."""
    global _reserve, recoveries
    _reserve = None
    link: BaseException | None = error
    for _ in range(CHAIN_LIMIT):
        if link is None:
            break
        entry = link.__traceback__
        while entry is not None:
            _clear_from(entry.tb_frame)
            entry = entry.tb_next
        link = link.__context__
    gc.collect()
    reserve()
    recoveries += 1


def _clear_from(frame: FrameType | None) -> None:
    """Clear ``frame`` and the frames that called it of their locals, up to the first one still running.

    Not only the frames the traceback lists: out of memory, Python may fail to add a frame to it, while the
    frame below still holds its caller (``f_back``), and the caller its locals."""
    while frame is not None:
        caller = frame.f_back
        try:
            frame.clear()
        except RuntimeError:  # running (this frame and its callers are the handler's own)
            return
        frame = caller
