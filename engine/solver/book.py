"""Markus Thill's 12-ply opening book of Connect Four (7x6), packed in numpy arrays: exact scores after 12 stones.

Connect Four was first solved by Allis (1988, "A knowledge-based approach of Connect-Four": the first
player wins); Pons' solver (``plyscope.engine.solver``) finds any position's score by search, but from
the empty board that takes far more nodes than a student waits for.  Thill's book
(``bitbully-databases`` on PyPI, MIT licence, by Markus Thill, the companion of his BitBully solver:
https://github.com/MarkusThill/bitbully-databases) holds the exact value, win distance included, of
every 7x6 position with 12 stones where the player to move cannot win at once; the solver uses it as
the leaves of its search (``native_kernel``, ``python_kernel``), so every position with at most 12
stones is solved by a search of at most 12 plies.

The file (``book_12ply_distances.dat``, 21,004,495 bytes) is 4,200,899 records of 5 bytes, sorted by
their key as a signed 32-bit integer:

* the key, 4 bytes big-endian: the position's Huffman code, columns left to right, each from the
  bottom up, ``10`` a stone of the player to move (the first player: 12 stones are on the board),
  ``11`` one of the other player, ``0`` after the column's last stone, and one ``0`` more at the end
  (24 + 7 + 1 = 32 bits).  A position and its mirror image share one record, under either's code;
  a lookup tries the position's code, then its mirror's (as Thill's reader does).
* the value, 1 signed byte, for the **player to move** (the first player): ``0`` a draw, ``±v``
  a win (``+``) or a loss (``-``) whose winning stone is the ``(100 - v)``-th stone placed from now.

Pons' score for the player to move (0 a draw, ``s > 0`` a win with their ``s``-th-to-last stone) is
then ``±((|v| - 100 + 30) // 2 + 1)``: 30 cells are empty after 12 stones (``pons_score``; the book's
range ``±70..±98`` gives ``±1..±15``).  The tests check it against the solver's own search on sampled
positions and their mirrors.  (The package's other two books carry no distance: its 8-ply book and
12-ply book say only win, draw or loss, which can settle a null-window probe at 0 but not Pons' exact
score; plyscope reads the book with distances alone.)

Packed, the book costs 13.1 MB, loaded on first use (``OpeningBook.arrays``): each code, its sign
bit flipped so that unsigned order is the file's order, is split into its top 16 bits, kept as the
start of its bucket in ``index`` (65,537 offsets), and its low 16 bits (``low``, sorted within each
bucket); ``scores`` holds each record's Pons score.  A lookup is a binary search within one bucket.
"""

from __future__ import annotations

import os
import threading
from bisect import bisect_left
from dataclasses import dataclass
from importlib.resources import as_file, files
from typing import TYPE_CHECKING, Final

from plyscope.engine.games.connect4 import Bitboard, Connect4

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

BOOK_PLY: Final = 12
"""The stones on the board in every position the book holds."""
BOOK_BOARD: Final = Connect4()
"""The only board with a book: standard 7x6 Connect Four."""
NO_BOOK_VARIABLE: Final = "PLYSCOPE_NO_BOOK"
"""An environment variable: set (to anything but empty or ``0``), solvers search without the book (``--no-book``
sets it, so that worker processes started afterwards inherit it)."""
PACKAGE: Final = "bitbully_databases"
BOOK_FILE: Final = "assets/book_12ply_distances.dat"
"""The book with distances, inside the ``bitbully-databases`` package."""
RECORDS: Final = 4_200_899
"""Records in the book file (its size is 5 bytes a record)."""
CHUNK: Final = 1 << 18
"""Records read at a time (1.3 MB of the file)."""
BUCKET_BITS: Final = 16
"""A code's top bits that choose its bucket (``index``); the rest are kept in ``low``."""
NO_BOOK_NOTE: Final = "no opening book for this board (the book is 7x6 Connect Four's)"
"""What ``plyscope solve`` says where a board has no book (and any screen that must say it)."""


def has_book(game: Connect4) -> bool:
    """Whether ``game``'s board has the opening book (standard 7x6 only)."""
    return game == BOOK_BOARD


def book_allowed() -> bool:
    """Whether solvers may use the book in this process (``NO_BOOK_VARIABLE`` unset, empty or ``0``)."""
    return os.environ.get(NO_BOOK_VARIABLE, "") in ("", "0")


def forbid_book() -> None:
    """Make every solver made from now on search without the book, in this process and the ones it starts."""
    os.environ[NO_BOOK_VARIABLE] = "1"


def uses_book(game: Connect4, book: bool | None) -> bool:
    """Whether a solver for ``game`` uses the book: where the board has one, and ``book`` (``None``:
    ``book_allowed()``) says so."""
    return has_book(game) and (book_allowed() if book is None else book)


def _column_pieces() -> tuple[tuple[int, int], ...]:
    """``(code bits, length)`` of one column's part of a Huffman code, by ``column stones << 6 | mover's stones``
    (each 6 bits, the column's cells from the bottom up)."""
    pieces = []
    for key in range(1 << 12):
        column, mover = key >> 6, key & 63
        code = length = 0
        for row in range(6):
            if not column >> row & 1:
                break
            code = code << 2 | (2 if mover >> row & 1 else 3)
            length += 2
        pieces.append((code << 1, length + 1))
    return tuple(pieces)


