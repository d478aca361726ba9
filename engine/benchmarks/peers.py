"""plyscope beside other programs on the same work, in the same run: MCTS against OpenSpiel's ``MCTSBot``
(``peer_mcts``), the exact solver against BitBully's C++ solver (``peer_solver``).

Both peers come with the optional extra ``peers`` (``pip install -e '.[peers]'``); without one, its tables are
one row saying so.  Every table notes the machine's load while it was measured: figures are CPU seconds of this
process, which other programs' load inflates less than wall-clock time, but not not at all (shared caches).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable

from plyscope.engine.benchmarks import BenchTable

INSTALL_HINT = "pip install -e '.[peers]'"
OPENSPIEL_MISSING = "OpenSpiel is not installed"
BITBULLY_MISSING = "BitBully is not installed"


def installed(module: str) -> bool:
    """Whether ``module`` (a peer's top-level module) can be imported."""
    return importlib.util.find_spec(module) is not None


def loaded(measure: Callable[[], list[BenchTable]]) -> list[BenchTable]:
    """``measure``'s tables, each noting the machine's load (1-minute average) before and after."""
    before = os.getloadavg()[0]
    tables = measure()
    after = os.getloadavg()[0]
    for table in tables:
        table.notes.append(
            f"machine load (1-minute average) {before:.1f} before, {after:.1f} after, on {os.cpu_count()} cores"
        )
    return tables


def missing(title: str, columns: list[str], says: str, package: str) -> BenchTable:
    """A table with one row saying that ``package`` is not installed."""
    table = BenchTable(title, columns, [[says, *("-" for _ in columns[1:])]])
    table.notes.append(f"install the optional extra peers to compare ({package}): {INSTALL_HINT}")
    return table


def measure(quick: bool) -> list[BenchTable]:
    tables: list[BenchTable] = []
    if installed("pyspiel"):
        from plyscope.engine.benchmarks import peer_mcts

        scale = peer_mcts.QUICK if quick else peer_mcts.FULL
        tables += loaded(lambda: [peer_mcts.measure_speed(scale)])
        tables += loaded(lambda: [peer_mcts.measure_strength(scale)])
    else:
        tables.append(missing("MCTS against OpenSpiel's MCTSBot", ["searcher"], OPENSPIEL_MISSING, "open-spiel"))
    if installed("bitbully"):
        from plyscope.engine.benchmarks import peer_solver

        tables += loaded(lambda: peer_solver.sets_tables(quick))
        tables += loaded(lambda: [peer_solver.empty_board_table(quick)])
    else:
        tables.append(missing("Exact solver against BitBully's C++", ["solver"], BITBULLY_MISSING, "bitbully"))
    return tables
