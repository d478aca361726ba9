"""Anytime curves: how often each searcher's move is optimal, and what it gives away, as its budget grows.

A *study* asks every agent for its move in every position of a set, at every budget (in moves or in seconds),
each search made afresh (``plyscope.engine.agents.Agent.decide``), and judges each move against the position's
exact values as the arena judges its moves (``plyscope.engine.arena.accuracy.verdict``): a move is **optimal** when
the position it leads to is still a win, a draw or a loss for its player, as the position was; its **loss** is
the exact score it gives away (Connect Four: Pons' score, a win one stone slower is 1; Nim: 0 or 2).  The values
come through the one door, ``plyscope.engine.exact.Exact``: each position and every position one move after it,
each within the budget of solver nodes (``--truth-nodes``), from empty tables, so that a position's values do not
depend on the positions valued before it.  A move whose position (before or after it) is not settled is not
judged: its row's ``optimal`` and ``loss`` are ``None``, and the summary counts it.

Positions (``PositionSource``):

* one of Pons' test sets by name (``PONS_NAMES``: ``L3R1``, the file's ``Test_L3_R1`` or the tutorial's
  ``end-easy``), located as the solver benchmark locates them (``plyscope.engine.benchmarks.solver.data_dir``);
  ``NAME:N`` samples ``N`` of its positions with the seed (listed in the file's order);
* a file of positions, one a line in the game's notation (``Game.parse``; Connect Four's may carry a score after
  the moves, as Pons' files do, not read), blank lines and ``#`` comments skipped;
* ``random:N``: ``N`` random midgames (``random_midgames``): each a game of uniformly random legal moves played
  to its end, cut at a ply drawn uniformly from the middle half of its length (``random:N:A-B``: played to a ply
  drawn uniformly from ``A`` to ``B``, left out if it ended before); kept when it is new and the exact service
  settles its value and every move's, and at least one of its moves gives the value away (where every move keeps
  it, the position says nothing of a searcher).  Those left out are counted by reason (``PositionCounts``).

Each search in a position is seeded ``position_seed(seed, index)`` for every agent and budget, so that a larger
budget extends the same search.  A row's ``work`` is the search's calls to the move operator (``Stats.moves``, the
unit of a budget in moves), its ``seconds`` the search's own time.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from plyscope.engine.agents import Agent
from plyscope.engine.arena.accuracy import GAME_TABLE, Verdict, verdict
from plyscope.engine.arena.play import TurnReport
from plyscope.engine.benchmarks.solver import DATA_VARIABLE, SETS, data_dir, read_set
from plyscope.engine.errors import UserError
from plyscope.engine.exact import Exact
from plyscope.engine.files import NotJson, parse_json, read_regular_file
from plyscope.engine.games import Connect4, Game, Move, State
from plyscope.engine.kits import make_game
from plyscope.engine.kits.base import ExactValues, Number
from plyscope.engine.numbers import NumberError, parse_int, shown
from plyscope.engine.search.base import Limit
from plyscope.engine.seeds import midgame_seed, position_seed
from plyscope.engine.stats import wilson_interval

if TYPE_CHECKING:
    from numpy.random import Generator

ROW_FIELDS = ("agent", "budget", "position", "move", "optimal", "loss", "work", "seconds")
"""The fields of a row, in the JSON's order and the CSV's columns."""
MAX_POSITIONS = 100_000
"""The most positions one study takes (``random:N``, a sample, a file)."""
MAX_BUDGETS = 50
"""The most budgets one study takes."""
MAX_POSITIONS_BYTES = 1 << 24
"""The largest file of positions read."""
MAX_RESULTS_BYTES = 1 << 30
"""The largest results file ``--resume`` reads (a row takes about 120 bytes)."""
RESULTS_NESTING = 5
"""The deepest nesting of a results file: the document, its summary, the points, a point, its interval."""
CANDIDATES_PER_POSITION = 20
"""``random:N`` draws at most ``CANDIDATES_PER_POSITION * N + CANDIDATE_SLACK`` random games (a game with few
positions, such as Nim from 3,4,5, has fewer new ones to give)."""
CANDIDATE_SLACK = 200


# -- positions


@dataclass(frozen=True, slots=True)
class StudyPosition:
    """One position of a study with its exact values, each for its player to move (``None``: not settled)."""

    text: str
    """The position in its game's notation (``Game.parse`` reads it back)."""
    state: State
    value: int | None
    """The position's value for its player to move."""
    after: Mapping[Move, int | None]
    """Each legal move's value for the player who plays it: the value of the position it leads to, for them."""

    @property
    def settled(self) -> bool:
        """Whether its value and every move's value are settled."""
        return self.value is not None and all(value is not None for value in self.after.values())

    def verdict(self, move: Move) -> Verdict | None:
        """``move`` judged for the player to move (``None``: not judged, a value is not settled)."""
        after = self.after.get(move)
        return None if self.value is None or after is None else verdict(self.value, after)

    def kept_share(self) -> float | None:
        """The share of its legal moves that keep its value: how often a uniformly random move is optimal here
        (``None``: not every value settled)."""
        if not self.settled:
            return None
        verdicts = [self.verdict(move) for move in self.after]
        return sum(1 for judged in verdicts if judged is not None and judged.kept) / len(verdicts)


