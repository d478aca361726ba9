"""The random stream: a seeded sequence of floats read by position, wound back and forward at will."""

from __future__ import annotations

import numpy as np

from plyscope.engine.search.stream import BLOCK, RandomStream


def reference(seed: int, count: int) -> list[float]:
    """Draws 0 to ``count - 1`` of ``seed``'s stream, by definition: PCG64's floats as numpy makes them."""
    values: list[float] = np.random.Generator(np.random.PCG64(seed)).random(count).tolist()
    return values


def test_draws_are_pcg64s_floats_in_order() -> None:
    stream = RandomStream(11)
    assert [stream.draw() for _ in range(3 * BLOCK + 5)] == reference(11, 3 * BLOCK + 5)
    assert stream.position == 3 * BLOCK + 5
    assert RandomStream(12).draw() != RandomStream(11).draw()


def test_seek_back_and_forward_draws_again_what_was_drawn_there() -> None:
    expected = reference(5, 5 * BLOCK)
    stream = RandomStream(5)
    for _ in range(2 * BLOCK):
        stream.draw()
    for position in (2 * BLOCK - 1, BLOCK + 3, 0, 4 * BLOCK + 17, 17, 2 * BLOCK):  # in the window and far outside
        stream.seek(position)
        assert stream.position == position
        assert [stream.draw() for _ in range(50)] == expected[position : position + 50]
        assert stream.position == position + 50


def test_numpy_arrays_and_single_draws_read_the_same_sequence() -> None:
    expected = reference(3, 400)
    stream = RandomStream(3)
    first = [stream.draw() for _ in range(10)]
    block = stream.random((30, 7))
    assert block.shape == (30, 7)
    assert first + block.ravel().tolist() == expected[:220]
    assert stream.position == 220
    assert [stream.draw() for _ in range(180)] == expected[220:]
    stream.seek(5)
    assert stream.random(20).tolist() == expected[5:25]


def test_at_reads_any_draw_without_moving() -> None:
    expected = reference(8, 3 * BLOCK)
    stream = RandomStream(8)
    stream.seek(BLOCK)
    stream.draw()
    for position in (BLOCK, BLOCK + 1, 0, 3 * BLOCK - 1):
        assert stream.at(position) == expected[position]
    assert stream.position == BLOCK + 1
    assert stream.draw() == expected[BLOCK + 1]


def test_reserve_lets_next_read_that_many_draws() -> None:
    expected = reference(2, 1000)
    stream = RandomStream(2)
    taken: list[float] = []
    for count in (1, 7, 300, 90, 500):
        stream.reserve(count)
        assert stream.left() >= count
        taken += [stream.next() for _ in range(count)]
    assert taken == expected[: len(taken)]
    assert stream.position == len(taken)
