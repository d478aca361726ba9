"""``plyscope bench``: the engine's (and with ``--ui`` the explorer's) figures as Rich tables or JSON."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.table import Table

from plyscope.engine.benchmarks import BenchTable
from plyscope.engine.benchmarks.sections import SECTIONS, measure
from plyscope.engine.errors import UserError
from plyscope.tui.commands.output import print_table

UI_SECTION = "ui"
"""The explorer's figures (``plyscope.tui.benchmark``), measured with ``--ui``; alone, ``--ui`` measures only them."""
WEB_SECTION = "web"
"""``plyscope serve``'s figures in a browser (``plyscope.tui.web.bench``), measured with ``--web``, likewise."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quick", action="store_true", help="small samples, for a first look")
    parser.add_argument("--only", action="append", default=[], metavar="SECTION", help="run only these sections")
    parser.add_argument("--ui", action="store_true", help="measure the explorer headless")
    parser.add_argument(
        "--ui-part",
        action="append",
        default=[],
        metavar="PART",
        help="with --ui: only these parts (steps, keys, quit, timeline, truth, tree, memory)",
    )
    parser.add_argument(
        "--web",
        action="store_true",
        help="measure plyscope serve in headless Chromium (needs selenium, chromium, chromedriver)",
    )


def chosen_sections(args: argparse.Namespace) -> list[str]:
    """The sections ``args`` asks for (``--only``, then the explorer's and the page's); ``UserError`` if unknown."""
    sections = list(args.only) or ([] if args.ui or args.web else list(SECTIONS))
    unknown = [s for s in sections if s not in SECTIONS]
    if unknown:
        raise UserError(f"unknown bench section {', '.join(unknown)}: choose from {', '.join(SECTIONS)}")
    if args.ui_part and not args.ui:
        raise UserError("--ui-part chooses parts of the explorer's figures: give --ui too")
    return sections + [UI_SECTION] * args.ui + [WEB_SECTION] * args.web


def run(args: argparse.Namespace) -> int:
    sections = chosen_sections(args)
    console = Console()
    results: dict[str, list[dict[str, object]]] = {}
    for section in sections:
        if section == UI_SECTION:
            tables = _measure_ui(args.quick, args.ui_part)
        elif section == WEB_SECTION:
            tables = _measure_web(args.quick)
        else:
            tables = measure(section, args.quick)
        results[section] = [t.as_dict() for t in tables]
        if not args.json:
            for table in tables:
                print_table(console, render(table))  # (its title and notes at the console's width, not the table's)
    if args.json:
        print(json.dumps(results, indent=2))
    return 0


def _measure_ui(quick: bool, parts: list[str]) -> list[BenchTable]:
    from plyscope.tui.benchmark import PARTS  # Textual is imported only when the UI is measured
    from plyscope.tui.benchmark import measure as measure_ui

    unknown = [part for part in parts if part not in PARTS]
    if unknown:
        raise UserError(f"unknown --ui-part {', '.join(unknown)}: choose from {', '.join(PARTS)}")
    return measure_ui(quick, parts)


def _measure_web(quick: bool) -> list[BenchTable]:
    from plyscope.tui.web.bench import measure as measure_web  # selenium is imported only when the page is measured

    return measure_web(quick)


def render(table: BenchTable) -> Table:
    rich_table = Table(
        title=table.title, title_justify="left", caption="\n".join(table.notes) or None, caption_justify="left"
    )
    for column in table.columns:
        rich_table.add_column(column, justify="left" if column == table.columns[0] else "right")
    for row in table.rows:
        rich_table.add_row(*(_cell(v) for v in row))
    return rich_table


def _cell(value: object) -> str:
    if isinstance(value, float):
        return f"{value:,.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)
