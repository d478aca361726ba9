"""Anytime curves drawn: the optimal share of each agent's moves against its budget, on a log scale.

In the terminal with plotext (``terminal_curve``), to an SVG or PNG file with matplotlib (``save_plot``, the
optional extra ``plyscope[plots]``), its Wilson intervals shaded.  The points are
``plyscope.engine.study.CurvePoint``s; budgets without a judged move are left out of a line.
"""

from __future__ import annotations

import importlib
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.text import Text

from plyscope.engine.errors import UserError
from plyscope.engine.files import check_writable, write_atomic
from plyscope.engine.study import CurvePoint

PLOT_SUFFIXES = (".svg", ".png")
SHARE_LABEL = "optimal moves (%)"
UNIFORM_LABEL = "a uniformly random move"


@dataclass(frozen=True, slots=True)
class Line:
    """One agent's curve: its budgets with a judged move, the optimal share at each (in %) and its interval."""

    agent: str
    budgets: list[float]
    shares: list[float]
    lows: list[float]
    highs: list[float]


def lines(points: Sequence[CurvePoint], agents: Sequence[str]) -> list[Line]:
    """Each agent's curve, in the order of ``agents``."""
    found = []
    for agent in agents:
        mine = [point for point in points if point.agent == agent and point.interval is not None]
        found.append(
            Line(
                agent,
                [float(point.budget) for point in mine],
                [100 * (point.share or 0.0) for point in mine],
                [100 * (point.interval or (0.0, 0.0))[0] for point in mine],
                [100 * (point.interval or (0.0, 0.0))[1] for point in mine],
            )
        )
    return found


def budget_label(budget: float) -> str:
    """A budget as a tick writes it: ``1000000`` moves, ``0.03`` seconds."""
    return str(int(budget)) if float(budget).is_integer() else f"{budget:g}"


PALETTE = (12, 9, 10, 13, 14, 208, 11, 5, 6, 4)
"""The terminal curves' colours, one an agent (the 256-colour palette's: blue, red, green, magenta, cyan,
orange...), again from the first past the tenth; ``LEVEL_COLOUR`` draws the uniformly random move's level."""
LEVEL_COLOUR = 8
THEME = "plyscope-curves"


def terminal_curve(
    curves: Sequence[Line], budgets: Sequence[float], unit: str, uniform: float | None, width: int, height: int
) -> Text:
    """The curves drawn by plotext, ``width`` x ``height`` cells: budgets on a log scale (plotted as their
    logarithms, ticked with the budgets), the optimal share from 0 to 100%; with ``uniform``, the share a uniformly
    random move gets, as a level line; then a legend line (plotext's own, inside the plot, would hide the curves)."""
    import plotext  # where it is used: only a study draws

    colours = [PALETTE[index % len(PALETTE)] for index in range(len(curves))]
    plotext.add_theme(THEME, sequence=[*colours, LEVEL_COLOUR])
    figure = plotext.figure  # (plotext has no type hints)
    figure.clear()
    figure.theme(THEME)
    figure.plot_size(width, height)
    for curve in curves:
        signal = figure.signal([math.log10(budget) for budget in curve.budgets], curve.shares)
        signal.lines()
        figure.draw(signal)
    ticks = [math.log10(budget) for budget in budgets]
    if uniform is not None:
        level = figure.signal([ticks[0], ticks[-1]], [100 * uniform] * 2)
        level.lines()
        figure.draw(level)
    figure.ruler("x").ticks(ticks, [budget_label(budget) for budget in budgets])
    figure.ruler("y").lim(0, 100)
    figure.label(f"{unit} per search (log scale)", "x")
    figure.title(SHARE_LABEL)
    drawn = Text.from_ansi(str(figure.build().string()).rstrip("\n") + "\n")
    keys = [(curve.agent, colours[index]) for index, curve in enumerate(curves)]
    if uniform is not None:
        keys.append((UNIFORM_LABEL, LEVEL_COLOUR))
    for index, (name, colour) in enumerate(keys):
        drawn.append("  " if index else "", style="")
        drawn.append("━━ ", style=f"color({colour})")
        drawn.append(name)
    return drawn


def check_plot(name: str) -> Path:
    """The file ``--plot name`` writes, refused in one line before any work: a name not ending in ``.svg`` or
    ``.png``, a place no file can be written, or matplotlib missing (the extra ``plyscope[plots]``)."""
    if Path(name).suffix.lower() not in PLOT_SUFFIXES:
        raise UserError(f"--plot {name}: write an .svg or a .png file")
    try:
        importlib.import_module("matplotlib")
    except ImportError:
        raise UserError("--plot needs matplotlib, an optional dependency: pip install 'plyscope[plots]'") from None
    return check_writable(name, "--plot")


def save_plot(
    path: Path, curves: Sequence[Line], budgets: Sequence[float], unit: str, uniform: float | None, title: str
) -> None:
    """The curves to ``path`` (SVG or PNG, by its suffix), each with its 95% interval shaded: budgets on a log
    axis, the optimal share from 0 to 100%, ``uniform`` (a uniformly random move's share) dotted; written
    atomically."""
    from matplotlib.figure import Figure  # where it is used: an optional dependency

    figure = Figure(figsize=(8, 5), layout="constrained")
    axes = figure.subplots()
    for curve in curves:
        (line,) = axes.plot(curve.budgets, curve.shares, marker="o", label=curve.agent)
        axes.fill_between(curve.budgets, curve.lows, curve.highs, color=line.get_color(), alpha=0.15, linewidth=0)
    if uniform is not None:
        axes.axhline(100 * uniform, color="grey", linestyle=":", label=UNIFORM_LABEL)
    axes.set_xscale("log")
    axes.set_xticks(list(budgets), [budget_label(budget) for budget in budgets])
    axes.minorticks_off()
    axes.set_ylim(0, 100)
    axes.set_xlabel(f"{unit} per search (log scale)")
    axes.set_ylabel(SHARE_LABEL)
    axes.set_title(title)
    axes.grid(alpha=0.3)
    figure.legend(loc="outside lower center", ncols=min(3, len(curves) + (uniform is not None)))
    image = io.BytesIO()
    suffix = path.suffix.lower()
    figure.savefig(image, format=suffix[1:], metadata={"Date": None} if suffix == ".svg" else None)
    try:
        write_atomic(path, image.getvalue())
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror or error}") from None
