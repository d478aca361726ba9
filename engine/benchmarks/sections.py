"""The sections of ``plyscope bench`` (each a module of ``plyscope.engine.benchmarks``), and the measuring of one."""

from __future__ import annotations

import importlib

from plyscope.engine.benchmarks import BenchTable

SECTIONS: dict[str, str] = {
    "rules": "plyscope.engine.benchmarks.rules",
    "alphabeta": "plyscope.engine.benchmarks.alphabeta",
    "playouts": "plyscope.engine.benchmarks.playouts",
    "peers": "plyscope.engine.benchmarks.peers",
    "adapter": "plyscope.engine.benchmarks.adapter",
    "searchers": "plyscope.engine.benchmarks.searchers",
    "compiled": "plyscope.engine.benchmarks.compiled",
    "memory": "plyscope.engine.benchmarks.memory",
    "solver": "plyscope.engine.benchmarks.solver",
    "lab": "plyscope.engine.benchmarks.lab",
}
"""Section name -> module, in the order the tables are printed."""


def measure(section: str, quick: bool) -> list[BenchTable]:
    """The tables of ``section``."""
    module = importlib.import_module(SECTIONS[section])
    tables: list[BenchTable] = module.measure(quick)
    return tables
