"""Session set-up shared by every test."""

from __future__ import annotations

import pytest

from plyscope.engine.games.base import Game
from plyscope.engine.kits import kits
from plyscope.engine.kits.base import GameKit


def pytest_configure(config: pytest.Config) -> None:
    """Compile the numba kernels (the solver's, the compiled searchers') once, in the main process, first.

    The workers then load it from numba's cache instead of each compiling it, at the same
    time, into the same cache files.
    """
    if hasattr(config, "workerinput"):  # an xdist worker: the main process has done it
        return
    from plyscope.engine.games import Connect4
    from plyscope.engine.solver import Connect4Solver

    game = Connect4()
    Connect4Solver(game).solve(game.parse("2252576253462244111563365343671351441"))
    from plyscope.engine.search.registry import load_twins

    load_twins()  # the compiled searchers' kernels, likewise


@pytest.fixture(autouse=True)
def _opening_book_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts with the opening book allowed: a ``--no-book`` that a test reads in this process (it sets an
    environment variable, for the processes it starts to inherit) is undone when the test ends."""
    from plyscope.engine.solver.book import NO_BOOK_VARIABLE

    monkeypatch.setenv(NO_BOOK_VARIABLE, "")


@pytest.fixture
def no_book(monkeypatch: pytest.MonkeyPatch) -> None:
    """Solvers search without the opening book in this test, as ``--no-book`` makes them: positions near the start
    are then hard again (``4453`` takes 78 million nodes, some 6,000 with the book)."""
    from plyscope.engine.solver.book import NO_BOOK_VARIABLE

    monkeypatch.setenv(NO_BOOK_VARIABLE, "1")


class HandMadeKit(GameKit):
    """The kit of the tests' hand-made games (``tests.engine.synthetic``'s trees and the like): no chance, the
    neutral evaluator, no exact values; no name on the command line."""

    name = "hand-made"
    summary = "a test's hand-made game"
    positions = "none: a test builds its positions"

    def names(self) -> tuple[str, ...]:
        return ()

    def make(self, name: str) -> Game | None:
        return None


@pytest.fixture
def hand_made_kit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kit ``hand-made`` registered for this test (a hand-made game names it: ``kit = "hand-made"``)."""
    monkeypatch.setitem(kits(), HandMadeKit.name, HandMadeKit())
