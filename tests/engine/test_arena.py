"""The arena: openings, schedules and seeds, games, statistics, runners (local, pool, Dask), results files."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import random
import signal
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from plyscope.engine.agents import Agent, Decision
from plyscope.engine.arena.openings import opening_scores, select_openings, two_move_openings
from plyscope.engine.arena.play import play_game
from plyscope.engine.arena.pool import GamePool, open_executor, run_games
from plyscope.engine.arena.records import GameRecord, SideStats
from plyscope.engine.arena.results import GameTexts, game_text, results_text
from plyscope.engine.arena.schedule import GameTask, pairings, schedule
from plyscope.engine.arena.summary import (
    RunningSummary,
    SprtWatch,
    accuracy,
    opening_pairs,
    pairing_stats,
    pentanomial,
    ratings,
    ratings_summary,
    sprt_summary,
    summary,
    tally,
)
from plyscope.engine.errors import UserError
from plyscope.engine.files import write_atomic
from plyscope.engine.games import Connect4, Move, State
from plyscope.engine.games.notation import spell
from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Limit, Stats
from plyscope.engine.search.registry import algorithms
from plyscope.engine.seeds import game_seed, turn_seed
from plyscope.engine.solver import Connect4Solver
from plyscope.engine.solver.openings import OPENING_SCORES
from plyscope.engine.stats import Pentanomial, Sprt, Tally, elo_from_score, wilson_interval

C4 = Connect4()
STRONG = Agent.parse("minimax:depth=2", Limit(moves=120))
WEAK = Agent.parse("minimax:depth=1", Limit(moves=120))


# --- openings, schedule, seeds ---------------------------------------------------------------


def test_all2_is_every_two_move_opening() -> None:
    openings = two_move_openings(C4)
    assert len(openings) == 49
    assert len(set(openings)) == 49
    assert openings[0] == (0, 0) and openings[-1] == (6, 6)
    assert [spell(C4.start(), o) for o in openings[:3]] == ["11", "12", "13"]
    assert len(two_move_openings(Connect4(6, 5))) == 36


def test_nim_openings_are_spelled_with_move_labels() -> None:
    grundy = make_game("grundy")
    spelled = [spell(grundy.start(), o) for o in two_move_openings(grundy)]
    assert spelled == ["7=6+1 6=5+1", "7=6+1 6=4+2", "7=5+2 5=4+1", "7=5+2 5=3+2", "7=4+3 4=3+1", "7=4+3 3=2+1"]


def test_a_number_of_openings_is_a_seeded_sample_in_all2_order() -> None:
    every = two_move_openings(C4)
    assert select_openings(C4, "all2", 3) == every
    sample = select_openings(C4, "5", 3)
    assert len(set(sample)) == 5
    assert sample == sorted(sample, key=every.index)
    assert sample == select_openings(C4, "5", 3)
    assert sample != select_openings(C4, "5", 4)
    assert select_openings(C4, "49", 0) == every


@pytest.mark.parametrize("text", ["0", "50", "-1", "two", ""])
def test_bad_openings_are_refused(text: str) -> None:
    with pytest.raises(UserError, match="use all2, a number from 1 to 49, balanced:N or a file of move strings"):
        select_openings(C4, text, 0)


def test_each_opening_is_played_by_both_agents_as_first_player() -> None:
    openings = select_openings(C4, "3", 0)
    tasks = schedule(C4, [STRONG, WEAK], openings, seed=7)
    assert [t.index for t in tasks] == list(range(6))
    firsts = Counter((t.opening, t.first.label) for t in tasks)
    assert firsts == {(o, a.label): 1 for o in openings for a in (STRONG, WEAK)}
    assert all(t.second is (WEAK if t.first is STRONG else STRONG) for t in tasks)


def test_round_robin_plays_every_pair() -> None:
    third = Agent.parse("minimax:depth=3", Limit(moves=120))
    tasks = schedule(C4, [STRONG, WEAK, third], select_openings(C4, "2", 0), seed=0)
    assert len(tasks) == 3 * 2 * 2
    pairs = Counter(frozenset((t.first.label, t.second.label)) for t in tasks)
    assert set(pairs.values()) == {4} and len(pairs) == 3


def test_seeds_are_distinct_and_reproducible() -> None:
    tasks = schedule(C4, [STRONG, WEAK], two_move_openings(C4), seed=11)
    seeds = [t.seed for t in tasks]
    assert len(set(seeds)) == 98
    assert seeds == [t.seed for t in schedule(C4, [STRONG, WEAK], two_move_openings(C4), seed=11)]
    assert set(seeds).isdisjoint(t.seed for t in schedule(C4, [STRONG, WEAK], two_move_openings(C4), seed=12))
    base = game_seed(1, 0, (0, 1), 2, 0)
    assert base != game_seed(1, 1, (0, 1), 2, 0) != game_seed(1, 0, (0, 1), 2, 1)
    assert base != game_seed(1, 0, (0, 2), 2, 0) and base != game_seed(1, 0, (0, 1), 3, 0)
    assert turn_seed(base, 2) != turn_seed(base, 3)
    assert all(0 <= s < 2**63 for s in seeds)
    groups = schedule(C4, [STRONG, WEAK], [(3, 3)], seed=11, group="b", group_index=1, start_index=40)
    assert [t.index for t in groups] == [40, 41] and {t.group for t in groups} == {"b"}
    assert groups[0].seed != schedule(C4, [STRONG, WEAK], [(3, 3)], seed=11)[0].seed


# --- one game --------------------------------------------------------------------------------


def test_a_game_is_played_to_its_end_from_its_opening() -> None:
    task = schedule(C4, [STRONG, WEAK], [(3, 2)], seed=0)[0]
    record = play_game(task)
    assert record.moves.startswith("43") and record.opening == "43"
    assert record.result in ("first", "second", "draw")
    assert record.error is None and record.error_agent is None
    assert record.first_stats.turns + record.second_stats.turns == len(record.moves) - 2
    assert record.first_stats.moves <= 120 * record.first_stats.turns
    assert C4.parse(record.moves).is_terminal()
    assert _same_game(play_game(task), record)


def _same_game(a: GameRecord, b: GameRecord) -> bool:
    """Equal in everything but the seconds spent."""
    return (a.index, a.seed, a.moves, a.result, a.error, a.first_stats.moves, a.second_stats.moves) == (
        b.index,
        b.seed,
        b.moves,
        b.result,
        b.error,
        b.first_stats.moves,
        b.second_stats.moves,
    )


@dataclass(frozen=True, slots=True)
class ExplodingAgent(Agent):
    """A test-only agent that raises on its ``after``-th turn (no registration anywhere)."""

    after: int = 0

    def decide(self, state: State, seed: int) -> Decision:
        if state.ply >= 2 + 2 * self.after:
            raise RuntimeError("the search blew up")
        return super(ExplodingAgent, self).decide(state, seed)


@dataclass(frozen=True, slots=True)
class IllegalAgent(Agent):
    """A test-only agent that plays a column that does not exist."""

    def decide(self, state: State, seed: int) -> Decision:
        bad: Move = 99
        return Decision(bad, False, Stats())


def test_an_agent_that_raises_is_recorded_and_the_run_goes_on() -> None:
    boom = ExplodingAgent(STRONG.spec, STRONG.limit, "boom", after=1)
    tasks = schedule(C4, [boom, WEAK], select_openings(C4, "2", 0), seed=0)
    tasks += schedule(C4, [STRONG, WEAK], [(3, 3)], seed=0, start_index=len(tasks))
    outcome = run_games(tasks)
    assert not outcome.interrupted
    assert [r.index for r in outcome.records] == list(range(6))
    errors = outcome.records[:4]
    assert {r.result for r in errors} == {"error"}
    assert {r.error for r in errors} == {"RuntimeError: the search blew up"}
    assert {r.error_agent for r in errors} == {"boom"}
    assert {r.result for r in outcome.records[4:]} <= {"first", "second", "draw"}
    counted = tally(outcome.records, "boom", "minimax:depth=1")
    assert (counted.games, counted.errors) == (0, 4)
    assert tally(outcome.records, "minimax:depth=1", "boom").wins == 0


def test_an_illegal_move_is_an_error() -> None:
    task = schedule(C4, [IllegalAgent(WEAK.spec, WEAK.limit, "liar"), STRONG], [(0, 0)], seed=0)[0]
    record = play_game(task)
    assert record.result == "error" and record.error_agent == "liar"
    assert record.error == "SearchError: liar chose 99, which is not a legal move"
    assert record.moves == "11"


@dataclass(frozen=True, slots=True)
class SeedRecorder(Agent):
    """A test-only agent that notes the seed of each of its turns."""

    seen: list[tuple[int, int]] = field(default_factory=list)

    def decide(self, state: State, seed: int) -> Decision:
        self.seen.append((state.ply, seed))
        return super(SeedRecorder, self).decide(state, seed)


def test_each_turn_is_seeded_from_the_game_seed_and_the_ply() -> None:
    first, second = SeedRecorder(WEAK.spec, WEAK.limit, "a"), SeedRecorder(WEAK.spec, WEAK.limit, "b")
    task = schedule(C4, [first, second], [(3, 3)], seed=2)[0]
    record = play_game(task)
    plies = range(2, len(record.moves))
    assert sorted(first.seen + second.seen) == [(ply, turn_seed(task.seed, ply)) for ply in plies]
    assert {ply % 2 for ply, _ in first.seen} == {0} and {ply % 2 for ply, _ in second.seen} == {1}


def test_fallback_turns_are_counted() -> None:
    starved = Agent.parse("minimax:depth=2", Limit(moves=0), name="starved")
    record = play_game(schedule(C4, [starved, STRONG], [(0, 0)], seed=0)[0])
    assert record.first_stats.fallbacks == record.first_stats.turns > 0
    assert record.first_stats.moves == 0
    assert record.second_stats.fallbacks == 0
    assert record.moves[2] == "4"  # the fallback: the centre column


# --- statistics ------------------------------------------------------------------------------


def test_wilson_interval_known_values() -> None:
    assert wilson_interval(0.5, 10) == pytest.approx((0.236593, 0.763407), abs=1e-6)
    assert wilson_interval(0.4, 10) == pytest.approx((0.168180, 0.687326), abs=1e-6)
    low, high = wilson_interval(1.0, 10)
    assert low == pytest.approx(10 / (10 + 1.959964**2), abs=1e-6) and high == 1.0
    assert wilson_interval(0.0, 10) == pytest.approx((0.0, 1 - 10 / (10 + 1.959964**2)), abs=1e-6)
    with pytest.raises(ValueError):
        wilson_interval(0.5, 0)


def test_elo_from_score() -> None:
    assert elo_from_score(0.5) == 0
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_from_score(10 / 11) == pytest.approx(400)
    assert elo_from_score(1 / 11) == pytest.approx(-400)
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf


def test_score_counts_draws_as_half_and_errors_for_nobody() -> None:
    counted = Tally("a", "b", wins=3, draws=2, losses=5, errors=4)
    assert counted.games == 10
    assert counted.score() == pytest.approx(0.4)
    assert counted.interval() == pytest.approx((0.168180, 0.687326), abs=1e-6)
    assert counted.elo() == pytest.approx(-400 * math.log10(1.5))
    elo_low, elo_high = counted.elo_interval() or (0.0, 0.0)
    assert elo_low == pytest.approx(elo_from_score(0.168180), abs=0.01)
    assert elo_high == pytest.approx(elo_from_score(0.687326), abs=0.01)
    assert Tally("a", "b", errors=2).score() is None
    perfect = Tally("a", "b", wins=4).as_dict()
    assert perfect["elo"] is None and perfect["score"] == 1.0
    assert perfect["elo_95"] == [pytest.approx(elo_from_score(wilson_interval(1.0, 4)[0])), None]


def _record(index: int, first: str, second: str, result: str, group: str = "") -> GameRecord:
    return GameRecord(index, group, first, second, "44", index, "44", result)


def test_the_texts_at_the_end_keep_a_game_finished_but_not_yet_added() -> None:
    """A Ctrl-C between a game's end and its being added to the texts raised KeyError as the file was saved."""
    texts = GameTexts()
    texts.add(_record(0, "a", "b", "first"))
    late = _record(1, "b", "a", "draw")
    assert texts.listed([late, _record(0, "a", "b", "first")]) == [
        game_text(_record(0, "a", "b", "first")),
        game_text(late),
    ]


