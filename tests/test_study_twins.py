"""``plyscope study`` loads the compiled twins its agents search with once, here, before the searches, as the
arena does (``plyscope.tui.commands.arena.load_compiled``)."""

from __future__ import annotations

import json

import pytest

from plyscope.engine.search import registry
from plyscope.tui.cli import main
from plyscope.tui.commands import study


def test_a_study_loads_the_compiled_twins_once_before_its_searches(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each worker process loaded them (or compiled them, on a first run) inside its first search."""
    events: list[str] = []
    monkeypatch.setattr(registry, "load_twins", lambda: events.append("twins loaded"))
    searches = study.Study.run

    def run(self: study.Study, workers: int, scheduler: str | None) -> bool:
        events.append("searches")
        return searches(self, workers, scheduler)

    monkeypatch.setattr(study.Study, "run", run)
    argv = ["study", "--agents", "alphabeta", "minimax", "--positions", "random:2", "--budgets", "10", "--workers", "1"]
    for compiled, loads in (("--compiled", ["twins loaded"]), ("--no-compiled", [])):
        events.clear()
        assert main([*argv, compiled, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["complete"] is True
        assert events == [*loads, "searches"]
