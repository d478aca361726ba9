"""The exact scores of 7x6 Connect Four's positions of at most four stones, found once: Pons' scores by move strings.

``Connect4Values`` (``plyscope.engine.solver.values``) answers these positions from the table at once, so that the
arena's ``--openings balanced:N`` picks its openings without an hour of solving (and without the opening book too),
the truth column values the first lines of a tree before any solver has loaded, and the arena's judge spends nothing
on the positions a game starts with (their searches down to the book took two thirds of its time on them).
"""

from __future__ import annotations

# fmt: off
_SCORES_BY_FIRST_MOVE = (
    # the reply in column 1 to 7
    ( 1, -2, -1, -2,  1, -1,  2),  # the first move in column 1
    ( 2,  0, -1,  0,  2,  2,  3),
    ( 2,  2,  0,  0,  0,  0,  3),
    ( 4,  2,  2,  1,  2,  2,  4),
    ( 3,  0,  0,  0,  0,  2,  2),
    ( 3,  2,  2,  0, -1,  0,  2),
    ( 2, -1,  1, -2, -1, -2,  1),  # the first move in column 7
)
# fmt: on
OPENING_SCORES: dict[str, int] = {
    f"{first}{reply}": score
    for first, row in enumerate(_SCORES_BY_FIRST_MOVE, start=1)
    for reply, score in enumerate(row, start=1)
}
"""Pons' score of every two-move opening of 7x6 Connect Four by its move string (``41``: the first move in
column 4, the reply in column 1), for the first player (to move after it): 0 a draw, ``s > 0`` a win with
the ``s``-th-to-last possible stone, ``s < 0`` a loss.  Computed once with ``Connect4Solver.solve``
(2026-11-24: the 25 openings that are not mirror images of another, an hour of solver time); the tests check
them for symmetry and one of them against the solver."""


