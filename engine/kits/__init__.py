"""Every game plyscope plays, by its kit (``plyscope.engine.kits.base.GameKit``): one place to ask.

The built-in kits are this package's modules that expose ``KITS`` (a tuple of kits), found the way searchers are;
kits from other packages come through the ``plyscope.games`` entry point group (each entry point names a
``GameKit`` subclass or instance), as pytest and Harlequin load their plugins.  A plugin that fails to load, or
that is no kit, is left out and reported in one line (``plugin_problems``, and to the reporter the command line
sets, ``report_problems_to``, as the kits are first loaded): it never stops plyscope.  A kit that misses something
here (``GameKit.missing``: OpenSpiel's without OpenSpiel) is left out too (``missing_kits``), its names refused by
``make_game`` with the reason.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import pkgutil
from collections.abc import Callable
from functools import cache

from plyscope.engine.games.base import Game, PositionError
from plyscope.engine.kits.base import GameKit
from plyscope.engine.numbers import shown

ENTRY_POINT_GROUP = "plyscope.games"
"""The entry point group a package declares its game kits in (``[project.entry-points."plyscope.games"]``)."""


_reporter: Callable[[str], object] | None = None
"""Told each line of ``plugin_problems`` as the kits are first loaded (``report_problems_to``)."""


def report_problems_to(reporter: Callable[[str], object] | None) -> None:
    """Have ``reporter`` told each plugin that could not be loaded, in one line, as the kits are first loaded (the
    command line prints it on stderr); ``None``: nobody."""
    global _reporter
    _reporter = reporter


@cache
def _found() -> tuple[dict[str, GameKit], dict[str, GameKit], tuple[str, ...]]:
    """Every kit that can be used by name (built in first, then plugins'), those missing something, and a line for
    each plugin that could not be loaded."""
    found: dict[str, GameKit] = {}
    missing: dict[str, GameKit] = {}
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        for kit in getattr(module, "KITS", ()):
            (missing if kit.missing() else found)[kit.name] = kit
    problems: list[str] = []
    for entry in sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        try:
            loaded = entry.load()
            kit = loaded() if isinstance(loaded, type) else loaded
        except Exception as error:  # (a plugin's bug of any kind: reported, never fatal)
            problems.append(f"game plugin '{entry.name}' ({entry.value}) did not load: {_first_line(error)}")
            continue
        if not isinstance(kit, GameKit):
            problems.append(f"game plugin '{entry.name}' ({entry.value}) is not a plyscope GameKit")
        elif kit.name in found or kit.name in missing:
            problems.append(f"game plugin '{entry.name}' ({entry.value}) is named {kit.name}, taken already")
        else:
            try:
                (missing if kit.missing() else found)[kit.name] = kit
            except Exception as error:  # (as above)
                problems.append(f"game plugin '{entry.name}' ({entry.value}) did not load: {_first_line(error)}")
    if _reporter is not None:
        for problem in problems:
            _reporter(problem)
    return found, missing, tuple(problems)


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def kits() -> dict[str, GameKit]:
    """Every game kit by name: the built-in ones, then the plugins' (in the order of their names); not those that
    miss something here (``missing_kits``)."""
    return _found()[0]


def missing_kits() -> dict[str, GameKit]:
    """The kits that cannot be used here by name (``GameKit.missing`` says why)."""
    return _found()[1]


def plugin_problems() -> tuple[str, ...]:
    """One line for each game plugin that could not be loaded (left out of ``kits``)."""
    return _found()[2]


def kit_of(game: Game) -> GameKit:
    """The kit of ``game`` (which names it: ``game.kit``)."""
    try:
        return kits()[game.kit]
    except KeyError:
        raise PositionError(f"no game kit is named '{shown(game.kit)}' (the kit of {game.name})") from None


def make_game(name: str) -> Game:
    """The game ``name`` (with its parameters, as ``--game`` takes it); raises ``PositionError`` naming the games
    there are."""
    for kit in (*kits().values(), *missing_kits().values()):  # (one that misses something refuses its names)
        game = kit.make(name)
        if game is not None:
            return game
    raise PositionError(f"unknown game '{shown(name)}': choose one of {', '.join(game_names())}")


def game_names() -> list[str]:
    """Every name ``--game`` takes, as help writes them (``connect4:WxH`` for a pattern)."""
    return [name for kit in kits().values() for name in kit.names()]


def game_choices() -> list[str]:
    """The games a menu offers."""
    return [name for kit in kits().values() for name in kit.choices()]
