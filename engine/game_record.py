"""A game as people play it: who controls each side, the moves with undo and redo, and its file.

**Sides.**  Each side is a *controller*: ``None`` for a human at the keyboard, or an ``Agent``
(a registry spec with a per-turn budget).  A side is written ``human`` or as an agent spec,
``mcts:c=1.4,k=32``, whose items may also carry the turn's budget, ``moves=N`` or
``seconds=S``, overriding the default budget for that side only (``rivest:p=10,moves=5000``).

**Undo and redo.**  The moves played are the undo stack; moves taken back wait on the redo
stack until a new move is played.  ``undo_turn`` goes back to the position before the last
move a human made (so an agent's reply goes with it); with no human side it takes back one
move.  ``redo_turn`` replays forward to the next position where a human is to move.

**Seeds.**  The agent moving at ply ``p`` searches with ``turn_seed(seed, p)``, as the arena
seeds its games, so a replayed or reloaded game sees the same agent moves.

**File format** (UTF-8 text, one ``field: value`` a line; blank lines and ``#`` comments are
ignored)::

    plyscope-game 1
    game: connect4
    start: -
    first: human
    second: rivest:moves=1000
    seed: 0
    moves: 4453

``start`` is the position the game began from (a Pons move string, ``-`` for the empty
board; or piles such as ``3,4,5``); ``moves`` are the moves played since, a Pons move string
for Connect Four, move labels separated by spaces for Nim (``8=7+1 7=4+3``).
"""

from __future__ import annotations

import re
from pathlib import Path

from plyscope.engine.agents import Agent
from plyscope.engine.errors import UserError
from plyscope.engine.files import FileRefused, read_regular_file, write_atomic
from plyscope.engine.games import Game, Move, Player, PositionError, State, is_chance
from plyscope.engine.games.notation import read_moves, spell
from plyscope.engine.kits import kit_of, make_game
from plyscope.engine.numbers import NumberError, parse_moves, parse_seconds, parse_seed, shown
from plyscope.engine.search.base import Limit, SearchError
from plyscope.engine.search.registry import AgentSpec, algorithm, kits_played, refusal
from plyscope.engine.seeds import chance_draw, turn_seed

FORMAT = "plyscope-game"
"""The first word of a saved game."""
VERSION = 1
"""The format version this code writes and reads."""
HUMAN = "human"
"""How a human side is written."""
MAX_FILE_BYTES = 1 << 20
"""A saved game is a few hundred bytes; anything over this is not one."""
FIELDS = ("game", "start", "first", "second", "seed", "moves")
"""The fields of a saved game, in the order they are written; all are required."""

Controller = Agent | None
"""Who moves for a side: an agent, or ``None`` for a human."""


class GameFileError(UserError):
    """A saved game that cannot be read or written; the message names the file, the line and the problem."""


def first_choice(game: Game) -> State:
    """The first position of ``game`` where a player chooses: its start, or the position after nature's first
    outcomes (the first of each) in a game that starts with a roll (OpenSpiel's backgammon): where an agent is
    checked."""
    state = game.start()
    while is_chance(state):
        state = state.play(state.legal_moves()[0])
    return state


def parse_controller(text: str, default: Limit, game: Game) -> Controller:
    """The side written ``text``: ``human`` (``None``), or an agent able to play ``game``.

    The agent's items ``moves=N`` and ``seconds=S`` set its per-turn budget (one of them at
    most); without them it gets ``default``.  A searcher is made on the start position, so that what only
    a searcher checks (an evaluator's weights file...) is refused here.  Raises ``SearchError`` saying what is
    wrong.
    """
    written = text.strip()
    if written.lower() == HUMAN:
        return None
    if not written:
        raise SearchError(f"a side is '{HUMAN}' or an agent such as mcts:c=1.4,k=32; it cannot be blank")
    name, colon, rest = written.partition(":")
    kept: list[str] = []
    limit = default
    budgets = 0
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, equals, value = (part.strip() for part in item.partition("="))
        if equals and key in ("moves", "seconds"):
            budgets += 1
            limit = _budget_item(written, key, value)
        else:
            kept.append(item)
    if budgets > 1:
        raise SearchError(f"agent '{written}': give one budget, moves=N or seconds=S, not both")
    spec = AgentSpec.parse(name + colon + ",".join(kept))
    info = algorithm(spec.name)
    reason = refusal(info, game)
    if reason is not None:
        played = kits_played(info)
        if kit_of(game).name not in played:
            named = ", ".join(played[:-1]) + " and " + played[-1] if len(played) > 1 else played[0]
            reason = f"{spec.name} plays {named} only, not {game.name}"
        raise SearchError(f"agent '{written}': {reason}")
    try:  # what only a searcher checks (its evaluator's weights file...): refused now, not at the agent's turn
        spec.make(first_choice(game))
    except SearchError as error:
        raise SearchError(f"agent '{shown(written, 40)}': {error}") from None
    return Agent(spec, limit)


