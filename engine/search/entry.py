"""A registry entry (``AlgorithmInfo``): how to build one kind of searcher, its parameters (``Param``), and the parts
of its kit beside the searcher: its way back along the timeline (``journal``) and its compiled twin (``twin``).

A family's package (``plyscope.engine.search.alphabeta``...) or a searcher's own module declares its entries in an
``ALGORITHMS`` tuple, which the registry (``plyscope.engine.search.registry``) finds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from plyscope.engine.numbers import NumberError, OutOfRange, parse_float, parse_int, shown
from plyscope.engine.search.base import DEFAULT_NODE_BYTES, TREE_MEMORY_BYTES, Node, Searcher, SearchError
from plyscope.engine.travel.protocol import Travel

if TYPE_CHECKING:
    from plyscope.engine.compiled.base import CompiledSearch


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter of a searcher: its type, default and allowed range, for the registry."""

    name: str
    kind: type
    """``int``, ``float``, ``bool`` or ``str`` (``str`` with ``choices``)."""
    default: object
    help: str
    lo: float | None = None
    hi: float | None = None
    choices: tuple[str, ...] = ()

    def parse(self, value: object) -> object:
        """``value`` (text from a command line or a form, or already typed) checked and converted.

        Numbers are read by ``plyscope.engine.numbers`` (ASCII digits only, no ``nan`` or ``inf``, no
        thousand-digit integers); the range is the parameter's own."""
        text = shown(str(value).strip())
        parsed: object
        if self.kind is bool:
            parsed = self._parse_bool(value, text)
        elif self.kind is int or self.kind is float:
            parsed = self._parse_number(value, text)
        else:
            parsed = str(value).strip()
        if self.choices and parsed not in self.choices:
            raise SearchError(f"parameter {self.name}: '{text}' is not one of {', '.join(self.choices)}")
        return parsed

    def _parse_bool(self, value: object, text: str) -> bool:
        """``value`` (``text`` as typed) as true or false."""
        if isinstance(value, bool):
            return value
        if text.lower() in ("1", "true", "yes", "on"):
            return True
        if text.lower() in ("0", "false", "no", "off"):
            return False
        raise SearchError(f"parameter {self.name}: '{text}' is not true or false")

    def _parse_number(self, value: object, text: str) -> int | float:
        """``value`` (``text`` as typed) as the parameter's kind of number, within its range."""
        reader = parse_int if self.kind is int else parse_float
        try:
            number = reader(value, f"parameter {self.name}")
        except OutOfRange:  # (a number too large for any range: a thousand digits, 1e999)
            side = "below" if text.startswith("-") else "above"
            raise SearchError(f"parameter {self.name}: {shown(text)} is {side} its range {self.range_text()}") from None
        except NumberError:
            kind = "a whole number" if self.kind is int else "a number"
            raise SearchError(f"parameter {self.name}: '{text}' is not {kind}") from None
        if self.lo is not None and number < self.lo:
            raise SearchError(f"parameter {self.name}: {text} is below its range {self.range_text()}")
        if self.hi is not None and number > self.hi:
            raise SearchError(f"parameter {self.name}: {text} is above its range {self.range_text()}")
        return number

    def range_text(self) -> str:
        if self.choices:
            return "|".join(self.choices)
        if self.kind is bool:
            return "true|false"
        if self.kind is str:
            return "text"
        lo = "-inf" if self.lo is None else f"{self.lo:g}"
        hi = "inf" if self.hi is None else f"{self.hi:g}"
        return f"{lo}..{hi}"


@dataclass(frozen=True, slots=True)
class AlgorithmInfo:
    """A registry entry: how to build one kind of searcher."""

    name: str
    description: str
    factory: type[Searcher[Node]]
    params: tuple[Param, ...] = field(default=())
    games: tuple[str, ...] = ()
    """The game kits it is restricted to (``connect4``...: ``plyscope.engine.kits``); empty: any kit
    (``registry.refusal``)."""
    chance: bool = False
    """Whether it handles chance nodes: only such a searcher searches a game where nature moves."""
    random: bool = False
    """True when the searcher draws random numbers: only such a searcher is given the ``seed``."""
    node_bytes: int = DEFAULT_NODE_BYTES
    """Resident memory per tree node of the searcher alone, as ``plyscope bench`` measures it (rounded up): sets
    the default node cap where no screen shows the tree (``plyscope search``, the arena's agents)."""
    ui_node_bytes: int = DEFAULT_NODE_BYTES
    """Resident memory per tree node of the explorer's whole process while it shows this search (the tree, the
    screen, the timeline), follow mode on or off, whichever costs more, as ``plyscope bench --ui`` measures it
    (rounded up): sets the default node cap of every screen's search."""
    default_budget: int | None = None
    """The move budget a search gets when none is given (the explorer, ``plyscope search``) if not theirs: the
    solver's, whose moves are negamax nodes that an exact score near the start takes 10^8 of."""
    journal: Callable[..., Travel[Searcher[Node]] | None] | None = None
    """Its way back along the timeline in place, made for a fresh searcher of ``factory`` (``registry.make_searcher``
    sets it as the searcher's ``journal``; ``None``, from the entry or from the call: it goes back by a replay from its
    start, ``plyscope.engine.travel.replay``)."""
    twin: Callable[[], type[CompiledSearch]] | None = None
    """The class of its compiled twin (``plyscope.engine.compiled.base``), imported when asked (numba with it):
    ``registry.compiled_twin`` makes one for a fresh searcher the class ``fits``."""

    @property
    def node_cap(self) -> int:
        """The default cap on this searcher's tree with no screen, in nodes: about ``TREE_MEMORY_BYTES``."""
        return TREE_MEMORY_BYTES // self.node_bytes

    @property
    def ui_node_cap(self) -> int:
        """The default cap on this searcher's tree in the app, in nodes: about ``TREE_MEMORY_BYTES`` of the app's
        memory."""
        return TREE_MEMORY_BYTES // self.ui_node_bytes

    def param(self, name: str) -> Param:
        for param in self.params:
            if param.name == name:
                return param
        known = ", ".join(p.name for p in self.params) or "none"
        raise SearchError(f"{self.name} has no parameter '{shown(name)}' (its parameters: {known})")

    def defaults(self) -> dict[str, object]:
        return {p.name: p.default for p in self.params}

    def validate(self, values: Mapping[str, object]) -> dict[str, object]:
        """Defaults overridden by ``values``, each checked against its ``Param``."""
        chosen = self.defaults()
        for name, value in values.items():
            chosen[name] = self.param(name).parse(value)
        return chosen
