"""The ``?`` help screen, built from the real bindings of the screen, its widgets and the app."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import partial
from typing import Any, ClassVar

from rich.table import Table
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from plyscope.engine.games import Connect4State
from plyscope.engine.games.connect4 import COLUMN_DIGITS

COLUMN_ACTION = re.compile(r"play_column\(\d+\)")
"""Bindings that play a board column: shown as one row, for the columns the board has."""
Row = tuple[str, str]
"""A help row: the keys as shown, and what they do."""


def class_bindings(cls: type[DOMNode]) -> list[Binding]:
    """The bindings ``cls`` declares, its base classes' included (a subclass's binding of a key wins)."""
    by_key: dict[str, Binding] = {}
    for klass in reversed(cls.__mro__):
        declared: list[BindingType] = klass.__dict__.get("BINDINGS", [])
        for binding in Binding.make_bindings(declared):
            by_key[binding.key] = binding
    return list(by_key.values())


def help_sections(app: App[Any], screen: Screen[Any]) -> list[tuple[str, list[Row]]]:
    """Titled groups of rows: the screen's keys, those of the project's widgets on it, then the app's."""
    titled: list[tuple[str, type[DOMNode]]] = [(_title(type(screen).__name__), type(screen))]
    for widget in screen.query("*"):
        cls = type(widget)
        if (
            cls.__module__.startswith("plyscope.tui.")
            and cls.__dict__.get("BINDINGS")
            and all(c is not cls for _, c in titled)
        ):
            titled.append((_title(cls.__name__), cls))
    titled.append(("Everywhere", type(app)))
    columns = _column_keys(screen)
    # what a key does is what the first binding to take it does: the app's own priority bindings come first
    app_bindings = [binding for binding in class_bindings(type(app)) if _enabled(app, binding)]
    taken_first = {binding.key for binding in app_bindings if binding.priority}
    sections = []
    for title, owner in titled:
        rows: dict[str, list[str]] = {}
        played = False
        for binding in app_bindings if owner is type(app) else class_bindings(owner):
            if not binding.description or binding.system or (owner is not type(app) and binding.key in taken_first):
                continue
            if COLUMN_ACTION.fullmatch(binding.action):
                played = True
                continue
            rows.setdefault(described(binding), []).append(app.get_key_display(binding))
        listed = [(", ".join(keys), description) for description, keys in rows.items()]
        if played and columns:
            listed.insert(0, (columns, "Play that column on the board"))
        if listed:
            sections.append((title, listed))
    return sections


def _enabled(app: App[Any], binding: Binding) -> bool:
    """Whether ``app`` runs ``binding``'s action here (its ``check_action`` may leave a key to the screen)."""
    return app.check_action(binding.action.partition("(")[0], ()) is not False


def _column_keys(screen: Screen[Any]) -> str:
    """``1-7``: the keys of the columns of the Connect Four board on ``screen`` (``""`` without one)."""
    from plyscope.tui.widgets.board import Board  # the board's module imports this one's neighbours

    boards = list(screen.query(Board).results(Board))
    if not boards or not isinstance(boards[0].state, Connect4State):
        return ""
    width = boards[0].state.game.width
    return f"1-{COLUMN_DIGITS[width - 1]}" if width <= 9 else "1-9, 0"


def described(binding: Binding) -> str:
    """A binding in the help screen's and the palette's words: its tooltip where the footer's label is short."""
    return binding.tooltip or binding.description


def binding_commands(screen: Screen[Any]) -> Iterator[SystemCommand]:
    """A command-palette command for every binding ``screen`` declares, described as in the help screen."""
    keys: dict[tuple[str, str], list[str]] = {}
    for binding in Binding.make_bindings(type(screen).BINDINGS):
        if COLUMN_ACTION.fullmatch(binding.action):
            continue
        keys.setdefault((binding.action, described(binding)), []).append(screen.app.get_key_display(binding))
    for (action, description), shown in keys.items():
        yield SystemCommand(description, "key " + ", ".join(shown), partial(screen.run_action, action))


def _title(class_name: str) -> str:
    """``SearchTree`` -> ``Search tree``; ``ExploreScreen`` -> ``Explore screen``."""
    words = re.findall(r"[A-Z][a-z]*", class_name)
    return " ".join([words[0], *(w.lower() for w in words[1:])]) if words else class_name


class HelpScreen(ModalScreen[None]):
    """Every key of the screen below, by where it works, with what it does."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "dismiss", "Close help"),
    ]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 72; max-width: 100%; height: auto; max-height: 90%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    """

    def __init__(self, sections: list[tuple[str, list[Row]]], *, palette_key: str | None = None) -> None:
        super().__init__()
        self.sections = sections
        self.palette_key = palette_key
        """The key that opens the command palette, when it is enabled."""

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = "Keys (escape closes)"
            for title, bindings in self.sections:
                yield Static(self._table(title, bindings))
            if self.palette_key:
                yield Static(
                    f"\n{self.palette_key}: command palette (algorithms, games, parameters, themes, "
                    "and every action above)"
                )

    def _table(self, title: str, rows: list[Row]) -> Table:
        table = Table(
            title=title,
            title_justify="left",
            title_style="bold",
            show_header=False,
            box=None,
            padding=(0, 1),
            expand=True,
        )
        table.add_column("keys", style="bold", no_wrap=True, width=16)
        table.add_column("action", ratio=1)
        for keys, description in rows:
            table.add_row(keys, description)
        return table
