"""OpenSpiel's games (the optional extra ``plyscope[openspiel]``): every registered game that is two-player,
zero-sum (or constant-sum), sequential and of perfect information, through one adapter.

``--game openspiel:NAME`` names one with its default parameters, ``openspiel:NAME(param=value,...)`` with others,
as OpenSpiel spells them (``openspiel:breakthrough(rows=5,columns=5)``); a game is named canonically by the
parameters that differ from the defaults, sorted (``openspiel:breakthrough(columns=5,rows=5)``), so a saved search
names its game and parameters.  pyspiel is imported the first time such a game is made: plyscope starts without it,
and without the extra an ``openspiel:`` name is refused in one line saying how to install it.

The adapter (``SpielState``, immutable: a move plays on a clone):

* ``player`` is ``+1`` where OpenSpiel's player 0 moves, ``-1`` for player 1, ``CHANCE`` at a chance node (its
  ``outcomes`` are OpenSpiel's ``chance_outcomes()``); values are player 0's, the first player's, as for every game
  (``utility`` is the sign of player 0's return less player 1's).
* Moves are OpenSpiel's action numbers, labelled by ``action_to_string``; ``parse_move`` takes either.
* The players take turns, as every searcher here assumes: where OpenSpiel lets a player move twice in a row (a
  multi-jump in checkers, a sowing that ends in one's own store in mancala, a box completed in dots and boxes,
  after a die roll in pig), the other player makes a forced move between the two, ``PASS`` (written ``-``,
  labelled ``(pass)``), which changes nothing in the game.
* A position is written as the moves played, action numbers (``-`` a pass) separated by spaces or commas (the
  start is ``''``); action strings without spaces are read too, and OpenSpiel's serialisation of a state.
* ``key()`` is the moves played (safe for every game: a transposition table then shares no positions).
* ``board_text()`` is the state's own text (``str(state)``), which the ``text`` board view draws.

Evaluator: ``playouts`` (the mean of a few seeded random playouts, ``plyscope.engine.kits.playouts``) by default,
then ``neutral``.  Exact values (``SpielValues``, deterministic games only): a memoised minimax over OpenSpiel's
states within a budget of nodes, settling what it can (endgames, small boards; tic-tac-toe at once).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import re
import sys
import threading
from collections.abc import Iterator, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from plyscope.engine.games.base import CHANCE, Draws, Game, Move, Player, PositionError, State
from plyscope.engine.kits.base import ExactValues, FastPlayouts, GameKit, Number, Truth
from plyscope.engine.numbers import shown
from plyscope.engine.pov import PovScore

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

PREFIX = "openspiel:"
"""What begins every OpenSpiel game's name."""
INSTALL = "pip install 'plyscope[openspiel]'"
"""How to install what these games need."""
PASS = -1
"""The forced move of the player who does not move when OpenSpiel lets the other move twice in a row."""
PASS_TEXT = "-"
"""``PASS`` in a written position."""
PASS_LABEL = "(pass)"
"""``PASS``'s label."""
NAME = re.compile(r"([A-Za-z0-9_]+)(?:\((.*)\))?", re.DOTALL)
"""``NAME`` or ``NAME(param=value,...)``, after ``openspiel:``."""
SEPARATORS = re.compile(r"[\s,]+")
"""Between two moves of a written position."""
TRANSPOSING = frozenset(
    {
        "breakthrough",
        "clobber",
        "connect_four",
        "gomoku",
        "hex",
        "mnk",
        "nim",
        "othello",
        "pentago",
        "tic_tac_toe",
        "y",
    }
)
"""Games whose state's text and player to move are the whole position (no move counters, no repetition
history): the exact values share one entry between the paths to a position.  Others are keyed by their moves."""
INSTANT_PLIES = 16
"""A game whose longest game has at most this many plies is tried for exact values at once (tic-tac-toe)."""
INSTANT_NODES = 100_000
"""Nodes that try takes at most."""
DEEPEST = 400
"""The deepest line the exact values follow before leaving a position unsettled (Python's recursion)."""
MEMO_LIMIT = 2_000_000
"""Positions the exact values keep at most; past it they are forgotten and found again."""
SEARCHED = "plyscope searches two-player zero-sum games of perfect information, with sequential moves"
"""What a refusal of a game adds."""