def _budget_item(agent: str, key: str, value: str) -> Limit:
    try:
        if key == "moves":
            return Limit(moves=parse_moves(value, key))
        return Limit(seconds=parse_seconds(value, key))
    except NumberError as error:
        raise SearchError(f"agent '{shown(agent, 40)}': {error}") from None


def controller_text(controller: Controller) -> str:
    """The side written back as ``parse_controller`` reads it, budget included: ``mcts:c=1.4,moves=1000``."""
    if controller is None:
        return HUMAN
    limit = controller.limit
    budget = f"seconds={limit.seconds:g}" if limit.seconds is not None else f"moves={limit.moves}"
    label = controller.spec.label()
    return f"{label},{budget}" if ":" in label else f"{label}:{budget}"


class PlayedGame:
    """A game from a start position: its two sides, the moves played, and the moves taken back."""

    def __init__(self, start: State, first: Controller, second: Controller, *, seed: int = 0) -> None:
        """``first`` moves for the first player (+1), ``second`` for the second (-1).  A ``start`` where nature moves
        (a game that starts with a roll) is played on to where a player chooses, each outcome drawn with ``seed`` as
        the match draws nature's moves (``chance_draw``)."""
        while is_chance(start):
            start = start.play(start.outcome_for(chance_draw(seed, start.ply)))
        self.start = start
        self.first = first
        self.second = second
        self.seed = seed
        """The game's seed: the agent moving at ply ``p`` is seeded ``turn_seed(seed, p)``."""
        self._states: list[State] = [start]
        """``start`` and the position after each move played."""
        self._moves: list[Move] = []
        """The undo stack: moves played since ``start``, in order."""
        self._undone: list[Move] = []
        """The redo stack: moves taken back, the next one to replay last."""

    @property
    def game(self) -> Game:
        return self.start.game

    @property
    def state(self) -> State:
        """The position now."""
        return self._states[-1]

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves played since ``start``."""
        return tuple(self._moves)

    @property
    def redo_moves(self) -> tuple[Move, ...]:
        """The moves ``redo`` would replay, next first."""
        return tuple(reversed(self._undone))

    def is_over(self) -> bool:
        return self.state.is_terminal()

    def controller(self, player: Player) -> Controller:
        """The controller of ``player`` (+1 first, -1 second)."""
        return self.first if player == 1 else self.second

    def to_move(self) -> Controller:
        """The controller of the side to move now."""
        return self.controller(self.state.player)

    def has_human(self) -> bool:
        return self.first is None or self.second is None

    def turn_seed(self) -> int:
        """The seed of the agent that moves now."""
        return turn_seed(self.seed, self.state.ply)

    def history(self) -> str:
        """The moves played, as a Pons move string for Connect Four, move labels for Nim."""
        return spell(self.start, self._moves)

    # ----------------------------------------------------------------- changing the game

    def play(self, move: Move) -> None:
        """Play ``move`` (it must be legal: else ``PositionError`` and nothing changes); the redo stack empties."""
        state = self.state
        if state.is_terminal():
            raise PositionError("the game is over: start a new one, or take moves back")
        if move not in state.legal_moves():
            raise PositionError(f"{_label(state, move)} cannot be played here")
        self._states.append(state.play(move))
        self._moves.append(move)
        self._undone.clear()

    def undo(self) -> Move:
        """Take back the last move (there must be one) onto the redo stack."""
        if not self._moves:
            raise SearchError("no move to take back")
        self._states.pop()
        move = self._moves.pop()
        self._undone.append(move)
        return move

    def redo(self) -> Move:
        """Replay the last move taken back (there must be one)."""
        if not self._undone:
            raise SearchError("no move to replay")
        move = self._undone.pop()
        self._states.append(self.state.play(move))
        self._moves.append(move)
        return move

    def undo_turn(self) -> int:
        """Go back to before the last human move (with no human side: one move back); returns the moves taken back.

        Returns 0, changing nothing, when no move can be taken back (or no human move was made yet).
        """
        if not self.has_human():
            if not self._moves:
                return 0
            self.undo()
            count = 1
            while self._moves and is_chance(self.state):  # with chance: back to where a player chooses
                self.undo()
                count += 1
            return count
        human_plies = [
            ply
            for ply in range(len(self._moves))
            if not is_chance(self._states[ply]) and self.controller(self._states[ply].player) is None
        ]
        if not human_plies:
            return 0
        count = len(self._moves) - human_plies[-1]
        for _ in range(count):
            self.undo()
        return count

    def redo_turn(self) -> int:
        """Replay moves up to the next position where a human is to move (with no human side: one move, and
        where the disc lands, with chance)."""
        count = 0
        while self._undone and (count == 0 or is_chance(self.state) or self.to_move() is not None):
            self.redo()
            count += 1
        return count

    def swap_sides(self) -> None:
        """Exchange the two sides' controllers; the position stays."""
        self.first, self.second = self.second, self.first

    def restarted(self) -> PlayedGame:
        """A new game from the same start, with the same sides and seed."""
        return PlayedGame(self.start, self.first, self.second, seed=self.seed)

    # ----------------------------------------------------------------- the file

    def text(self) -> str:
        """The game in the file format that ``parse`` reads back."""
        start = self.start.text()
        lines = [
            f"{FORMAT} {VERSION}",
            f"game: {self.game.name}",
            f"start: {start if start else '-'}",
            f"first: {controller_text(self.first)}",
            f"second: {controller_text(self.second)}",
            f"seed: {self.seed}",
            f"moves: {self.history()}".rstrip(),
        ]
        winner = self.state.winner()
        if winner is not None:
            lines.append(
                "# "
                + ("a draw" if winner == 0 else ("the first player won" if winner == 1 else "the second player won"))
            )
        return "\n".join(lines) + "\n"

    def save(self, path: Path | str) -> None:
        """Write the game to ``path`` atomically (an old file there is replaced whole, or left as it was)."""
        try:
            write_atomic(path, self.text())
        except OSError as error:
            raise GameFileError(f"cannot write {path}: {error.strerror or error}") from None

    @classmethod
    def load(cls, path: Path | str, default: Limit) -> PlayedGame:
        """The game saved in ``path``; raises ``GameFileError`` naming the file, the line and the problem."""
        try:
            data = read_regular_file(path, MAX_FILE_BYTES, "a saved game")
        except FileRefused as error:
            raise GameFileError(str(error)) from None
        try:
            text = data.decode("utf-8-sig")  # (a byte order mark at the start is no part of the text)
        except UnicodeDecodeError:
            raise GameFileError(f"{path}: not a text file, so not a saved game") from None
        try:
            return cls.parse(text, default)
        except UserError as error:
            raise GameFileError(f"{path}: {error}") from None

    @classmethod
    def parse(cls, text: str, default: Limit) -> PlayedGame:
        """The game written ``text`` (the file format); agents without a budget get ``default``.

        Raises ``GameFileError`` with the line number and what is wrong there.
        """
        fields = _fields(text)

        def read(key: str) -> str:
            return fields[key][1]

        def failed(key: str, error: UserError) -> GameFileError:
            return GameFileError(f"line {fields[key][0]} ({key}): {error}")

        try:
            game = make_game(read("game"))
        except UserError as error:
            raise failed("game", error) from None
        try:
            start = game.parse(read("start"))
        except UserError as error:
            raise failed("start", error) from None
        sides: list[Controller] = []
        for key in ("first", "second"):
            try:
                sides.append(parse_controller(read(key), default, game))
            except UserError as error:
                raise failed(key, error) from None
        try:
            seed = parse_seed(read("seed"))
        except NumberError as error:
            raise GameFileError(f"line {fields['seed'][0]} ({error})") from None
        played = cls(start, sides[0], sides[1], seed=seed)
        try:
            for move in read_moves(start, read("moves")):
                played.play(move)
        except UserError as error:
            raise failed("moves", error) from None
        return played


