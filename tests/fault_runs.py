"""Runs of the ``plyscope`` console script under faults, for ``tests/test_arena_faults.py``: each is its own process.

``python -m tests.fault_runs limited HEADROOM ARGS...``: the console script with ``ARGS``, its address space limited
(``RLIMIT_AS``) to ``HEADROOM`` bytes above what it holds once its modules and numba's machine code are loaded (they
alone take hundreds of megabytes, more with every numpy and numba release: measured here, not assumed), so that a
search soon runs it out of memory.

``python -m tests.fault_runs interrupted SEED TRIALS ARGS...``: the console script with ``ARGS`` run ``TRIALS`` times,
each in a process forked from this one once its modules are loaded (a start in milliseconds), and each sent one
SIGINT, to it alone (not to its process group: its worker processes go on), at a moment drawn with ``SEED`` between
its start and the time a run takes; ``interrupted poke NAME,... ARGS...``: a run for each ``NAME``, sent SIGINT by
the run itself as it enters ``NAME`` (``POKES``), a moment too brief to hit by chance.  One JSON line a run: the
moment, the exit status, what the run wrote, the games in its results file (``--out`` is added).
"""

from __future__ import annotations

import atexit
import json
import os
import random
import re
import resource
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from plyscope.tui import entry

# The console script's last exit function registered before any module this harness loads ahead registers its own
# (numba, Rich, multiprocessing), as in a console script, which loads them after: a forked run then exits as the
# console script does, not as Python does (a Ctrl-C during Python's own exit killed it by the signal, status -2).
atexit.register(entry._exit_at_once)

from rich.progress import Progress  # noqa: E402

from plyscope.engine.arena import pool  # noqa: E402
from plyscope.engine.search.registry import load_twins  # noqa: E402
from plyscope.tui.commands import arena  # noqa: E402


def address_space() -> int:
    """This process's address space in bytes (``VmSize``)."""
    found = re.search(r"VmSize:\s+(\d+) kB", Path("/proc/self/status").read_text())
    assert found is not None
    return int(found[1]) * 1024


def limited(headroom: int, argv: list[str]) -> int:
    load_twins()
    limit = address_space() + headroom
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    sys.argv = ["plyscope", *argv]
    return entry.main()


POKES: dict[str, Callable[[], tuple[Any, str]]] = {
    "game-finished": lambda: (pool, "_finish_done"),
    "turns-read": lambda: (pool.GamePool, "turns_reported"),
    "pool-shutdown": lambda: (pool.GamePool, "shutdown"),
    "bar-closing": lambda: (Progress, "__exit__"),
    "final-save": lambda: (arena._ResultsSaver, "save_end"),
    "loading": lambda: (arena, "load_compiled"),
}
"""Moments a run is sent SIGINT at by ``poke``: as it enters these functions (each found when it is poked)."""


def slow_closing(interrupting: bool) -> Callable[[Any], None]:
    """``concurrent.futures.process._ThreadWakeup.close``, as the worker pool's thread calls it as it ends, pausing
    between closing its two ends, and sending SIGINT first if ``interrupting``.  If the interpreter exits meanwhile
    (a Ctrl-C that cut short the wait for that thread, or a stop that never waited for it), the exit wakes the thread
    through the end just closed (Python 3.11's ``_python_exit`` takes no lock): ``OSError`` in a traceback.  The
    pause widens the moment in which the two can meet."""

    def close(wakeup: Any) -> None:
        if interrupting:
            os.kill(os.getpid(), signal.SIGINT)
        wakeup._writer.close()
        time.sleep(1.0)
        wakeup._reader.close()
        wakeup._closed = True

    return close


def poke_closing(name: str) -> None:
    """``joining``: SIGINT as the worker pool's thread closes its pipes, the pool shutting down after the last game;
    ``stopping``: SIGINT as the first game finishes, the pool's thread closing its pipes slowly (``slow_closing``) as
    the pool stops (without waiting for that thread, the exit met it in one run of six)."""
    from concurrent.futures import process

    setattr(process._ThreadWakeup, "close", slow_closing(name == "joining"))  # noqa: B010 (a method replaced)
    if name == "stopping":
        poke("game-finished")


def poke(name: str) -> None:
    """Have this process send itself SIGINT as it enters the function ``POKES[name]``, the first time (``joining``,
    ``stopping``: ``poke_closing``)."""
    if name in ("joining", "stopping"):
        poke_closing(name)
        return
    owner, attribute = POKES[name]()
    original: Callable[..., Any] = getattr(owner, attribute)

    def poked(*args: Any, **kwargs: Any) -> Any:
        setattr(owner, attribute, original)
        os.kill(os.getpid(), signal.SIGINT)
        return original(*args, **kwargs)

    setattr(owner, attribute, poked)


def run_once(argv: list[str], delay: float | None, name: str | None = None) -> dict[str, object]:
    """One run of the console script in a forked process, sent SIGINT after ``delay`` seconds (``None``: never, or
    by ``poke(name)``); what it did."""
    out = Path(tempfile.mkdtemp()) / "games.json"
    output, write = os.pipe()
    ready, told = os.pipe()
    started = time.monotonic()
    child = os.fork()
    if child == 0:  # the run: its stdout and stderr into the pipe
        os.close(output)
        os.close(ready)
        os.dup2(write, 1)
        os.dup2(write, 2)
        if name is not None:
            poke(name)
        sys.argv = ["plyscope", *argv, "--out", str(out)]
        os.write(told, b"!")  # (a signal before this would be lost with the fork's own handling)
        sys.exit(entry.main())  # (through the interpreter's exit, as the console script's: its races included)
    os.close(write)
    os.close(told)
    os.read(ready, 1)
    os.close(ready)
    sent = False
    ended = (0, 0)
    if delay is not None:
        time.sleep(delay)
        ended = os.waitpid(child, os.WNOHANG)  # (0, 0) while it runs
        sent = ended[0] == 0
        if sent:
            os.kill(child, signal.SIGINT)
    text = b""
    while chunk := os.read(output, 1 << 16):
        text += chunk
    os.close(output)
    status = os.waitstatus_to_exitcode((ended if ended[0] else os.waitpid(child, 0))[1])
    games = json.loads(out.read_text())["games_played"] if out.exists() else None
    return {
        "delay": delay,
        "sent": sent,
        "seconds": time.monotonic() - started,
        "status": status,
        "output": text.decode(errors="replace"),
        "games": games,
    }


def interrupted(seed: int, trials: int, argv: list[str]) -> None:
    """``trials`` runs, each sent SIGINT at a moment drawn between its start and the time a run takes."""
    load_twins()
    whole = run_once(argv, None)["seconds"]
    assert isinstance(whole, float)
    draw = random.Random(seed)
    for _ in range(trials):
        print(json.dumps(run_once(argv, draw.uniform(0.0, whole))), flush=True)


def main(argv: list[str]) -> int:
    if argv[0] == "limited":
        return limited(int(argv[1]), argv[2:])
    if argv[0] == "interrupted" and argv[1] == "poke":
        load_twins()
        for name in argv[2].split(","):
            print(json.dumps({"moment": name, **run_once(argv[3:], None, name)}), flush=True)
        return 0
    interrupted(int(argv[1]), int(argv[2]), argv[3:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
