"""The key bar at the bottom of every screen: Textual's footer, composed again only when the keys it shows change."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer

ShownKey = tuple[str, str, str, bool, str]
"""A key as the footer shows it: the key, its description, its action, whether it is enabled, its tooltip."""


def shown_keys(screen: Screen[object]) -> tuple[ShownKey, ...]:
    """The keys ``screen``'s footer shows (the command palette's among them), in order."""
    return tuple(
        (binding.key, binding.description, binding.action, enabled, tooltip)
        for _, binding, enabled, tooltip in screen.active_bindings.values()
        if binding.show or binding.key == screen.app.COMMAND_PALETTE_BINDING
    )


class KeyFooter(Footer):
    """Textual's ``Footer``, which mounts all its keys again whenever the bindings change: at every change of
    focus (the page of a served session gaining or losing it, a prompt bar opening), about a third of the
    100-200 ms of CPU such a change cost.  This one does so only when the keys it shows differ."""

    def __init__(self, *, compact: bool = False) -> None:
        super().__init__(compact=compact)
        self._shown: tuple[ShownKey, ...] | None = None

    def bindings_changed(self, screen: Screen[object]) -> None:
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            shown = shown_keys(screen)
            if shown == self._shown:
                return
            self._shown = shown
        super().bindings_changed(screen)