def _pyspiel() -> Any:
    """The ``pyspiel`` module, imported now if it was not; ``PositionError`` (with how to install it) without it."""
    try:
        return importlib.import_module("pyspiel")
    except ImportError as error:
        raise PositionError(f"OpenSpiel's games need OpenSpiel, which is not installed ({INSTALL})") from error


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Standard error (the file descriptor: OpenSpiel's C++ writes there) silenced: OpenSpiel prints every error it
    raises and warns of some games as they load; plyscope says what matters in one line of its own."""
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no standard error to silence
        yield
        return
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def refusal_of(game_type: Any, players: int | None = None) -> str | None:
    """Why the OpenSpiel game of ``game_type`` (with ``players`` players, where known) is not one plyscope searches;
    ``None``: it is."""
    spiel = _pyspiel()
    kind = spiel.GameType
    if game_type.dynamics != kind.Dynamics.SEQUENTIAL:
        return "simultaneous moves" if game_type.dynamics == kind.Dynamics.SIMULTANEOUS else "mean-field dynamics"
    if game_type.information != kind.Information.PERFECT_INFORMATION:
        return "imperfect information"
    if players is None and not game_type.min_num_players <= 2 <= game_type.max_num_players:
        players = game_type.min_num_players
    if players is not None and players != 2:
        return "more than two players" if players > 2 else "one player"
    if game_type.utility not in (kind.Utility.ZERO_SUM, kind.Utility.CONSTANT_SUM):
        return "general-sum (not zero-sum)" if game_type.utility == kind.Utility.GENERAL_SUM else "identical payoffs"
    return None


@cache
def qualifying() -> tuple[str, ...]:
    """The short names of the registered games plyscope searches, sorted."""
    return tuple(sorted(t.short_name for t in _pyspiel().registered_games() if refusal_of(t) is None))


@cache
def _defaults(short: str) -> dict[str, object]:
    """The parameters of OpenSpiel's game ``short`` with their default values: its type's specification (some games,
    ``mnk``, report none of theirs once loaded), then what the game loaded reports."""
    spiel = _pyspiel()
    with _quiet():
        loaded = spiel.load_game(short)
        return {**loaded.get_type().parameter_specification, **loaded.get_parameters()}


def _parameter(short: str, key: str, text: str) -> object:
    """The value ``text`` of ``short``'s parameter ``key``, of its default's type."""
    defaults = _defaults(short)
    if key not in defaults:
        known = ", ".join(sorted(defaults)) or "none"
        raise PositionError(f"openspiel:{short} has no parameter '{shown(key)}' (its parameters: {known})")
    default = defaults[key]
    written = text.strip()
    if isinstance(default, bool):
        if written.lower() in ("true", "1"):
            return True
        if written.lower() in ("false", "0"):
            return False
        raise PositionError(f"openspiel:{short}: {key} is true or false, not '{shown(written)}'")
    try:
        if isinstance(default, int):
            return int(written)
        if isinstance(default, float):
            return float(written)
    except ValueError:
        kind = "a whole number" if isinstance(default, int) else "a number"
        raise PositionError(f"openspiel:{short}: {key} is {kind}, not '{shown(written)}'") from None
    return written


def _split_parameters(text: str) -> list[str]:
    """``a=1,b=x(c=2,d=3)`` as its items, commas inside parentheses kept."""
    items, depth, start = [], 0, 0
    for at, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            items.append(text[start:at])
            start = at + 1
    items.append(text[start:])
    return [item for item in items if item.strip()]


def load(name: str) -> SpielGame:
    """The game ``name`` (``openspiel:NAME`` or ``openspiel:NAME(param=value,...)``); ``PositionError`` saying why
    for a name that is no such game, or names one plyscope does not search."""
    spiel = _pyspiel()
    written = NAME.fullmatch(name.removeprefix(PREFIX).strip())
    if written is None:
        raise PositionError(f"'{shown(name)}' is not written openspiel:NAME or openspiel:NAME(param=value,...)")
    short, inside = written.group(1), written.group(2) or ""
    types = {t.short_name: t for t in spiel.registered_games()}
    if short not in types:
        raise PositionError(
            f"OpenSpiel has no game '{shown(short)}': plyscope searches {', '.join(qualifying())} (plyscope games)"
        )
    reason = refusal_of(types[short])
    if reason is not None:
        raise PositionError(f"openspiel:{short} is not a game plyscope searches: {reason} ({SEARCHED})")
    chosen: dict[str, object] = {}
    for item in _split_parameters(inside):
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise PositionError(f"openspiel:{short}: '{shown(item)}' is not param=value")
        chosen[key.strip()] = _parameter(short, key.strip(), value)
    changed = {key: value for key, value in chosen.items() if _defaults(short)[key] != value}
    return _game(short, tuple(sorted(changed.items())))


@cache
def _game(short: str, parameters: tuple[tuple[str, object], ...]) -> SpielGame:
    """OpenSpiel's game ``short`` with the ``parameters`` that differ from its defaults, made once."""
    spiel = _pyspiel()
    try:
        with _quiet():
            loaded = spiel.load_game(short, dict(parameters))
            start = loaded.new_initial_state()  # (some parameters are checked only here)
    except spiel.SpielError as error:
        raise PositionError(f"openspiel:{short}: {_first_line(error)}") from None
    reason = refusal_of(loaded.get_type(), loaded.num_players())
    if reason is not None:
        raise PositionError(f"openspiel:{loaded} is not a game plyscope searches: {reason} ({SEARCHED})")
    return SpielGame(loaded, start)


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def _outcome(outcomes: Sequence[tuple[int, float]], draw: float) -> int:
    """The outcome a uniform ``draw`` in [0, 1) picks, each with its probability."""
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if draw < total:
            return action
    return outcomes[-1][0]


class SpielGame:
    """One OpenSpiel game with its parameters: also the ``Game``."""

    kit = "openspiel"

    def __init__(self, spiel_game: Any, start: Any) -> None:
        """``start``: its initial pyspiel state."""
        self.spiel = spiel_game
        """The ``pyspiel.Game``."""
        self._start = SpielState(self, start, (), 0)
        written = str(spiel_game).removesuffix("()")
        self.name = PREFIX + written
        """``openspiel:NAME``, with the parameters that differ from the defaults: what ``--game`` takes back."""
        game_type = spiel_game.get_type()
        self.short: str = game_type.short_name
        self.long_name: str = game_type.long_name
        self.chance: bool = game_type.chance_mode != type(game_type.chance_mode).DETERMINISTIC
        """Whether nature moves in it (dice, a shuffle)."""

    def __repr__(self) -> str:
        return f"SpielGame({self.name!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SpielGame) and other.name == self.name

    def __hash__(self) -> int:
        return hash((SpielGame, self.name))

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (make_spiel_game, (self.name,))

    def start(self) -> SpielState:
        return self._start

    def parse(self, text: str) -> SpielState:
        """The position after the moves ``text`` lists (action numbers or strings, ``-`` a pass; ``''``: the start),
        or written as OpenSpiel serialises a state."""
        written = text.strip()
        if not written:
            return self._start
        tokens = SEPARATORS.split(written)
        try:
            return self._after(tokens)
        except PositionError as error:
            if all(token == PASS_TEXT or token.isdigit() for token in tokens):
                raise
            serialised = self._deserialised(written)
            if serialised is None:
                raise error from None
        state = self._after([str(action) for action in serialised.history()])
        if str(state.spiel) != str(serialised):
            raise PositionError(f"the state serialised starts from another position than {self.name}'s start")
        return state

    def _after(self, tokens: Sequence[str]) -> SpielState:
        """The position after the moves ``tokens`` name: a pass is played where one is due, written or not."""
        state = self._start
        for index, token in enumerate(tokens, start=1):
            if state.is_terminal():
                raise PositionError(f"move {index} ('{shown(token, 12)}'): the game is over after move {index - 1}")
            if state.passing and token != PASS_TEXT:
                state = state.play(PASS)
            try:
                move = state.parse_move(token)
            except PositionError as error:
                raise PositionError(f"move {index}: {error}") from None
            state = state.play(move)
        return state

    def _deserialised(self, text: str) -> Any:
        """The pyspiel state ``text`` serialises (a state's ``serialize()``, or ``serialize_game_and_state``'s with
        this game in it); ``None``: none."""
        spiel = _pyspiel()
        try:
            with _quiet():
                if "[State]" in text:
                    game, state = spiel.deserialize_game_and_state(text)
                    return state if str(game) == str(self.spiel) else None
                return self.spiel.deserialize_state(text)
        except (spiel.SpielError, RuntimeError, ValueError):
            return None


def make_spiel_game(name: str) -> SpielGame:
    """The game ``name`` (a ``SpielGame``'s name): how one travels to a worker process."""
    return load(name)


class SpielState:
    """An immutable position of an OpenSpiel game: the pyspiel state (never changed once made), the moves played, and
    whether the player not to move in OpenSpiel's state passes first."""

    __slots__ = ("game", "_spiel", "history", "_last", "_moves", "__weakref__")

    game: SpielGame
    history: tuple[int, ...]
    """The moves played from the start, passes (``PASS``) and chance outcomes among them."""

    def __init__(self, game: SpielGame, spiel_state: Any, history: tuple[int, ...], last: Player) -> None:
        """``last``: the player who made the last move that was not nature's (``0``: nobody yet)."""
        self.game = game
        self._spiel = spiel_state
        self.history = history
        self._last = last
        self._moves: tuple[int, ...] | None = None

    @property
    def spiel(self) -> Any:
        """The pyspiel state (not to be changed)."""
        return self._spiel

    @property
    def spiel_player(self) -> Player:
        """Who moves next in OpenSpiel's state: ``+1`` player 0, ``-1`` player 1, ``CHANCE`` nature (the game over:
        ``CHANCE`` too)."""
        current = self._spiel.current_player()
        return 1 if current == 0 else (-1 if current == 1 else CHANCE)

    @property
    def passing(self) -> bool:
        """Whether the player to move here passes (the other one moved last and OpenSpiel lets them move again)."""
        return self._last != 0 and self.spiel_player == self._last

    @property
    def ply(self) -> int:
        return len(self.history)

    @property
    def player(self) -> Player:
        if self._spiel.is_terminal():
            return -self._last if self._last else 1
        if self._spiel.is_chance_node():
            return CHANCE
        return -self._last if self.passing else self.spiel_player

    @property
    def mover(self) -> Player:
        """At a chance node: the player who moved last (``-1`` before anybody has)."""
        return self._last or -1

    def legal_moves(self) -> Sequence[int]:
        moves = self._moves
        if moves is None:
            if self._spiel.is_terminal():
                moves = ()
            elif self.passing:
                moves = (PASS,)
            elif self._spiel.is_chance_node():
                moves = tuple(action for action, _ in self._spiel.chance_outcomes())
            else:
                moves = tuple(self._spiel.legal_actions())
            self._moves = moves
        return moves

    def outcomes(self) -> Sequence[tuple[Move, float]]:
        """Nature's moves here with their probabilities (a chance node)."""
        return [(action, probability) for action, probability in self._spiel.chance_outcomes()]

    def outcome_for(self, draw: float) -> int:
        return _outcome(self._spiel.chance_outcomes(), draw)

    def play(self, move: Move) -> SpielState:
        if move == PASS:
            assert self.passing, "a pass where none is due"
            return SpielState(self.game, self._spiel, (*self.history, PASS), -self._last)
        assert isinstance(move, int)
        player = self.spiel_player
        return SpielState(
            self.game, self._spiel.child(move), (*self.history, move), self._last if player == CHANCE else player
        )

    def is_terminal(self) -> bool:
        return bool(self._spiel.is_terminal())

    def winner(self) -> Player | None:
        if not self._spiel.is_terminal():
            return None
        returns = self._spiel.returns()
        return _sign(returns[0] - returns[1])

    def utility(self) -> int:
        winner = self.winner()
        if winner is None:
            raise ValueError("utility() of a position where the game goes on")
        return winner

    def key(self) -> tuple[int, ...]:
        return self.history

    def move_label(self, move: Move) -> str:
        if move == PASS:
            return PASS_LABEL
        assert isinstance(move, int)
        if move not in self.legal_moves():  # (OpenSpiel's text of a move depends on the position it is played in)
            return str(move)
        return str(self._spiel.action_to_string(self._spiel.current_player(), move))

    def parse_move(self, text: str) -> int:
        """The legal move written ``text``: its action number or OpenSpiel's text of it (``-`` or ``pass`` a due
        pass); ``PositionError`` otherwise."""
        written = text.strip()
        moves = self.legal_moves()
        if self.passing:
            if written.lower() in (PASS_TEXT, "pass", PASS_LABEL, str(PASS)):
                return PASS
            raise PositionError(f"'{shown(written, 12)}': {self._opponent_words()} must pass here ({PASS_TEXT})")
        if written.lstrip("-").isdigit() and int(written) in moves:
            return int(written)
        for exact in (True, False):
            for move in moves:
                label = self.move_label(move)
                if label == written if exact else label.lower() == written.lower():
                    return move
        if not moves:
            raise PositionError("the game is over: no move can be played")
        some = ", ".join(f"{self.move_label(move)} ({move})" for move in moves[:6])
        more = f" and {len(moves) - 6} more" if len(moves) > 6 else ""
        raise PositionError(f"'{shown(written, 12)}' is not a legal move here: {some}{more}")

    def _opponent_words(self) -> str:
        return "player 1" if self._last == 1 else "player 0"

    def text(self) -> str:
        """The moves played, action numbers (``-`` a pass) separated by spaces."""
        return " ".join(PASS_TEXT if move == PASS else str(move) for move in self.history)

    def board_text(self) -> str:
        """OpenSpiel's text of the state (its board), and who passes where one is due."""
        board = str(self._spiel).rstrip()
        return f"{board}\n{self._opponent_words()} passes" if self.passing else board

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SpielState) and other.game == self.game and other.history == self.history

    def __hash__(self) -> int:
        return hash(self.history)

    def __repr__(self) -> str:
        return f"<SpielState {self.game.name} {self.text() or '-'}>"


