"""The setup dialog: the ``SetupForm`` over the screen; it closes with the new session, or ``None``."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import ModalScreen

from plyscope.tui.session import SearchConfig, Session
from plyscope.tui.widgets.setup_form import SetupForm


class SetupScreen(ModalScreen[Session | None]):
    """Choose game, position, algorithm, parameters, seed and budget; dismissed with the new ``Session``."""

    DEFAULT_CSS = """
    SetupScreen { align: center middle; }
    SetupScreen > SetupForm {
        width: 76; max-width: 100%; max-height: 100%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    """

    def __init__(self, config: SearchConfig, *, focus: str | None = None) -> None:
        """``focus``: the id of the field to start in (e.g. ``param-c``)."""
        super().__init__()
        self.config = config
        self.start_field = focus

    def compose(self) -> ComposeResult:
        form = SetupForm(self.config)
        form.border_title = "Setup (ctrl+s applies, escape cancels)"
        yield form

    def on_mount(self) -> None:
        if self.start_field:
            self.query_one(f"#{self.start_field}").focus()

    def on_setup_form_submitted(self, message: SetupForm.Submitted) -> None:
        self.dismiss(message.session)

    def on_setup_form_cancelled(self, message: SetupForm.Cancelled) -> None:
        self.dismiss(None)
