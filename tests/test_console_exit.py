"""The console script ends the process itself once the exit functions are done (``plyscope.tui.entry``): what the
command printed reaches a pipe whole, a pipe closed early is no traceback, and exit functions registered before the
script's own (as coverage's, at Python's start-up) still run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.test_hostile import ROOT

CONSOLE_SCRIPT = "import sys; from plyscope.tui.entry import main; sys.exit(main())"
"""What the installed ``plyscope`` script runs (pip writes it from ``pyproject.toml``'s entry point)."""


def console_script(*words: str, before: str = "") -> list[str]:
    """The command line running the console script on ``words``, after the Python statements ``before``."""
    return [sys.executable, "-c", f"{before}; {CONSOLE_SCRIPT}" if before else CONSOLE_SCRIPT, *words]


def two_searches(folder: Path) -> tuple[str, str]:
    """Two searches of the start, saved: their diff in JSON is some 450 kB."""
    saved = []
    for seed in ("0", "1"):
        path = folder / f"seed{seed}.json"
        command = ["search", "--algo", "mcts", "--iterations", "3000", "--seed", seed, "--export", str(path)]
        subprocess.run(console_script(*command), cwd=ROOT, check=True, capture_output=True, timeout=120)
        saved.append(str(path))
    return saved[0], saved[1]


def test_an_exit_function_registered_at_start_up_still_runs(tmp_path: Path) -> None:
    """Registered before the console script's (as coverage's, which saves what a run covered): the script's
    ``os._exit`` ended the process first, so it never ran (nothing of a measured run was saved)."""
    note = tmp_path / "ran"
    before = f"import atexit, pathlib; atexit.register(pathlib.Path({str(note)!r}).write_text, 'ran')"
    done = subprocess.run(
        console_script("search", "--algo", "minimax", "--moves", "100", before=before),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert note.read_text() == "ran"
    assert done.stdout.startswith("minimax")


def test_a_large_output_reaches_a_pipe_whole_and_a_pipe_closed_early_is_no_traceback(tmp_path: Path) -> None:
    first, second = two_searches(tmp_path)
    reader, writer = os.pipe()
    with subprocess.Popen(
        console_script("diff", first, second, "--json"), cwd=ROOT, stdout=writer, stderr=subprocess.PIPE
    ) as diff:
        os.close(writer)
        with os.fdopen(reader, "rb") as pipe:
            head = pipe.read(100)  # then the reader is gone, as with ``| head -c 100``
        _, said = diff.communicate(timeout=120)
    assert len(head) == 100
    assert (diff.returncode, said) == (2, b"")  # (status 2: the output was not all written; nothing said)
    whole = subprocess.run(
        console_script("diff", first, second, "--json"), cwd=ROOT, capture_output=True, timeout=120, check=True
    )
    assert len(whole.stdout) > 200_000
    assert json.loads(whole.stdout)["identical"] is False  # (parsed: the last of it reached the pipe too)
