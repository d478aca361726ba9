"""Thill's 12-ply opening book (``plyscope.engine.solver.book``): its scores are the solver's; the solver uses it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from plyscope.engine.benchmarks.solver import read_set
from plyscope.engine.games import Connect4, Connect4State
from plyscope.engine.solver import Connect4Solver, book, centre_first, scores
from plyscope.engine.solver.book import BOOK_PLY, OpeningBook, opening_book, pons_score
from plyscope.engine.solver.openings import EARLY_PLY, EARLY_SCORES, FOUR_STONE_SCORES, OPENING_SCORES
from tests.pons import pons_positions

GAME = Connect4()


def from_rows(rows: list[str]) -> Connect4State:
    """The 7x6 position drawn as rows, top row first: ``X`` the first player's stones, ``O`` the second's."""
    first = mask = 0
    for height, row in enumerate(reversed(rows)):
        for column, cell in enumerate(row):
            bit = GAME.cell(column, height)
            mask |= bit if cell != "." else 0
            first |= bit if cell == "X" else 0
    stones = mask.bit_count()
    current = first if stones % 2 == 0 else first ^ mask
    return Connect4State(GAME, current, mask, stones, None)


def mirrored(state: Connect4State) -> Connect4State:
    """The position seen in a mirror: every move played in the column opposite."""
    return GAME.parse("".join(str(GAME.width + 1 - int(digit)) for digit in state.text()))


def wins_at_once(state: Connect4State) -> bool:
    playable = (state.mask + GAME.bottom_mask) & GAME.board_mask
    return bool(GAME.winning_cells(state.current, state.mask) & playable)


def book_positions(count: int, seed: int) -> list[Connect4State]:
    """``count`` positions the book holds: every 12-stone position below random 9-stone ones (families that share
    most of their search), every other family mirrored."""
    rng = random.Random(seed)
    found: list[Connect4State] = []
    families = 0
    while len(found) < count:
        state = GAME.start()
        while state.ply < 9 and not state.is_terminal():
            state = state.play(rng.choice(state.legal_moves()))
        if state.is_terminal():
            continue
        layer = [mirrored(state) if families % 2 else state]
        families += 1
        while layer[0].ply < BOOK_PLY:
            layer = [
                child
                for parent in layer
                for move in parent.legal_moves()
                if not (child := parent.play(move)).is_terminal()
            ]
        found += [position for position in layer if not wins_at_once(position)]
    return found[:count]


# --- the book's own figures ---------------------------------------------------------------------


def test_thill_s_examples_read_as_pons_scores() -> None:
    # The two examples of bitbully-databases' reader: the book says 71 (the first player wins with the 29th stone
    # from now, their 15th: the last but one they can place) and -88 (the second player wins with the 12th stone
    # from now, their 6th: 10 stones before their last).
    assert pons_score(71) == 1
    assert pons_score(-88) == -10
    assert pons_score(0) == 0
    wins = from_rows([".......", "...X...", ".X.O...", ".O.X.O.", ".X.O.X.", ".O.X.O."])
    loses = from_rows([".......", ".......", "..XX...", "..OO...", ".XOX...", ".XXO.OO"])
    assert opening_book().score(wins.current, wins.mask) == 1
    assert opening_book().score(loses.current, loses.mask) == -10


def test_a_position_whose_player_wins_at_once_is_not_in_the_book() -> None:
    state = GAME.parse("121212343434")  # the first player has three in column 1
    assert state.ply == BOOK_PLY and wins_at_once(state)
    assert opening_book().score(state.current, state.mask) is None


SOLVED_SAMPLE = Path(__file__).resolve().parents[1] / "data" / "connect4-book" / "sampled-12-stones"
"""``book_positions(2000, seed=39)`` with their scores by the solver without the book, as in Pons' sets (``moves
score``, for the player to move): 240 million nodes, some 45 s, so found once (``python -m tests.engine.test_book``)
and checked again in part by ``test_the_recorded_scores_are_the_solver_s``."""
SAMPLED = 2_000


def solved_sample() -> list[tuple[Connect4State, int]]:
    return [(GAME.parse(moves), score) for moves, score in read_set(SOLVED_SAMPLE, SAMPLED)]


def test_the_book_scores_2000_sampled_positions_and_their_mirrors_as_the_solver_does() -> None:
    solved = solved_sample()
    assert [state for state, _ in solved] == book_positions(SAMPLED, seed=39)  # the sample is the sampler's
    for state, score in solved:
        mirror = mirrored(state)
        assert opening_book().score(state.current, state.mask) == score, state.text()
        assert opening_book().score(mirror.current, mirror.mask) == score, mirror.text()


def test_the_recorded_scores_are_the_solver_s() -> None:
    # The solver without the book, one probe each whose window holds the recorded score alone: it returns that score
    # exactly when it is the position's; the first 200 positions (the first family's 190 and the next one's first 10,
    # mirrored): siblings share most of their search, 16 million nodes in all, where 200 spread over the sample take
    # ten times as many.
    solver = Connect4Solver(GAME, book=False)
    for state, score in solved_sample()[:200]:
        assert solver.probe(state, score - 1, score + 1) == score, state.text()


def solve_sample() -> None:
    """Write ``SOLVED_SAMPLE`` (the sample, scored by the solver without the book)."""
    solver = Connect4Solver(GAME, book=False)
    lines = [f"{state.text()} {solver.solve(state).relative}" for state in book_positions(SAMPLED, seed=39)]
    SOLVED_SAMPLE.parent.mkdir(exist_ok=True)
    SOLVED_SAMPLE.write_text("\n".join(lines) + "\n")


# --- the solver with the book -------------------------------------------------------------------


def test_the_empty_board_s_columns_score_exactly() -> None:
    solver = Connect4Solver(GAME)
    start = GAME.start()
    assert {column + 1: score.pov(1) for column, score in solver.move_scores(start).items()} == {
        1: -2,
        2: -1,
        3: 0,
        4: 1,
        5: 0,
        6: -1,
        7: -2,
    }  # Pons' scores: the centre wins (Allis 1988), 3 and 5 draw


def test_the_early_scores_are_the_solver_s_and_its_read_book_reads_the_book(monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = OpeningBook()
    monkeypatch.setattr(scores, "opening_book", lambda: fresh)
    solver = Connect4Solver(GAME)
    solver.read_book()  # (as the explorer's solver loads ahead)
    assert fresh.loaded
    for moves in ("", *"1234567"):  # the empty board and the first moves: negamax over the two-move openings
        assert EARLY_SCORES[moves] == solver.solve(GAME.parse(moves)).relative, moves
    assert {moves for moves in EARLY_SCORES if len(moves) == 2} == set(OPENING_SCORES)


def test_the_four_stone_scores_give_the_openings_back_and_are_the_solver_s() -> None:
    """The table of four-stone positions (``FOUR_STONE_SCORES``, which the arena's judge and the truth column answer
    at once): mirror images score alike, negamax over it gives every two-move opening's score back, and a sample of
    it is the solver's."""
    mirrored = str.maketrans("1234567", "7654321")
    assert len(FOUR_STONE_SCORES) == 7**4 and len(EARLY_SCORES) == sum(7**stones for stones in range(EARLY_PLY + 1))
    assert all(FOUR_STONE_SCORES[moves.translate(mirrored)] == score for moves, score in FOUR_STONE_SCORES.items())
    for opening, score in OPENING_SCORES.items():
        assert max(-EARLY_SCORES[f"{opening}{column}"] for column in "1234567") == score, opening
    solver = Connect4Solver(GAME)
    for moves in random.Random(4).sample(sorted(FOUR_STONE_SCORES), 40):
        assert FOUR_STONE_SCORES[moves] == solver.solve(GAME.parse(moves)).relative, moves