def huffman_codes(current: Bitboard, mask: Bitboard) -> tuple[int, int]:
    """The book's code of a 7x6 position whose player to move owns ``current`` (``mask``: all stones), and its
    mirror image's, both as unsigned 32-bit numbers (the file's signed key modulo 2^32) for 12 stones."""
    pieces = _PIECES
    code = mirrored = 0
    for column in range(7):
        piece, length = pieces[(mask >> 7 * column & 63) << 6 | current >> 7 * column & 63]
        code = code << length | piece
        piece, length = pieces[(mask >> 7 * (6 - column) & 63) << 6 | current >> 7 * (6 - column) & 63]
        mirrored = mirrored << length | piece
    return code << 1, mirrored << 1


_PIECES: Final = _column_pieces()


@dataclass(frozen=True, slots=True)
class BookArrays:
    """The packed book: a record is found by a code's bucket (its top 16 bits, sign bit flipped) in ``index``,
    then its low 16 bits in that bucket's part of ``low``."""

    index: npt.NDArray[np.int64]
    """``index[b]`` to ``index[b + 1]``: the records of bucket ``b`` (65,537 offsets)."""
    low: npt.NDArray[np.uint16]
    """Each record's code, its low 16 bits; ascending within a bucket."""
    scores: npt.NDArray[np.int8]
    """Each record's Pons score, for the player to move in its position (the first player)."""

    @property
    def nbytes(self) -> int:
        return self.index.nbytes + self.low.nbytes + self.scores.nbytes


def pons_score(value: int) -> int:
    """A book value (``±(100 - plies to the winning stone)``, 0 a draw) as Pons' score, both for the player to move
    after 12 stones: a win whose stone is the ``d``-th from now is worth ``(32 - d) // 2``."""
    if value == 0:
        return 0
    score = (abs(value) - 100 + BOOK_BOARD.cells - BOOK_PLY) // 2 + 1
    return score if value > 0 else -score


def read_book() -> BookArrays:
    """Read the book file of ``bitbully-databases`` into packed arrays, ``CHUNK`` records at a time (the whole file
    is never held: a load's peak is the packed arrays and one chunk)."""
    import numpy as np

    record = np.dtype([("key", ">u4"), ("value", "u1")])
    as_pons = np.array([pons_score(byte - 256 if byte > 127 else byte) for byte in range(256)], dtype=np.int8)
    counts = np.zeros(1 << (32 - BUCKET_BITS), dtype=np.int64)
    low = np.empty(RECORDS, dtype=np.uint16)
    scores = np.empty(RECORDS, dtype=np.int8)
    with as_file(files(PACKAGE).joinpath(BOOK_FILE)) as path, path.open("rb") as stream:
        if path.stat().st_size != RECORDS * record.itemsize:
            raise OSError(
                f"{path}: {path.stat().st_size:,} bytes, not the {RECORDS * record.itemsize:,} of Thill's book"
            )
        for start in range(0, RECORDS, CHUNK):
            chunk = np.fromfile(stream, dtype=record, count=min(CHUNK, RECORDS - start))
            unsigned = chunk["key"].astype(np.uint32) ^ np.uint32(1 << 31)  # ascending as the file's signed keys
            counts += np.bincount(unsigned >> BUCKET_BITS, minlength=len(counts))
            low[start : start + len(chunk)] = unsigned  # (the low 16 bits)
            scores[start : start + len(chunk)] = as_pons[chunk["value"]]
    index = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=index[1:])
    return BookArrays(index, low, scores)


class OpeningBook:
    """The book, read from its file on first use (by any thread; once), then kept for the process."""

    def __init__(self) -> None:
        self._arrays: BookArrays | None = None
        self._lock = threading.Lock()
        self._views: tuple[memoryview, memoryview, memoryview] | None = None
        """``index``, ``low`` and ``scores`` as memoryviews: a lookup in Python (``score``) reads them as ints,
        with no numpy call."""

    @property
    def loaded(self) -> bool:
        return self._arrays is not None

    def arrays(self) -> BookArrays:
        """The packed book, loading it now if no caller has yet (some 0.1 s)."""
        arrays = self._arrays
        if arrays is None:
            with self._lock:
                arrays = self._arrays
                if arrays is None:
                    arrays = self._arrays = read_book()
        return arrays

    def score(self, current: Bitboard, mask: Bitboard) -> int | None:
        """Pons' score of a 7x6 position with 12 stones for its player to move (who owns ``current``; ``mask``:
        all stones); ``None`` if the book does not hold it (the player to move can win at once)."""
        views = self._views
        if views is None:
            arrays = self.arrays()
            views = self._views = (arrays.index.data, arrays.low.data, arrays.scores.data)
        index, low, scores = views
        for code in huffman_codes(current, mask):
            key = code ^ (1 << 31)
            start, end = index[key >> BUCKET_BITS], index[(key >> BUCKET_BITS) + 1]
            target = key & ((1 << BUCKET_BITS) - 1)
            found = bisect_left(low, target, start, end)
            if found < end and low[found] == target:
                return int(scores[found])
        return None


_BOOK: Final = OpeningBook()


def opening_book() -> OpeningBook:
    """The process's one book (not read until first used)."""
    return _BOOK
