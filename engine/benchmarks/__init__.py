"""Measurements for ``plyscope bench``: each section module has ``measure(quick) -> list[BenchTable]``.

Speed is measured here, never by timed assertions in tests.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

SECTIONS: dict[str, str] = {
    "rules": "engine.benchmarks.rules",
    "alphabeta": "engine.benchmarks.alphabeta",
    "playouts": "engine.benchmarks.playouts",
    "peers": "engine.benchmarks.peers",
    "searchers": "engine.benchmarks.searchers",
    "memory": "engine.benchmarks.memory",
    "solver": "engine.benchmarks.solver",
    "lab": "engine.benchmarks.lab",
}
"""Section name -> module, in the order the tables are printed."""


@dataclass(slots=True)
class BenchTable:
    """One table of figures: a title, column names, rows of cells and notes under it."""

    title: str
    columns: list[str]
    rows: list[list[object]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {
            "title": self.title,
            "rows": [dict(zip(self.columns, row, strict=True)) for row in self.rows],
            "notes": self.notes,
        }


def measure(section: str, quick: bool) -> list[BenchTable]:
    """The tables of ``section``."""
    module = importlib.import_module(SECTIONS[section])
    tables: list[BenchTable] = module.measure(quick)
    return tables