def test_tallies_from_records() -> None:
    records = [
        _record(0, "a", "b", "first"),
        _record(1, "b", "a", "first"),
        _record(2, "a", "b", "draw"),
        _record(3, "b", "a", "second"),
        _record(4, "a", "c", "second"),
        _record(5, "c", "b", "error"),
        _record(6, "a", "b", "first", group="other"),
    ]
    assert tally(records, "a", "b", group="") == Tally("a", "b", wins=2, draws=1, losses=1)
    assert tally(records, "b", "a") == Tally("b", "a", wins=1, draws=1, losses=3)
    assert tally(records, "a") == Tally("a", "", wins=3, draws=1, losses=2)
    assert tally(records, "b", "c") == Tally("b", "c", errors=1)
    document = summary(records, ["a", "b", "c"])
    pairings = document["pairings"]
    assert isinstance(pairings, list)
    assert [(p["agent"], p["opponent"], p["wins"], p["draws"], p["losses"], p["errors"]) for p in pairings] == [
        ("a", "b", 3, 1, 1, 0),
        ("a", "c", 0, 0, 1, 0),
        ("b", "c", 0, 0, 0, 1),
    ]
    assert [p["pentanomial"] for p in pairings] == [[0, 0, 1, 1, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]
    json.dumps(document, allow_nan=False)


# --- runners ---------------------------------------------------------------------------------


def _small_tasks() -> list[GameTask]:
    """Four games; against a seeded MCTS when it is registered, so that seeds matter to the outcome."""
    rival = Agent.parse("mcts:k=1", Limit(moves=50)) if "mcts" in algorithms() else WEAK
    return schedule(C4, [STRONG, rival], select_openings(C4, "2", 5), seed=5)


def test_a_callback_interrupt_keeps_the_finished_games() -> None:
    seen: list[int] = []

    def stop_after_two(record: GameRecord) -> None:
        seen.append(record.index)
        if len(seen) == 2:
            raise KeyboardInterrupt

    outcome = run_games(_small_tasks(), on_game=stop_after_two)
    assert outcome.interrupted
    assert [r.index for r in outcome.records] == [0, 1]


def test_pool_interrupt_keeps_the_finished_games() -> None:
    tasks = schedule(C4, [STRONG, WEAK], select_openings(C4, "8", 5), seed=5)
    with open_executor(2) as (executor, in_flight):

        def stop(record: GameRecord) -> None:
            raise KeyboardInterrupt

        outcome = run_games(tasks, executor, in_flight=in_flight, on_game=stop)
    assert outcome.interrupted
    assert 1 <= len(outcome.records) <= in_flight < len(tasks)
    assert all(_same_game(r, play_game(tasks[r.index])) for r in outcome.records)


def _sigint_state() -> tuple[bool, bool]:
    """In a worker: whether SIGINT is ignored, and whether it is blocked."""
    return signal.getsignal(signal.SIGINT) is signal.SIG_IGN, signal.SIGINT in signal.pthread_sigmask(
        signal.SIG_BLOCK, []
    )


def test_a_pool_forks_its_workers_with_ctrl_c_held_back_and_they_ignore_it() -> None:
    """A Ctrl-C inside ``os.fork``'s hooks left the logging lock held (the arena hung); the fork now happens
    with SIGINT blocked, the worker ignores it then unblocks it, and the arena's own mask is as it was."""
    held_at_fork: list[bool] = []
    os.register_at_fork(before=lambda: held_at_fork.append(_sigint_state()[1]))  # for this process's later forks
    before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    with open_executor(2) as (executor, _):
        assert isinstance(executor, GamePool)
        assert executor.submit(_sigint_state).result(timeout=60) == (True, False)
        assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before
    assert held_at_fork and all(held_at_fork)


def test_local_pool_and_dask_cluster_give_the_same_games() -> None:
    distributed = pytest.importorskip("distributed")
    tasks = _small_tasks()
    here = run_games(tasks)
    with open_executor(2) as (executor, in_flight):
        pooled = run_games(tasks, executor, in_flight=in_flight)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster,
        open_executor(1, cluster.scheduler_address) as (executor, in_flight),
    ):
        assert in_flight == 4
        on_dask = run_games(tasks, executor, in_flight=in_flight)
    for other in (pooled, on_dask):
        assert not other.interrupted
        assert len(other.records) == len(here.records) == 4
        assert all(_same_game(a, b) for a, b in zip(here.records, other.records, strict=True))


