"""The ``?`` help screen and the command palette's keys: one list (``key_sections``), built from the real bindings of
the screen, its components, its widgets and the app."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import ClassVar, TypeVar

from rich.table import Table
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import SimpleCommand
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from plyscope.tui.components.base import Component
from plyscope.tui.widgets.boards.base import DIGITS, Board, DigitKeys

DIGIT_ACTION = re.compile(r"play_digit\(\d+\)")
"""Bindings of the digit keys, which play what the board numbers so: shown as one row, as the board's view says
(``Board.digits``)."""
Row = tuple[str, str]
"""A help row: the keys as shown, and what they do."""


@dataclass(frozen=True, slots=True)
class KeyRow:
    """One row of the help screen and one command of the palette: the keys as shown, what they do, and doing it."""

    keys: str
    description: str
    run: Callable[[], object]
    """Does what the keys do, where they would do it (the screen, the widget holding the focus, the app)."""


Section = tuple[str, list[KeyRow]]
"""A titled group of key rows: the screen's, a widget's, or the app's (``Everywhere``)."""
Bound = list[tuple[DOMNode, Binding]]
"""Bindings, each with where its action runs."""
R = TypeVar("R")
"""What the app returns when it exits (any: the keys do not depend on it)."""


def class_bindings(cls: type[DOMNode]) -> list[Binding]:
    """The bindings ``cls`` declares, its base classes' included (a subclass's binding of a key wins)."""
    by_key: dict[str, Binding] = {}
    for klass in reversed(cls.__mro__):
        declared: list[BindingType] = klass.__dict__.get("BINDINGS", [])
        for binding in Binding.make_bindings(declared):
            by_key[binding.key] = binding
    return list(by_key.values())


def key_sections(app: App[R], screen: Screen[object]) -> list[Section]:
    """Every key of ``screen``, in titled groups: the screen's (its components' with them), those of the project's
    widgets on it, then the app's.

    The one list of keys: the help screen shows it (``help_sections``) and the command palette offers it
    (``key_commands``), so that no key is in one and not the other.
    """
    digits = _board_digits(screen)
    # what a key does is what the first binding to take it does: the app's own priority bindings come first
    app_bindings = [binding for binding in class_bindings(type(app)) if _enabled(app, binding)]
    taken_first = {binding.key for binding in app_bindings if binding.priority}
    sections = []
    for title, bound in _owners(screen, [(app, binding) for binding in app_bindings]):
        rows: dict[str, tuple[list[str], str, DOMNode]] = {}
        played: DOMNode | None = None
        for target, binding in bound:
            if not binding.description or binding.system or (target is not app and binding.key in taken_first):
                continue
            if DIGIT_ACTION.fullmatch(binding.action):
                played = target
                continue
            keys, _, _ = rows.setdefault(described(binding), ([], binding.action, target))
            keys.append(app.get_key_display(binding))
        listed = [
            KeyRow(", ".join(keys), description, partial(app.run_action, action, target))
            for description, (keys, action, target) in rows.items()
        ]
        if played is not None and digits is not None:
            listed.insert(0, KeyRow(digits.keys, digits.description, partial(_pick_digit, played, digits)))
        if listed:
            sections.append((title, listed))
    return sections


def _owners(screen: Screen[object], app_bound: Bound) -> list[tuple[str, Bound]]:
    """Where keys are bound, titled: the screen (with its components), one widget of each of the project's other
    classes that bind keys (the one holding the focus, else the first; a board that is played, whatever its view), and
    the app (``app_bound``)."""
    owners: dict[type[DOMNode], DOMNode] = {}
    focused = screen.focused
    for widget in screen.query("*"):
        cls: type[DOMNode] = type(widget)
        bindings = cls.__dict__.get("BINDINGS")
        if isinstance(widget, Board):  # (whichever view, a plugin's too: its keys and its base's, if it takes them)
            cls, bindings = Board, widget.playable
        if cls.__module__.startswith("plyscope.tui.") and bindings and not isinstance(widget, Component):
            holds_focus = focused is not None and (focused is widget or widget in focused.ancestors)
            if cls not in owners or holds_focus:
                owners[cls] = widget
    widgets = [(_title(cls.__name__), _bound(target)) for cls, target in owners.items()]
    return [(_title(type(screen).__name__), _screen_bound(screen)), *widgets, ("Everywhere", app_bound)]


def _bound(owner: DOMNode) -> Bound:
    return [(owner, binding) for binding in class_bindings(type(owner))]


def _screen_bound(screen: Screen[object]) -> Bound:
    """The screen's keys: its own, then its components' (the outermost first).  A key bound twice does what Textual
    finds first from the focus up: a component's binding, not the screen's; an inner component's, not an outer's."""
    bound = [pair for owner in [screen, *screen.query(Component).results(Component)] for pair in _bound(owner)]
    owner_of = {binding.key: owner for owner, binding in bound}
    return [(owner, binding) for owner, binding in bound if owner_of[binding.key] is owner]


def help_sections(app: App[R], screen: Screen[object]) -> list[tuple[str, list[Row]]]:
    """The help screen's rows (``key_sections``): the keys as shown, and what they do."""
    return [(title, [(row.keys, row.description) for row in rows]) for title, rows in key_sections(app, screen)]


def key_commands(app: App[R], screen: Screen[object]) -> Iterator[SystemCommand]:
    """A command-palette command for every row of ``key_sections`` (a row two sections share, once)."""
    offered: set[tuple[str, str]] = set()
    for title, rows in key_sections(app, screen):
        where = "" if title == "Everywhere" or title == _title(type(screen).__name__) else f" in the {title.lower()}"
        for row in rows:
            if (row.keys, row.description) not in offered:
                offered.add((row.keys, row.description))
                yield SystemCommand(row.description, f"key {row.keys}{where}", row.run)


def _enabled(app: App[R], binding: Binding) -> bool:
    """Whether ``app`` runs ``binding``'s action here (its ``check_action`` may leave a key to the screen)."""
    return app.check_action(binding.action.partition("(")[0], ()) is not False


def _board_digits(screen: Screen[object]) -> DigitKeys | None:
    """What the digit keys play on the board of ``screen``, as its view says (``None``: nothing, or no board)."""
    boards = list(screen.query(Board).results(Board))
    return boards[0].digits() if boards else None


def _pick_digit(owner: DOMNode, digits: DigitKeys) -> None:
    """The palette's way to play what the digit keys play: a list of it, each played as its digit key would."""
    picks = [
        SimpleCommand(title, partial(owner.app.run_action, f"play_digit({index})", owner), f"key {DIGITS[index]}")
        for index, title in digits.picks
    ]
    owner.app.search_commands(picks, placeholder=digits.placeholder)


def described(binding: Binding) -> str:
    """A binding in the help screen's and the palette's words: its tooltip where the footer's label is short."""
    return binding.tooltip or binding.description


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
