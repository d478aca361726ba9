"""Every searcher by name, with its parameters and its kit: the CLI, the UI and the arena build searchers here.

Each module or family package of ``plyscope.engine.search`` (a family's ``__init__``) that exposes ``ALGORITHMS`` (a
tuple of ``AlgorithmInfo``: ``plyscope.engine.search.entry``) is registered; a factory is called as
``factory(state, **params)`` with every parameter checked (plus ``seed=seed`` for a searcher that draws random
numbers).  The parts of a searcher's kit are found through its entry: its journal (``make_searcher`` gives a fresh
searcher its own), its compiled twin (``compiled_twin``).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

import plyscope.engine.search
from plyscope.engine.errors import UserError
from plyscope.engine.games import Game, State, is_chance
from plyscope.engine.kits import kit_of, kits, make_game
from plyscope.engine.numbers import shown
from plyscope.engine.search.base import Node, Searcher, SearchError
from plyscope.engine.search.entry import AlgorithmInfo
from plyscope.engine.search.minimax import resolve_evaluator

if TYPE_CHECKING:
    from plyscope.engine.compiled.base import CompiledSearch


@cache
def algorithms() -> dict[str, AlgorithmInfo]:
    """Every registered algorithm by name, module by module (a family's package as one) in alphabetical order."""
    found: dict[str, AlgorithmInfo] = {}
    for module_info in sorted(pkgutil.iter_modules(plyscope.engine.search.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"plyscope.engine.search.{module_info.name}")
        for info in getattr(module, "ALGORITHMS", ()):
            found[info.name] = info
    return found


def algorithm(name: str) -> AlgorithmInfo:
    """The registry entry ``name``; raises ``SearchError`` listing the known names."""
    known = algorithms()
    if name not in known:
        raise SearchError(f"unknown algorithm '{shown(name)}': choose one of {', '.join(known)}")
    return known[name]


def refusal(info: AlgorithmInfo, game: Game) -> str | None:
    """Why the algorithm ``info`` cannot search ``game``, in one line (``None``: it can): chance nodes it does not
    handle, a kit it is not restricted to (``AlgorithmInfo.games``), or what the game's kit says
    (``GameKit.refusal``: a board too large...)."""
    kit = kit_of(game)
    if kit.has_chance(game) and not info.chance:
        able = [other.name for other in algorithms().values() if other.chance and _restricted_to(other, kit.name)]
        choices = " or ".join(able) if len(able) < 3 else ", ".join(able[:-1]) + " or " + able[-1]
        return f"{info.name} cannot search chance nodes: on {game.name} use {choices}"
    if not _restricted_to(info, kit.name):
        return f"{info.name} works on {' and '.join(info.games)} only, not on {game.name}"
    return kit.refusal(game, info.name)


def _restricted_to(info: AlgorithmInfo, kit: str) -> bool:
    """Whether ``info``'s ``games`` let it play the kit named ``kit`` (empty: any kit)."""
    return not info.games or kit in info.games


def plays(info: AlgorithmInfo, game: Game) -> bool:
    """Whether the algorithm ``info`` plays ``game`` (``refusal`` says why not)."""
    return refusal(info, game) is None


def check_plays(info: AlgorithmInfo, game: Game) -> None:
    """Raise ``SearchError`` in one line unless the algorithm ``info`` plays ``game``."""
    reason = refusal(info, game)
    if reason is not None:
        raise SearchError(reason)


def kits_played(info: AlgorithmInfo) -> list[str]:
    """The names of the kits whose first game (``GameKit.first``) the algorithm ``info`` plays: what ``plyscope search
    --list`` says it plays."""
    return [kit.name for kit in kits().values() if plays(info, kit.first())]


def fitting_algorithms(game_name: str) -> list[AlgorithmInfo]:
    """The registered algorithms that play ``game_name`` (all of them if the name is not a game)."""
    try:
        game = make_game(game_name)
    except UserError:
        return list(algorithms().values())
    return [info for info in algorithms().values() if plays(info, game)]


def make_searcher(
    name: str, state: State, params: Mapping[str, object] | None = None, *, seed: int = 0
) -> Searcher[Node]:
    """A new searcher ``name`` on ``state`` with ``params`` checked against the registry.

    The evaluator's parameters (``eval``, ``weights``, ``transform``) become one ``Evaluator``,
    passed to the searcher as ``evaluator``.  A searcher whose entry declares a journal (``AlgorithmInfo.journal``)
    gets its own as its ``journal``, to go back and forth along its timeline in place.
    """
    info = algorithm(name)
    check_plays(info, state.game)
    values = info.validate(params or {})
    if state.is_terminal():
        raise SearchError("the game is already over in this position: there is nothing to search")
    if is_chance(state):
        raise SearchError("this position is a chance node: nature moves next, nobody chooses")
    try:
        if "eval" in values:
            values["evaluator"] = resolve_evaluator(
                str(values.pop("eval")),
                state,
                weights=str(values.pop("weights", "")),
                transform=str(values.pop("transform", "identity")),
            )
        if info.random:
            values["seed"] = seed
        searcher = info.factory(state, **values)
    except UserError as error:  # a searcher refusing a game or a parameter combination
        raise SearchError(f"{name}: {error}") from None
    if info.journal is not None:
        searcher.journal = info.journal(searcher)
    return searcher


def twin_kind(searcher: Searcher[Node]) -> type[CompiledSearch] | None:
    """The class of the fresh ``searcher``'s compiled twin (its entry's ``AlgorithmInfo.twin``) where the twin ``fits``
    (its game, evaluator and parameters), found without loading the kernels; ``None`` where it has none, or once it has
    stepped."""
    info = algorithms().get(searcher.name)
    if info is None or info.twin is None or searcher.stats.iterations:
        return None
    kind = info.twin()
    return kind if kind.fits(searcher) else None


def compiled_twin(searcher: Searcher[Node]) -> CompiledSearch | None:
    """The compiled twin of the fresh ``searcher`` (not stepped yet), whose ``run`` returns the ``Result`` the
    searcher's would; ``None`` if it has none (``twin_kind``)."""
    kind = twin_kind(searcher)
    return None if kind is None else kind(searcher)


def twin_kinds() -> list[type[CompiledSearch]]:
    """Every registered compiled twin's class (once each: alpha-beta's serves ``alphabeta`` and ``ab-rivest``)."""
    kinds: list[type[CompiledSearch]] = []
    for info in algorithms().values():
        if info.twin is not None and info.twin() not in kinds:
            kinds.append(info.twin())
    return kinds


def twin_sources() -> list[str]:
    """The source files of every registered twin's kernels (numba's cache entries are keyed by their content)."""
    return sorted({source for kind in twin_kinds() for source in kind.sources()})


def load_twins() -> None:
    """Load every registered twin's kernels' machine code (``CompiledSearch.load``): before a search is timed, or
    before worker processes start (they inherit it)."""
    for kind in twin_kinds():
        kind.load()


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """An agent written ``name:key=value,key=value`` (e.g. ``mcts:c=1.4,k=32``), checked against the registry.

    A value may hold commas: an item without ``=`` continues the value before it, so
    ``minimax:transform=affine:2,10,depth=3`` sets ``transform`` to ``affine:2,10``.
    """

    name: str
    params: dict[str, object] = field(default_factory=dict)
    """Parameter values, already converted to their types."""

    @classmethod
    def parse(cls, text: str) -> AgentSpec:
        if not text.strip():
            raise SearchError("an agent is written NAME or NAME:KEY=VALUE,... (e.g. mcts:k=32); it cannot be blank")
        name, _, rest = text.strip().partition(":")
        info = algorithm(name.strip())
        raw: dict[str, str] = {}
        last = ""
        for item in filter(None, (part.strip() for part in rest.split(","))):
            key, equals, value = item.partition("=")
            if not equals and last:
                raw[last] += "," + item
                continue
            if not equals or not re.fullmatch(r"[A-Za-z_]\w*", key.strip()):
                raise SearchError(f"agent '{shown(text, 40)}': '{shown(item)}' is not key=value")
            last = key.strip()
            if last in raw:
                raise SearchError(f"agent '{shown(text, 40)}': {last} is given twice")
            raw[last] = value.strip()
        checked = info.validate(raw)
        return cls(info.name, {k: v for k, v in checked.items() if k in raw})

    def label(self) -> str:
        """The spec written back as text, e.g. ``mcts:c=1.4,k=32``."""
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={_format(v)}" for k, v in self.params.items())

    @property
    def info(self) -> AlgorithmInfo:
        """The registry entry of the spec's algorithm."""
        return algorithm(self.name)

    def make(self, state: State, *, seed: int = 0) -> Searcher[Node]:
        return make_searcher(self.name, state, self.params, seed=seed)


def _format(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
