"""A subtraction game for plyscope: a pile of tokens, each player in turn takes 1, 2 or 3 of them, and whoever takes
the last one wins.  The player to move wins exactly when the pile is not a multiple of 4 (take what leaves one):
the exact values, by theory.

``--game subtraction`` starts from 21 tokens, ``--game subtraction:N`` from N.  A position is the tokens left,
``17`` (the first player to move) or ``17/2`` (the second); a move is the tokens taken, ``-3`` or ``3``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from plyscope.engine.games.base import Game, Move, Player, PositionError, State
from plyscope.engine.kits.base import ExactValues, GameKit, Number, Truth
from plyscope.engine.pov import PovScore

TOKENS = 21
"""The pile ``--game subtraction`` starts from."""
MOST = 3
"""The most tokens a move takes."""


class Subtraction:
    """The game: its name, its kit, its start and how a position is written."""

    kit = "subtraction"

    def __init__(self, tokens: int = TOKENS) -> None:
        self.tokens = tokens
        self.name = "subtraction" if tokens == TOKENS else f"subtraction:{tokens}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Subtraction) and other.tokens == self.tokens

    def __hash__(self) -> int:
        return hash((Subtraction, self.tokens))

    def start(self) -> Pile:
        return Pile(self, self.tokens, 1, 0)

    def parse(self, text: str) -> Pile:
        """``17`` (the first player to move) or ``17/2`` (the second); ``''`` the start."""
        written, _, second = text.strip().partition("/")
        if not written:
            return self.start()
        if not written.isdigit() or int(written) > self.tokens or second not in ("", "1", "2"):
            raise PositionError(f"'{text}' is not a pile of 0 to {self.tokens} tokens, then /2 if the second moves")
        return Pile(self, int(written), -1 if second == "2" else 1, 0)


class Pile:
    """A position (immutable): the tokens left and the player to move (+1 the first, -1 the second)."""

    def __init__(self, game: Subtraction, left: int, player: Player, ply: int) -> None:
        self.game = game
        self.left = left
        self.player = player
        self.ply = ply

    def legal_moves(self) -> Sequence[Move]:
        return tuple(take for take in range(1, MOST + 1) if take <= self.left)

    def play(self, move: Move) -> Pile:
        assert isinstance(move, int) and move in self.legal_moves()
        return Pile(self.game, self.left - move, -self.player, self.ply + 1)

    def is_terminal(self) -> bool:
        return self.left == 0

    def winner(self) -> Player | None:
        """Whoever took the last token: the player not to move."""
        return -self.player if self.left == 0 else None

    def utility(self) -> int:
        """The winner, from the first player's point of view."""
        winner = self.winner()
        if winner is None:
            raise ValueError("utility() of a game that goes on")
        return winner

    def key(self) -> Hashable:
        return (self.left, self.player)

    def text(self) -> str:
        return str(self.left) if self.player == 1 else f"{self.left}/2"

    def board_text(self) -> str:
        """The pile drawn, for the text board view."""
        return f"{'|' * self.left}  {self.left} left"

    def move_label(self, move: Move) -> str:
        return f"-{move}"

    def parse_move(self, text: str) -> Move:
        take = text.strip().lstrip("-")
        if not take.isdigit() or int(take) not in self.legal_moves():
            raise PositionError(f"'{text}': take 1 to {min(MOST, self.left)} tokens")
        return int(take)


class SubtractionValues(ExactValues):
    """Exact values by theory, for the player to move: +1 a win, -1 a loss."""

    legend = "+1 win, -1 loss"

    def truth(self, state: State, budget: int, at_least: Number | None = None) -> Truth:
        assert isinstance(state, Pile)
        if state.is_terminal():
            return Truth(PovScore(-1, state.player))  # (the other player took the last token)
        return Truth(PovScore(1 if state.left % (MOST + 1) else -1, state.player))


class SubtractionKit(GameKit):
    """What plyscope asks of the game: its names, how positions are written, its exact values."""

    name = "subtraction"
    summary = "take 1 to 3 tokens from a pile; whoever takes the last one wins (exact values by theory)"
    positions = "the tokens left, 17 (the first player to move) or 17/2 (the second)"
    position_hint = "tokens left, e.g. 17 or 17/2 (blank: start)"

    def names(self) -> tuple[str, ...]:
        return ("subtraction", "subtraction:N")

    def choices(self) -> tuple[str, ...]:
        return ("subtraction", "subtraction:10")

    def make(self, name: str) -> Game | None:
        if name == "subtraction":
            return Subtraction()
        head, _, size = name.partition(":")
        if head != "subtraction":
            return None
        if not size.isdigit() or not 1 <= int(size) <= 1000:
            raise PositionError(f"'{name}': subtraction:N starts from a pile of 1 to 1000 tokens")
        return Subtraction(int(size))

    def exact(self, game: Game) -> ExactValues:
        return SubtractionValues()