def test_executor_errors() -> None:
    with pytest.raises(UserError, match="workers must be 1 or more"), open_executor(0):
        pass


def test_a_missing_distributed_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "distributed", None)
    with pytest.raises(UserError, match=r"plyscope\[cluster\]"), open_executor(1, "tcp://127.0.0.1:1"):
        pass


# --- results file ----------------------------------------------------------------------------


def _results(meta: Mapping[str, object], records: list[GameRecord]) -> str:
    return results_text(meta, [game_text(r) for r in records], 8, complete=False, interrupted=False, summary={})


def test_results_are_written_atomically(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    write_atomic(path, _results({}, [_record(0, "a", "b", "draw")]))
    data = json.loads(path.read_text())
    assert data["games"][0]["stats"] == {"first": _zero_stats(), "second": _zero_stats()}
    with pytest.raises(ValueError):
        write_atomic(path, _results({"bad": math.inf}, []))
    assert json.loads(path.read_text()) == data  # the old file is intact
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]  # no temporary file left


@pytest.mark.parametrize("games", [0, 1, 5])
def test_the_results_file_is_its_document_dumped_with_an_indent_of_one(games: int) -> None:
    records = [_record(index, "a", "b", ("first", "draw", "error")[index % 3]) for index in range(games)]
    meta = {"command": "arena", "agents": ["a", "b"], "note": '\n "games": [],\n', "openings": []}
    document = {
        **meta,
        "games_planned": 8,
        "games_played": games,
        "complete": False,
        "interrupted": False,
        "games": [r.as_dict() for r in records],
        "summary": {},
    }
    assert _results(meta, records) == json.dumps(document, indent=1) + "\n"


