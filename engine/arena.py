"""Games between agents: openings, schedules, results, statistics, and where the games run.

**Schedule.**  Every pairing of agents (one pair: a head-to-head; more: a round robin, or a
gauntlet of the first against the others) plays every opening twice, once with each agent
moving first: games ``2k`` and ``2k + 1`` are one *opening pair*.  The games are listed
opening by opening, so that a run stopped early has played each pairing about equally.

**Openings.**  ``all2`` is every sequence of two legal moves from the start that leaves the
game open: the 49 of 7x6 Connect Four (7 first moves x 7 replies, as in Rivest's Table 2).
A number ``N`` is ``N`` of those, drawn at random without replacement with the run's seed
(and listed in the ``all2`` order), so a quick run still samples the whole range.
``balanced:N`` is the ``N`` of them whose exact score is nearest a draw (ties drawn with the
seed); a file gives one opening a line.

**Seeds.**  Each game's seed is drawn by ``numpy.random.SeedSequence`` from the run's seed,
the group (e.g. the bound of Rivest's experiment), the pairing, the opening and which agent
moves first; each turn's searcher is seeded from the game's seed and the ply.  A game is
therefore a pure function of its ``GameTask``: the same anywhere it runs (with budgets in
moves; budgets in seconds depend on the machine's speed).

**Chance** (Connect Four with chance).  Nature's moves are drawn from the game's ``dice``
seed, which leaves out who moves first: both games of an opening pair (colours swapped) get
the same draw at the same ply, so a lucky slip helps each agent once.  An opening's discs land
where they are aimed.

**Results** are from the point of view of the agent named first in a pairing.  A game in
which an agent raises (or proposes an illegal move) is recorded with ``result = "error"``
and the message; it counts for neither side: it is left out of wins, draws, losses, the
score and the Elo difference, and shown in a column of its own.

**Statistics** of a pairing (``PairingStats``, ``SprtWatch``, ``ratings``) are
``engine.stats``'s, fastchess's formulas: the Elo difference and its interval from the
opening pairs (pentanomial), the SPRT after every pair in schedule order, a maximum
likelihood rating list over many agents.  ``Tally`` keeps plain counts, with Wilson's score
interval (draws counted as half a win) and its image in Elo for ``plyscope tune`` and the
evaluation lab's benchmark.

**Resume.**  A results file holds the settings of its run (``meta``) and its finished games;
``resumed_games`` takes them back when the same run is started again, so that only the
others are played and the final results are those of an uninterrupted run.  With
``--resume`` the file is written after every game: each game's JSON is made once
(``GameTexts``) and the summary is kept game by game (``RunningSummary``), so that a save
costs the writing of the file and little more, at the 100,000th game as at the first.
"""

from __future__ import annotations

import importlib
import json
import math
import multiprocessing
import os
import queue as queue_module
import re
import signal
import socket
import struct
from bisect import insort
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from engine.agents import Agent, Decision
from engine.errors import UserError
from engine.files import NotJson, parse_json, read_regular_file
from engine.games import Connect4, Connect4State, Game, Move, NimState, PositionError, State, is_chance, make_game
from engine.numbers import NumberError, parse_int, shown
from engine.processes import end_with_parent
from engine.search.base import SearchError
from engine.solve import nim_score
from engine.solver import NATIVE_MAX_BITS, Connect4Solver, ScoreSearch, native_fits
from engine.stats import Z95, EloEstimate, Pentanomial, RatingList, Sprt, Trinomial, elo_from_score, rating_list

SEED_MASK = (1 << 63) - 1
"""Seeds are kept to 63 bits, so that any consumer taking a signed 64-bit int accepts them."""

RESULTS = ("first", "second", "draw", "error")
"""A game's ``result``: who won (by colour), a draw, or an error (counted for nobody)."""


# --- openings ----------------------------------------------------------------------------


def two_move_openings(game: Game) -> list[tuple[Move, ...]]:
    """Every sequence of two legal moves from ``game``'s start that leaves the game open (in a game with
    chance, two turns whose discs land where they are aimed: choice, landing, choice, landing)."""
    start = game.start()
    openings: list[tuple[Move, ...]] = []
    for first in start.legal_moves():
        first_turn, after_first = _turn(start, first)
        for second in after_first.legal_moves():
            second_turn, after_second = _turn(after_first, second)
            if not after_second.is_terminal():
                openings.append(first_turn + second_turn)
    return openings


def _turn(state: State, move: Move) -> tuple[tuple[Move, ...], State]:
    """``move`` and, if it leads to a chance node, the outcome a draw of 0 picks (the column aimed at)."""
    after = state.play(move)
    if not is_chance(after):
        return (move,), after
    landing = after.outcome_for(0.0)
    return (move, landing), after.play(landing)


OPENINGS_HELP = "use all2, a number from 1 to {n}, balanced:N or a file of move strings"
"""What ``--openings`` takes, for its refusals."""
MAX_OPENINGS_BYTES = 1 << 20
"""The largest file of openings read (a few bytes a line)."""
BALANCED_NODES = 50_000_000
"""The most solver nodes ``balanced:N`` spends on one opening of a board whose openings are not in
``OPENING_SCORES`` (some 8 s of the compiled solver; the openings of boards up to 6x5 need far fewer)."""


OPENING_SCORES: dict[str, int] = {
    "11": 1,
    "12": -2,
    "13": -1,
    "14": -2,
    "15": 1,
    "16": -1,
    "17": 2,
    "21": 2,
    "22": 0,
    "23": -1,
    "24": 0,
    "25": 2,
    "26": 2,
    "27": 3,
    "31": 2,
    "32": 2,
    "33": 0,
    "34": 0,
    "35": 0,
    "36": 0,
    "37": 3,
    "41": 4,
    "42": 2,
    "43": 2,
    "44": 1,
    "45": 2,
    "46": 2,
    "47": 4,
    "51": 3,
    "52": 0,
    "53": 0,
    "54": 0,
    "55": 0,
    "56": 2,
    "57": 2,
    "61": 3,
    "62": 2,
    "63": 2,
    "64": 0,
    "65": -1,
    "66": 0,
    "67": 2,
    "71": 2,
    "72": -1,
    "73": 1,
    "74": -2,
    "75": -1,
    "76": -2,
    "77": 1,
}
"""Pons' score of every two-move opening of 7x6 Connect Four, for the first player (to move after it): 0 a
draw, ``s > 0`` a win with the ``s``-th-to-last possible stone, ``s < 0`` a loss.  Computed once with
``Connect4Solver.solve`` (2026-11-24: the 25 openings that are not mirror images of another, an hour of
solver time); the tests check them for symmetry and one of them against the solver."""


