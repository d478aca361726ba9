"""The seeds of games, of the turns in them and of nature's moves, drawn from one seed.

Each game's seed is drawn by ``numpy.random.SeedSequence`` from a run's seed, the group (e.g.
the bound of Rivest's experiment), the pairing, the opening and which agent moves first
(``game_seed``); each turn's searcher is seeded from the game's seed and the ply
(``turn_seed``), in the arena as in a game played on the screen.  A game is therefore a pure
function of its seeds: the same anywhere it runs (with budgets in moves; budgets in seconds
depend on the machine's speed).

**Chance** (Connect Four with chance).  Nature's moves are drawn from the game's ``dice``
seed (``chance_draw``), which leaves out who moves first: both games of an opening pair
(colours swapped) get the same draw at the same ply, so a lucky slip helps each agent once.

**Studies** (``plyscope study``).  Every search in one position of a study is seeded alike
(``position_seed``), whichever its agent and budget: a larger budget extends the same search, as an
anytime curve asks; each random midgame is drawn from a seed of its own (``midgame_seed``), so that
the first positions of ``random:N`` are those of any larger ``N``.
"""

from __future__ import annotations

from collections.abc import Sequence

SEED_MASK = (1 << 63) - 1
"""Seeds are kept to 63 bits, so that any consumer taking a signed 64-bit int accepts them."""


def _derive_seed(entropy: int, key: Sequence[int]) -> int:
    import numpy as np  # where it is used: the explorer starts without it (about 0.15 s of CPU a session)

    state = np.random.SeedSequence(entropy, spawn_key=tuple(key)).generate_state(1, np.uint64)
    return int(state[0]) & SEED_MASK


def game_seed(seed: int, group: int, pairing: tuple[int, int], opening: int, first: int) -> int:
    """The seed of one game: from the run's ``seed``, the group's and opening's indices, the
    pairing (indices of its two agents) and the index of the agent moving first."""
    return _derive_seed(seed, (group, *pairing, opening, first))


def turn_seed(seed: int, ply: int) -> int:
    """The seed of the searcher that moves at ``ply`` in the game seeded ``seed``."""
    return _derive_seed(seed, (ply,))


def dice_seed(seed: int, group: int, pairing: tuple[int, int], opening: int) -> int:
    """The seed of nature's moves in both games of one opening and pairing (colours swapped)."""
    return _derive_seed(seed, (group, *pairing, opening))


def chance_draw(dice: int, ply: int) -> float:
    """The uniform draw in [0, 1) that picks nature's move at ``ply`` in the games with ``dice`` seed."""
    return (_derive_seed(dice, (ply,)) >> 10) / 2**53


STUDY_KEY = 1 << 32
"""The first word of a study's seed keys (a number no group index of the arena's reaches)."""


def position_seed(seed: int, position: int) -> int:
    """The seed of every search in the study seeded ``seed`` on its position of index ``position``."""
    return _derive_seed(seed, (STUDY_KEY, position))


def midgame_seed(seed: int, candidate: int) -> int:
    """The seed of the ``candidate``-th random midgame drawn for the study seeded ``seed``."""
    return _derive_seed(seed, (STUDY_KEY + 1, candidate))
