"""The explorer's guide to reading the tree: what each number on a line means, and the chosen node's numbers."""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text
from textual.widgets import Static

from plyscope.engine.games.evaluators import FeatureTerm, feature_terms
from plyscope.engine.search.base import Node, Phase
from plyscope.tui.formatting import Number, format_number, move_labels, signed
from plyscope.tui.session import Session


def phase_words(phase: Phase[Node]) -> Text:
    """A phase's sentence, its name (the words before the first colon) in bold."""
    name, colon, rest = phase.text.partition(":")
    return Text.assemble((name + colon, "bold"), rest) if colon else Text(phase.text)


class ReadingGuide(Static):
    """How to read the search tree's lines for one algorithm, and the numbers of the node chosen in it; in phase mode,
    what the phase shown did and why."""

    phase: Phase[Node] | None = None
    """The phase told first (phase mode), or ``None``."""

    def show_session(self, session: Session, chosen: Node | None, phase: Phase[Node] | None = None) -> None:
        """The guide for ``session``'s algorithm, with ``chosen``'s numbers (and, under ``eval=features``, the
        weighted features of its position, or of the root's when no node is chosen); in phase mode, ``phase``'s
        sentence first."""
        self.phase = phase
        params = session.config.params
        with session.lock:
            searcher = session.searcher
            names = [(name, searcher.meanings.get(name, "")) for name in searcher.numbers(searcher.root)]
            numbers = searcher.numbers(chosen) if chosen is not None else None
            where = move_labels(session.state, chosen.moves()) if chosen is not None else ""
            position = session.searcher.state_at(chosen) if chosen is not None else session.state
        weights = str(params.get("weights", ""))
        self.show(names, numbers, where, feature_terms(position, weights) if params.get("eval") == "features" else None)

    def show(
        self,
        names: list[tuple[str, str]],
        chosen: Mapping[str, Number] | None = None,
        where: str = "",
        features: list[FeatureTerm] | None = None,
    ) -> None:
        """``names``: the algorithm's numbers, in order, with what each means (``Searcher.meanings``); ``chosen``: the
        chosen node's, at ``where`` (its moves); ``features``: the weighted features of the chosen node's position
        (``eval=features``)."""
        text = Text()
        if self.phase is not None:
            text.append_text(phase_words(self.phase))
            text.append("\n\n")
        if chosen is not None:
            text.append(f"node {where or 'root'}\n", "bold")
            for name, value in chosen.items():
                text.append(f"  {name} = {format_number(value)}\n")
            text.append("\n")
        if features:
            text.append("features: first player's minus second's, × weight\n", "bold")
            for term in features:
                contribution = signed(term.contribution, None)
                text.append(f"  {term.name:<16} {signed(term.value)}×{term.weight:g} = {contribution}\n")
            total = sum(term.contribution for term in features)
            text.append(f"  sum {signed(total, None)} (clamped to ±800)\n\n")
        text.append("each line: the mover (● first, ○ second), the move, then\n", "dim")
        for name, meaning in names:
            text.append(name, "bold")
            text.append(f" {meaning}\n", "dim")
        self.update(text)
