"""The prompt bar: one line of typed input (a position, agents, a file name) with its error under it."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Static


class PromptBar(Widget):
    """Asks for one line of text; posts ``Answered`` on enter and stays open until the screen closes it.

    The screen checks the answer and either closes the bar or shows why it is wrong (``fail``),
    so bad input never changes anything.  Escape closes it; focus goes back where it was.
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

    class Answered(Message):
        """The user typed ``value`` (stripped) for ``purpose`` and pressed enter."""

        def __init__(self, bar: PromptBar, purpose: str, value: str) -> None:
            super().__init__()
            self.bar = bar
            self.purpose = purpose
            self.value = value

        @property
        def control(self) -> PromptBar:
            return self.bar

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.purpose = ""
        """What the open bar asks for (the screen's name for it, e.g. ``save``); ``""`` when closed."""
        self._focus_before: Widget | None = None

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield Static(id="prompt")
            yield Input(compact=True)
        yield Static(id="error")

    @property
    def is_open(self) -> bool:
        return bool(self.purpose)

    def ask(self, purpose: str, prompt: str, value: str = "", *, placeholder: str = "") -> None:
        """Open the bar asking ``prompt``, with ``value`` typed in already."""
        if not self.is_open:
            self._focus_before = self.screen.focused
        self.purpose = purpose
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
        self.purpose = ""
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
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.is_open:
            self.post_message(self.Answered(self, self.purpose, event.value.strip()))
