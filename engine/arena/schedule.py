"""The games of a run: every pairing of agents on every opening, twice, colours swapped.

One pair of agents: a head-to-head; more: a round robin, or a gauntlet of the first against the
others.  Every pairing plays every opening twice, once with each agent moving first: games
``2k`` and ``2k + 1`` are one *opening pair*.  The games are listed opening by opening, so that
a run stopped early has played each pairing about equally.  A game is a pure function of its
``GameTask`` (its seeds are ``plyscope.engine.seeds``'s).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from plyscope.engine.agents import Agent
from plyscope.engine.errors import UserError
from plyscope.engine.games import Game, Move
from plyscope.engine.seeds import dice_seed, game_seed


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
    truth_nodes: int = 0
    """The solver nodes per position for judging the agents' moves against perfect play (0: not judged;
    ``plyscope.engine.arena.accuracy``)."""


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
    truth_nodes: int = 0,
) -> list[GameTask]:
    """Every pairing of ``agents`` (``pairings``) on every opening, twice (colours swapped), opening by opening:
    games ``2k`` and ``2k + 1`` (counted from ``start_index``) are one opening pair.  Raises ``UserError`` when
    that would be more than ``MAX_GAMES`` games, before making any.  ``truth_nodes``: ``GameTask.truth_nodes``."""
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
                        truth_nodes=truth_nodes,
                    )
                )
    return tasks


def pairings(count: int, gauntlet: bool = False) -> list[tuple[int, int]]:
    """The pairs of agents (by index) that meet: every two of ``count`` agents (a round robin), or the first
    against each of the others (a gauntlet)."""
    if gauntlet:
        return [(0, j) for j in range(1, count)]
    return [(i, j) for i in range(count) for j in range(i + 1, count)]