def _fields(text: str) -> dict[str, tuple[int, str]]:
    """Each field of the saved game ``text`` with its line number and value, once the first line was checked to
    be the header; raises ``GameFileError`` at the first line that is not as the format says."""
    numbered = [(number, line.strip()) for number, line in enumerate(text.splitlines(), start=1)]
    content = [(number, line) for number, line in numbered if line and not line.startswith("#")]
    if not content:
        raise GameFileError(f"empty: a saved game starts with '{FORMAT} {VERSION}'")
    number, header = content[0]
    match = re.fullmatch(rf"{FORMAT}\s+([0-9]+)", header)
    if match is None:
        raise GameFileError(f"line {number}: not a saved game (it should start with '{FORMAT} {VERSION}')")
    if match.group(1).lstrip("0") != str(VERSION):  # (compared as text: no conversion of a thousand digits)
        raise GameFileError(
            f"line {number}: format version {shown(match.group(1))} is not one this plyscope reads ({VERSION})"
        )
    fields: dict[str, tuple[int, str]] = {}
    for number, line in content[1:]:
        key, colon, value = line.partition(":")
        key = key.strip()
        if not colon:
            raise GameFileError(f"line {number}: '{line}' is not 'field: value'")
        if key not in FIELDS:
            raise GameFileError(f"line {number}: unknown field '{key}' (the fields are {', '.join(FIELDS)})")
        if key in fields:
            raise GameFileError(f"line {number}: field '{key}' again (first on line {fields[key][0]})")
        fields[key] = (number, value.strip())
    missing = [key for key in FIELDS if key not in fields]
    if missing:
        raise GameFileError(f"no '{missing[0]}' line: a saved game has {', '.join(FIELDS)}")
    return fields


def _label(state: State, move: Move) -> str:
    """``move`` as the game writes it, or as Python does when it is not even a move of this game."""
    try:
        return state.move_label(move)
    except (AssertionError, IndexError, TypeError, ValueError):
        return repr(move)