def study_exact(budget: int) -> Exact:
    """The exact service a study values its positions with: ``budget`` solver nodes a position, a table as small
    as the arena's judging takes (``GAME_TABLE``), emptied for each position."""
    return Exact(budget=budget, table=GAME_TABLE)


def value_position(exact: Exact, state: State) -> StudyPosition:
    """``state`` (a position where a player moves) with its exact values and every move's, within ``exact``'s
    budget each, from emptied tables (the same values whatever was valued before)."""
    exact.clear()
    player = state.player

    def value(position: State) -> int | None:
        score = exact.truth(position).score
        return None if score is None else int(score.pov(player))

    after = {move: value(state.play(move)) for move in state.legal_moves()}
    return StudyPosition(state.text(), state, value(state), after)


@dataclass(slots=True)
class PositionCounts:
    """Where a study's positions came from, and those left out, by reason."""

    source: str
    """``--positions`` as given."""
    looked_at: int = 0
    """Positions read (a set, a file) or random games drawn (``random:N``)."""
    repeated: int = 0
    """Left out: a position met before."""
    unsettled: int = 0
    """Positions whose value, or a move's, the exact service did not settle within its budget: left out of
    ``random:N``; kept from a set or a file, their moves not settled left unjudged."""
    no_wrong_move: int = 0
    """``random:N``: left out, every move keeps the value."""
    ended: int = 0
    """``random:N:A-B``: left out, the random game ended before its ply."""
    kept: int = 0
    wanted: int | None = None
    """``random:N``: the ``N`` asked for (``None`` otherwise)."""

    def as_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "looked_at": self.looked_at,
            "kept": self.kept,
            "repeated": self.repeated,
            "unsettled": self.unsettled,
            "no_wrong_move": self.no_wrong_move,
            "ended": self.ended,
        }

    def text(self, budget: int) -> str:
        """One line: ``200 positions (random:200): 260 random games drawn; left out: 31 not settled within
        200,000 solver nodes, 29 where every move keeps the value``."""
        nodes = f"{budget:,} solver nodes"
        if self.wanted is not None:
            short = f", fewer than the {self.wanted:,} asked for" if self.kept < self.wanted else ""
            left = [
                f"{self.unsettled:,} not settled within {nodes}",
                f"{self.no_wrong_move:,} where every move keeps the value",
                f"{self.repeated:,} met before",
            ]
            if self.ended:
                left.append(f"{self.ended:,} over before their ply")
            return (
                f"{self.kept:,} positions ({self.source}{short}): {self.looked_at:,} random games drawn; left out: "
                + (", ".join(left))
            )
        repeated = f"; {self.repeated:,} met before left out" if self.repeated else ""
        return (
            f"{self.kept:,} positions ({self.source}){repeated}; {self.unsettled:,} not wholly settled within {nodes}: "
            "their moves not settled are not judged"
        )


