"""End to end in a real terminal: start ``plyscope`` under tmux, step, read the screen, quit."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed: the run in a real terminal needs it")

ROOT = Path(__file__).resolve().parents[2]
PATIENCE = 60.0
"""Seconds to wait for the screen to show something (generous: the machine may be loaded)."""


class Terminal:
    """A tmux server of its own (its own socket) with one window running a command."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> str:
        assert TMUX is not None
        done = subprocess.run([TMUX, "-L", self.socket, *args], capture_output=True, text=True, check=True)
        return done.stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "main")

    def wait_for(self, text: str) -> str:
        """The screen once it shows ``text``; fails with the last screen after ``PATIENCE`` seconds."""
        deadline = time.monotonic() + PATIENCE
        shown = ""
        while time.monotonic() < deadline:
            shown = self.screen()
            if text in shown:
                return shown
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{shown}")


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    term = Terminal(f"plyscope-test-{os.getpid()}")
    command = f"cd {ROOT} && {sys.executable} -m plyscope.tui.cli explore --algo minimax; echo EXIT=$?; sleep 30"
    term.tmux("new-session", "-d", "-s", "main", "-x", "100", "-y", "30", command)
    try:
        yield term
    finally:
        term.tmux("kill-server")


def test_plyscope_starts_steps_and_quits(terminal: Terminal) -> None:
    terminal.wait_for("connect4 · start · minimax · moves 0/100,000")
    first = terminal.wait_for("1   2   3   4   5   6   7")
    assert "s Step" in first
    terminal.tmux("send-keys", "-t", "main", "s")
    terminal.wait_for("moves 1/100,000")
    terminal.tmux("send-keys", "-t", "main", "f")
    after = terminal.wait_for("moves 101/100,000")
    assert "root v=" in after
    assert "best " in after
    terminal.tmux("send-keys", "-t", "main", "q")
    terminal.wait_for("EXIT=0")


def test_ctrl_c_in_the_app_ends_the_plyscope_command_with_130_and_one_line() -> None:
    """The README: Ctrl-C ends any command with exit status 130 and one line; the app's ctrl+c too (it
    exited 0), through the console script a user runs."""
    term = Terminal(f"plyscope-test-ctrl-c-{os.getpid()}")
    script = Path(sys.executable).parent / "plyscope"
    command = f"cd {ROOT} && {script} explore --algo minimax; echo EXIT=$?; sleep 30"
    term.tmux("new-session", "-d", "-s", "main", "-x", "100", "-y", "30", command)
    try:
        term.wait_for("connect4 · start · minimax")
        term.tmux("send-keys", "-t", "main", "C-c")
        lines = [line for line in term.wait_for("EXIT=").splitlines() if line.strip()]
        assert lines[-2:] == ["plyscope explore: interrupted", "EXIT=130"], lines
    finally:
        term.tmux("kill-server")
