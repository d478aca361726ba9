"""Python's cycle collector, held off while much is allocated and nothing freed (trees, compiled code)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Hold off Python's cycle collector while a search grows its tree (or a solver loads), then restore it.

    A search allocates tree nodes by the tens of thousands and frees almost nothing, so each
    collection finds no garbage yet walks the whole heap: about a third of a best-first
    search's time.  Reference counting still frees everything that is not in a cycle.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
