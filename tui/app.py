"""The Textual app: ``plyscope`` opens it on the explorer screen."""

from __future__ import annotations

import asyncio
import gc
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import ClassVar, Protocol, runtime_checkable

from rich.console import RenderableType
from textual._compositor import ChopsUpdate, LayoutUpdate
from textual.app import App, SystemCommand
from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.command import Provider
from textual.css.query import NoMatches
from textual.filter import LineFilter
from textual.screen import Screen
from textual.worker import WorkerFailed

from plyscope.engine.exact import NODE_BUDGET, Exact
from plyscope.tui.contrast import LegibleText
from plyscope.tui.crash import CRASH_EXIT_STATUS, crash_line, memory_line, out_of_memory, save_crash, stopped_line
from plyscope.tui.interrupts import INTERRUPTED_EXIT_STATUS, interrupted
from plyscope.tui.screens.explore import ExploreScreen
from plyscope.tui.screens.help import HelpScreen, help_sections, key_commands
from plyscope.tui.screens.palette import KeyCommandsProvider
from plyscope.tui.sent_screen import SentScreen
from plyscope.tui.session import Session
from plyscope.tui.themes import add_themes, contrast_floor, in_a_browser

SWITCH_INTERVAL = 0.001
"""Seconds a thread may hold the GIL while another waits for it, while the app runs."""


def freeze_loaded() -> None:
    """Once a solver has loaded (the collector paused meanwhile): numba's 85,000 or so objects (its type registries, as
    old as the process) frozen out of the cycle collector's walks, where they would add some 70 ms to each of its full
    runs, a pause the screen would show.  Frozen without a collection first: one, some 0.1 s of the GIL, was measured
    to find nothing to free after the load."""
    gc.freeze()


@runtime_checkable
class CommandSource(Protocol):
    """A screen that adds its own commands to the command palette (beyond its keys, which every screen has there)."""

    def palette_commands(self) -> Iterator[SystemCommand]: ...


