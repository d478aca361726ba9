"""Readable on a projector: every theme ``t`` cycles through gives the board, the tree and the footer a contrast of
at least 4.5:1 (WCAG 2 AA), computed from the cells the screen is drawn with."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest
from rich.cells import cell_len
from rich.style import Style
from rich.terminal_theme import TerminalTheme
from textual.geometry import Region
from textual.widgets import Footer

from plyscope.tui.app import PlyscopeApp
from plyscope.tui.contrast import (
    MINIMUM_CONTRAST,
    TEXT,
    contrast_ratio,
    legible,
    relative_luminance,
    seen_colours,
)
from plyscope.tui.themes import contrast_floor, theme_names
from plyscope.tui.widgets.boards.base import Board
from plyscope.tui.widgets.search_tree import SearchTree
from tests.tui.helpers import explorer, make_app, settle

SIZE = (100, 30)
PALETTE = TerminalTheme((250, 250, 250), (10, 10, 10), [(0, 0, 0)] * 8 + [(128, 128, 128)] * 8)


@dataclass(frozen=True)
class Cell:
    """A glyph on the screen, where it is and the contrast it is seen with."""

    text: str
    x: int
    y: int
    contrast: float


def screen_cells(app: PlyscopeApp) -> list[Cell]:
    """Every cell holding text (not a space, a border or a bar) on the screen as the terminal is sent it."""
    palette = app.ansi_theme
    behind = palette.background_color
    background = (behind.red, behind.green, behind.blue)
    cells = []
    # The compositor's strips are the frame the driver writes (Textual has no public call for them).
    for y, strip in enumerate(app.screen._compositor.render_strips()):
        x = 0
        for segment in strip:
            foreground, back = seen_colours(segment.style, background, palette)
            contrast = contrast_ratio(foreground, back)
            for character in segment.text:
                if TEXT.match(character):
                    cells.append(Cell(character, x, y, contrast))
                x += cell_len(character)
    return cells


def worst(cells: list[Cell], region: Region) -> Cell:
    """The cell of least contrast in ``region`` (which holds some)."""
    return min((cell for cell in cells if region.contains(cell.x, cell.y)), key=lambda cell: cell.contrast)


THEMES = sorted(make_app().available_themes)
"""The themes ``t`` goes through (``PlyscopeApp.action_next_theme``: every theme, in this order)."""


async def least_contrast(theme: str) -> dict[str, Cell]:
    """The cell of least contrast in the board, the tree and the footer in ``theme``, over two views of the explorer
    after 100 alpha-beta steps: the tree holding the focus with its cursor on a line, and the board holding it with
    its cursor column."""
    app = make_app(algorithm="alphabeta", params={"depth": 3})
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f")
        await settle(pilot)
        app.theme = theme
        screen = explorer(pilot)
        parts = {
            "board": screen.query_one(Board),
            "tree": screen.query_one(SearchTree),
            "footer": screen.query_one(Footer),
        }

        async def view() -> dict[str, Cell]:
            """The worst cell of each part, once each shows text (the footer is composed again after a focus change)."""
            for _ in range(100):
                await pilot.pause()
                cells = screen_cells(app)
                regions = {part: widget.content_region for part, widget in parts.items()}
                if all(any(region.contains(cell.x, cell.y) for cell in cells) for region in regions.values()):
                    return {part: worst(cells, region) for part, region in regions.items()}
            raise AssertionError(f"the explorer in {theme} did not draw its board, tree and footer")

        await pilot.press("down", "down")
        tree_focused = await view()
        screen.query_one(Board).focus()
        board_focused = await view()
        return {part: min(tree_focused[part], board_focused[part], key=lambda cell: cell.contrast) for part in parts}


@pytest.mark.parametrize("theme", THEMES)
def test_every_theme_gives_the_board_the_tree_and_the_footer_4_5_to_1_and_projector_7(theme: str) -> None:
    found = asyncio.run(least_contrast(theme))
    floor = contrast_floor(theme)
    failing = {part: (cell.text, round(cell.contrast, 2)) for part, cell in found.items() if cell.contrast < floor}
    assert failing == {}
    assert floor == (7.0 if theme == "projector" else MINIMUM_CONTRAST)


def test_t_goes_through_every_theme_tested() -> None:
    assert len(THEMES) > 2 and "textual-light" in THEMES and "ansi-light" in THEMES and "projector" in THEMES
    assert theme_names() == THEMES


def test_contrast_ratio_is_wcags() -> None:
    assert contrast_ratio((0, 0, 0), (255, 255, 255)) == 21.0
    assert contrast_ratio((255, 255, 255), (0, 0, 0)) == 21.0
    assert contrast_ratio((100, 150, 200), (100, 150, 200)) == 1.0
    # #767676 is the lightest grey that passes AA on white; #777777 does not
    assert round(contrast_ratio((0x76, 0x76, 0x76), (255, 255, 255)), 2) == 4.54
    assert round(contrast_ratio((0x77, 0x77, 0x77), (255, 255, 255)), 2) == 4.48
    assert round(relative_luminance((255, 0, 0)), 4) == 0.2126


def test_seen_colours_swap_a_reversed_cell_blend_a_dim_one_and_resolve_defaults() -> None:
    red, blue = Style.parse("#ff0000"), Style.parse("on #0000ff")
    assert seen_colours(red + blue, (1, 2, 3), PALETTE) == ((255, 0, 0), (0, 0, 255))
    assert seen_colours(red + blue + Style(reverse=True), (1, 2, 3), PALETTE) == ((0, 0, 255), (255, 0, 0))
    assert seen_colours(red + Style(dim=True), (0, 0, 0), PALETTE) == ((128, 0, 0), (0, 0, 0))
    assert seen_colours(None, (1, 2, 3), PALETTE) == ((10, 10, 10), (1, 2, 3))
    assert seen_colours(Style.parse("color(8)"), (1, 2, 3), PALETTE) == ((128, 128, 128), (1, 2, 3))


def test_legible_keeps_a_colour_that_passes_and_moves_one_that_does_not_just_past_the_floor() -> None:
    assert legible((255, 255, 255), (0, 0, 0)) == (255, 255, 255)
    for foreground, background in [
        ((0xF2, 0xC1, 0x2E), (0xCE, 0xCE, 0xCE)),  # the second player's yellow on textual-light's tree
        ((0xFF, 0xFF, 0xFF), (0xE0, 0xE0, 0xE0)),  # white on textual-light's board
        ((0xE8, 0x41, 0x3C), (0x01, 0x78, 0xD4)),  # red on a blue cursor line: neither way reaches 4.6 by much
        ((0x80, 0x80, 0x80), (0x76, 0x76, 0x76)),  # middle grey on middle grey
    ]:
        made = legible(foreground, background)
        assert MINIMUM_CONTRAST <= contrast_ratio(made, background) < 6.0
    red = legible((0xE8, 0x41, 0x3C), (0xE0, 0xE0, 0xE0))
    assert red[0] > 2 * max(red[1], red[2])  # still red, darker
    dark_red = legible((0xE8, 0x41, 0x3C), (255, 255, 255), 7.0)  # projector's floor
    assert 7.0 <= contrast_ratio(dark_red, (255, 255, 255)) < 7.5 and dark_red[0] > 2 * max(dark_red[1:])