def _summary_from_scratch(records: list[GameRecord], names: list[str], sprt: Sprt) -> dict[str, object]:
    """What a run's summary is, from every record at once (``pairing_stats``, ``sprt_summary``, ``ratings``)."""
    meetings = pairings(len(names))
    stats = [pairing_stats(records, names[i], names[j]) for i, j in meetings]
    tallies = {name: accuracy(records, name) for name in names}
    document: dict[str, object] = {
        "pairings": [s.as_dict() for s in stats],
        "accuracy": [{"agent": name, **tally.as_dict()} for name, tally in tallies.items()],
        "sprt": sprt_summary(sprt, stats[0].pairs),
    }
    if len(names) > 2:
        document["ratings"] = ratings_summary(ratings(records, names, meetings), tallies)
    return document


@pytest.mark.parametrize("names", [["a", "b"], ["a", "b", "c"]])
def test_the_running_summary_is_the_summary_of_the_games_added_in_any_order(names: list[str]) -> None:
    rng = random.Random(4)
    meetings = pairings(len(names))
    records = []
    for index in range(120):
        i, j = meetings[index // 2 % len(meetings)]
        first, second = (names[i], names[j]) if index % 2 == 0 else (names[j], names[i])
        record = _record(index, first, second, rng.choice(["first", "second", "draw", "draw", "error"]))
        sides = [
            SideStats(turns=9, judged=rng.randint(0, 9), kept=rng.randint(0, 4), loss=rng.randint(0, 30)) for _ in "ab"
        ]
        records.append(dataclasses.replace(record, first_stats=sides[0], second_stats=sides[1]))
    rng.shuffle(records)
    sprt = Sprt(0, 10)
    running = RunningSummary(names, sprt=sprt)
    for count, record in enumerate(records, start=1):
        running.add(record)
        assert running.document() == _summary_from_scratch(records[:count], names, sprt), count


def _zero_stats() -> dict[str, float]:
    return {
        "turns": 0,
        "fallbacks": 0,
        "moves": 0,
        "playout_moves": 0,
        "nodes": 0,
        "seconds": 0.0,
        "judged": 0,
        "kept": 0,
        "loss": 0,
    }


# --- opening pairs and the SPRT --------------------------------------------------------------


def test_pairs_are_games_2k_and_2k_plus_1() -> None:
    records = [
        _record(0, "a", "b", "first"),
        _record(1, "b", "a", "draw"),  # a: 1.5
        _record(2, "a", "b", "second"),
        _record(3, "b", "a", "first"),  # a: 0
        _record(4, "a", "b", "draw"),
        _record(5, "b", "a", "error"),  # left out: an error
        _record(6, "a", "b", "first"),  # its pair is not finished
    ]
    assert [(x.index, y.index) for x, y in opening_pairs(records)] == [(0, 1), (2, 3), (4, 5)]
    assert pentanomial(records, "a", "b") == Pentanomial(ll=1, wd=1)
    assert pentanomial(records, "b", "a") == Pentanomial(ld=1, ww=1)
    assert pentanomial(records, "a", "c") == Pentanomial()


def test_the_sprt_is_evaluated_pair_by_pair_in_schedule_order() -> None:
    sprt = Sprt(0, 20, alpha=0.45, beta=0.45)  # bounds at +-0.2: three won pairs decide, two do not
    watch = SprtWatch(sprt, "a")
    games = [
        _record(i, *(("a", "b") if i % 2 == 0 else ("b", "a")), "first" if i % 2 == 0 else "second") for i in range(10)
    ]  # "a" wins every game
    for index in (2, 3, 5, 1):  # pairs 1 and 2 (half) first: nothing can be evaluated before pair 0
        watch.add(games[index])
    assert (watch.evaluated, watch.pairs, watch.llr) == (0, Pentanomial(), 0.0)
    watch.add(games[0])
    assert (watch.evaluated, watch.pairs.ww) == (2, 2) and watch.decision is None
    assert watch.llr == sprt.llr(Pentanomial(ww=2))
    watch.add(games[4])
    assert (watch.evaluated, str(watch.decision)) == (3, "H1")  # str(): mypy holds decision to the None seen above
    watch.add(games[6])
    watch.add(games[7])
    assert watch.evaluated == 3  # decided: no pair after the deciding one counts
    assert [r.index for r in watch.kept(games)] == [0, 1, 2, 3, 4, 5]


def test_a_run_ends_when_enough() -> None:
    tasks = schedule(C4, [STRONG, WEAK], select_openings(C4, "4", 1), seed=1)
    seen: list[int] = []
    outcome = run_games(tasks, on_game=lambda record: seen.append(record.index), enough=lambda: len(seen) == 3)
    assert not outcome.interrupted and [r.index for r in outcome.records] == [0, 1, 2]
    with open_executor(2) as (executor, in_flight):
        pooled = run_games(tasks, executor, in_flight=in_flight, enough=lambda: True)
    assert not pooled.interrupted and len(pooled.records) == 1


def test_a_gauntlet_pairs_the_first_agent_with_each_other() -> None:
    third = Agent.parse("minimax:depth=3", Limit(moves=120))
    tasks = schedule(C4, [STRONG, WEAK, third], [(3, 3)], seed=0, gauntlet=True)
    assert [(t.first.label, t.second.label) for t in tasks] == [
        (STRONG.label, WEAK.label),
        (WEAK.label, STRONG.label),
        (STRONG.label, third.label),
        (third.label, STRONG.label),
    ]


# --- openings worth playing ------------------------------------------------------------------


def test_balanced_openings_are_those_nearest_a_draw() -> None:
    game = Connect4(5, 4)
    every = two_move_openings(game)
    solver = Connect4Solver(game)
    scores = {opening: abs(solver.solve(game.start().play(opening[0]).play(opening[1])).first()) for opening in every}
    chosen = select_openings(game, "balanced:6", 3)
    assert len(chosen) == 6 and chosen == sorted(chosen, key=every.index)
    assert max(scores[o] for o in chosen) <= min(scores[o] for o in every if o not in chosen)
    assert chosen == select_openings(game, "balanced:6", 3)
    assert opening_scores(game, chosen) == [solver.solve(game.start().play(o[0]).play(o[1])).relative for o in chosen]


def test_the_7x6_opening_scores_are_symmetric_and_pick_the_draws() -> None:
    assert set(OPENING_SCORES) == {spell(C4.start(), opening) for opening in two_move_openings(C4)}
    assert all(OPENING_SCORES[key] == OPENING_SCORES["".join(str(8 - int(c)) for c in key)] for key in OPENING_SCORES)
    assert all(OPENING_SCORES[f"4{reply}"] > 0 for reply in range(1, 8))  # the centre wins, whatever the reply
    draws = {spell(C4.start(), o) for o in select_openings(C4, "balanced:12", 5)}
    assert draws == {"22", "24", "33", "34", "35", "36", "52", "53", "54", "55", "64", "66"}
    assert all(OPENING_SCORES[o] == 0 for o in draws)
    thirteenth = {spell(C4.start(), o) for o in select_openings(C4, "balanced:13", 5)} - draws
    assert len(thirteenth) == 1 and abs(OPENING_SCORES[thirteenth.pop()]) == 1


@pytest.mark.slow
def test_a_7x6_opening_score_is_the_solvers() -> None:
    """The table's score, proven by the solver's two null windows around it (the last two probes of a full solve, some
    20 s; the full solve takes a quarter more)."""
    score = OPENING_SCORES["37"]
    solver = Connect4Solver(C4)
    state = C4.parse("37")
    assert (
        score == 3 and solver.probe(state, score - 1, score) >= score and solver.probe(state, score, score + 1) <= score
    )


def test_balanced_nim_openings_are_a_seeded_choice() -> None:
    grundy = make_game("grundy")
    every = two_move_openings(grundy)
    assert {abs(score) for score in opening_scores(grundy, every)} == {1}
    assert len(select_openings(grundy, "balanced:3", 0)) == 3
    assert select_openings(grundy, "balanced:6", 0) == every


def test_balanced_openings_need_an_exact_solver() -> None:
    with pytest.raises(UserError, match="no exact solver plays connect4-chance"):
        select_openings(make_game("connect4-chance"), "balanced:3", 0)
    with pytest.raises(UserError, match=r"--openings balanced: 0 is out of range \(from 1 to 49\)"):
        select_openings(C4, "balanced:0", 0)


def test_openings_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "book.txt"
    path.write_text("# two openings\n44\n\n 4 3 \n")
    assert select_openings(C4, str(path), 0) == [(3, 3), (3, 2)]
    grundy = tmp_path / "grundy.txt"
    grundy.write_text("7=6+1 6=5+1\n7=4+3\n")
    assert select_openings(make_game("grundy"), str(grundy), 0) == [((7, 6), (6, 5)), ((7, 4),)]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("44\n48\n", "line 2: move 2 ('8'): not a column; columns are 1 to 7"),
        ("1212121\n", "line 1: the game is over after '1212121'"),
        ("12121212\n", "line 1: move 8 ('2'): the game was already over after move 7"),
        ("# nothing\n\n", "no opening in it (one move string a line)"),
    ],
)
def test_bad_opening_files_are_refused(text: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "book.txt"
    path.write_text(text)
    with pytest.raises(UserError) as refused:
        select_openings(C4, str(path), 0)
    assert str(refused.value) == f"--openings {path}: {message}"


def test_an_opening_file_that_is_not_a_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="is a folder, not a file: it cannot be a file of openings"):
        select_openings(C4, str(tmp_path), 0)
    (tmp_path / "latin1.txt").write_bytes(b"44 \xe9\n")
    with pytest.raises(UserError, match="not UTF-8 text"):
        select_openings(C4, str(tmp_path / "latin1.txt"), 0)


def test_the_games_under_way_report_each_turn_as_it_begins() -> None:
    # Defect 9: a run of long turns (plyscope rivest --values 1000000000) said nothing for hours; now every turn a
    # game begins is reported, from the local pool's workers as from this process.
    tasks = _small_tasks()
    here: list[tuple[int, int]] = []
    games = run_games(tasks, progress=here.extend).records
    with open_executor(2) as (executor, in_flight):
        pooled: list[tuple[int, int]] = []
        run_games(tasks, executor, in_flight=in_flight, progress=pooled.extend)
    for record in games:
        turns = record.first_stats.turns + record.second_stats.turns
        begun = [turn for index, turn in here if index == record.index]
        assert begun == list(range(turns)) == [turn for index, turn in pooled if index == record.index]
