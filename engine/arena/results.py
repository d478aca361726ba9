"""A run's results file, and the games a resumed run keeps from it.

A results file holds the settings of its run (``meta``) and its finished games;
``resumed_games`` takes them back when the same run is started again, so that only the
others are played and the final results are those of an uninterrupted run.  With
``--resume`` the file is written after every game: each game's JSON is made once
(``GameTexts``) and the summary is kept game by game (``plyscope.engine.arena.summary.RunningSummary``),
so that a save costs the writing of the file and little more, at the 100,000th game as at
the first.
"""

from __future__ import annotations

import json
import os
from bisect import insort
from collections.abc import Mapping, Sequence
from pathlib import Path

from plyscope.engine.arena.records import GameRecord
from plyscope.engine.arena.schedule import GameTask
from plyscope.engine.errors import UserError
from plyscope.engine.files import NotJson, parse_json, read_regular_file
from plyscope.engine.games.notation import read_moves, spell
from plyscope.engine.kits import make_game


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
        """The texts of ``records``, or of every game added, in schedule order.  A record not added yet is made
        here: a Ctrl-C can land between a game's end and its being added, and the file at the end keeps it."""
        if records is None:
            return [self._texts[index] for index in self._order]
        ordered = sorted(records, key=lambda r: r.index)
        return [self._texts.get(record.index) or game_text(record) for record in ordered]


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
    games = _results_games(path, meta)
    by_index = {task.index: task for task in tasks}
    records: list[GameRecord] = []
    seen: set[int] = set()
    for number, game in enumerate(games, start=1):
        record = _resumed_game(path, number, game, by_index, seen)
        seen.add(record.index)
        if record.result != "error" or record.error_agent is not None:
            records.append(record)
    return records


FORMER_DEFAULTS: dict[str, object] = {"compiled": True}
"""What a run's field meant in a results file written before the field was: the runs were compiled then."""


def _results_games(path: Path, meta: Mapping[str, object]) -> list[object]:
    """The games listed in the results file ``path``, once it was found to be the results of the run that ``meta``
    describes; raises ``UserError`` (one line) if it is not."""
    data = read_regular_file(path, MAX_RESULTS_BYTES, "a results file")
    try:
        document = parse_json(data, RESULTS_NESTING)
    except NotJson as error:
        raise UserError(f"--resume {path}: {error}, so not a results file") from None
    if not isinstance(document, dict) or not isinstance(document.get("games"), list):
        raise UserError(f"--resume {path}: not a results file (no list of games)")
    for key, value in meta.items():
        if document.get(key, FORMER_DEFAULTS.get(key)) != value:
            raise UserError(
                f"--resume {path}: the run in it has another {key}; resume a run with the command line that started it"
            )
    games: list[object] = document["games"]
    return games


def _resumed_game(
    path: Path, number: int, game: object, by_index: Mapping[int, GameTask], seen: set[int]
) -> GameRecord:
    """Game ``number`` of the results file ``path`` (``game``, as read) as the record of one of the run's tasks (by
    index), none of those ``seen`` before; raises ``UserError`` (one line) if it is not a game record, not a game
    of this run, there twice, or damaged."""
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
    return record


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
