"""Measurements for ``plyscope bench``: each section module has ``measure(quick) -> list[BenchTable]``.

Speed is measured here, never by timed assertions in tests.  ``plyscope.engine.benchmarks.sections`` names the
sections and measures one.
"""

from __future__ import annotations

from dataclasses import dataclass, field


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
