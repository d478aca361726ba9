"""The openings a run plays: ``all2``, a number of them, the balanced ones, or a file.

``all2`` is every sequence of two legal moves from the start that leaves the game open: the
49 of 7x6 Connect Four (7 first moves x 7 replies, as in Rivest's Table 2).  A number ``N``
is ``N`` of those, drawn at random without replacement with the run's seed (and listed in the
``all2`` order), so a quick run still samples the whole range.  ``balanced:N`` is the ``N`` of
them whose exact score is nearest a draw (ties drawn with the seed); a file gives one opening
a line.  In a game with chance, an opening's discs land where they are aimed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from plyscope.engine.errors import UserError
from plyscope.engine.exact import Exact
from plyscope.engine.files import read_regular_file
from plyscope.engine.games import Game, Move, State, is_chance
from plyscope.engine.games.notation import read_moves
from plyscope.engine.kits.base import Number
from plyscope.engine.numbers import NumberError, parse_int, shown
from plyscope.engine.solver import TABLE_LIMIT


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
"""The most solver nodes ``balanced:N`` spends on one opening of a board whose openings are not in 7x6's table
(``plyscope.engine.solver.openings``: some 8 s of the compiled solver; the openings of boards up to 6x5 need far
fewer)."""


def select_openings(game: Game, text: str, seed: int) -> list[tuple[Move, ...]]:
    """The openings ``--openings text`` names: ``all2``; a number ``N`` of them drawn with ``seed``;
    ``balanced:N``, the ``N`` whose exact score is nearest a draw; or a file of move strings, one a line."""
    every = two_move_openings(game)
    choice = text.strip()
    help_text = OPENINGS_HELP.format(n=len(every))
    if not every and not os.path.lexists(choice):
        start = game.start()
        firsts = ", ".join(start.move_label(move) for move in start.legal_moves())
        raise UserError(
            f"--openings '{shown(text)}': every game of {game.name} ends within two moves; give a file of openings, "
            f"one a line (first moves: {firsts})"
        )
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


def balanced_openings(game: Game, every: Sequence[tuple[Move, ...]], count: int, seed: int) -> list[tuple[Move, ...]]:
    """The ``count`` openings of ``every`` whose exact score is nearest a draw (least ``|score|``), ties drawn
    with ``seed``, listed in ``every``'s order."""
    import numpy as np  # where it is used: the explorer starts without it (about 0.15 s of CPU a session)

    scores = opening_scores(game, every)
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    tiebreak = rng.permutation(len(every))
    ranked = sorted(range(len(every)), key=lambda i: (abs(scores[i]), int(tiebreak[i])))
    return [every[i] for i in sorted(ranked[:count])]


def opening_scores(game: Game, openings: Sequence[tuple[Move, ...]]) -> list[Number]:
    """The exact score of each opening for the player to move after it, through the one door
    (``plyscope.engine.exact.Exact``): Pons' score on Connect Four (0 a draw, larger for quicker wins; 7x6's from a
    table, ``plyscope.engine.solver.openings``), +1 or -1 in the Nim games.  Raises ``UserError`` for a game without
    exact values, a game whose positions near the start are out of the solver's reach (``ExactValues.unreachable``),
    or openings that take more than ``BALANCED_NODES`` nodes each.

    A Connect Four board the compiled solver does not play (over ``NATIVE_MAX_BITS`` bits: 54 cells or more) is
    refused at once, its openings out of reach: three openings of 7x6 (42 cells) tried each took the compiled solver
    over ``BALANCED_NODES`` nodes, and the pure Python one spent 19 s of CPU on 3,000,000 nodes of a 10x10 opening
    without settling it."""
    exact = Exact(budget=BALANCED_NODES, table=TABLE_LIMIT)
    if exact.refusal(game) is not None:
        raise UserError(f"--openings balanced: no exact solver plays {game.name}; use a number of openings or a file")
    unreachable = exact.values(game).unreachable()
    if unreachable is not None:
        raise UserError(
            f"--openings balanced: the openings of {game.name} are out of the exact solver's reach ({unreachable}); "
            "use a number of openings or a file instead"
        )
    scores: list[Number] = []
    for opening in openings:
        position = game.start()
        for move in opening:
            position = position.play(move)
        score = exact.truth(position).score
        if score is None:
            raise UserError(
                f"--openings balanced: the openings of {game.name} take the solver more than {BALANCED_NODES:,} nodes "
                "each; use a number of openings or a file instead"
            )
        scores.append(score.pov(position.player))
    return scores
