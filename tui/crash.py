"""What plyscope does when it fails in a way nobody planned: save the traceback, say so in one line, exit 1.

A crash report is a text file in ``$PLYSCOPE_CRASH_DIR``, else ``$XDG_STATE_HOME/plyscope``
(``~/.local/state/plyscope`` by default), else the system's temporary directory: the
command line, the versions, and the full traceback.  The user sees one line on stderr:
``plyscope explore: internal error (KeyError: 'x'); the full traceback is in /path/crash-....txt``.
"""

from __future__ import annotations

import os
import platform
import sys
import tempfile
import time
import traceback
from pathlib import Path

from plyscope.engine.files import write_atomic

CRASH_EXIT_STATUS = 1
"""The exit status after a crash (2 is bad input, 130 an interruption)."""


def state_directory() -> Path:
    """plyscope's folder for what it keeps between runs: ``$XDG_STATE_HOME/plyscope`` (``~/.local/state/plyscope``)."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "plyscope"


def crash_directories() -> list[Path]:
    """Where a crash report may go, in order of preference."""
    chosen = os.environ.get("PLYSCOPE_CRASH_DIR")
    places = [Path(chosen)] if chosen else []
    return [*places, state_directory(), Path(tempfile.gettempdir())]


def save_crash(error: BaseException) -> Path | None:
    """Write ``error``'s traceback to a new crash report; its path, or ``None`` if no place would take it."""
    from importlib import metadata  # (here: 20 ms of imports, for every command that never crashes)

    stamp = time.strftime("%Y%m%d-%H%M%S")
    try:
        version = metadata.version("plyscope")
    except metadata.PackageNotFoundError:
        version = "unknown"
    report = "".join(
        [
            f"plyscope {version} crashed at {time.strftime('%Y-%m-%d %H:%M:%S')}\n",
            f"command: {' '.join(sys.argv)}\n",
            f"python {platform.python_version()} on {platform.platform()}\n\n",
            *traceback.format_exception(error),
        ]
    )
    for directory in crash_directories():
        path = directory / f"crash-{stamp}-{os.getpid()}.txt"
        try:
            directory.mkdir(parents=True, exist_ok=True)
            write_atomic(path, report, named_by_user=False)
        except OSError:
            continue
        return path
    return None


MEMORY_SIGNS = (
    "MemoryError",
    "out of memory",
    "std::bad_alloc",
    "Cannot allocate memory",
    "can't start new thread",
    "failed to map segment from shared object",
)
"""What a process that ran out of memory (its address space: a served session's limit) says as it fails: Python,
plyscope's own line (``memory_line``), LLVM, the C library, the dynamic loader loading a compiled module."""


def out_of_memory(error: BaseException) -> BaseException | None:
    """The exception in ``error``'s chain (itself, what it was raised from or during) that says memory ran out
    (``MemoryError``, or ``MEMORY_SIGNS`` in its message: numba's compiler library, say, failing to load), else
    ``None``: running out of memory is no defect of plyscope's, and gets no crash report."""
    seen: set[int] = set()
    link: BaseException | None = error
    while link is not None and id(link) not in seen:
        seen.add(id(link))
        if isinstance(link, MemoryError) or any(sign in str(link) for sign in MEMORY_SIGNS):
            return link
        link = link.__cause__ or link.__context__
    return None


ADDRESS_SPACE_MARGIN = 32 << 20
"""How close to its address space limit (``RLIMIT_AS``) a process is taken to have run out of it (bytes): a thread's
stack or a library's segments no longer fit."""


def address_space_spent() -> bool:
    """Whether this process has (nearly) spent the address space it may use (``RLIMIT_AS``: a served session's
    memory limit); ``False`` without a limit, or where the size cannot be read."""
    import resource

    limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    if limit == resource.RLIM_INFINITY:
        return False
    try:
        status = Path("/proc/self/status").read_text()
        size = int(status.split("VmSize:", 1)[1].split()[0]) * 1024
    except (OSError, IndexError, ValueError):
        return False
    return size > limit - ADDRESS_SPACE_MARGIN


def stopped_line(command: str) -> str:
    """The one line a user sees when ``command``'s app stopped though nothing asked it to (its message loop was
    cancelled from under it, as a failed allocation in a library can do, with no error raised to plyscope)."""
    if address_space_spent():
        return f"plyscope {command}: out of memory (the address space it may use is spent)"
    return f"plyscope {command}: internal error (the app stopped though nothing asked it to)"


def memory_line(command: str, error: BaseException) -> str:
    """The one line a user sees when ``command`` ran out of memory (``error``: what ``out_of_memory`` found)."""
    return f"plyscope {command}: out of memory ({_what(error)})"


def _what(error: BaseException) -> str:
    message = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def failure_line(command: str, error: BaseException) -> str:
    """The one line said when ``command`` failed with ``error``, which nobody planned: out of memory (no defect, no
    report), else a crash, its report saved."""
    memory = out_of_memory(error)
    return memory_line(command, memory) if memory is not None else crash_line(command, error, save_crash(error))


def crash_line(command: str, error: BaseException, path: Path | None) -> str:
    """The one line a user sees about a crash."""
    where = f"the full traceback is in {path}" if path else "the traceback could not be saved"
    return f"plyscope {command}: internal error ({_what(error)}); {where}"
