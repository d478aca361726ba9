"""The prompt bar: one line of typed input (a position, agents, a file name) with its error under it."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Input, Static

from plyscope.engine.errors import UserError

Answer = Callable[[str], Awaitable[None] | None]
"""What an answer is for: takes the text typed (stripped) and acts on it, or raises ``UserError`` to refuse it."""


class BarInput(Input):
    """Textual's ``Input``, whose own keys (ctrl+u, backspace, the arrows, enter...) act in the order they were typed.

    Textual runs a focused widget's bindings once the key has bubbled up to the app, after the letters that came
    behind it in the same read were typed in: ``ctrl+u`` then ``3,4,5`` in one burst (a paste, fast typing) left
    the bar empty.  Here they run as the key arrives, before the next one.
    """

    async def _on_key(self, event: events.Key) -> None:
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            if not binding.priority and await self.app.run_action(binding.action, self):
                event.stop()
                event.prevent_default()  # (not Input's own handler too)
                return


class PromptBar(Widget):
    """Asks for one line of text and gives it, on enter, to the ``Answer`` the screen asked with.

    The answer acts on the text and the bar closes (unless the answer closed it first), or the
    answer refuses the text with a ``UserError``, whose message the bar shows under it, staying
    open: bad input never changes anything.  Escape closes it; focus goes back where it was.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close the bar", show=False),
    ]

    DEFAULT_CSS = """
    PromptBar { height: auto; display: none; padding: 0 1; background: $boost; }
    PromptBar.-open { display: block; }
    PromptBar > Horizontal { height: auto; }
    PromptBar #prompt { width: auto; padding: 0 1 0 0; }
    PromptBar Input { width: 1fr; }
    PromptBar #error { color: $error; height: auto; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._answer: Answer | None = None
        """What the open bar's answer is for; ``None`` when closed."""
        self._focus_before: Widget | None = None

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield Static(id="prompt")
            yield BarInput(compact=True)
        yield Static(id="error")

    @property
    def is_open(self) -> bool:
        return self._answer is not None

    def ask(self, prompt: str, value: str, answer: Answer, *, placeholder: str = "") -> None:
        """Open the bar asking ``prompt``, with ``value`` typed in already; enter gives the text to ``answer``."""
        if not self.is_open:
            self._focus_before = self.screen.focused
        self._answer = answer
        self.query_one("#prompt", Static).update(f"{prompt}:")
        self.query_one("#error", Static).update("")
        field = self.query_one(Input)
        field.value = value
        field.placeholder = placeholder
        field.cursor_position = len(value)
        self.add_class("-open")
        field.focus()

    def fail(self, message: str) -> None:
        """Say why the answer cannot be taken (the bar stays open; the text wraps, never cut off)."""
        self.query_one("#error", Static).update(Text(message))

    def close(self) -> None:
        """Close the bar and give focus back to the widget that had it."""
        if not self.is_open:
            return
        self._answer = None
        self.remove_class("-open")
        before = self._focus_before
        self._focus_before = None
        if before is not None and before.is_attached and before.focusable:
            before.focus()
        else:
            self.screen.focus_next()

    def action_close(self) -> None:
        self.close()

    @on(Input.Submitted)
    async def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        answer = self._answer
        if answer is None:
            return
        try:
            acted = answer(event.value.strip())
            if inspect.isawaitable(acted):
                await acted
        except UserError as error:
            self.fail(str(error))
            return
        self.close()
