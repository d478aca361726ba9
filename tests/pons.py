"""Pascal Pons' benchmark positions the tests need, shipped as samples in ``tests/data/connect4-pons``."""

from __future__ import annotations

from pathlib import Path

from plyscope.engine.benchmarks.solver import read_set

SAMPLES = Path(__file__).resolve().parent / "data" / "connect4-pons"
"""The first lines of four of Pons' sets (``tests/data/README.md`` says which and where they come from)."""


def pons_positions(file: str, count: int) -> list[tuple[str, int]]:
    """The first ``count`` ``(moves, score)`` positions of Pons' set ``file`` (score for the player to move)."""
    positions = read_set(SAMPLES / file, count)
    assert len(positions) == count, f"tests/data/connect4-pons/{file} holds {len(positions)} positions, not {count}"
    return positions