Progress = Callable[[int, int | None], None]
"""Told, as positions are valued, how many are done and of how many (``None``: not known yet)."""


@dataclass(frozen=True, slots=True)
class PositionSource:
    """``--positions`` read, before any position is valued: a set's or a file's positions, or the random midgames to
    draw."""

    game: Game
    text: str
    """``--positions`` as given."""
    seed: int
    states: Sequence[State] | None = None
    """A set's or a file's positions (``None``: random midgames)."""
    wanted: int = 0
    """Random midgames: how many."""
    plies: tuple[int, int] | None = None
    """Random midgames: the plies they are cut at (``None``: the middle half of each random game)."""

    @classmethod
    def read(cls, game: Game, text: str, seed: int) -> PositionSource:
        """The positions ``--positions text`` names: ``random:N`` (``random:N:A-B``), one of Pons' sets (``NAME``
        or ``NAME:N``, sampled with ``seed``) or a file of positions.  Raises ``UserError`` in one line for anything
        else."""
        choice = text.strip()
        kind, colon, rest = choice.partition(":")
        if kind.lower() == "random" and colon:
            wanted, _, plies = rest.partition(":")
            return cls(game, choice, seed, None, _count(wanted, choice), _plies(plies, choice))
        pons = PONS_NAMES.get(kind.lower())
        if pons is not None and not os.path.lexists(choice):
            return cls(game, choice, seed, pons_states(game, pons, None if not colon else _count(rest, choice), seed))
        if choice and os.path.lexists(choice):
            return cls(game, choice, seed, read_positions(game, choice))
        raise UserError(
            f"--positions '{shown(text)}': use random:N (random:N:A-B: at plies A to B), one of Pons' sets "
            f"({', '.join(PONS_SHORT)}; NAME:N for N of it) or a file of positions, one a line"
        )

    def valued(self, exact: Exact, progress: Progress | None = None) -> tuple[list[StudyPosition], PositionCounts]:
        """The positions, valued by ``exact``, and how many were left out by reason (``progress``: told as they
        are valued)."""
        counts = PositionCounts(self.text)
        if self.states is None:
            counts.wanted = self.wanted
            return random_midgames(self.game, counts, self.seed, exact, progress, self.plies), counts
        return _valued(self.states, counts, exact, progress), counts


def _count(text: str, choice: str) -> int:
    try:
        return parse_int(text, f"--positions {shown(choice)}", lo=1, hi=MAX_POSITIONS)
    except NumberError as error:
        raise UserError(f"{error}: the number of positions") from None


MAX_PLY = 10_000
"""The latest ply ``random:N:A-B`` cuts a random game at."""


def _plies(text: str, choice: str) -> tuple[int, int] | None:
    """The plies ``A-B`` of ``random:N:A-B`` (``None`` for none: ``random:N``)."""
    if not text:
        return None
    written = re.fullmatch(r"\s*([0-9]+)\s*-\s*([0-9]+)\s*", text)
    if written is None:
        raise UserError(f"--positions {shown(choice)}: write the plies as A-B, e.g. random:200:10-30")
    first, last = (parse_int(number, f"--positions {shown(choice)}", lo=0, hi=MAX_PLY) for number in written.groups())
    if first > last:
        raise UserError(f"--positions {shown(choice)}: the plies A-B go from the fewer to the more")
    return first, last


def _valued(
    states: Sequence[State], counts: PositionCounts, exact: Exact, progress: Progress | None
) -> list[StudyPosition]:
    """``states`` valued (those met before left out), counted in ``counts``."""
    seen: set[object] = set()
    positions: list[StudyPosition] = []
    for done, state in enumerate(states, start=1):
        counts.looked_at += 1
        if state.key() in seen:
            counts.repeated += 1
            continue
        seen.add(state.key())
        position = value_position(exact, state)
        counts.unsettled += not position.settled
        positions.append(position)
        if progress is not None:
            progress(done, len(states))
    counts.kept = len(positions)
    return positions


