"""The themes the app offers: Textual's, and ``projector``, plyscope's own for a room with a projector; and the
themes a page of ``plyscope serve`` offers, drawn with the colours the page's terminal has.

Every theme draws text at ``MINIMUM_CONTRAST`` at least (``plyscope.tui.contrast``); ``projector`` at
``PROJECTOR_CONTRAST``, WCAG's level AAA: black on white, dark colours, every glyph 7:1 or more, for a
projector's washed-out picture in a lit room.

A page of ``plyscope serve`` draws the app with xterm.js, whose palette is its own (``XTERM``): the ANSI
colours and the terminal's default colours the app leaves to the terminal are drawn in it, whatever the
app assumed.  A served app takes it as its ANSI palette (``in_a_browser``), so that what it converts and
what it measures is what the page draws, and it offers no theme made for a terminal of another palette
(``NOT_IN_A_BROWSER``: ansi-light is made for a light terminal, and the page's is black).
"""

from __future__ import annotations

from typing import TypeVar

from rich.terminal_theme import TerminalTheme
from textual.app import App
from textual.theme import BUILTIN_THEMES, Theme

from plyscope.engine.errors import UserError
from plyscope.engine.numbers import shown
from plyscope.tui.contrast import MINIMUM_CONTRAST

PROJECTOR = Theme(
    name="projector",
    primary="#0a3d91",
    secondary="#184c99",
    accent="#6a1fb0",
    warning="#6e4300",
    error="#9b001c",
    success="#145a19",
    foreground="#000000",
    background="#ffffff",
    surface="#ffffff",
    panel="#f0f0f0",
    boost="#f0f0f0",
    dark=False,
    text_alpha=1.0,
    variables={
        "footer-key-foreground": "#0a3d91",
        "block-cursor-background": "#0a3d91",
        "block-cursor-foreground": "#ffffff",
        "block-cursor-blurred-background": "#d6e2f5",
        "block-cursor-blurred-foreground": "#000000",
    },
)
"""Black on white, every colour dark enough for ``PROJECTOR_CONTRAST`` on white and on the light panels."""
PROJECTOR_CONTRAST = 7.0
"""WCAG 2 level AAA for text (success criterion 1.4.6): the floor under every glyph in ``PROJECTOR``."""
THEMES = (PROJECTOR,)
"""plyscope's own themes, offered beside Textual's."""

XTERM = TerminalTheme(
    (0, 0, 0),
    (255, 255, 255),
    [
        (46, 52, 54),
        (204, 0, 0),
        (78, 154, 6),
        (196, 160, 0),
        (52, 101, 164),
        (117, 80, 123),
        (6, 152, 154),
        (211, 215, 207),
    ],
    [
        (85, 87, 83),
        (239, 41, 41),
        (138, 226, 52),
        (252, 233, 79),
        (114, 159, 207),
        (173, 127, 168),
        (52, 226, 226),
        (238, 238, 236),
    ],
)
"""xterm.js 5's default theme, which textual-serve's page keeps: black behind, white text, Tango's ANSI colours (the
page's terminal reports them: ``term._core._themeService.colors``)."""
NOT_IN_A_BROWSER = ("ansi-light",)
"""Themes a page of ``plyscope serve`` does not offer: made for a terminal whose colours the page does not have."""
FALLBACK_THEME = "textual-dark"
"""What a served page shows in place of a theme it does not offer (Textual's default)."""


def theme_names(*, in_a_browser: bool = False) -> list[str]:
    """Every theme's name, as ``t`` goes through them (sorted); ``in_a_browser``: those a served page offers."""
    names = sorted({*BUILTIN_THEMES, *(theme.name for theme in THEMES)})
    return [name for name in names if not (in_a_browser and name in NOT_IN_A_BROWSER)]


def check_theme(name: str, *, in_a_browser: bool = False) -> None:
    """``UserError`` in one line unless ``name`` is a theme the app offers (``in_a_browser``: a served page)."""
    if name in theme_names(in_a_browser=in_a_browser):
        return
    offered = ", ".join(theme_names(in_a_browser=in_a_browser))
    if name in theme_names():
        raise UserError(
            f"--theme {name} is not offered in a browser (made for a light terminal's own colours, and the page's "
            f"terminal is black); the themes there: {offered}"
        )
    raise UserError(f"--theme {shown(name)} is not a theme; the themes: {offered}")


R = TypeVar("R")
"""What an app returns when it exits (any: its themes do not depend on it)."""


def contrast_floor(theme: str) -> float:
    """The least contrast any glyph may have in ``theme`` (``plyscope.tui.contrast.LegibleText``'s floor)."""
    return PROJECTOR_CONTRAST if theme == PROJECTOR.name else MINIMUM_CONTRAST


def add_themes(app: App[R]) -> None:
    """Offer plyscope's own themes in ``app`` beside Textual's."""
    for theme in THEMES:
        app.register_theme(theme)


def in_a_browser(app: App[R]) -> None:
    """``app`` is drawn by a page of ``plyscope serve``: its ANSI palette is the page's (``XTERM``), and the themes
    made for another palette are not offered (the theme shown, if one of them, becomes the default)."""
    app.ansi_theme_dark = app.ansi_theme_light = XTERM
    for name in NOT_IN_A_BROWSER:
        if app.theme == name:
            app.theme = FALLBACK_THEME
        app.unregister_theme(name)