class PlyscopeApp(App[None]):
    """Game-tree search, watched one step at a time."""

    TITLE = "plyscope"
    CSS_PATH = "app.tcss"
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {KeyCommandsProvider}
    """The palette's commands (``get_system_commands``), the words typed ranked as words."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "Help"),
        Binding("t", "next_theme", "Next theme", show=False),
        Binding("q", "quit", "Quit"),
        Binding("ctrl+c", "terminal_quit", "Quit", show=False, priority=True),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
    ]

    def __init__(
        self,
        session: Session,
        *,
        clock: Callable[[], float] = time.perf_counter,
        opening: Callable[[], Screen[None]] | None = None,
        files: bool = True,
        theme: str | None = None,
        truth_nodes: int = NODE_BUDGET,
        load_ahead: bool = True,
    ) -> None:
        """``session``: what to explore first; ``clock`` measures steps per second; ``opening`` makes a
        screen to open over the explorer at the start (``plyscope play`` and ``plyscope compare``); ``files``:
        whether the screens may write and read files (not in a session ``plyscope serve`` started); ``theme``: the
        theme to start in (``None``: Textual's default); ``truth_nodes``: the truth column's budget, solver nodes a
        position may take (``--truth-nodes``); ``load_ahead``: whether a pane loads the game's solver before its truth
        column asks (off in a session ``plyscope serve`` started: ``--solver-on-demand``)."""
        super().__init__()
        self.exact = Exact(budget=truth_nodes, loaded=freeze_loaded, load_ahead=load_ahead)
        """The one door to exact values every pane's truth column and the board's analysis go through: one solver
        per game and one bounded cache for the whole app."""
        add_themes(self)
        if theme is not None:
            self.theme = theme
        self.session = session
        self.files = files
        self.clock = clock
        self.opening = opening
        self.command = "explore"
        """The command that opened the app, for the crash line."""
        self.crash_report: Path | None = None
        """Where the traceback of a crash was saved (``None``: no crash, or it could not be saved)."""
        self.crash_message = ""
        """The one line said about a crash (``""``: none)."""
        self._sent = SentScreen()
        """What the terminal shows, so that an update writes only what changed (``plyscope.tui.sent_screen``)."""
        self._legible: dict[tuple[int, float], LegibleText] = {}
        """The contrast floor's filter for each ANSI palette (by ``id``; the palette follows the theme) and floor."""

    def on_mount(self) -> None:
        # The search runs in a thread: with the interpreter's default 5 ms switch interval the
        # event loop waits up to 5 ms for the GIL after every system call, which makes keys slow.
        self._switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL)
        if self.is_web:  # drawn by a page of plyscope serve, in its terminal's colours
            in_a_browser(self)
        self.push_screen(ExploreScreen(self.session, clock=self.clock))
        if self.opening is not None:
            self.push_screen(self.opening())

    def on_unmount(self) -> None:
        sys.setswitchinterval(self._switch_interval)

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, then the contrast floor (``plyscope.tui.contrast``): text at least 4.5:1 in every
        theme, 7:1 in the projector's (``plyscope.tui.themes.contrast_floor``)."""
        palette, floor = self.ansi_theme, contrast_floor(self.theme)
        legible = self._legible.setdefault((id(palette), floor), LegibleText(palette, floor))
        return [*super().get_line_filters(), legible]

    def _display(self, screen: Screen[object], renderable: RenderableType | None) -> None:
        """Textual's, with the parts of an update that the terminal already shows left out."""
        written = self._running and not self._closed and not self.is_headless and not self._batch_count
        if renderable is not None and written and self._driver is not None:
            if isinstance(renderable, ChopsUpdate):
                renderable = self._sent.changed(renderable, self.console)
            elif isinstance(renderable, LayoutUpdate):
                self._sent.whole(renderable, self.console)
            else:
                self._sent.forget()
        super()._display(screen, renderable)

    def _handle_exception(self, error: Exception) -> None:
        """A crash: save the traceback to a file and say so in one line (``run_app``) instead of the traceback; out of
        memory (a served session's limit reached), say so in one line, with no crash report: no defect of ours.

        Textual still exits with status 1 and, under ``run_test``, re-raises the error for the tests.
        """
        if closed_palette_race(error):
            self.log.warning(f"ignored: {error!r} (the command palette was closed while its search started)")
            return
        original = error.error if isinstance(error, WorkerFailed) else error
        memory = out_of_memory(original)
        if memory is not None:
            self.crash_message = memory_line(self.command, memory)
        else:
            self.crash_report = save_crash(original)
            self.crash_message = crash_line(self.command, original, self.crash_report)
        super()._handle_exception(error)
        self._exit_renderables.clear()  # run_app prints the one line, unfolded, once the terminal is back

    def pop_screen(self) -> AwaitComplete:
        """Pop the screen on top, but never the explorer under everything: it is the app's home (``q`` quits).

        A dialog closed twice by keys typed faster than it closes (enter, enter in the command
        palette) would otherwise pop the screen under it as well.
        """
        if isinstance(self.screen, ExploreScreen) and not any(
            isinstance(screen, ExploreScreen) for screen in self.screen_stack[:-1]
        ):
            return AwaitComplete(asyncio.sleep(0))
        return super().pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """In a browser, ctrl+c is left to the screen and its inputs, which copy the text selected (if any): a
        student presses it to copy, and it never ends the session there (``q`` does)."""
        return not (action == "terminal_quit" and self.is_web)

    def action_terminal_quit(self) -> None:
        """ctrl+c in a terminal: quit, as ``q`` does, but as an interruption, as the README promises for any command:
        exit status 130, and ``run_app`` says so in one line."""
        self.exit(return_code=INTERRUPTED_EXIT_STATUS)

    def action_next_theme(self) -> None:
        """Switch to the next theme (in the order the palette's theme picker lists them)."""
        names = sorted(self.available_themes)
        self.theme = names[(names.index(self.theme) + 1) % len(names)] if self.theme in names else names[0]
        self.notify(f"theme: {self.theme}", timeout=2)

    def action_help(self) -> None:
        """Show every key of the current screen, built from the real bindings."""
        if isinstance(self.screen, HelpScreen):
            return
        palette = self.COMMAND_PALETTE_BINDING if self.ENABLE_COMMAND_PALETTE else None
        self.push_screen(HelpScreen(help_sections(self, self.screen), palette_key=palette))

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Textual's own commands (those no key of ours does), every key of ``screen`` as the help lists it
        (``key_commands``), then the screen's own choices."""
        keys = list(key_commands(self, screen))
        titles = {command.title for command in keys}
        yield from (command for command in super().get_system_commands(screen) if command.title not in titles)
        yield from keys
        if isinstance(screen, CommandSource):
            yield from screen.palette_commands()


def closed_palette_race(error: BaseException) -> bool:
    """Whether ``error`` is Textual's command palette failing to find its own list because it was closed as
    its search worker started (``NoMatches`` in ``CommandPalette._gather_commands``, Textual 8): keys typed
    faster than the palette closes.  Nothing is lost, so it is not treated as a crash."""
    if not isinstance(error, WorkerFailed) or not isinstance(error.error, NoMatches):
        return False
    frames = traceback.extract_tb(error.error.__traceback__)
    return any(
        frame.name == "_gather_commands" and Path(frame.filename).match("textual/command.py") for frame in frames
    )


def run_app(app: PlyscopeApp, command: str, *, headless: bool = False) -> int:
    """Run ``app`` for ``plyscope command``; its exit status (1 after a crash, 130 after ctrl+c, each with its one line
    on stderr)."""
    app.command = command
    app.run(headless=headless)
    if app.return_code is None and not app.crash_message:  # (no exit: its message loop was stopped from under it)
        app.crash_message = stopped_line(command)
    if app.crash_message:
        print(app.crash_message, file=sys.stderr)
        return CRASH_EXIT_STATUS
    if app.return_code == INTERRUPTED_EXIT_STATUS:  # (ctrl+c)
        return interrupted(command)
    return app.return_code or 0
