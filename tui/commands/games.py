"""``plyscope games``: every game ``--game`` takes, built in, from plugins and from OpenSpiel, with whether it has exact
values and which searchers apply (and why the others do not), as a table or as JSON.

A game is listed by the name ``--game`` takes (``openspiel:breakthrough``); ``plyscope games GAME`` lists one game,
with its parameters (``openspiel:breakthrough(rows=5,columns=5)``).  The kits that cannot be used here (OpenSpiel's
without OpenSpiel) are listed with the reason, and so is each game plugin that did not load.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from plyscope.engine.exact import Exact
from plyscope.engine.games import Game
from plyscope.engine.kits import kit_of, kits, make_game, missing_kits, plugin_problems
from plyscope.engine.search.registry import algorithms, refusal
from plyscope.tui.commands.output import print_table, print_words


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game", nargs="?", default=None, help="one game, with its parameters (e.g. 'openspiel:hex(board_size=5)')"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One game as ``plyscope games`` lists it."""

    name: str
    """What ``--game`` takes."""
    kit: str
    summary: str
    chance: bool
    exact: str
    """``at once`` (every position valued at once), ``searched`` (within ``--truth-nodes``), ``no``."""
    exact_note: str
    """How the exact values are found, or why there are none."""
    searchers: tuple[str, ...]
    """The searchers that apply."""
    refused: dict[str, str]
    """Each other searcher -> why it does not apply."""

    def as_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "kit": self.kit,
            "summary": self.summary,
            "chance": self.chance,
            "exact": self.exact,
            "exact_note": self.exact_note,
            "searchers": list(self.searchers),
            "refused": self.refused,
        }


def entry(game: Game, exact: Exact) -> GameEntry:
    """``game``'s entry: its kit's description, its exact values (through ``exact``), the searchers' refusals."""
    kit = kit_of(game)
    why_not = exact.refusal(game)
    if why_not is None:
        values = exact.values(game)
        kind = "at once" if values.instant else "searched"
        note = values.note() or (
            f"{values.scale}, every position at once" if values.instant else f"{values.scale}, within --truth-nodes"
        )
    else:
        kind, note = "no", why_not
    refusals = {info.name: refusal(info, game) for info in algorithms().values()}
    return GameEntry(
        name=game.name,
        kit=kit.name,
        summary=kit.describe(game),
        chance=kit.has_chance(game),
        exact=kind,
        exact_note=note,
        searchers=tuple(name for name, reason in refusals.items() if reason is None),
        refused={name: reason for name, reason in refusals.items() if reason is not None},
    )


def listed_games(name: str | None) -> list[Game]:
    """The game ``name`` (``UserError`` if it is none), or every game a kit offers."""
    if name is not None:
        return [make_game(name)]
    return [game for kit in kits().values() for game in (kit.make(choice) for choice in kit.choices()) if game]


def run(args: argparse.Namespace) -> int:
    exact = Exact(load_ahead=False)
    entries = [entry(game, exact) for game in listed_games(args.game)]
    missing = {name: str(kit.missing()) for name, kit in missing_kits().items()}
    if args.json:
        document = {
            "games": [item.as_json() for item in entries],
            "kits": [
                {"name": kit.name, "summary": kit.summary, "names": list(kit.names()), "board": kit.board}
                for kit in kits().values()
            ],
            "missing": missing,
            "problems": list(plugin_problems()),
        }
        print(json.dumps(document))
        return 0
    console = Console()
    table = Table(
        title="Games (plyscope --game NAME; with parameters: " + ", ".join(pattern_names()) + ")",
        title_justify="left",
        caption="exact: every position at once, searched within --truth-nodes, or no",
        caption_justify="left",
    )
    table.add_column("game", overflow="fold")
    table.add_column("exact", no_wrap=True)
    table.add_column("searchers", overflow="fold")
    table.add_column("summary", overflow="fold")
    for item in entries:
        table.add_row(item.name, item.exact, ", ".join(item.searchers), item.summary)
    print_table(console, table)
    for line in why_not_lines(entries):
        print_words(console, line)
    for name, reason in missing.items():
        print_words(console, f"{name}: not here: {reason}")
    for problem in plugin_problems():
        print_words(console, problem)
    return 0


def pattern_names() -> list[str]:
    """The names with parameters ``--game`` takes (``connect4:WxH``)."""
    return [name for kit in kits().values() for name in kit.names() if name not in kit.choices()]


def why_not_lines(entries: list[GameEntry]) -> list[str]:
    """Why the other searchers do not apply, a line for each reason (the game's name left out of it) with the
    searchers it keeps off and how many of the games listed: ``ab-rivest, perfect, solver: works on connect4 only (44
    games)``; one game's own reasons in full."""
    if len(entries) == 1:
        return list(entries[0].refused.values())
    grouped: dict[tuple[str, tuple[str, ...]], int] = {}
    said_for: dict[tuple[str, str], str] = {}
    for item in entries:
        for name, reason in item.refused.items():
            said = reason.removeprefix(f"{name} ").replace(f", not on {item.name}", "").replace(f" on {item.name}", "")
            said_for[(item.name, name)] = said
    for item in entries:
        by_reason: dict[str, list[str]] = {}
        for name in item.refused:
            by_reason.setdefault(said_for[(item.name, name)], []).append(name)
        for said, names in by_reason.items():
            grouped[(said, tuple(names))] = grouped.get((said, tuple(names)), 0) + 1
    return [
        f"not {', '.join(names)}: {said} ({count} game{'s' if count > 1 else ''})"
        for (said, names), count in grouped.items()
    ]