def random_midgames(
    game: Game,
    counts: PositionCounts,
    seed: int,
    exact: Exact,
    progress: Progress | None = None,
    plies: tuple[int, int] | None = None,
) -> list[StudyPosition]:
    """``counts.wanted`` random midgames of ``game`` (fewer if that many new ones are not found within
    ``CANDIDATES_PER_POSITION`` random games each), counted in ``counts``.

    Candidate ``i`` is drawn from ``midgame_seed(seed, i)``: a game of uniformly random legal moves from the start
    to its end, ``L`` plies long, cut at a ply drawn uniformly from ``L // 4`` to ``3 * L // 4`` (before its last
    move); with ``plies`` (``A``, ``B``), played to a ply drawn uniformly from ``A`` to ``B`` (left out if the game
    ended first).  It is kept when it is new, every value in it is settled and some move gives the value away."""
    import numpy as np  # where it is used: the explorer starts without it

    wanted = counts.wanted or 0
    positions: list[StudyPosition] = []
    seen: set[object] = set()
    for candidate in range(CANDIDATES_PER_POSITION * wanted + CANDIDATE_SLACK):
        if len(positions) >= wanted:
            break
        counts.looked_at += 1
        state = _random_position(game, np.random.default_rng(midgame_seed(seed, candidate)), plies)
        if state is None:
            counts.ended += 1
            continue
        if state.key() in seen:
            counts.repeated += 1
            continue
        seen.add(state.key())
        position = value_position(exact, state)
        kept = position.kept_share()
        if kept is None:
            counts.unsettled += 1
        elif kept == 1:
            counts.no_wrong_move += 1
        else:
            positions.append(position)
            if progress is not None:
                progress(len(positions), wanted)
    counts.kept = len(positions)
    return positions


