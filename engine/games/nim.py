"""Nim games on piles of tokens: Grundy's game and classic Nim (normal or misère play).

A position is a multiset of pile sizes, kept as a tuple sorted largest first, so
``(5, 2)`` and ``(2, 5)`` are one position.  It is written as text like ``7`` or ``3,4,5``.

Moves are ``(pile, part)`` pairs naming a pile by its size:

* Grundy's game: split a pile of ``pile`` tokens into ``part`` and ``pile - part`` with
  ``part > pile - part > 0``; written ``8=7+1``.
* classic Nim: take ``part`` tokens (one or more) from a pile of ``pile``; written ``5-2``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from plyscope.engine.games.base import Move, Player, PositionError
from plyscope.engine.numbers import NumberError, parse_int, shown

NimMove = tuple[int, int]
"""``(pile size, part)``: the larger new pile in Grundy's game, the tokens taken in classic Nim."""

MAX_PILE = 1000
MAX_PILES = 32


class Nim:
    """A Nim variant and its default start position; also the ``Game`` object."""

    kit = "nim"

    def __init__(self, variant: str = "grundy", *, misere: bool = False, start: str | None = None) -> None:
        if variant not in ("grundy", "classic"):
            raise PositionError(f"unknown Nim variant '{variant}': use grundy or classic")
        if misere and variant == "grundy":
            raise PositionError("misère play is offered for classic Nim only")
        self.variant = variant
        self.misere = misere
        self.name = "grundy" if variant == "grundy" else ("nim-misere" if misere else "nim")
        self._start = self.parse(start if start is not None else ("7" if variant == "grundy" else "3,4,5"))

    def __repr__(self) -> str:
        return f"Nim({self.variant!r}, misere={self.misere})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Nim) and (self.variant, self.misere) == (other.variant, other.misere)

    def __hash__(self) -> int:
        return hash((Nim, self.variant, self.misere))

    def start(self) -> NimState:
        """The default start: 7 tokens for Grundy's game, piles 3, 4, 5 for classic Nim."""
        return self._start

    def parse(self, text: str) -> NimState:
        """Piles written as ``7``, ``3,4,5`` or ``3 4 5``, the first player to move; ``3,4,5/2``: the second."""
        piles_text, slash, mover = text.strip().partition("/")
        if slash and mover.strip() not in ("1", "2"):
            raise PositionError(f"'/{mover.strip()}' does not name the player to move: write /1 or /2 after the piles")
        player = -1 if mover.strip() == "2" else 1
        words = [w for w in re.split(r"[,\s]+", piles_text.strip()) if w]
        if not words:
            raise PositionError("no piles: write pile sizes such as 7 or 3,4,5")
        piles = []
        for word in words:
            if not re.fullmatch(r"[0-9]+", word):
                raise PositionError(f"pile '{shown(word)}' is not a whole number of tokens")
            try:
                size = parse_int(word, "pile", lo=0, hi=MAX_PILE)
            except NumberError:  # (digits: too large, however many)
                raise PositionError(f"pile {shown(word)} is too large: at most {MAX_PILE} tokens a pile") from None
            if size > 0:
                piles.append(size)
        if len(piles) > MAX_PILES:
            raise PositionError(f"{len(piles)} piles is too many: at most {MAX_PILES}")
        return NimState(self, tuple(sorted(piles, reverse=True)), player, 0 if player == 1 else 1)


class NimState:
    """An immutable Nim position: pile sizes (largest first) and the side to move."""

    __slots__ = ("game", "piles", "player", "ply", "_moves")

    game: Nim
    piles: tuple[int, ...]
    """Pile sizes, largest first; no empty piles."""
    player: Player
    ply: int

    def __init__(self, game: Nim, piles: tuple[int, ...], player: Player, ply: int) -> None:
        self.game = game
        self.piles = piles
        self.player = player
        self.ply = ply
        self._moves: tuple[NimMove, ...] | None = None

    def legal_moves(self) -> Sequence[NimMove]:
        """Moves for each distinct pile size, largest pile and largest part first."""
        if self._moves is None:
            moves: list[NimMove] = []
            for pile in sorted(set(self.piles), reverse=True):
                if self.game.variant == "grundy":
                    moves.extend((pile, part) for part in range(pile - 1, pile // 2, -1))
                else:
                    moves.extend((pile, part) for part in range(pile, 0, -1))
            self._moves = tuple(moves)
        return self._moves

    def play(self, move: Move) -> NimState:
        pile, part = _pair(move)
        piles = list(self.piles)
        piles.remove(pile)
        if self.game.variant == "grundy":
            piles += [part, pile - part]
        elif pile > part:
            piles.append(pile - part)
        return NimState(self.game, tuple(sorted(piles, reverse=True)), -self.player, self.ply + 1)

    def is_terminal(self) -> bool:
        return not self.legal_moves()

    def winner(self) -> Player | None:
        if self.legal_moves():
            return None
        # With no move left the player to move loses, except in misère Nim, where the
        # player who took the last token (the opponent) loses.
        return self.player if self.game.misere else -self.player

    def utility(self) -> int:
        winner = self.winner()
        if winner is None:
            raise ValueError("utility() of a position where the game goes on")
        return winner

    def key(self) -> tuple[tuple[int, ...], Player]:
        return (self.piles, self.player)

    def move_label(self, move: Move) -> str:
        pile, part = _pair(move)
        if self.game.variant == "grundy":
            return f"{pile}={part}+{pile - part}"
        return f"{pile}-{part}"

    def parse_move(self, text: str) -> NimMove:
        """A move written ``8=7+1`` (or ``7+1``) in Grundy's game, ``5-2`` in classic Nim."""
        spelled = text.replace(" ", "")
        for move in self.legal_moves():
            label = self.move_label(move)
            if spelled in (label, label.split("=")[-1]):
                return move
        if self.game.variant == "grundy":
            raise PositionError(
                f"move '{text}' is not legal here: split a pile into two unequal piles, written like 8=7+1"
            )
        raise PositionError(f"move '{text}' is not legal here: take tokens from a pile, written like 5-2")

    def text(self) -> str:
        """The piles, largest first, with ``/2`` after them when the second player is to move."""
        piles = ",".join(str(p) for p in self.piles) if self.piles else "0"
        return piles if self.player == 1 else piles + "/2"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NimState) and self.game == other.game and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"<NimState {self.game.name} {self.text()} player={self.player:+d}>"


def _pair(move: Move) -> NimMove:
    """``move`` as the ``(pile, part)`` pair it is."""
    assert isinstance(move, tuple)
    return move
