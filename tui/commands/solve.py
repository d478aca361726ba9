"""``plyscope solve``: the exact value of a position and of each legal move.

Connect Four scores are Pons' (``engine.search.solver``), Nim scores ``+1`` (win) or ``-1``
(loss).  The position's score is for the player to move; a move's score is for the player
who plays it.
"""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.table import Table

from engine.games import Connect4, make_game
from engine.solve import solve_position
from tui.session import parse_position


def run(args: argparse.Namespace) -> int:
    game = make_game(args.game)
    state = parse_position(game, args.position)
    solution = solve_position(state)
    if args.json:
        print(json.dumps(solution.as_json()))
        return 0
    connect4 = isinstance(game, Connect4)
    console = Console()
    position = solution.position or "start (empty board)"
    mover = "the player to move"
    if connect4:
        mover = "first player (X) to move" if state.player == 1 else "second player (O) to move"
    table = Table(
        title=f"{solution.game} {position}: {mover} {meaning(solution.score, connect4)} (score {solution.score:+d})",
        title_justify="left",
        caption=f"{solution.nodes:,} node{'' if solution.nodes == 1 else 's'} in {solution.seconds:.3f} s; "
        + ("Pons' scores" if connect4 else "+1 win, -1 loss")
        + ", each move's for the player who plays it",
        caption_justify="left",
    )
    table.add_column("move")
    table.add_column("score", justify="right")
    table.add_column("for the player who plays it")
    table.add_column("best", justify="center")
    best = set(solution.best_moves)
    for label, score in solution.moves.items():
        table.add_row(label, f"{score:+d}", meaning(score, connect4), "★" if label in best else "")
    console.print(table)
    return 0


def meaning(score: int, connect4: bool) -> str:
    """What ``score`` says about the player it is for: ``wins with its 3rd-to-last stone``, ``draw``, ``loses``."""
    if not connect4:
        return "wins" if score > 0 else "loses"
    if score == 0:
        return "draw"
    if score > 0:
        return f"wins with its {stone(score)}"
    return f"loses (the opponent wins with its {stone(-score)})"


def stone(from_last: int) -> str:
    """``last stone``, ``2nd-to-last stone``, ``3rd-to-last stone``, ``11th-to-last stone``..."""
    if from_last == 1:
        return "last stone"
    suffix = "th" if 10 <= from_last % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(from_last % 10, "th")
    return f"{from_last}{suffix}-to-last stone"

