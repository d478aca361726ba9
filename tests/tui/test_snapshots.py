"""Snapshots of the main views (``pytest --snapshot-update`` rewrites them after a deliberate change).

Deterministic: minimax (no randomness), a fixed seed, and a clock that never moves (no rate shown).
"""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot

from tests.tui.helpers import make_app, settle

SnapCompare = Callable[..., bool]


def keys_then_settle(*keys: str) -> Callable[[Pilot[None]], object]:
    async def run_before(pilot: Pilot[None]) -> None:
        for key in keys:
            await pilot.press(key)
            await settle(pilot)

    return run_before


def test_explorer_at_the_start(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24))


def test_explorer_after_111_steps(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=keys_then_settle("s", "d", "f"))


def test_explorer_wide_on_a_position(snap_compare: SnapCompare) -> None:
    app = make_app(position="4453", params={"depth": 3})
    assert snap_compare(app, terminal_size=(130, 36), run_before=keys_then_settle("f", "f"))


def test_explorer_on_grundys_game(snap_compare: SnapCompare) -> None:
    app = make_app(game="grundy", position="9", params={"depth": 6})
    assert snap_compare(app, terminal_size=(80, 24), run_before=keys_then_settle("f"))


def test_help_screen(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), terminal_size=(100, 40), press=["question_mark"])


def test_setup_form(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), terminal_size=(100, 36), press=["e"])
