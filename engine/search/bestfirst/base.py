"""What the searches that expand one node a step share: the protocol their journal keeps (``ExpansionJournal``)."""

from __future__ import annotations

from typing import Protocol, TypeVar

from plyscope.engine.search.base import Node

N_contra = TypeVar("N_contra", bound=Node, contravariant=True)


class ExpansionJournal(Protocol[N_contra]):
    """What a search that expands one node a step tells its way back along the timeline
    (``plyscope.engine.search.bestfirst.expansions.Expansions``)."""

    def record(self, node: N_contra, value: float) -> None:
        """The step under way expands ``node``, a leaf of ``value`` until then (called before the stats count the
        step)."""
