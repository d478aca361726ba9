"""The commands' tables with their titles and captions, and prose, printed as whole lines at the console's width.

Rich wraps a table's title and caption to the table's width, so a narrow table cut a hand-written tree in two
(``D(`` / ``14,5,2)):``) in any terminal.  Here they are wrapped between words at the console's width (the
terminal's, else ``COLUMNS``), and a word longer than a line is printed whole on a line of its own.
"""

from __future__ import annotations

import textwrap

from rich.console import Console
from rich.table import Table
from rich.text import TextType


def print_table(console: Console, table: Table) -> None:
    """``table`` on ``console``, its title above it and its caption below it as ``print_words`` prints them."""
    title, caption = table.title, table.caption
    table.title = table.caption = None
    if title:
        print_words(console, title, "table.title")
    console.print(table)
    if caption:
        print_words(console, caption, "table.caption")


def print_words(console: Console, text: TextType, style: str = "") -> None:
    """``text`` (its plain text: no markup) wrapped between words at ``console``'s width, each line break kept."""
    for paragraph in str(text).splitlines():
        lines = textwrap.wrap(paragraph, console.width, break_long_words=False, break_on_hyphens=False)
        for line in lines or [""]:
            console.print(line, style=style, soft_wrap=True, markup=False, highlight=False)