def select_openings(game: Game, text: str, seed: int) -> list[tuple[Move, ...]]:
    """The openings ``--openings text`` names: ``all2``; a number ``N`` of them drawn with ``seed``;
    ``balanced:N``, the ``N`` whose exact score is nearest a draw; or a file of move strings, one a line."""
    every = two_move_openings(game)
    choice = text.strip()
    help_text = OPENINGS_HELP.format(n=len(every))
    if choice.lower() == "all2":
        return every
    if choice.lower().startswith("balanced:"):
        try:
            count = parse_int(choice.partition(":")[2], "--openings balanced", lo=1, hi=len(every))
        except NumberError as error:
            raise UserError(f"{error}: the number of openings to pick") from None
        return balanced_openings(game, every, count, seed)
    if re.fullmatch(r"[+-]?[0-9][0-9_,]*", choice):
        try:
            count = parse_int(choice, "--openings", lo=1, hi=len(every))
        except NumberError:
            raise UserError(f"--openings '{shown(text)}': {help_text}") from None
        import numpy as np  # where it is used: the explorer starts without it (about 0.15 s of CPU a session)

        rng = np.random.default_rng(np.random.SeedSequence(seed))
        chosen = sorted(int(i) for i in rng.choice(len(every), size=count, replace=False))
        return [every[i] for i in chosen]
    if not choice or not os.path.lexists(choice):
        raise UserError(f"--openings '{shown(text)}': {help_text}")
    return read_openings(game, choice)


