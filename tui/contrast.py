"""Text readable on a projector in every theme: a contrast floor of 4.5:1 (WCAG 2 AA) under every glyph, 7:1
(AAA) in the theme made for projectors (``plyscope.tui.themes``).

Textual's themes, and the colours plyscope draws on them (the players' red and yellow, the muted
numbers, the footer's keys), were chosen for a dark screen seen up close: on a light theme some
fell to 1.3:1.  ``LegibleText`` is a line filter the app applies to everything it draws: a glyph
whose colour has less than the theme's floor against the background under it is drawn lighter
or darker, in the same hue, until it has that much; colours that already have it are left as they
are.  Box-drawing and block characters (borders, tree guides, bars) are graphics, not text, and are
left alone.

Contrast is computed as WCAG 2 defines it (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio), on
the colours a cell is seen in: reversed cells swapped, dim ones blended halfway to the background
(as Textual and xterm.js draw them), ANSI and default colours resolved with the app's ANSI palette.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rich.color import Color as RichColor
from rich.color_triplet import ColorTriplet
from rich.segment import Segment
from rich.style import Style
from rich.terminal_theme import TerminalTheme
from textual.color import Color
from textual.filter import LineFilter

MINIMUM_CONTRAST = 4.5
"""WCAG 2 level AA for text (success criterion 1.4.3): the floor in every theme but those that ask for more."""
MARGIN = 0.1
"""A colour is moved to its floor and this much more: rounding to whole RGB values keeps it over the floor."""
DIM = 0.5
"""How far a dim glyph is blended from the background towards its colour (Textual's and xterm.js's)."""
TEXT = re.compile(r"[^\s\u2500-\u259f]")
"""A character that is text: not space, not a box-drawing or block character (U+2500 to U+259F)."""

RGB = tuple[int, int, int]


def relative_luminance(rgb: RGB) -> float:
    """WCAG's relative luminance of an sRGB colour: 0 for black, 1 for white."""

    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = rgb
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def contrast_ratio(first: RGB, second: RGB) -> float:
    """WCAG's contrast ratio of two colours, from 1 (the same) to 21 (black and white); order does not matter."""
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _triplet(triplet: ColorTriplet) -> RGB:
    return (triplet.red, triplet.green, triplet.blue)


def _rgb(color: RichColor | None, default: RGB, palette: TerminalTheme, *, foreground: bool) -> RGB:
    if color is None or color.is_default:
        return default
    return _triplet(color.get_truecolor(palette, foreground=foreground))


def seen_colours(style: Style | None, background: RGB, palette: TerminalTheme) -> tuple[RGB, RGB]:
    """The colour a glyph drawn in ``style`` is seen in, and the colour behind it.

    ``background``: what is behind a style without a background of its own; ``palette`` resolves ANSI
    colours and the terminal's default foreground.
    """
    style = style or Style()
    foreground = _rgb(style.color, _triplet(palette.foreground_color), palette, foreground=True)
    back = _rgb(style.bgcolor, background, palette, foreground=False)
    if style.reverse:
        foreground, back = back, foreground
    if style.dim:
        foreground = _blend(back, foreground, DIM)
    return foreground, back


def _blend(start: RGB, end: RGB, part: float) -> RGB:
    return (
        round(start[0] + (end[0] - start[0]) * part),
        round(start[1] + (end[1] - start[1]) * part),
        round(start[2] + (end[2] - start[2]) * part),
    )


def legible(foreground: RGB, background: RGB, floor: float = MINIMUM_CONTRAST) -> RGB:
    """``foreground``, or the nearest colour of its hue (lighter or darker, by CIE Lab lightness) with at least
    ``floor`` against ``background``: away from the background's lightness if that direction gets there, else
    the other way."""
    if contrast_ratio(foreground, background) >= floor:
        return foreground
    aim = floor + MARGIN
    start = Color(*foreground)
    lighter = relative_luminance(foreground) >= relative_luminance(background)
    for towards_light in (lighter, not lighter):
        extreme = (255, 255, 255) if towards_light else (0, 0, 0)
        if contrast_ratio(extreme, background) < aim:
            continue
        low, high = 0.0, 1.0  # how much lightness to add or take away, as a part of Lab's 0..100
        while high - low > 0.002:
            middle = (low + high) / 2
            moved = start.lighten(middle) if towards_light else start.darken(middle)
            if contrast_ratio(moved.rgb, background) >= aim:
                high = middle
            else:
                low = middle
        moved = start.lighten(high) if towards_light else start.darken(high)
        return moved.rgb if contrast_ratio(moved.rgb, background) >= aim else extreme
    # a background of middle lightness, where neither black nor white reaches the aim: the better one
    return max(((0, 0, 0), (255, 255, 255)), key=lambda extreme: contrast_ratio(extreme, background))


@lru_cache(4096)
def legible_style(
    style: Style | None, background: RGB, palette: TerminalTheme, floor: float = MINIMUM_CONTRAST
) -> Style | None:
    """``style``, with the colour its glyphs are seen in made ``legible`` (at ``floor``) on what is behind them
    (``None``: no change needed)."""
    foreground, back = seen_colours(style, background, palette)
    if contrast_ratio(foreground, back) >= floor:
        return None
    style = style or Style()
    made = RichColor.from_rgb(*legible(foreground, back, floor))
    if style.reverse:  # the glyph is drawn in the background's colour
        return style + Style(bgcolor=made, dim=False)
    return style + Style(color=made, dim=False)


class LegibleText(LineFilter):
    """Redraws glyphs whose contrast with their background is under ``floor`` in a ``legible`` colour."""

    def __init__(self, palette: TerminalTheme, floor: float = MINIMUM_CONTRAST) -> None:
        """``palette``: the ANSI colours the terminal draws with (Textual's guess for the theme shown, or a served
        page's own); ``floor``: the theme's least contrast (``plyscope.tui.themes.contrast_floor``)."""
        super().__init__()
        self.palette = palette
        self.floor = floor

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        palette = self.palette
        behind = (
            background.rgb
            if background.ansi is None
            else _rgb(background.rich_color, _triplet(palette.background_color), palette, foreground=False)
        )
        filtered = []
        for segment in segments:
            text, style, control = segment
            if control is None and text:
                made = legible_style(style, behind, palette, self.floor)
                if made is not None and TEXT.search(text):
                    segment = Segment(text, made)
            filtered.append(segment)
        return filtered
