"""Where numba keeps the machine code it compiles for plyscope, and whether it holds a set of kernels yet.

numba compiles plyscope's kernels (``cache=True``: the compiled twins, the exact solver) the first time they
run and keeps the machine code for the next runs.  Left to itself it keeps it beside the source (``__pycache__``)
where that is writable, else in a cache of its own.  ``configure`` points it at one folder instead, plyscope's
user cache (``platformdirs``: ``~/.cache/plyscope/numba`` on Linux), unless ``NUMBA_CACHE_DIR`` is set, which
numba then uses as it is: a fresh install finds there what an earlier install of the same code compiled (numba
keys its entries by the source's content), an install whose folder is read-only still caches, and CI keeps the
folder between runs.  It is set before any kernel is compiled (``plyscope.engine.compiled`` and
``plyscope.engine.solver.native_kernel`` call it as they load), in the environment, so that worker processes use
it too.

``holds`` and ``mark`` keep a stamp of a set of kernels beside numba's entries, to tell beforehand whether
loading them compiles (said to the user: it takes a while) or only reads the cache.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path

ENVIRONMENT = "NUMBA_CACHE_DIR"
"""numba's setting for its cache folder."""


def cache_dir() -> Path:
    """The folder numba keeps plyscope's machine code in: ``NUMBA_CACHE_DIR`` if set, else plyscope's user cache's
    ``numba`` folder."""
    chosen = os.environ.get(ENVIRONMENT)
    if chosen:
        return Path(chosen)
    import platformdirs

    return platformdirs.user_cache_path("plyscope") / "numba"


def configure() -> None:
    """Point numba's cache at ``cache_dir()``: in the environment (for this process and the ones it starts), and in
    numba's configuration if numba has already read the environment."""
    if os.environ.get(ENVIRONMENT):
        return
    folder = str(cache_dir())
    os.environ[ENVIRONMENT] = folder
    config = sys.modules.get("numba.core.config")
    if config is not None:
        vars(config)["CACHE_DIR"] = folder


def _stamp(name: str, sources: Sequence[str]) -> Path:
    """The stamp of the kernels ``name`` compiled from the files ``sources`` by this numba and this Python."""
    import numba

    digest = hashlib.sha256(f"{numba.__version__} {sys.version}".encode())
    for source in sources:
        digest.update(Path(source).read_bytes())
    return cache_dir() / f"plyscope-{name}-{digest.hexdigest()[:16]}.loaded"


def holds(name: str, sources: Sequence[str]) -> bool:
    """Whether numba's cache holds the kernels ``name`` as the files ``sources`` now write them (``mark``ed)."""
    return _stamp(name, sources).exists()


def mark(name: str, sources: Sequence[str]) -> None:
    """Note that numba's cache now holds the kernels ``name`` (nothing happens where the cache cannot be written:
    numba then compiles in every process, and ``holds`` keeps saying so)."""
    stamp = _stamp(name, sources)
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.touch()
    except OSError:
        pass
