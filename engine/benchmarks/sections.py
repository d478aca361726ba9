"""The sections of ``plyscope bench`` (each a module of ``engine.benchmarks``), and the measuring of one."""

from __future__ import annotations

import importlib

from engine.benchmarks import BenchTable

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


def measure(section: str, quick: bool) -> list[BenchTable]:
    """The tables of ``section``."""
    module = importlib.import_module(SECTIONS[section])
    tables: list[BenchTable] = module.measure(quick)
    return tables
