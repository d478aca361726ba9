"""The evaluation lab: expectiminimax's speed, Star1's saving, and the tuned feature weights' strength.

* **Speed.**  Plain minimax on Connect Four and plain expectiminimax on Connect Four with
  chance (0.6 / 0.2) to the same depth in turns, from the same positions, with the same
  ``features`` evaluator; expectiminimax also on the game without chance (where it is minimax),
  to separate the searcher's own cost from the chance nodes'.  A node is one call to
  ``State.play`` (a choice or a landing); times are CPU seconds of this process (the machine
  is shared), so nodes/s do not count other processes' load.
* **Star1.**  Nodes of plain expectiminimax and of Star1 at depths 3 to 5 on the chance game,
  and, for contrast, of minimax and fail-soft alpha-beta (``expectiminimax`` with
  ``pruning=star1`` on the game without chance is exactly that) at the same depths: how much
  less Star1 prunes than alpha-beta.  Depth 5 is searched on the 5x4 board only.
* **Tuning** (left out by ``--quick``).  ``plyscope tune``'s defaults with 1,000 positions (self-play):
  the fit, then the tuned weights against the hand-set ones with ``alphabeta:depth=4,
  ordering=history`` on every two-move opening, both colours (98 games, in this process).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from plyscope.engine.agents import Agent
from plyscope.engine.arena.openings import two_move_openings
from plyscope.engine.arena.pool import run_games
from plyscope.engine.arena.schedule import schedule
from plyscope.engine.arena.summary import tally
from plyscope.engine.benchmarks import BenchTable
from plyscope.engine.games import Connect4, State
from plyscope.engine.games.evaluators import write_weights_file
from plyscope.engine.kits import make_game
from plyscope.engine.numbers import signed
from plyscope.engine.search.base import Limit
from plyscope.engine.search.expectiminimax import Expectiminimax
from plyscope.engine.search.minimax import Minimax
from plyscope.engine.search.registry import AgentSpec
from plyscope.engine.tuning import sample_positions, tune

SPEED_POSITIONS = ("", "4453", "3344")
"""Positions where no game ends within the depth (Pons move strings; every disc landed where aimed)."""
EVAL = "features"
MATCH_SPEC = "alphabeta:depth=4,ordering=history"


def measure(quick: bool) -> list[BenchTable]:
    tables = [_speed(quick), _star1(quick)]
    if not quick:
        tables.append(_tuned())
    return tables


def _chance_text(moves: str) -> str:
    """A Pons move string as a chance-game position whose every disc landed where it was aimed."""
    return "".join(column * 2 for column in moves)


def _cpu_run(searcher: Minimax | Expectiminimax) -> tuple[int, float]:
    """Nodes and CPU seconds of one complete search."""
    started = time.process_time()
    searcher.run(Limit())
    return searcher.stats.nodes, time.process_time() - started


def _speed(quick: bool) -> BenchTable:
    depth = 3 if quick else 4
    plain = Connect4()
    chance = make_game("connect4-chance")
    table = BenchTable(
        f"Expectiminimax against minimax, depth {depth} turns, {EVAL} evaluator, {len(SPEED_POSITIONS)} positions",
        ["search", "game", "nodes", "CPU seconds", "nodes/s"],
    )
    runs: list[tuple[str, str, list[State], type[Minimax] | type[Expectiminimax]]] = [
        ("minimax", plain.name, [plain.parse(p) for p in SPEED_POSITIONS], Minimax),
        ("expectiminimax", plain.name, [plain.parse(p) for p in SPEED_POSITIONS], Expectiminimax),
        ("expectiminimax", chance.name, [chance.parse(_chance_text(p)) for p in SPEED_POSITIONS], Expectiminimax),
    ]
    rates = []
    for label, game_name, states, searcher in runs:
        nodes = 0
        seconds = 0.0
        for state in states:
            found, spent = _cpu_run(searcher(state, depth=depth, evaluator=EVAL))
            nodes += found
            seconds += spent
        rates.append(nodes / seconds)
        table.rows.append([label, game_name, nodes, round(seconds, 3), round(nodes / seconds)])
    table.notes.append(
        "positions: "
        + ", ".join(p or "(empty board)" for p in SPEED_POSITIONS)
        + " (with chance: every disc landed where aimed)"
    )
    table.notes.append(
        f"expectiminimax with chance runs at {rates[2] / rates[0]:.2f}x minimax's nodes/s "
        f"({rates[1] / rates[0]:.2f}x without chance); a node is one State.play"
    )
    return table


def _star1(quick: bool) -> BenchTable:
    table = BenchTable(
        "Star1 against plain expectiminimax (chance), alpha-beta against minimax (no chance): nodes to one depth",
        ["board", "depth", "plain", "Star1", "Star1 saves", "minimax", "alpha-beta", "AB saves"],
    )
    boards = [("5x4", (3, 4) if quick else (3, 4, 5), ("33", "3344")), ("7x6", (3,) if quick else (3, 4), ("", "4453"))]
    for size, depths, positions in boards:
        chance = make_game(f"connect4-chance:{size}")
        plain = make_game(f"connect4:{size}")
        for depth in depths:
            counts = []
            for game, texts in ((chance, [_chance_text(p) for p in positions]), (plain, list(positions))):
                for pruning in ("none", "star1"):
                    counts.append(
                        sum(
                            _cpu_run(Expectiminimax(game.parse(text), depth=depth, pruning=pruning, evaluator=EVAL))[0]
                            for text in texts
                        )
                    )
            table.rows.append(
                [
                    size,
                    depth,
                    counts[0],
                    counts[1],
                    f"{1 - counts[1] / counts[0]:.0%}",
                    counts[2],
                    counts[3],
                    f"{1 - counts[3] / counts[2]:.0%}",
                ]
            )
    table.notes.append(
        "positions: 5x4 33, 3344; 7x6 (empty), 4453; with chance every disc landed where aimed. "
        "Depth in turns; children in legal-move order, outcomes most probable first."
    )
    table.notes.append(
        "Star1's bounds are the evaluator's range [-1000, 1000]: a chance node is cut off only when "
        "its first outcomes leave no hope even if the rest scored a win."
    )
    return table


def _tuned() -> BenchTable:
    game = Connect4()
    started = time.perf_counter()
    positions = sample_positions(game, 1000, (12, 34), 0, source="selfplay").positions
    report = tune(positions, game)
    fitted = time.perf_counter() - started
    table = BenchTable(
        f"Tuned feature weights against the hand-set ones, both with {MATCH_SPEC}, every two-move opening twice",
        ["agent", "games", "wins", "draws", "losses", "score", "Elo", "Elo 95%", "seconds"],
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "weights.json"
        write_weights_file(path, report.fit.weights)
        base = AgentSpec.parse(MATCH_SPEC)
        limit = Limit(moves=20_000)
        agents = [
            Agent(AgentSpec(base.name, {**base.params, "eval": EVAL, "weights": str(path)}), limit, "tuned"),
            Agent(AgentSpec(base.name, {**base.params, "eval": EVAL}), limit, "hand-set"),
        ]
        started = time.perf_counter()
        outcome = run_games(schedule(game, agents, two_move_openings(game), seed=0))
        played = time.perf_counter() - started
    result = tally(outcome.records, "tuned", "hand-set")
    low, high = result.elo_interval() or (float("nan"), float("nan"))
    table.rows.append(
        [
            "tuned",
            result.games,
            result.wins,
            result.draws,
            result.losses,
            round(result.score() or 0.0, 3),
            round(result.elo() or 0.0),
            f"{signed(low)}..{signed(high)}",
            round(played, 1),
        ]
    )
    table.notes.append(
        f"fit on 1,000 self-play positions (plies 12-34, labelled by the solver) in {fitted:.1f} s: "
        f"cross-entropy {report.hand_set.cross_entropy:.3f} (hand-set) -> "
        f"{report.tuned.cross_entropy:.3f} (tuned) nats per position"
    )
    table.notes.append("Elo 95%: the image of the score's Wilson interval (see plyscope arena)")
    return table
