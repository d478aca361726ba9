"""Only what changed is written to the terminal: the screen a terminal shows from the app's output is the app's
screen after every step, and no part of a step's output writes what the terminal already shows."""

from __future__ import annotations

import asyncio
import re
import time
from typing import ClassVar

from rich.cells import cell_len
from textual.drivers.headless_driver import HeadlessDriver
from textual.pilot import Pilot

from plyscope.tui.app import PlyscopeApp
from tests.tui.contest_helpers import PATIENCE
from tests.tui.helpers import make_app

SIZE = (100, 30)
TOKEN = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b.|[^\x1b]", re.S)
Cell = tuple[str, str]
"""A character (``""`` in the second cell of a wide one) and the SGR parameters it was written with."""


class Terminal:
    """The little of a terminal Textual's output needs: cursor moves, SGR colours, characters (wide ones take two
    cells); every other control sequence is ignored."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells: list[list[Cell]] = [[(" ", "")] * width for _ in range(height)]
        self.x = self.y = 0
        self.sgr = ""
        self.pieces: dict[tuple[int, int], int] = {}
        """The cells written by the last piece of text placed at each position (and not written over since)."""

    def write(self, data: str) -> int:
        """Write ``data``; how many of its pieces (text placed with a cursor move) wrote again, cell for cell, the
        last piece written at that place, nothing having been written over it since."""
        redundant = 0
        piece: list[int] = []  # [y, x, cells written, cells changed] of the piece being written
        for match in TOKEN.finditer(data):
            params, final, text = match.group(1), match.group(2), match.group(0)
            if final == "H":
                redundant += self._end(piece)
                row, column = (int(part or 1) for part in [*params.split(";"), "1"][:2])
                self.y, self.x = row - 1, column - 1
                piece = [self.y, self.x, 0, 0]
            elif final == "m":
                self.sgr = "" if params in ("", "0") else params
            elif final is None and not text.startswith("\x1b") and text != "\n":
                for offset in range(cell_len(text)):
                    if 0 <= self.y < self.height and 0 <= self.x < self.width:
                        cell = (text if offset == 0 else "", self.sgr)
                        if piece:
                            piece[2] += 1
                            piece[3] += self.cells[self.y][self.x] != cell
                        self.cells[self.y][self.x] = cell
                    self.x += 1
        return redundant + self._end(piece)

    def _end(self, piece: list[int]) -> int:
        if not piece or not piece[2]:
            return 0
        y, x, written, changed = piece
        again = not changed and self.pieces.get((y, x)) == written
        for start, width in list(self.pieces.items()):  # pieces written over, in part or whole
            if start[0] == y and start[1] < x + written and start[1] + width > x:
                del self.pieces[start]
        self.pieces[(y, x)] = written
        return int(again)

    def text(self) -> list[str]:
        return ["".join(character for character, _ in row).rstrip() for row in self.cells]


class RecordingDriver(HeadlessDriver):
    """A headless driver that is written to as a terminal's driver is."""

    written: ClassVar[list[str]] = []

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        RecordingDriver.written.append(data)


def screen_text(app: PlyscopeApp) -> list[str]:
    return [strip.text.rstrip() for strip in app.screen._compositor.render_strips()]


def test_a_terminal_shows_the_app_s_screen_and_no_step_rewrites_what_it_shows() -> None:
    app = make_app(algorithm="rivest")
    app.driver_class = RecordingDriver
    RecordingDriver.written = []
    terminal = Terminal(*SIZE)
    found: dict[str, object] = {}

    async def shown(pilot: Pilot[object]) -> int:
        """Write to the terminal what the app writes until it shows the app's screen (the last frame may still be on
        its way: waited for, not slept on); how many pieces written were redundant.  After ``PATIENCE`` seconds, the
        mismatch is kept for the test to report."""
        redundant = 0
        deadline = time.monotonic() + PATIENCE
        while True:
            for data in RecordingDriver.written:
                redundant += terminal.write(data)
            RecordingDriver.written.clear()
            if terminal.text() == screen_text(app) or time.monotonic() > deadline:
                return redundant
            await pilot.pause(0.01)

    async def steps(pilot: Pilot[object]) -> None:
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        await shown(pilot)
        redundant = 0
        for key in "s" * 12 + "d" + "s" * 5:
            await pilot.press(key)
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
            redundant += await shown(pilot)
            if terminal.text() != screen_text(app):
                found["mismatch"] = (key, terminal.text(), screen_text(app))
                break
        found["redundant"] = redundant
        await pilot.press("q")

    asyncio.run(app.run_async(auto_pilot=steps, size=SIZE))
    assert "mismatch" not in found
    assert found["redundant"] == 0