class SpielPlayouts:
    """Random playouts on OpenSpiel's states in place (one clone a playout), drawing as ``state_playout`` does through
    ``SpielState.play``: one draw a move, a pass's included, a chance node's outcome by its probability."""

    def one(self, state: State, draws: Draws) -> tuple[Player, int]:
        assert isinstance(state, SpielState)
        playing = state.spiel.clone()
        draw = draws.draw
        last = state._last
        played = 0
        while not playing.is_terminal():
            current = playing.current_player()
            if current < 0:
                playing.apply_action(_outcome(playing.chance_outcomes(), draw()))
            else:
                player = 1 if current == 0 else -1
                if player == last:  # the other player's pass
                    draw()
                    last = -last
                else:
                    actions = playing.legal_actions()
                    playing.apply_action(actions[int(draw() * len(actions))])
                    last = player
            played += 1
        returns = playing.returns()
        return _sign(returns[0] - returns[1]), played

    def many(self, state: State, count: int, draws: Draws) -> tuple[npt.NDArray[np.int8], int] | None:
        return None


class SpielValues(ExactValues):
    """Exact values of a deterministic OpenSpiel game: ``+1`` the player to move wins, ``0`` a draw, ``-1`` a loss, by
    a memoised minimax over OpenSpiel's states within a budget of nodes (every position visited counts, a known one
    too, as the solver's negamax calls do)."""

    def __init__(self, game: SpielGame) -> None:
        self.game = game
        self._memo: dict[object, int] = {}
        """A position's key -> its value for player 0."""
        self._by_text = game.short in TRANSPOSING
        self._lock = threading.Lock()
        self._spent = 0
        self.instant = False
        if game.spiel.max_game_length() <= INSTANT_PLIES and self._by_text:
            with self._lock:
                self._spent = 0
                self.instant = self._value(game.spiel.new_initial_state(), INSTANT_NODES, 0) is not None

    def truth(self, state: State, budget: int, at_least: Number | None = None) -> Truth:
        assert isinstance(state, SpielState)
        if state.is_terminal():
            return Truth(PovScore(state.utility() * state.player, state.player))
        with self._lock:
            if len(self._memo) > MEMO_LIMIT:
                self._memo.clear()
            self._spent = 0
            value = self._value(state.spiel, None if self.instant else max(budget, 1), 0)
            spent = self._spent
        return Truth(None if value is None else PovScore(value * state.player, state.player), spent)

    def _key(self, spiel_state: Any) -> object:
        if self._by_text:
            return (str(spiel_state), spiel_state.current_player())
        return spiel_state.history_str()

    def _value(self, spiel_state: Any, limit: int | None, depth: int) -> int | None:
        """``spiel_state``'s value for player 0 (``+1``, ``0``, ``-1``); ``None`` past ``limit`` nodes or
        ``DEEPEST`` plies."""
        self._spent += 1
        if spiel_state.is_terminal():
            returns = spiel_state.returns()
            return _sign(returns[0] - returns[1])
        key = self._key(spiel_state)
        known = self._memo.get(key)
        if known is not None:
            return known
        if (limit is not None and self._spent > limit) or depth >= DEEPEST:
            return None
        goal = 1 if spiel_state.current_player() == 0 else -1
        best = -goal
        for action in spiel_state.legal_actions():
            value = self._value(spiel_state.child(action), limit, depth + 1)
            if value is None:
                return None
            if value * goal > best * goal:
                best = value
                if best == goal:
                    break
        self._memo[key] = best
        return best

    def clear(self) -> None:
        with self._lock:
            self._memo.clear()


