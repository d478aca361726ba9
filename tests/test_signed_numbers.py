"""A zero belongs to neither side: every signed number a command or a screen writes has no sign when it is (or rounds
to) zero, never ``-0.00`` (issue 36, 12: ``plyscope rivest`` printed ``-0.00 undecided``)."""

from __future__ import annotations

import pytest

from plyscope.engine.numbers import signed
from plyscope.engine.stats import EloEstimate
from plyscope.tui.commands.rivest import elo_cell, sprt_cell
from plyscope.tui.commands.tune import _elo


@pytest.mark.parametrize(
    ("value", "decimals", "written"),
    [
        (3, 0, "+3"),
        (-5, 0, "-5"),
        (0, 0, "0"),
        (-0.0, 0, "0"),
        (-0.4, 0, "0"),
        (-0.001, 2, "0.00"),
        (0.001, 2, "0.00"),
        (3.1, 2, "+3.10"),
        (-0.02, 2, "-0.02"),
        (-0.0, None, "0"),
        (2.5, None, "+2.5"),
        (-12.0, None, "-12"),
    ],
)
def test_a_signed_number_has_no_sign_at_zero(value: float, decimals: int | None, written: str) -> None:
    assert signed(value, decimals) == written


def test_rivest_s_cells_write_an_even_llr_and_elo_unsigned() -> None:
    assert sprt_cell({"llr": -0.001, "result": None}) == "0.00 undecided"
    assert sprt_cell({"llr": -3.1, "result": "H0"}).startswith("-3.10 ")
    even = EloEstimate(score=0.5, elo=-0.2, error=40.0, nelo=0.0, nelo_error=0.0, los=0.5)
    assert elo_cell(even) == "0 +/- 40"


def test_tune_writes_an_even_elo_unsigned() -> None:
    assert (_elo(-0.3), _elo(12.6), _elo(float("-inf"))) == ("0", "+13", "-inf")