EARLY_PLY = 4
"""The stones of the deepest positions ``EARLY_SCORES`` holds."""
SCORE_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABC"
"""A score ``s`` of ``_FOUR_STONES`` is the digit ``SCORE_DIGITS[s + 19]`` (``j``: a draw; Pons' scores after four
stones lie within ``±19``)."""
# fmt: off
_FOUR_STONES = (
    # the third and fourth moves: 11, 12, ..., 17, 21, ..., 77
    "kiihlklmjjjmmmmjjjllnnmkknnnmlliiklmlkllkllijjljk",  # 11
    "hijhijjlhmnllmjigiihjmimhlnmljmjjhjljjlhjjihjihhj",  # 12
    "jjhggjljigijhkmmijkllkmhgkjllmgjhklkjhklhijjfffhl",  # 13
    "hhgeeghjgiefgjjifejjimnkhjhmijjehhjllkfjhljifgfij",  # 14
    "ligefjlmljfllnlijjjllnlkllmnnllhhlmlhljhhklhfffjj",  # 15
    "kjjgjglmhhglhmlhhjlimnnjhmlmkhkhhhlmlljmimjhhijhi",  # 16
    "ljlhlllmikjnmmnjjilmnnmllnmnljljhllljilkjkjijhlll",  # 17
    "jjjkjllmlmlmmnjjjljllnmlhmnnnlmllmnljklhjjkjklijl",  # 21
    "jhiglhijihjinmjBBhiBBmBiBlBBlkjjjljjjijiijjihhhjk",  # 22
    "jigijhkmillnlmnmimnnnlijgnlmmjhminlkihmlihkhhjlhl",  # 23
    "jgiefgjljllmmnlhjfjjjnnojmlnljmgjmlljmemjllhjfkll",  # 24
    "mljfllnmhnmlmmjijjjllmlnllnnmlniilnhilmhikihlkhjk",  # 25
    "mhhglhmmllmmnnlBBjlBBnBlBnBBmlnmllmmmljmlmjjhljjl",  # 26
    "mikjnmmnmmnmnnlBBjlBBnBmBnBBnjlljmmjjhlkjlkijllmm",  # 27
    "nljjjjljjjljllnnjmnnnBlBBllBBnBjBnBmmjlljnllhjljl",  # 31
    "jigiihjnjllmlmnmilnmnlijhljmnjkjjjnmllmnlmlhhhkhk",  # 32
    "jggfjhjjBBjjBBlljilmnBjBBjBBBkBgBjBjlhjijlhhghhji",  # 33
    "jifejjilhjfjjjmljmlmmopojooojjgggjjlmjgmjljhhejji",  # 34
    "lijjjlljijjjllnnjlmnnlljhjnnnmlljmnlnimhjmlkhjgml",  # 35
    "lhhjlimlBBjlBBnmjmnonljBBnBBnjjjkjnmljmmnmjhjjmjl",  # 36
    "njjilmnlBBjlBBnnpmnnuBmBBnBBBnBjBnBnmllmlnlllijkm",  # 37
    "nmlkjmlnmlhmnnBlBBllBuqonoptBBnBBmBBBnBmBnnmnllmn",  # 41
    "mimhlnmmomlmnnlijhljmqqojoopBBnBBjlBBnBlBnmlmhjnn",  # 42
    "kmhgkjllijgnlmnojmnlnooojooonnjhjllnnllnlmnmllkln",  # 43
    "khgglhlhBgBlBBBhBBhBBnnmkmnnBBhBBhBBBlBgBhlhlgghk",  # 44
    "nlkllmnmlnllnnlljhjnnooojooonlnmjonmlngjilljkghmk",  # 45
    "nnjhmlmnBlBnBBljBBnBBpoojoqqmjlhjilnnmlmommnlhmim",  # 46
    "nmllnmnnBmBnBBBmBBnBBtponoquBllBBlBnnmhlmnlmjklmn",  # 47
    "mkjilllnlmllmnBnBjBnBBBnBBmBunnmpnnBBljBBlnmlijjn",  # 51
    "ljmjjhjmnmmjlmnjkjjjnBBnBBjlnonmjmnBBljBBlmiljhhl",  # 52
    "lmgjhklmjhminlnmjllmnnnjhjllnnmljnnlljjjijlljjjil",  # 53
    "ijjehhjljmgjmljjgggjjooojopommlmjlmjjjfjhlijjefij",  # 54
    "ijhhghhljijhljBjBgBkBBBjBBjBnmlijllBBjjBBjjhjfggj",  # 55
    "khkhhhlmlnmllmnjjjkjnmjlhjilnmnlimnmlmlljnjhiigij",  # 56
    "ljljhllnjlljmmBnBjBnBBllBBlBnnnmjnnlljljjjljjjjln",  # 57
    "mmlljikljklhjjmmjlljnBBnBmBnBBljBBlnnmnmmnmmnjkim",  # 61
    "ljjlhjjmlmjlmmmllmnlmBBnBlBnBBljBBlnnmmllmmhlghhm",  # 62
    "kjhklhikihmlihnliinlmnnllnlmlljjjijmmlmnhmnllfjlm",  # 63
    "llkfjhlljmemjllmjgmjlnlmjonnjjjfjhlnmmlljljgfeigj",  # 64
    "lhljhhkhilmhiklnimhjmmlngjilnnnmimnmlnllimkhjigij",  # 65
    "kjhhhijjiijijjjljjjklBBlBiBmBBihBBjmnijhijihlgihj",  # 66
    "ljilkjkjjhlkjlnmllmlnnnmhlmnlljljjjnmmlmlmlljkjjj",  # 67
    "lllhjijkjklijlllhjljlnmnllmnnmlijjnmmnjkimlllhljl",  # 71
    "ihjihhjmimjllmlhhhkhkmlmhjnnmiljhhlmhlghhmlgjgjjk",  # 72
    "jjfffhlkhhjlhlmlhhllnnmllklnlljjjilnllfjlmljfegil",  # 73
    "jifgfijlhjfklljhhejjimhjhknmijjefijjgfeigjhgeeghh",  # 74
    "lhfffjjihlkhjklkhjgmlljkghmkllkjimmkhjigijljgghjj",  # 75
    "jhhijhijjhljjljhjjmjlmnlhmimjhiigijmllnmhljjihjih",  # 76
    "kjljjillkllklmlkiillmnnnkkmnnlljjjmmmmjjjmlklhiik",  # 77
)
# fmt: on
"""Pons' score of every position after four moves, for the first player (to move), a digit each
(``SCORE_DIGITS``): a row for each of the first two moves, as ``OPENING_SCORES`` lists them, a digit for each of
the next two.  Computed once with ``Connect4Solver.solve`` and the opening book (2026-11-28: 2,401 move strings, 1 s);
the tests check that they give ``OPENING_SCORES`` back by negamax, and a sample of them against the solver."""
FOUR_STONE_SCORES: dict[str, int] = {
    f"{opening}{third}{fourth}": SCORE_DIGITS.index(digit) - 19
    for opening, row in zip(OPENING_SCORES, _FOUR_STONES, strict=True)
    for (third, fourth), digit in zip(((t, f) for t in range(1, 8) for f in range(1, 8)), row, strict=True)
}
"""Pons' score of every position of four stones by its move string (``4453``), for the first player (to move)."""


def _negamax(scores: dict[str, int], moves: str) -> int:
    """Pons' score of the position after ``moves`` for its player to move, from its children's in ``scores``."""
    return max(-scores[f"{moves}{column}"] for column in range(1, 8))


_THREE_STONES: dict[str, int] = {moves[:3]: _negamax(FOUR_STONE_SCORES, moves[:3]) for moves in FOUR_STONE_SCORES}
_FIRST_MOVES: dict[str, int] = {str(first): _negamax(OPENING_SCORES, str(first)) for first in range(1, 8)}
EARLY_SCORES: dict[str, int] = {
    **FOUR_STONE_SCORES,
    **_THREE_STONES,
    **OPENING_SCORES,
    **_FIRST_MOVES,
    "": _negamax(_FIRST_MOVES, ""),
}
"""Pons' score of every 7x6 position of at most ``EARLY_PLY`` stones, for its player to move, by move string: the
four-stone positions' (``FOUR_STONE_SCORES``) and, by negamax over them, the three-stone ones'; the two-move
openings' (``OPENING_SCORES``) and, by negamax over them, the first moves' and the empty board's (``+1``: the first
player wins, with their 21st and last stone, by playing the centre)."""