class OpenSpielKit(GameKit):
    name = "openspiel"
    summary = "OpenSpiel's two-player zero-sum games of perfect information (breakthrough, hex, othello, ...)"
    positions = "the moves played, OpenSpiel's action numbers: '12 34 5' ('' the start; - a forced pass)"
    position_hint = "action numbers, e.g. 12 34 (blank: start)"
    player_names = ("player 0", "player 1")
    board = "text"

    def missing(self) -> str | None:
        if importlib.util.find_spec("pyspiel") is None:
            return f"OpenSpiel is not installed ({INSTALL})"
        return None

    def names(self) -> tuple[str, ...]:
        return ("openspiel:NAME", "openspiel:NAME(param=value,...)")

    def choices(self) -> tuple[str, ...]:
        return tuple(PREFIX + short for short in qualifying())

    def first(self) -> Game:
        return load(PREFIX + "tic_tac_toe")

    def make(self, name: str) -> Game | None:
        return load(name) if name.startswith(PREFIX) else None

    def describe(self, game: Game) -> str:
        assert isinstance(game, SpielGame)
        return f"OpenSpiel's {game.long_name}" + (" (with chance)" if game.chance else "")

    def has_chance(self, game: Game) -> bool:
        assert isinstance(game, SpielGame)
        return game.chance

    def labels_by_position(self, game: Game) -> bool:
        return True

    def key_fixes_ply(self, game: Game) -> bool:
        return True

    def playouts(self, game: Game) -> FastPlayouts:
        return SpielPlayouts()

    def evaluators(self, game: Game) -> tuple[str, ...]:
        return ("playouts", "neutral")  # (both made by GameKit.evaluator)

    def exact(self, game: Game) -> ExactValues | None:
        assert isinstance(game, SpielGame)
        return None if game.chance else SpielValues(game)

    def no_exact(self, game: Game) -> str:
        return f"{game.name} has chance: its values are expected values, not exact ones"


KITS = (OpenSpielKit(),)