def _random_position(game: Game, rng: Generator, plies: tuple[int, int] | None) -> State | None:
    """A position of a game of uniformly random moves drawn with ``rng``: at a ply from ``plies`` (``None``: the game
    ended before it), or from the middle half of the game."""
    cut = None if plies is None else int(rng.integers(plies[0], plies[1] + 1))
    line = [game.start()]
    while not line[-1].is_terminal() and (cut is None or len(line) <= cut):
        moves = line[-1].legal_moves()
        line.append(line[-1].play(moves[int(rng.integers(len(moves)))]))
    if cut is not None:
        return None if line[-1].is_terminal() else line[-1]
    length = len(line) - 1
    return line[int(rng.integers(length // 4, min(3 * length // 4, length - 1) + 1))]


PONS_FILES = {pons.file: pons.name for pons in SETS}
"""Pons' sets: file name -> the tutorial's name (``Test_L3_R1`` -> ``End-Easy``)."""
PONS_SHORT = [re.sub(r"Test_L([0-9])_R([0-9])", r"L\1R\2", file) for file in PONS_FILES]
"""Pons' sets by their short names, as help lists them: ``L3R1``..."""
PONS_NAMES: dict[str, str] = {
    alias.lower(): file
    for (file, name), short in zip(PONS_FILES.items(), PONS_SHORT, strict=True)
    for alias in (file, short, file.removeprefix("Test_"), name)
}
"""Every name of one of Pons' sets ``--positions`` takes, in lower case -> its file: ``l3r1``, ``l3_r1``,
``test_l3_r1``, ``end-easy``."""


def pons_states(game: Game, file: str, count: int | None, seed: int) -> list[State]:
    """The positions of Pons' set ``file`` (7x6 Connect Four), or ``count`` of them drawn with ``seed`` (in the
    file's order)."""
    if not isinstance(game, Connect4) or (game.width, game.height) != (7, 6):
        raise UserError(f"--positions {PONS_FILES[file]}: Pons' sets are 7x6 Connect Four positions, not {game.name}")
    path = data_dir() / file
    if not path.is_file():
        raise UserError(f"--positions: Pons' set {file} is not in {data_dir()} (${DATA_VARIABLE} names their folder)")
    every = read_set(path, MAX_POSITIONS)
    if count is not None:
        if count > len(every):
            raise UserError(f"--positions {file}:{count}: the set holds {len(every):,} positions")
        import numpy as np  # where it is used: the explorer starts without it

        chosen = np.random.default_rng(np.random.SeedSequence(seed)).choice(len(every), size=count, replace=False)
        every = [every[index] for index in sorted(int(i) for i in chosen)]
    return [game.parse(moves) for moves, _ in every]


PONS_LINE = re.compile(r"([0-9]+)\s+[+-]?[0-9]+")
"""A line of one of Pons' files: a move string, then its score (not read: the study finds its own values)."""


def read_positions(game: Game, path: str) -> list[State]:
    """The positions of the file ``path``, one a line in ``game``'s notation (Connect Four: a move string, a score
    after it as in Pons' files left unread); blank lines and ``#`` comments skipped.  Raises ``UserError`` naming
    the line of the first that cannot be read or where the game is over."""
    data = read_regular_file(path, MAX_POSITIONS_BYTES, "a file of positions")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(f"--positions {path}: not UTF-8 text") from None
    states: list[State] = []
    for number, line in enumerate(text.splitlines(), start=1):
        written = line.strip()
        if not written or written.startswith("#"):
            continue
        pons = PONS_LINE.fullmatch(written) if isinstance(game, Connect4) else None
        try:
            state = game.parse(written if pons is None else pons.group(1))
        except UserError as error:
            raise UserError(f"--positions {path}: line {number}: {error}") from None
        if state.is_terminal():
            raise UserError(f"--positions {path}: line {number}: the game is over in '{shown(written)}'")
        states.append(state)
        if len(states) > MAX_POSITIONS:
            raise UserError(f"--positions {path}: more than {MAX_POSITIONS:,} positions")
    if not states:
        raise UserError(f"--positions {path}: no position in it (one a line)")
    return states


def judging_refusal(game: Game, exact: Exact) -> str | None:
    """Why a study cannot judge moves in ``game`` (``None``: it can): no exact values, or values that are not
    results (a hand-written tree's: a move keeps its exact value, not its sign)."""
    refusal = exact.refusal(game)
    if refusal is not None:
        return refusal
    values = exact.values(game)
    if type(values).outcome is not ExactValues.outcome:
        return f"a study judges moves by win, draw or loss; {game.name}'s exact values are a {values.scale}"
    return None


# -- the searches


@dataclass(frozen=True, slots=True)
class StudyTask:
    """One search of a study: an agent (with one of the budgets) choosing a move in one position."""

    index: int
    """The task's place in the study, position by position, then agent by agent, budget by budget."""
    game: str
    position: int
    """The position's index in the study."""
    text: str
    """The position, in its game's notation."""
    agent: Agent
    """The agent, its budget the task's."""
    budget: int | float
    """The budget: moves or seconds."""
    seed: int


@dataclass(frozen=True, slots=True)
class Choice:
    """What one search chose, and what it spent."""

    index: int
    """Its task's."""
    move: Move | None
    """``None``: the agent raised (``error`` says what)."""
    work: int = 0
    """Calls to the move operator."""
    seconds: float = 0.0
    error: str | None = None


def study_tasks(
    game: Game,
    agents: Sequence[Agent],
    bound: str,
    budgets: Sequence[int | float],
    positions: Sequence[StudyPosition],
    seed: int,
) -> list[StudyTask]:
    """Every search of the study: each position, each agent, each budget (``bound``: ``moves`` or ``seconds``)."""
    tasks: list[StudyTask] = []
    for number, position in enumerate(positions):
        searches_seed = position_seed(seed, number)
        for agent in agents:
            for budget in budgets:
                limit = Limit(seconds=float(budget)) if bound == "seconds" else Limit(moves=int(budget))
                tasks.append(
                    StudyTask(
                        len(tasks), game.name, number, position.text, replace(agent, limit=limit), budget, searches_seed
                    )
                )
    return tasks


@cache
def _game(name: str) -> Game:
    return make_game(name)


def choose(task: StudyTask, on_turn: Callable[[TurnReport], None] | None = None) -> Choice:
    """Run ``task``'s search (in a worker process, or here): its choice (``on_turn``: not told, a search is one
    turn)."""
    try:
        decision = task.agent.decide(_game(task.game).parse(task.text), task.seed)
    except Exception as error:  # an agent's bug: the study goes on, the error is reported (and run again on resume)
        return Choice(task.index, None, error=f"{type(error).__name__}: {error}")
    return Choice(task.index, decision.move, decision.stats.moves, decision.stats.seconds)


def failed(task: StudyTask, message: str) -> Choice:
    """The choice of a task a worker could not run."""
    return Choice(task.index, None, error=message)


# -- rows and curves


@dataclass(frozen=True, slots=True)
class StudyRow:
    """One search judged: the agent, its budget, the position, the move chosen (its label), whether it keeps the
    value (``None``: not judged), the exact score it gives away for its player, the work and the time."""

    index: int
    """Its task's (not written: the agent, budget and position name it)."""
    agent: str
    budget: int | float
    position: str
    move: str
    optimal: bool | None
    loss: Number | None
    work: int
    seconds: float

    def as_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in ROW_FIELDS}


def study_row(task: StudyTask, move: Move, work: int, seconds: float, position: StudyPosition) -> StudyRow:
    """``task``'s search judged: it chose ``move`` in ``position``."""
    judged = position.verdict(move)
    return StudyRow(
        task.index,
        task.agent.label,
        task.budget,
        position.text,
        position.state.move_label(move),
        None if judged is None else judged.kept,
        None if judged is None else judged.loss,
        work,
        seconds,
    )


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """One agent at one budget, over the study's positions."""

    agent: str
    budget: int | float
    searches: int
    judged: int
    """Of the searches, those whose move was judged."""
    optimal: int
    """Of those judged, the moves that keep the value."""
    loss: Number
    """The score those judged gave away, summed."""
    median_seconds: float | None
    median_work: float | None

    @property
    def share(self) -> float | None:
        """The share of the judged moves that are optimal (``None``: none judged)."""
        return self.optimal / self.judged if self.judged else None

    @property
    def interval(self) -> tuple[float, float] | None:
        """Wilson's 95% score interval of ``share`` (``plyscope.engine.stats.wilson_interval``)."""
        return None if not self.judged else wilson_interval(self.optimal / self.judged, self.judged)

    @property
    def mean_loss(self) -> float | None:
        return self.loss / self.judged if self.judged else None

    def as_dict(self) -> dict[str, object]:
        interval = self.interval
        return {
            "agent": self.agent,
            "budget": self.budget,
            "searches": self.searches,
            "judged": self.judged,
            "optimal": self.optimal,
            "optimal_share": self.share,
            "interval": None if interval is None else list(interval),
            "mean_loss": self.mean_loss,
            "median_seconds": self.median_seconds,
            "median_work": self.median_work,
        }


def curve(rows: Sequence[StudyRow], agents: Sequence[str], budgets: Sequence[int | float]) -> list[CurvePoint]:
    """Each agent's point at each budget (agent by agent, budget by budget), over ``rows``."""
    grouped: dict[tuple[str, int | float], list[StudyRow]] = {
        (agent, budget): [] for agent in agents for budget in budgets
    }
    for row in rows:
        grouped[row.agent, row.budget].append(row)
    points = []
    for (agent, budget), group in grouped.items():
        judged = [row for row in group if row.optimal is not None]
        points.append(
            CurvePoint(
                agent,
                budget,
                len(group),
                len(judged),
                sum(1 for row in judged if row.optimal),
                sum(row.loss or 0 for row in judged),
                statistics.median(row.seconds for row in group) if group else None,
                statistics.median(row.work for row in group) if group else None,
            )
        )
    return points


def uniform_share(positions: Sequence[StudyPosition]) -> float | None:
    """How often a uniformly random move is optimal, over the positions whose every value is settled (``None``:
    none is)."""
    shares = [share for share in (position.kept_share() for position in positions) if share is not None]
    return sum(shares) / len(shares) if shares else None


# -- the results file


@dataclass(slots=True)
class StudyResults:
    """A study's results as its JSON writes them: its settings, rows and errors."""

    meta: Mapping[str, object]
    """The command's settings (checked against the file by ``--resume``)."""
    rows: dict[int, StudyRow] = field(default_factory=dict)
    """By task index."""
    errors: list[dict[str, object]] = field(default_factory=list)
    """The searches that raised: agent, budget, position, error."""

    def document(self, summary: Mapping[str, object], *, complete: bool, interrupted: bool) -> str:
        """The JSON document: the settings, progress, one row a line, ``summary``; a newline at its end."""
        document = {**self.meta, "complete": complete, "interrupted": interrupted, "rows": [], "summary": summary}
        text = json.dumps(document, indent=1, allow_nan=False)
        rows = [json.dumps(self.rows[index].as_dict(), allow_nan=False) for index in sorted(self.rows)]
        if not rows:
            return text + "\n"
        before, _, after = text.partition('\n "rows": [],\n')
        return "".join((before, '\n "rows": [\n  ', ",\n  ".join(rows), "\n ],\n", after, "\n"))

    def csv(self) -> str:
        """The rows as CSV, ``ROW_FIELDS`` its header (``true``/``false`` and an empty cell where not judged)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(ROW_FIELDS)
        for index in sorted(self.rows):
            row = self.rows[index]
            optimal = "" if row.optimal is None else str(row.optimal).lower()
            loss = "" if row.loss is None else row.loss
            writer.writerow((row.agent, row.budget, row.position, row.move, optimal, loss, row.work, row.seconds))
        return out.getvalue()


def resumed_rows(
    path: Path, meta: Mapping[str, object], tasks: Sequence[StudyTask], positions: Sequence[StudyPosition]
) -> list[StudyRow]:
    """The rows to keep from the results file ``path`` when the study ``meta`` and ``tasks`` describe is
    resumed, judged again (no file: none).  Raises ``UserError`` (one line) when the file is not the results of
    this very study, or a row is not one of its searches."""
    if not os.path.lexists(path):
        return []
    try:
        document = parse_json(read_regular_file(path, MAX_RESULTS_BYTES, "a study's results"), RESULTS_NESTING)
    except NotJson as error:
        raise UserError(f"--resume {path}: {error}, so not a study's results") from None
    if not isinstance(document, dict) or not isinstance(document.get("rows"), list):
        raise UserError(f"--resume {path}: not a study's results (no list of rows)")
    for key, value in meta.items():
        if document.get(key) != value:
            raise UserError(
                f"--resume {path}: the study in it has another {key}; resume a study with the command line that "
                "started it"
            )
    by_key = {(task.agent.label, task.budget, task.text): task for task in tasks}
    rows: dict[int, StudyRow] = {}
    for number, written in enumerate(document["rows"], start=1):
        row = _resumed_row(written, by_key, positions)
        if isinstance(row, str):
            raise UserError(f"--resume {path}: row {number} {row}")
        if row.index in rows:
            raise UserError(f"--resume {path}: row {number} is there twice")
        rows[row.index] = row
    return list(rows.values())


def _resumed_row(
    written: object, by_key: Mapping[tuple[str, int | float, str], StudyTask], positions: Sequence[StudyPosition]
) -> StudyRow | str:
    """The row ``written`` (as read) judged again, or what is wrong with it."""
    if not isinstance(written, dict) or set(written) != set(ROW_FIELDS):
        return f"is not a row ({', '.join(ROW_FIELDS)})"
    budget, work, seconds = written["budget"], written["work"], written["seconds"]
    key = (written["agent"], budget, written["position"])
    if any(not isinstance(item, int | float) or isinstance(item, bool) for item in (budget, seconds)):
        return "has a budget or seconds that is not a number"
    task = by_key.get(key) if isinstance(key[0], str) and isinstance(key[2], str) else None
    if task is None:
        return "is not a search of this study"
    if not isinstance(work, int) or isinstance(work, bool) or work < 0 or seconds < 0:
        return "has a work or seconds below 0, or a work that is not a whole number"
    position = positions[task.position]
    try:
        move = position.state.parse_move(str(written["move"]))
    except UserError as error:
        return f"has a move that is not one: {error}"
    return study_row(task, move, work, float(seconds), position)