def test_both_kernels_search_down_to_the_book_alike() -> None:
    # The same nodes in the same order: the compiled kernel's lookup is the pure Python one's.
    compiled = Connect4Solver(GAME, native=True, table_limit=1 << 16)
    python = Connect4Solver(GAME, native=False, table_limit=1 << 16)
    for moves, score in (("4453", -2), ("44444", -1), ("3232", 3), ("1234567", 2), ("4444433", -1), ("71", 2)):
        state = GAME.parse(moves)
        for solver in (compiled, python):
            solver.reset()
            assert solver.solve(state).relative == score, moves
        assert compiled.nodes == python.nodes, moves


def test_a_position_with_12_stones_is_answered_by_the_book_alone() -> None:
    state = GAME.parse("444444333333")
    solver = Connect4Solver(GAME)
    assert solver.book_score(state) == opening_book().score(state.current, state.mask) is not None
    assert solver.solve(state).relative == solver.book_score(state)
    assert solver.nodes == 0


def test_the_book_is_read_on_first_need_only(monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = OpeningBook()
    monkeypatch.setattr(scores, "opening_book", lambda: fresh)
    solver = Connect4Solver(GAME)
    assert solver.has_book
    solver.solve(GAME.parse(pons_positions("Test_L2_R1", 1)[0][0]))  # 25 stones: beyond the book
    assert not fresh.loaded
    solver.solve(GAME.parse("4444443333"))
    assert fresh.loaded


def test_only_the_7x6_board_has_a_book_and_no_book_turns_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not Connect4Solver(Connect4(6, 5)).has_book
    assert not Connect4Solver(GAME, book=False).has_book
    assert Connect4Solver(GAME).has_book
    monkeypatch.setenv(book.NO_BOOK_VARIABLE, "1")  # what --no-book sets
    assert not Connect4Solver(GAME).has_book
    assert Connect4Solver(GAME, book=True).has_book


def test_the_columns_of_a_position_score_as_without_the_book() -> None:
    state = GAME.parse("536376766")  # 9 stones: 1.6 million nodes without the book, 56 with it
    with_book = Connect4Solver(GAME)
    scored = with_book.move_scores(state)
    assert scored == Connect4Solver(GAME, book=False).move_scores(state)
    assert list(scored) == [c for c in centre_first(GAME.width) if state.can_play(c)]
    assert with_book.nodes < 1_000


if __name__ == "__main__":  # ``python -m tests.engine.test_book``: the sample solved again
    solve_sample()
