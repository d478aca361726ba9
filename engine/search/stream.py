"""A random stream that can be wound back: uniform floats numbered 0, 1, 2... from one seeded PCG64 sequence.

Python's Mersenne Twister (``random.Random``) carries 2.5 kB of state and cannot be wound
back, so a search that draws from it can only be taken back a step by replaying it from its
start.  A ``RandomStream`` is a pure function of its seed and a position: draw ``p`` is the
``p``-th float of PCG64 seeded with ``seed`` (one 64-bit output each, as
``numpy.random.Generator.random`` makes it), and PCG64 jumps to any position in a few
multiplications (``advance``).  So the whole state is ``position``, and ``seek`` sets it back.

Draws are read two ways, both giving the same floats for the same positions:

* one at a time from a window of the sequence kept as a Python list (``buffer``), through an
  iterator over it: ``draw``, or, in a playout's inner loop, ``reserve`` then ``next`` called
  directly (a C call per draw, as cheap as ``random.Random.random``);
* as numpy arrays, for the batched playouts: ``random`` (the method ``numpy.random.Generator``
  has), or straight from ``numpy()``'s generator, then ``skip``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, cast

if TYPE_CHECKING:
    # numpy is imported where it is used: the explorer starts without it (about 0.15 s of CPU a session)
    import numpy as np
    import numpy.typing as npt

BLOCK = 2048
"""The most draws one refill of the window makes (the window then costs about 64 kB of Python floats)."""
FIRST_BLOCK = 32
"""The first refill after a jump; each refill in sequence makes twice as many, up to ``BLOCK``."""
_PERIOD = 1 << 128
"""PCG64's period: advancing by ``_PERIOD - d`` goes back ``d`` draws."""


class _Reader(Protocol):
    """A list's iterator, as the stream uses it: the next item, the items left, and a jump to an index."""

    def __next__(self) -> float: ...

    def __length_hint__(self) -> int: ...

    def __setstate__(self, index: int, /) -> None: ...


class RandomStream:
    """Uniform floats in [0, 1) at positions 0, 1, 2...; ``position`` is the next one drawn, ``seek`` moves it."""

    __slots__ = ("_base", "_bits", "_end", "_fill", "_generator", "_made", "buffer", "left", "next", "seed")

    def __init__(self, seed: int = 0) -> None:
        import numpy as np

        self.seed = seed
        self._bits = np.random.PCG64(seed % _PERIOD)
        self._generator = np.random.Generator(self._bits)
        self._made = 0
        """The position of the bit generator: the next float it makes."""
        self._fill = FIRST_BLOCK
        """How many draws the next refill of the window makes (at least)."""
        self.buffer: list[float] = []
        """Draws ``_base`` to ``_end - 1`` as Python floats: a window on the sequence, read through ``next``."""
        self._base = self._end = 0
        self.next: Callable[[], float] = float
        """The next draw, with no check that the window holds one (``StopIteration`` if not): for a loop that has
        ``reserve``d all it takes.  Use ``draw`` otherwise."""
        self.left: Callable[[], int] = int
        """How many draws the window holds from ``position`` on (how many times ``next`` can be called)."""
        self._window(0, [], 0)

    @property
    def position(self) -> int:
        """The number of the next draw (draws made so far, less any wound back)."""
        return self._end - self.left()

    def seek(self, position: int) -> None:
        """Make draw ``position`` the next one (back or forward: the stream then draws as it did from there)."""
        offset = position - self._base
        if 0 <= offset <= len(self.buffer):
            self._window(self._base, self.buffer, offset)
        elif offset < 0 and self.buffer:  # wound back past the window: a new one around it, for the steps back to come
            base = max(0, position - BLOCK // 2)
            self._go(base)
            self._made += BLOCK
            self._fill = BLOCK
            self._window(base, self._generator.random(BLOCK).tolist(), position - base)
        else:
            self._fill = FIRST_BLOCK
            self._window(position, [], 0)

    def reserve(self, count: int) -> None:
        """Make the window hold at least ``count`` draws from ``position`` on (refilled from the sequence if not),
        so that ``next`` can be called that many times."""
        if self.left() < count:
            self._refill(count)

    def draw(self) -> float:
        """The next draw."""
        try:
            return self.next()
        except StopIteration:
            self._refill(1)
            return self.next()

    def at(self, position: int) -> float:
        """Draw ``position``, read without moving ``position``."""
        offset = position - self._base
        if 0 <= offset < len(self.buffer):
            return self.buffer[offset]
        self._go(position)
        self._made += 1
        return float(self._generator.random())

    def random(self, shape: int | tuple[int, ...]) -> npt.NDArray[np.float64]:
        """The next draws as a numpy array of ``shape`` (row by row), as ``numpy.random.Generator.random`` gives
        them; ``position`` moves past them."""
        values = self.numpy().random(shape)
        self.skip(values.size)
        return values

    def numpy(self) -> np.random.Generator:
        """A numpy generator that gives the draws from ``position`` on, for a loop of numpy draws to call
        straight; it must then ``skip`` the draws it made (a float of ``random`` is one draw).  Nothing else may
        draw from the stream in between."""
        position = self.position
        if self.buffer:  # the window is left behind: the next single draw starts a new one after the numpy draws
            self._fill = FIRST_BLOCK
            self._window(position, [], 0)
        self._go(position)
        return self._generator

    def skip(self, count: int) -> None:
        """Move past the ``count`` draws just made from ``numpy()``'s generator (the window is empty)."""
        self._made += count
        self._base += count
        self._end += count

    def _refill(self, count: int) -> None:
        """A new window from ``position`` on: the draws left in the old one, then at least ``count`` in all."""
        left = self.left()
        kept = self.buffer[len(self.buffer) - left :]
        fill = max(count - left, self._fill)
        self._fill = min(2 * self._fill, BLOCK)
        self._go(self._end)
        kept += self._generator.random(fill).tolist()
        self._made += fill
        self._window(self._end - left, kept, 0)

    def _window(self, base: int, buffer: list[float], offset: int) -> None:
        """Make ``buffer`` the window, holding draws ``base`` on, and ``buffer[offset]`` the next draw."""
        self._base = base
        self._end = base + len(buffer)
        self.buffer = buffer
        source = cast(_Reader, iter(buffer))
        source.__setstate__(offset)
        self.next = source.__next__
        self.left = source.__length_hint__

    def _go(self, position: int) -> None:
        """Move the bit generator to ``position`` (forward or back, in a few multiplications)."""
        if position != self._made:
            self._bits.advance((position - self._made) % _PERIOD)
            self._made = position