def read_openings(game: Game, path: str) -> list[tuple[Move, ...]]:
    """The openings of the file ``path``: one move string a line as ``spell`` writes them (a Pons move string
    for Connect Four; move labels separated by spaces otherwise); blank lines and ``#`` comments are skipped.

    Raises ``UserError`` naming the line of the first opening that cannot be played or ends the game.
    """
    data = read_regular_file(path, MAX_OPENINGS_BYTES, "a file of openings")
    try:
        text = data.decode("utf-8-sig")  # (a byte order mark at the start is no part of the text)
    except UnicodeDecodeError:
        raise UserError(f"--openings {path}: not UTF-8 text") from None
    start = game.start()
    openings: list[tuple[Move, ...]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        written = line.strip()
        if not written or written.startswith("#"):
            continue
        try:
            moves = read_moves(start, written)
        except UserError as error:
            raise UserError(f"--openings {path}: line {number}: {error}") from None
        state = start
        for move in moves:
            state = state.play(move)
        if state.is_terminal():
            raise UserError(f"--openings {path}: line {number}: the game is over after '{shown(written)}'")
        openings.append(tuple(moves))
    if not openings:
        raise UserError(f"--openings {path}: no opening in it (one move string a line)")
    return openings


def read_moves(start: State, text: str) -> list[Move]:
    """The moves ``text`` spells from ``start`` (as ``spell`` writes them); raises ``PositionError`` at the
    first one that cannot be played."""
    words = list(text.replace(" ", "")) if isinstance(start, Connect4State) else text.split()
    moves: list[Move] = []
    state = start
    for index, word in enumerate(words, start=1):
        if state.is_terminal():
            raise PositionError(f"move {index} ('{shown(word)}'): the game was already over after move {index - 1}")
        if isinstance(state, Connect4State):
            move: Move = state.parse_move(word, index=index)
        else:
            try:
                move = state.parse_move(word)
            except UserError as error:
                raise PositionError(f"move {index}: {error}") from None
        moves.append(move)
        state = state.play(move)
    return moves


def balanced_openings(game: Game, every: Sequence[tuple[Move, ...]], count: int, seed: int) -> list[tuple[Move, ...]]:
    """The ``count`` openings of ``every`` whose exact score is nearest a draw (least ``|score|``), ties drawn
    with ``seed``, listed in ``every``'s order."""
    import numpy as np  # where it is used: the explorer starts without it (about 0.15 s of CPU a session)

    scores = opening_scores(game, every)
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    tiebreak = rng.permutation(len(every))
    ranked = sorted(range(len(every)), key=lambda i: (abs(scores[i]), int(tiebreak[i])))
    return [every[i] for i in sorted(ranked[:count])]


def opening_scores(game: Game, openings: Sequence[tuple[Move, ...]]) -> list[int]:
    """The exact score of each opening for the player to move after it: Pons' score on Connect Four (0 a
    draw, larger for quicker wins), +1 or -1 in the Nim games.  Raises ``UserError`` for a game without an
    exact solver, or a board whose openings take the solver more than ``BALANCED_NODES`` nodes each.

    A board the compiled solver does not play (over ``NATIVE_MAX_BITS`` bits: 54 cells or more) is refused at
    once, its openings out of reach: three openings of 7x6 (42 cells) tried each took the compiled solver over
    ``BALANCED_NODES`` nodes, and the pure Python one spent 19 s of CPU on 3,000,000 nodes of a 10x10 opening
    without settling it."""
    start = game.start()
    if isinstance(game, Connect4) and (game.width, game.height) == (7, 6):
        return [OPENING_SCORES[spell(start, opening)] for opening in openings]
    if isinstance(game, Connect4) and not native_fits(game):
        raise UserError(
            f"--openings balanced: the openings of {game.name} are out of the exact solver's reach (its compiled "
            f"kernel plays boards of at most {NATIVE_MAX_BITS} bits, width x (height + 1), this one has "
            f"{game.width * game.column_bits}; in pure Python it would take far too long); use a number of "
            f"openings or a file instead"
        )
    positions = []
    for opening in openings:
        state = start
        for move in opening:
            state = state.play(move)
        positions.append(state)
    if isinstance(game, Connect4):
        solver = Connect4Solver(game)
        scores = []
        for position in positions:
            assert isinstance(position, Connect4State)
            search = ScoreSearch(solver, position)
            search.advance(BALANCED_NODES)
            score = search.score
            if score is None:
                raise UserError(
                    f"--openings balanced: the openings of {game.name} take the solver more than "
                    f"{BALANCED_NODES:,} nodes each; use a number of openings or a file instead"
                )
            scores.append(score.pov(position.player))
        return scores
    if all(isinstance(position, NimState) for position in positions):
        return [nim_score(position) for position in positions if isinstance(position, NimState)]
    raise UserError(f"--openings balanced: no exact solver plays {game.name}; use a number of openings or a file")


def spell(state: State, moves: Sequence[Move]) -> str:
    """``moves`` played from ``state`` as text: a Pons move string for Connect Four, labels otherwise."""
    labels = []
    for move in moves:
        labels.append(state.move_label(move))
        state = state.play(move)
    return ("" if isinstance(state.game, Connect4) else " ").join(labels)


# --- schedule and seeds --------------------------------------------------------------------


def _derive_seed(entropy: int, key: Sequence[int]) -> int:
    import numpy as np  # where it is used: the explorer starts without it (about 0.15 s of CPU a session)

    state = np.random.SeedSequence(entropy, spawn_key=tuple(key)).generate_state(1, np.uint64)
    return int(state[0]) & SEED_MASK


def game_seed(seed: int, group: int, pairing: tuple[int, int], opening: int, first: int) -> int:
    """The seed of one game: from the run's ``seed``, the group's and opening's indices, the
    pairing (indices of its two agents) and the index of the agent moving first."""
    return _derive_seed(seed, (group, *pairing, opening, first))


def turn_seed(seed: int, ply: int) -> int:
    """The seed of the searcher that moves at ``ply`` in the game seeded ``seed``."""
    return _derive_seed(seed, (ply,))


def dice_seed(seed: int, group: int, pairing: tuple[int, int], opening: int) -> int:
    """The seed of nature's moves in both games of one opening and pairing (colours swapped)."""
    return _derive_seed(seed, (group, *pairing, opening))


def chance_draw(dice: int, ply: int) -> float:
    """The uniform draw in [0, 1) that picks nature's move at ``ply`` in the games with ``dice`` seed."""
    return (_derive_seed(dice, (ply,)) >> 10) / 2**53


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game to play: everything a worker needs, and nothing else (it is pickled)."""

    index: int
    """Position in the schedule; records are reported in this order."""
    game: str
    """The game's name for ``make_game``."""
    group: str
    """What the game belongs to beyond its agents (e.g. ``1000 moves`` in Rivest's experiment)."""
    first: Agent
    second: Agent
    opening: tuple[Move, ...]
    seed: int
    dice: int = 0
    """The seed of nature's moves (games with chance): the same for both games of a pair."""


MAX_GAMES = 1_000_000
"""The most games one run plays: its results file (a few hundred bytes a game) stays under ``MAX_RESULTS_BYTES``,
and the schedule under a gigabyte of memory (40 agents in a round robin on every two-move opening: 76,440)."""


def schedule(
    game: Game,
    agents: Sequence[Agent],
    openings: Sequence[tuple[Move, ...]],
    seed: int,
    *,
    group: str = "",
    group_index: int = 0,
    start_index: int = 0,
    gauntlet: bool = False,
) -> list[GameTask]:
    """Every pairing of ``agents`` (``pairings``) on every opening, twice (colours swapped), opening by opening:
    games ``2k`` and ``2k + 1`` (counted from ``start_index``) are one opening pair.  Raises ``UserError`` when
    that would be more than ``MAX_GAMES`` games, before making any."""
    meetings = len(agents) - 1 if gauntlet else len(agents) * (len(agents) - 1) // 2
    planned = start_index + 2 * meetings * len(openings)
    if planned > MAX_GAMES:
        raise UserError(
            f"{len(agents):,} agents on {len(openings):,} openings make {planned:,} games; a run plays "
            f"at most {MAX_GAMES:,} (fewer agents or openings, or a gauntlet)"
        )
    tasks: list[GameTask] = []
    for opening_index, opening in enumerate(openings):
        for pairing in pairings(len(agents), gauntlet):
            for first, second in (pairing, pairing[::-1]):
                tasks.append(
                    GameTask(
                        index=start_index + len(tasks),
                        game=game.name,
                        group=group,
                        first=agents[first],
                        second=agents[second],
                        opening=tuple(opening),
                        seed=game_seed(seed, group_index, pairing, opening_index, first),
                        dice=dice_seed(seed, group_index, pairing, opening_index),
                    )
                )
    return tasks


def pairings(count: int, gauntlet: bool = False) -> list[tuple[int, int]]:
    """The pairs of agents (by index) that meet: every two of ``count`` agents (a round robin), or the first
    against each of the others (a gauntlet)."""
    if gauntlet:
        return [(0, j) for j in range(1, count)]
    return [(i, j) for i in range(count) for j in range(i + 1, count)]


# --- one game ------------------------------------------------------------------------------


@dataclass(slots=True)
class SideStats:
    """What one agent spent over one game, summed over its turns."""

    turns: int = 0
    fallbacks: int = 0
    """Turns where the searcher proposed no move and the agent played its fallback move."""
    moves: int = 0
    """Calls to the move operator by the searches (``Stats.moves``)."""
    playout_moves: int = 0
    nodes: int = 0
    """Nodes in the turn's tree at the end of each turn, summed."""
    seconds: float = 0.0
    """Time spent in the searches."""

    def add(self, decision: Decision) -> None:
        self.turns += 1
        self.fallbacks += decision.fallback
        self.moves += decision.stats.moves
        self.playout_moves += decision.stats.playout_moves
        self.nodes += decision.stats.nodes
        self.seconds += decision.stats.seconds


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game played (or stopped by an error), with its agents' names by colour."""

    index: int
    group: str
    first: str
    """The name of the agent that moved first (after the opening, too: openings have two moves)."""
    second: str
    opening: str
    seed: int
    moves: str
    """The whole game from the start, opening included (a Pons move string for Connect Four)."""
    result: str
    """One of ``RESULTS``: ``first``, ``second``, ``draw`` or ``error``."""
    error: str | None = None
    """``Type: message`` of what went wrong, for ``result == "error"``."""
    error_agent: str | None = None
    """The name of the agent whose turn raised (``None`` if the game could not run at all)."""
    first_stats: SideStats = field(default_factory=SideStats)
    second_stats: SideStats = field(default_factory=SideStats)

    def winner(self) -> str | None:
        """The winning agent's name (``None`` for a draw or an error)."""
        return {"first": self.first, "second": self.second}.get(self.result)

    def as_dict(self) -> dict[str, object]:
        data = asdict(self)
        data["stats"] = {"first": data.pop("first_stats"), "second": data.pop("second_stats")}
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        """The record ``as_dict`` wrote (raises ``KeyError``, ``TypeError`` or ``ValueError`` if it is not one)."""
        fields = {key: data[key] for key in RECORD_FIELDS}
        if not all(type(fields[key]) is int and fields[key] >= 0 for key in ("index", "seed")):
            raise ValueError("index and seed must be whole numbers")
        if not all(type(fields[key]) is str for key in ("group", "first", "second", "opening", "moves", "result")):
            raise ValueError("group, first, second, opening, moves and result must be text")
        if not all(fields[key] is None or type(fields[key]) is str for key in ("error", "error_agent")):
            raise ValueError("error and error_agent must be text or null")
        if fields["result"] not in RESULTS:
            raise ValueError(f"result {shown(fields['result'])!r} is not one of {', '.join(RESULTS)}")
        stats = data["stats"]
        return cls(**fields, first_stats=_side_stats(stats["first"]), second_stats=_side_stats(stats["second"]))


def _side_stats(data: object) -> SideStats:
    """``SideStats`` from their JSON form; raises ``ValueError`` or ``TypeError`` if it is not theirs."""
    if not isinstance(data, dict):
        raise TypeError("a side's stats must be an object")
    stats = SideStats(**data)
    for name, value in asdict(stats).items():
        if type(value) not in ((int, float) if name == "seconds" else (int,)) or not 0 <= value < math.inf:
            raise ValueError(f"stats: {name} must be a number, 0 or more")
    return stats


RECORD_FIELDS = ("index", "group", "first", "second", "opening", "seed", "moves", "result", "error", "error_agent")
"""The fields of a ``GameRecord`` in its JSON form, besides ``stats``."""


TurnReport = tuple[int, int]
"""A turn begins: the game's task index and the turns its agents have played before it (after the opening)."""
Progress = Callable[[Sequence[TurnReport]], None]
"""Told of the turns begun since it was last told (``run_games``; possibly none)."""
PROGRESS_SECONDS = 0.5
"""How often ``run_games`` passes on the turns its worker processes report."""
_worker_turns: Any = None
"""In a ``GamePool`` worker: the queue ``play_game`` reports each turn to (``None`` elsewhere)."""


def play_game(task: GameTask, on_turn: Callable[[TurnReport], None] | None = None) -> GameRecord:
    """Play ``task`` to its end; an agent that raises ends the game as an ``error`` record.

    As every turn begins, ``on_turn`` (in a ``GamePool`` worker: its queue to the arena process) is told, so that
    a long game shows progress before it ends."""
    if on_turn is None and _worker_turns is not None:
        on_turn = _worker_turns.put
    start: State = make_game(task.game).start()
    opening = spell(start, task.opening)
    state = start
    for move in task.opening:
        state = state.play(move)
    sides = {1: (task.first, SideStats()), -1: (task.second, SideStats())}
    played = list(task.opening)
    result = "error"
    error: str | None = None
    error_agent: str | None = None
    try:
        while not state.is_terminal():
            if is_chance(state):
                outcome = state.outcome_for(chance_draw(task.dice, state.ply))
                played.append(outcome)
                state = state.play(outcome)
                continue
            agent, stats = sides[state.player]
            if on_turn is not None:
                on_turn((task.index, len(played) - len(task.opening)))
            decision = agent.decide(state, turn_seed(task.seed, state.ply))
            if decision.move not in state.legal_moves():
                raise SearchError(f"{agent.label} chose {decision.move!r}, which is not a legal move")
            stats.add(decision)
            played.append(decision.move)
            state = state.play(decision.move)
        result = {1: "first", -1: "second", 0: "draw"}[state.utility()]
    except Exception as raised:
        error = f"{type(raised).__name__}: {raised}"
        error_agent = sides[state.player][0].label if state.player in sides else None
    return GameRecord(
        index=task.index,
        group=task.group,
        first=task.first.label,
        second=task.second.label,
        opening=opening,
        seed=task.seed,
        moves=spell(start, played),
        result=result,
        error=error,
        error_agent=error_agent,
        first_stats=sides[1][1],
        second_stats=sides[-1][1],
    )


# --- statistics ----------------------------------------------------------------------------


def wilson_interval(score: float, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a success rate ``score`` over ``games`` trials."""
    if games <= 0:
        raise ValueError("an interval needs at least one game")
    spread = z * z / games
    centre = (score + spread / 2) / (1 + spread)
    half = z / (1 + spread) * math.sqrt(score * (1 - score) / games + spread / (4 * games))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class Tally:
    """Games of ``agent`` against ``opponent`` (every opponent if empty), from ``agent``'s point of view."""

    agent: str
    opponent: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    errors: int = 0
    """Games stopped by an error: counted in no other field."""

    @property
    def games(self) -> int:
        """Games that count: wins, draws and losses."""
        return self.wins + self.draws + self.losses

    def score(self) -> float | None:
        """(wins + draws / 2) / games; ``None`` with no game."""
        return (self.wins + self.draws / 2) / self.games if self.games else None

    def trinomial(self) -> Trinomial:
        return Trinomial(self.wins, self.draws, self.losses)

    def interval(self) -> tuple[float, float] | None:
        """The score's 95% Wilson interval."""
        score = self.score()
        return None if score is None else wilson_interval(score, self.games)

    def elo(self) -> float | None:
        score = self.score()
        return None if score is None else elo_from_score(score)

    def elo_interval(self) -> tuple[float, float] | None:
        interval = self.interval()
        return None if interval is None else (elo_from_score(interval[0]), elo_from_score(interval[1]))

    def as_dict(self) -> dict[str, object]:
        """The tally for JSON: Elo values that are infinite (a score of 0 or 1) are written ``null``."""
        return {
            "agent": self.agent,
            "opponent": self.opponent or None,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "errors": self.errors,
            "score": self.score(),
            "score_95": _finite(self.interval()),
            "elo": _finite(self.elo()),
            "elo_95": _finite(self.elo_interval()),
        }


def _finite(value: float | tuple[float, float] | None) -> object:
    if isinstance(value, tuple):
        return [_finite(v) for v in value]
    return value if value is None or math.isfinite(value) else None


def outcome(record: GameRecord, agent: str) -> str:
    """What ``record`` (a game ``agent`` played) was for ``agent``: ``win``, ``draw``, ``loss`` or ``error``."""
    if record.result in ("error", "draw"):
        return record.result
    return "win" if record.winner() == agent else "loss"


def tally(records: Sequence[GameRecord], agent: str, opponent: str = "", group: str | None = None) -> Tally:
    """``agent``'s games against ``opponent`` (every opponent if empty), in ``group`` (any if ``None``)."""
    counts = {"win": 0, "draw": 0, "loss": 0, "error": 0}
    for record in records:
        if group is not None and record.group != group:
            continue
        if agent == record.first:
            other = record.second
        elif agent == record.second:
            other = record.first
        else:
            continue
        if opponent and other != opponent:
            continue
        counts[outcome(record, agent)] += 1
    return Tally(agent, opponent, counts["win"], counts["draw"], counts["loss"], counts["error"])


def opening_pairs(records: Sequence[GameRecord]) -> Iterator[tuple[GameRecord, GameRecord]]:
    """The opening pairs of which both games are among ``records``: games ``2k`` and ``2k + 1`` of a schedule
    (the same opening, colours swapped), in schedule order."""
    by_index = {record.index: record for record in records}
    for index in sorted(by_index):
        other = by_index.get(index + 1)
        if index % 2 == 0 and other is not None:
            yield by_index[index], other


def pair_points(pair: tuple[GameRecord, GameRecord], agent: str) -> float | None:
    """The points ``agent`` took from an opening pair (0, 0.5, 1, 1.5 or 2); ``None`` if a game stopped by an
    error or ``agent`` did not play both games."""
    points = 0.0
    for record in pair:
        if record.result == "error" or agent not in (record.first, record.second):
            return None
        points += 0.5 if record.result == "draw" else float(record.winner() == agent)
    return points


def pentanomial(records: Sequence[GameRecord], agent: str, opponent: str, group: str | None = None) -> Pentanomial:
    """The opening pairs of ``agent`` against ``opponent`` in ``group`` (any if ``None``), from ``agent``'s
    point of view; a pair with a game stopped by an error is left out."""
    points = []
    for pair in opening_pairs(records):
        first = pair[0]
        if (group is not None and first.group != group) or {first.first, first.second} != {agent, opponent}:
            continue
        taken = pair_points(pair, agent)
        if taken is not None:
            points.append(taken)
    return Pentanomial.of_points(points)


@dataclass(frozen=True, slots=True)
class PairingStats:
    """One pairing's games and opening pairs, from the point of view of ``games.agent``."""

    games: Tally
    pairs: Pentanomial

    def estimate(self) -> EloEstimate | None:
        """The Elo difference from the pairs (``None`` with fewer than ``engine.stats.MIN_INTERVAL_PAIRS``)."""
        return self.pairs.estimate()

    def as_dict(self) -> dict[str, object]:
        """For JSON: numbers that are not finite (an Elo at a score of 0 or 1) are written ``null``."""
        games = self.games
        estimate = self.estimate()
        return {
            "agent": games.agent,
            "opponent": games.opponent,
            "games": games.games,
            "wins": games.wins,
            "draws": games.draws,
            "losses": games.losses,
            "errors": games.errors,
            "score": games.score(),
            "draw_ratio": games.trinomial().draw_ratio(),
            "pairs": self.pairs.pairs,
            "pentanomial": list(self.pairs.counts()),
            **{
                key: None if estimate is None else _finite(getattr(estimate, key))
                for key in ("elo", "error", "los", "nelo", "nelo_error")
            },
        }


def pairing_stats(records: Sequence[GameRecord], agent: str, opponent: str, group: str | None = None) -> PairingStats:
    return PairingStats(tally(records, agent, opponent, group), pentanomial(records, agent, opponent, group))


class SprtWatch:
    """The SPRT of a head-to-head, evaluated after every opening pair **in schedule order**.

    Games may finish in any order (several workers); pair ``k`` is evaluated once it and every
    pair before it are finished, so the pair at which a bound is crossed, and with it the
    match's result, is the same however the games were spread, interrupted and resumed.
    """

    def __init__(self, sprt: Sprt, agent: str) -> None:
        self.sprt = sprt
        self.agent = agent
        """The agent whose Elo the test is about (the first named)."""
        self.pairs = Pentanomial()
        """The opening pairs evaluated so far (left out: pairs with a game stopped by an error)."""
        self.evaluated = 0
        """Opening pairs of the schedule evaluated so far, in order."""
        self.llr = 0.0
        self.decision: str | None = None
        """``H1`` or ``H0`` once a bound is crossed; the match then ends after pair ``evaluated - 1``."""
        self._finished: dict[int, GameRecord] = {}

    def add(self, record: GameRecord) -> None:
        """Take a finished game; evaluate the pairs it completes in order, until a bound is crossed."""
        self._finished[record.index] = record
        finished = self._finished
        while self.decision is None and 2 * self.evaluated in finished and 2 * self.evaluated + 1 in finished:
            points = pair_points((finished[2 * self.evaluated], finished[2 * self.evaluated + 1]), self.agent)
            self.evaluated += 1
            if points is not None:
                counts = list(self.pairs.counts())
                counts[round(2 * points)] += 1
                self.pairs = Pentanomial(*counts)
                self.llr = self.sprt.llr(self.pairs)
                self.decision = self.sprt.decision(self.llr)

    def kept(self, records: Sequence[GameRecord]) -> list[GameRecord]:
        """``records`` less the games after the pair that decided the test (all of them while it goes on)."""
        if self.decision is None:
            return list(records)
        return [record for record in records if record.index < 2 * self.evaluated]


def sprt_summary(sprt: Sprt, pairs: Pentanomial) -> dict[str, object]:
    """The test, its bounds, the LLR of ``pairs`` and its decision (``null`` while undecided), for JSON."""
    llr = sprt.llr(pairs)
    return {
        "elo0": sprt.elo0,
        "elo1": sprt.elo1,
        "alpha": sprt.alpha,
        "beta": sprt.beta,
        "model": sprt.model,
        "lower": sprt.lower,
        "upper": sprt.upper,
        "llr": llr,
        "result": sprt.decision(llr),
        "pairs": pairs.pairs,
    }


def ratings(
    records: Sequence[GameRecord], names: Sequence[str], meetings: Sequence[tuple[int, int]], anchor: str | None = None
) -> RatingList:
    """The maximum likelihood rating list of ``names`` over every game of ``records`` (``meetings``: the pairs
    of agents, by index, that played each other)."""
    return _rating_list(names, [tally(records, names[i], names[j]) for i, j in meetings], anchor)


def _rating_list(names: Sequence[str], tallies: Sequence[Tally], anchor: str | None) -> RatingList:
    """The rating list of ``names`` from the tallies of the pairings that met."""
    return rating_list(names, {(t.agent, t.opponent): (t.wins + t.draws / 2, t.games) for t in tallies}, anchor)


def ratings_summary(listed: RatingList) -> dict[str, object]:
    return {
        "anchor": listed.anchor,
        "virtual_draws": listed.virtual_draws,
        "list": [
            {"player": r.player, "rating": r.rating, "error": r.error, "points": r.points, "played": r.played}
            for r in listed.ratings
        ],
    }


def summary(
    records: Sequence[GameRecord],
    names: Sequence[str],
    *,
    gauntlet: bool = False,
    sprt: Sprt | None = None,
    anchor: str | None = None,
) -> dict[str, object]:
    """For JSON: every pairing's statistics; the SPRT (a head-to-head with ``sprt``); the rating list (three
    agents or more)."""
    running = RunningSummary(names, gauntlet=gauntlet, sprt=sprt, anchor=anchor)
    for record in records:
        running.add(record)
    return running.document()


OUTCOMES = ("win", "draw", "loss", "error")
"""What a game was for an agent (``outcome``), in the order of ``Tally``'s counts."""


class RunningSummary:
    """A run's ``summary`` kept up to date one game at a time (``add``): per pairing, its first-named agent's
    wins, draws, losses and errors, and its opening pairs' counts (a pair once both its games are in), so
    that the summary after a game costs the same whatever the number of games before it."""

    def __init__(
        self, names: Sequence[str], *, gauntlet: bool = False, sprt: Sprt | None = None, anchor: str | None = None
    ) -> None:
        self.names = list(names)
        self.sprt = sprt
        self.anchor = anchor
        self.meetings = pairings(len(names), gauntlet)
        self._meeting = {frozenset((self.names[i], self.names[j])): k for k, (i, j) in enumerate(self.meetings)}
        """Each pairing's place in ``meetings``, by its two agents' names."""
        self._games = [[0] * len(OUTCOMES) for _ in self.meetings]
        """Per pairing, the first-named agent's games by ``OUTCOMES``."""
        self._pairs = [[0] * 5 for _ in self.meetings]
        """Per pairing, its opening pairs by the first-named agent's points (``Pentanomial.counts``)."""
        self._waiting: dict[int, GameRecord] = {}
        """Games whose opening pair's other game is not in yet, by index."""

    def add(self, record: GameRecord) -> None:
        """Count the finished game ``record`` (each game once)."""
        meeting = self._meeting.get(frozenset((record.first, record.second)))
        if meeting is not None:
            agent = self.names[self.meetings[meeting][0]]
            self._games[meeting][OUTCOMES.index(outcome(record, agent))] += 1
        other = self._waiting.pop(record.index ^ 1, None)  # games 2k and 2k + 1 are a pair
        if other is None:
            self._waiting[record.index] = record
            return
        pair = (other, record) if other.index < record.index else (record, other)
        meeting = self._meeting.get(frozenset((pair[0].first, pair[0].second)))
        if meeting is None:
            return
        points = pair_points(pair, self.names[self.meetings[meeting][0]])
        if points is not None:
            self._pairs[meeting][round(2 * points)] += 1

    def document(self) -> dict[str, object]:
        """The ``summary`` of the games added."""
        names = self.names
        stats = [
            PairingStats(Tally(names[i], names[j], *self._games[k]), Pentanomial(*self._pairs[k]))
            for k, (i, j) in enumerate(self.meetings)
        ]
        document: dict[str, object] = {"pairings": [s.as_dict() for s in stats]}
        if self.sprt is not None:
            document["sprt"] = sprt_summary(self.sprt, stats[0].pairs)
        if len(names) > 2:
            document["ratings"] = ratings_summary(_rating_list(names, [s.games for s in stats], self.anchor))
        return document


# --- running many games --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RunOutcome:
    records: list[GameRecord]
    """Every finished game, in schedule order."""
    interrupted: bool
    """True when a ``KeyboardInterrupt`` stopped the run (games then running are lost)."""


def run_games(
    tasks: Sequence[GameTask],
    executor: Executor | None = None,
    *,
    in_flight: int = 1,
    on_game: Callable[[GameRecord], None] | None = None,
    enough: Callable[[], bool] | None = None,
    progress: Progress | None = None,
) -> RunOutcome:
    """Play ``tasks`` in this process (``executor=None``) or on ``executor``, ``in_flight`` at a time.

    ``progress`` hears of every turn as it begins (in this process, at once; from a ``GamePool``, every
    ``PROGRESS_SECONDS``, even when there is nothing new; a Dask cluster reports only finished games).

    ``on_game`` is called in this process after each game, then ``enough``: when it says so (an
    SPRT decided), the run ends there, as it does on a ``KeyboardInterrupt`` (Ctrl-C, or raised
    by ``on_game``) but not ``interrupted``: finished games are kept, the others cancelled and a
    local pool's processes stopped.  When a worker process of a ``GamePool`` dies (killed, out of
    memory), no finished game is lost: the pool starts afresh and the games that were running
    are played again, each at most ``MAX_WORKER_DEATHS`` times before it is recorded as an error.
    """
    finished: list[GameRecord] = []
    pending: dict[Future[GameRecord], GameTask] = {}
    deaths: dict[int, int] = {}
    """Per task index, how many worker processes died while it was running."""
    interrupted = False

    def finish(record: GameRecord) -> None:
        finished.append(record)
        if on_game is not None:
            on_game(record)
        if enough is not None and enough():
            raise _Enough

    try:
        if executor is None:
            for task in tasks:
                finish(play_game(task, None if progress is None else lambda report: progress([report])))
        else:
            queue = iter(tasks)
            for task in islice(queue, max(1, in_flight)):
                pending[executor.submit(play_game, task)] = task
            while pending:
                local = isinstance(executor, GamePool)
                done, _ = wait(pending, timeout=PROGRESS_SECONDS if local else None, return_when=FIRST_COMPLETED)
                if isinstance(executor, GamePool):
                    reports = executor.turns_reported()
                    if progress is not None:
                        progress(reports)
                if isinstance(executor, GamePool) and any(_died(future) for future in done):
                    wait(pending)  # every game of the dead pool ends now: finished, or failed with it
                    done = set(pending)
                    executor.respawn()
                again: list[GameTask] = []
                for future in done:
                    task = pending.pop(future)
                    if isinstance(executor, GamePool) and _died(future):
                        deaths[task.index] = deaths.get(task.index, 0) + 1
                        if deaths[task.index] < MAX_WORKER_DEATHS:
                            again.append(task)
                            continue
                    finish(_outcome(future, task, deaths.get(task.index, 0)))
                for task in [*again, *islice(queue, len(done) - len(again))]:
                    pending[executor.submit(play_game, task)] = task
    except (KeyboardInterrupt, _Enough) as stop:
        interrupted = isinstance(stop, KeyboardInterrupt)
        for future in pending:
            future.cancel()
        if isinstance(executor, GamePool):
            executor.stop_now()
        elif executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
    return RunOutcome(sorted(finished, key=lambda r: r.index), interrupted)


class _Enough(Exception):
    """``run_games``'s ``enough`` said so: the run ends early, and not by an interruption."""


MAX_WORKER_DEATHS = 3
"""Times a game is started again after the worker process running it died, before it is recorded as an error."""


def _died(future: Future[GameRecord]) -> bool:
    """Whether ``future``'s game ended because its worker process died (its pool is broken)."""
    return not future.cancelled() and isinstance(future.exception(), BrokenExecutor)


def _outcome(future: Future[GameRecord], task: GameTask, deaths: int = 0) -> GameRecord:
    """The record of a finished future; a game its worker could not run is an ``error`` record."""
    try:
        return future.result()
    except Exception as error:  # a worker that died, a task that did not pickle, a lost Dask worker...
        if isinstance(error, BrokenExecutor):
            message = f"WorkerDied: the worker process playing this game died {deaths} times (killed, or out of memory)"
        else:
            message = f"the game could not run: {type(error).__name__}: {error}"
        return GameRecord(
            index=task.index,
            group=task.group,
            first=task.first.label,
            second=task.second.label,
            opening=spell(make_game(task.game).start(), task.opening),
            seed=task.seed,
            moves="",
            result="error",
            error=message,
        )


def _worker_setup(parent: int, turns: Any) -> None:
    """In each worker process: leave Ctrl-C to the parent, and end with it, even when it is SIGKILLed; report
    every turn of its games to the queue ``turns``."""
    global _worker_turns
    _worker_turns = turns
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C held back while the worker was forked is dropped here
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    end_with_parent(parent)


class GamePool(Executor):
    """Local worker processes for games, each ending with the arena process; started afresh when one dies."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._turns: Any = multiprocessing.Queue()
        """Where the workers report each turn they begin (``TurnReport``)."""
        self._pool = self._start()

    def _start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers, initializer=_worker_setup, initargs=(os.getpid(), self._turns)
        )

    def turns_reported(self) -> list[TurnReport]:
        """The turns the workers began since the last call."""
        reports: list[TurnReport] = []
        with suppress(queue_module.Empty):
            while True:
                reports.append(self._turns.get_nowait())
        return reports

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Submit ``fn``; the pool forks its workers here, with Ctrl-C held back until the fork is over.

        A ``KeyboardInterrupt`` raised inside ``os.fork`` (in its after-fork hooks, such as the one that
        releases the logging module's lock) left that lock held and the arena hung on its way out; the
        worker inherits the blocked signal and ignores it (``_worker_setup``).
        """
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            return self._pool.submit(fn, *args, **kwargs)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def respawn(self) -> None:
        """A worker died and the pool with it: let the old pool go and start a fresh one."""
        broken = self._pool
        self._pool = self._start()
        broken.shutdown(wait=False, cancel_futures=True)

    def stop_now(self) -> None:
        """Cancel what waits and stop the worker processes at once (Ctrl-C)."""
        self._pool.shutdown(wait=False, cancel_futures=True)
        for child in multiprocessing.active_children():
            child.terminate()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)


@contextmanager
def open_executor(workers: int, scheduler: str | None = None) -> Iterator[tuple[Executor | None, int]]:
    """Where the games run, and how many to keep in flight there.

    ``scheduler``: an existing Dask cluster (``tcp://HOST:PORT``) through its client's
    executor.  Otherwise ``workers`` local processes (``workers == 1``: this process, no pool).
    """
    if workers < 1:
        raise UserError(f"workers must be 1 or more, not {workers}")
    if scheduler is not None:
        with _dask_executor(scheduler) as opened:
            yield opened
    elif workers == 1:
        yield None, 1
    else:
        pool = GamePool(workers)
        try:
            yield pool, 2 * workers
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


CONNECT_SECONDS = 5.0
"""How long ``--scheduler`` waits for a TCP connection to the scheduler."""
HANDSHAKE_SECONDS = 3.0
"""How long it then waits for the scheduler's first message (a Dask scheduler speaks first)."""


def check_scheduler(address: str) -> None:
    """Raise ``UserError`` in one line unless a Dask scheduler answers at the TCP ``address`` (``tcp://HOST:PORT``).

    Dask's client, pointed at something else (an HTTP server, say), reads that server's bytes as
    message lengths and may try to allocate exabytes; so this connects first and reads the first
    bytes itself.  A Dask scheduler sends a handshake as soon as a connection is open: a message
    of 8 bytes of total length, 8 of frame count, then the frames' lengths and the frames.
    """
    if re.match(r"(tls|inproc|ws|wss|ucx)://", address):
        # Dask's other transports: nothing listening at HOST:PORT fails at once; the rest is left to Dask
        other = re.fullmatch(r"(?:tls|ws|wss|ucx)://([^:/\s]+|\[[0-9a-fA-F:.]+\]):([0-9]{1,5})/?", address.strip())
        if other is not None and 1 <= int(other.group(2)) <= 65535:
            _connect(address, other.group(1).strip("[]"), int(other.group(2))).close()
        return
    match = re.fullmatch(r"tcp://([^:/\s]+|\[[0-9a-fA-F:.]+\]):([0-9]{1,5})", address.strip())
    if match is None or not 1 <= int(match.group(2)) <= 65535:
        raise UserError(
            f"--scheduler '{shown(address, 60)}': write the address as tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786"
        )
    connection = _connect(address, match.group(1).strip("[]"), int(match.group(2)))
    first = b""
    with connection:
        connection.settimeout(HANDSHAKE_SECONDS)
        try:
            while len(first) < 16:
                received = connection.recv(16 - len(first))
                if not received:
                    break
                first += received
        except TimeoutError:
            raise UserError(
                f"--scheduler {address}: connected, but no Dask handshake came within "
                f"{HANDSHAKE_SECONDS:g} s: something else listens there"
            ) from None
        except OSError as error:
            raise UserError(f"--scheduler {address}: the connection failed ({error.strerror or error})") from None
    if len(first) < 16:
        raise UserError(f"--scheduler {address}: the connection closed without a Dask handshake: not a Dask scheduler")
    total, frames = struct.unpack("<QQ", first)
    if not (16 <= total <= 1 << 20 and 1 <= frames <= 64):
        raise UserError(f"--scheduler {address}: something answers there, but not like a Dask scheduler")


def _connect(address: str, host: str, port: int) -> socket.socket:
    """A TCP connection to the scheduler at ``host``:``port``; ``UserError`` naming ``address`` if none is made
    within ``CONNECT_SECONDS``."""
    try:
        return socket.create_connection((host, port), timeout=CONNECT_SECONDS)
    except TimeoutError:
        raise UserError(f"--scheduler {shown(address, 60)}: no answer within {CONNECT_SECONDS:g} s") from None
    except (OSError, UnicodeError) as error:  # UnicodeError: a host name IDNA refuses (a label over 63 characters)
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise UserError(f"--scheduler {shown(address, 60)}: cannot connect ({reason})") from None


@contextmanager
def _dask_executor(address: str) -> Iterator[tuple[Executor, int]]:
    try:
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise UserError(
            "--scheduler needs Dask distributed, an optional dependency: pip install 'plyscope[cluster]'"
        ) from None
    check_scheduler(address)
    try:
        client = distributed.Client(address, timeout="10s")
    except Exception as error:  # Dask's transports fail in many ways (TLS without a context, UCX not installed...)
        reason = str(error).splitlines()[0][:120] if str(error) else type(error).__name__
        raise UserError(f"--scheduler {shown(address, 60)}: Dask cannot reach a scheduler there ({reason})") from None
    try:
        threads = sum(client.nthreads().values())
        executor = client.get_executor(pure=False)
        try:
            yield executor, max(2, 2 * threads)
        finally:
            executor.shutdown(wait=False)
    finally:
        client.close()


# --- results file --------------------------------------------------------------------------


def results_text(
    meta: Mapping[str, object],
    games: Sequence[str],
    planned: int,
    *,
    complete: bool,
    interrupted: bool,
    summary: object,
) -> str:
    """The results file of a run: ``meta`` (the command's settings), progress, the games (each as ``game_text``
    writes it), ``summary``; to the byte ``json.dumps`` of that document with ``indent=1``, and a newline.
    ``ValueError`` for a number JSON does not have (inf, nan).

    ``complete``: nothing is left to play (every game of the schedule played, or an SPRT decided).
    """
    document = {
        **meta,
        "games_planned": planned,
        "games_played": len(games),
        "complete": complete,
        "interrupted": interrupted,
        "games": [],
        "summary": summary,
    }
    text = json.dumps(document, indent=1, allow_nan=False)
    if not games:
        return text + "\n"
    # (the games' line is the only one that reads so: a line break in a string is written \n)
    before, _, after = text.partition('\n "games": [],\n')
    return "".join((before, '\n "games": [\n', ",\n".join(games), "\n ],\n", after, "\n"))


def game_text(record: GameRecord) -> str:
    """``record`` as ``results_text`` lists it among the games (``json.dumps`` with ``indent=1``, two levels in)."""
    return "  " + json.dumps(record.as_dict(), indent=1, allow_nan=False).replace("\n", "\n  ")


class GameTexts:
    """The finished games of a run as the results file writes them, each made once (``game_text``)."""

    def __init__(self) -> None:
        self._texts: dict[int, str] = {}
        self._order: list[int] = []
        """The games' indexes, in schedule order."""

    def add(self, record: GameRecord) -> None:
        if record.index not in self._texts:
            insort(self._order, record.index)
        self._texts[record.index] = game_text(record)

    def listed(self, records: Sequence[GameRecord] | None = None) -> list[str]:
        """The texts of ``records`` (each added before), or of every game added, in schedule order."""
        if records is None:
            return [self._texts[index] for index in self._order]
        return [self._texts[record.index] for record in sorted(records, key=lambda r: r.index)]


MAX_RESULTS_BYTES = 1 << 30
"""The largest results file ``--resume`` reads (a game takes a few hundred bytes)."""
RESULTS_NESTING = 5
"""The deepest nesting of a results file: the document, ``games``, a game, its ``stats``, a side's (the summary
goes to 4); a file nested deeper is refused as it is read."""


def resumed_games(path: Path, meta: Mapping[str, object], tasks: Sequence[GameTask]) -> list[GameRecord]:
    """The games to keep from the results file ``path`` when the run that ``meta`` and ``tasks`` describe is
    resumed: every game played, but those a worker could not finish (an error no agent raised), which are
    played again.  No file: no game.  Raises ``UserError`` (one line) when the file is not the results of
    this very run (its settings differ, or a game is not one of ``tasks``)."""
    if not os.path.lexists(path):
        return []
    data = read_regular_file(path, MAX_RESULTS_BYTES, "a results file")
    try:
        document = parse_json(data, RESULTS_NESTING)
    except NotJson as error:
        raise UserError(f"--resume {path}: {error}, so not a results file") from None
    if not isinstance(document, dict) or not isinstance(document.get("games"), list):
        raise UserError(f"--resume {path}: not a results file (no list of games)")
    for key, value in meta.items():
        if document.get(key) != value:
            raise UserError(
                f"--resume {path}: the run in it has another {key}; resume a run with the command line that started it"
            )
    by_index = {task.index: task for task in tasks}
    records: list[GameRecord] = []
    seen: set[int] = set()
    for number, game in enumerate(document["games"], start=1):
        try:
            record = GameRecord.from_dict(game)
        except (KeyError, TypeError, ValueError) as error:
            raise UserError(f"--resume {path}: game {number} is not a game record ({error})") from None
        task = by_index.get(record.index)
        if task is None or (record.first, record.second, record.seed) != (
            task.first.label,
            task.second.label,
            task.seed,
        ):
            raise UserError(f"--resume {path}: game {number} (index {record.index}) is not a game of this run")
        if record.index in seen:
            raise UserError(f"--resume {path}: game {number} (index {record.index}) is there twice")
        damage = _damage(record, task)
        if damage:
            raise UserError(f"--resume {path}: game {number} (index {record.index}): {damage}")
        seen.add(record.index)
        if record.result != "error" or record.error_agent is not None:
            records.append(record)
    return records


def _damage(record: GameRecord, task: GameTask) -> str | None:
    """What is wrong with ``record`` as the game ``task`` (read back from a results file), or ``None``: its group
    and opening are the task's, its moves a game played from the opening, ending as its result says."""
    start = make_game(task.game).start()
    if record.group != task.group or record.opening != spell(start, task.opening):
        return "its opening or group is not the one this run plays there"
    try:
        moves = read_moves(start, record.moves)
    except UserError as error:
        return f"its moves are not a game ({error})"
    if tuple(moves[: len(task.opening)]) != tuple(task.opening):
        return "its moves do not start with its opening"
    state = start
    for move in moves:
        state = state.play(move)
    ended = {1: "first", -1: "second", 0: "draw"}[state.utility()] if state.is_terminal() else None
    if record.result != "error" and record.result != ended:
        return f"its moves do not end in the result it gives ({record.result})"
    return None
