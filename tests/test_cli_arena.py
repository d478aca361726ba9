"""``plyscope arena`` and ``plyscope rivest`` from the command line: results, files, and refusals."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

import pytest

import plyscope.engine.rivest_experiment
from plyscope.engine.arena.accuracy import TRUTH_NODES, load_judge
from plyscope.engine.arena.records import GameRecord
from plyscope.engine.arena.schedule import schedule
from plyscope.engine.arena.summary import PairingStats, pairing_stats
from plyscope.engine.games import Game
from plyscope.engine.kits import make_game
from plyscope.engine.search import registry
from plyscope.engine.search.base import Limit
from plyscope.engine.search.registry import algorithms
from plyscope.tui.cli import main
from plyscope.tui.commands import arena
from plyscope.tui.commands.arena import match_lines

AGENTS = ["--agents", "minimax:depth=2", "minimax:depth=1"]


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``argv``, expect exit status 2, and return the one line it printed on stderr."""
    try:
        status = main(argv)
    except SystemExit as stop:  # argparse's own refusals
        status = int(stop.code or 0)
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"plyscope {argv[0]}: ")
    return err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["arena", "--agents", "minimax", "nosuch:x=1"], "unknown algorithm 'nosuch'"),
        (["arena", "--agents", "minimax", "minimax:depth=99"], "agent 'minimax:depth=99': parameter depth"),
        (["arena", "--agents", "minimax", "minimax:depth"], "'depth' is not key=value"),
        (["arena", "--agents", "minimax"], "at least two agents"),
        (["arena", *AGENTS, "--openings", "0"], "use all2, a number from 1 to 49, balanced:N or a file of move"),
        (["arena", *AGENTS, "--moves", "0"], "argument --moves: 0 is out of range (from 1 to"),
        (["arena", *AGENTS, "--seconds", "-1"], "argument --seconds: -1 is out of range (more than 0"),
        (["arena", *AGENTS, "--workers", "0"], "argument --workers: 0 is out of range (from 1 to"),
        (["arena", *AGENTS, "--seed", "-3"], "argument --seed: -3 is out of range (from 0 to"),
        (["arena", *AGENTS, "--out", "/no/such/folder/x.json"], "does not exist"),
        (["arena", *AGENTS, "--moves", "5", "--seconds", "1"], "not allowed with argument"),
        (["arena", *AGENTS, "--game", "chess"], "unknown game 'chess'"),
        (["arena", "--agents", "minimax:eval=rivest", "minimax", "--game", "grundy"], "does not fit grundy"),
        (["arena", "--agents", "human", "minimax"], "agent 'human': an arena plays agents, not humans"),
        (["arena", *AGENTS, "--sprt", "elo0=0"], "argument --sprt: elo1 is missing; write elo0=0,elo1=10,"),
        (["arena", *AGENTS, "--sprt", "elo0=10,elo1=0"], "argument --sprt: elo0 (10) must be less than elo1 (0)\n"),
        (["arena", *AGENTS, "--sprt", "elo0=0,elo1=x"], "argument --sprt: elo1: 'x' is not a number (from -200"),
        (["arena", *AGENTS, "--sprt", "elo0=0,elo1=5,beta=1"], "argument --sprt: alpha + beta (1.05) must be less"),
        (["arena", *AGENTS, "--sprt", "elo0=0,elo1=5,model=x"], "argument --sprt: model 'x' is not one of normalized"),
        (
            ["arena", "--agents", "minimax", "minimax", "minimax", "--sprt", "elo0=0,elo1=5"],
            "--sprt tests a head-to-head: give two agents, not 3",
        ),
        (
            ["arena", *AGENTS, "--openings", "balanced:x"],
            "--openings balanced: 'x' is not a whole number (from 1 to 49): the number of openings to pick",
        ),
        (["arena", *AGENTS, "--openings", "balanced:50"], "--openings balanced: 50 is out of range (from 1 to 49)"),
        (
            ["arena", *AGENTS, "--openings", "no/such/book.txt"],
            "--openings 'no/such/book.txt': use all2, a number from 1 to 49, balanced:N or a file of move strings\n",
        ),
        (
            [
                "arena",
                "--agents",
                "expectiminimax:depth=1",
                "expectiminimax:depth=2",
                "--game",
                "connect4-chance",
                "--openings",
                "balanced:3",
            ],
            "--openings balanced: no exact solver plays connect4-chance",
        ),
        (
            ["arena", *AGENTS, "--anchor", "nobody"],
            "--anchor 'nobody' is not one of the agents: minimax:depth=2, minimax:depth=1\n",
        ),
        (["arena", *AGENTS, "--tournament", "swiss"], "argument --tournament: invalid choice: 'swiss'"),
        (["arena", *AGENTS, "--out", "a.json", "--resume", "b.json"], "argument --resume: not allowed with argument"),
        (["arena", *AGENTS, "--resume", "/no/such/folder/x.json"], "--resume /no/such/folder/x.json: the folder"),
        (
            # Issue 36, item 4: this played no game and exited 0 ("0 - 0 - 0  [nan]", "DrawRatio: nan %").
            ["arena", "--agents", "mcts", "alphabeta", "--game", "tree"],
            "plyscope arena: --openings 'all2': every game of tree ends within two moves; give a file of openings, "
            "one a line (first moves: B, C, D)\n",
        ),
        (
            ["arena", "--agents", "mcts", "alphabeta", "--game", "tree", "--openings", "balanced:1"],
            "--openings 'balanced:1': every game of tree ends within two moves",
        ),
        (["rivest", "--values", "1000,abc"], "--values: 'abc' is not a whole number"),
        (["rivest", "--bound", "seconds", "--values", "0"], "--values: 0 is out of range (more than 0"),
        (["rivest", "--bound", "hours"], "invalid choice"),
        (["rivest", "--mm", "rivest:nosuch=1"], "rivest has no parameter 'nosuch'"),
        (["rivest", "--ab", "nosuch"], "Rivest's experiment needs 'nosuch', not in the registry"),
    ],
)
def test_bad_input_exits_2_with_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert message in _refused(argv, capsys)


def test_a_bad_openings_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = tmp_path / "book.txt"
    book.write_text("44\n4x\n")
    assert _refused(["arena", *AGENTS, "--openings", str(book)], capsys) == (
        f"plyscope arena: --openings {book}: line 2: move 2 ('x'): not a column; columns are 1 to 7\n"
    )


def test_a_tree_is_played_from_a_file_of_openings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = tmp_path / "book.txt"
    book.write_text("B\nD\n")
    argv = ["arena", "--agents", "minimax", "mcts", "--game", "tree", "--openings", str(book), "--workers", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Score of minimax vs mcts: 2 - 2 - 0  [0.500] 4" in out and "nan" not in out


def test_no_compiled_plays_the_python_searchers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 36, item 12: plyscope rivest had --no-compiled, plyscope arena no way to play the Python searchers.
    from plyscope.engine.search import registry

    asked: list[str] = []

    def no_twin(searcher: object) -> None:
        asked.append(type(searcher).__name__)

    monkeypatch.setattr(registry, "compiled_twin", no_twin)
    out = tmp_path / "arena.json"
    argv = ["arena", "--agents", "alphabeta:depth=2", "alphabeta:depth=1", "--openings", "1", "--moves", "50"]
    assert main([*argv, "--workers", "1", "--out", str(out), "--no-compiled"]) == 0
    assert asked == [] and json.loads(out.read_text())["compiled"] is False
    assert main([*argv, "--workers", "1", "--out", str(out)]) == 0
    assert asked and set(asked) == {"AlphaBeta"} and json.loads(out.read_text())["compiled"] is True
    capsys.readouterr()


def test_a_tiny_arena_writes_every_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "arena.json"
    argv = ["arena", *AGENTS, "--openings", "2", "--moves", "60", "--workers", "1", "--seed", "3", "--out", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("Score of minimax:depth=2 vs minimax:depth=1: ")
    assert f"results written to {out}" in printed
    data = json.loads(out.read_text())
    assert data["command"] == "arena"
    assert data["agents"] == ["minimax:depth=2", "minimax:depth=1"]
    assert data["budget"] == {"moves": 60, "seconds": None}
    assert (data["seed"], data["games_planned"], data["games_played"]) == (3, 4, 4)
    assert data["complete"] is True and data["interrupted"] is False
    assert len(data["openings"]) == 2
    games = data["games"]
    assert [g["index"] for g in games] == [0, 1, 2, 3]
    for game in games:
        assert set(game) == {
            "index",
            "group",
            "first",
            "second",
            "opening",
            "seed",
            "moves",
            "result",
            "error",
            "error_agent",
            "stats",
        }
        assert game["moves"].startswith(game["opening"]) and game["opening"] in data["openings"]
        assert game["result"] in ("first", "second", "draw") and game["error"] is None
        assert set(game["stats"]) == {"first", "second"}
        assert game["stats"]["first"]["moves"] <= 60 * game["stats"]["first"]["turns"]
    assert {(g["opening"], g["first"]) for g in games} == {(o, a) for o in data["openings"] for a in data["agents"]}
    assert (data["tournament"], data["sprt"], data["anchor"]) == ("round-robin", None, None)
    pairing = data["summary"]["pairings"][0]
    assert pairing["agent"] == "minimax:depth=2" and pairing["opponent"] == "minimax:depth=1"
    assert pairing["games"] == 4 and pairing["wins"] + pairing["draws"] + pairing["losses"] == 4
    assert pairing["pairs"] == 2 and sum(pairing["pentanomial"]) == 2
    assert set(data["summary"]) == {"pairings", "accuracy"} and data["truth_nodes"] == TRUTH_NODES
    for agent, judged in zip(data["summary"]["accuracy"], data["agents"], strict=True):
        assert agent["agent"] == judged and agent["moves"] == sum(
            game["stats"]["first" if game["first"] == judged else "second"]["turns"] for game in games
        )
        assert 0 < agent["judged"] <= agent["moves"] and agent["kept"] <= agent["judged"]
        assert f"Accuracy of {judged}:" in printed
    assert main(argv) == 0  # same seed, same games
    again = json.loads(out.read_text())["games"]
    assert [(g["seed"], g["moves"], g["result"]) for g in again] == [
        (g["seed"], g["moves"], g["result"]) for g in games
    ]


def test_the_moves_judged_are_the_same_whichever_worker_judges_each_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game is judged in the worker that played it, after whichever games that worker played before: its verdicts
    are the same with one worker as with two (and a budget that leaves some positions unsettled)."""
    argv = ["arena", "--agents", "mcts:moves=200", "mcts:moves=20", "--openings", "4", "--seed", "5"]
    runs = []
    for workers in ("1", "2"):
        out = tmp_path / f"workers{workers}.json"
        assert main([*argv, "--truth-nodes", "20000", "--workers", workers, "--out", str(out)]) == 0
        runs.append(json.loads(out.read_text()))
    capsys.readouterr()
    one, two = (
        [
            (g["moves"], [(side["judged"], side["kept"], side["loss"]) for side in g["stats"].values()])
            for g in run["games"]
        ]
        for run in runs
    )
    assert one == two and runs[0]["summary"]["accuracy"] == runs[1]["summary"]["accuracy"]
    judged = [agent["judged"] for agent in runs[0]["summary"]["accuracy"]]
    moves = [agent["moves"] for agent in runs[0]["summary"]["accuracy"]]
    assert all(j > 0 for j in judged) and judged != moves  # (some moves left unjudged: the budget mattered)


def test_the_judge_s_load_starts_first_and_goes_on_beside_the_searchers_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver and the opening book load in a thread of their own, started before the searchers' load, and are
    loaded when ``load_compiled`` returns (before the worker processes fork)."""
    events: list[str] = []
    loads: list[Future[object] | None] = []

    def judge(game: Game) -> Future[object] | None:
        events.append("judge")
        loads.append(load_judge(game))
        return loads[-1]

    monkeypatch.setattr(arena, "load_judge", judge)
    monkeypatch.setattr(registry, "load_twins", lambda: events.append("searchers"))
    game = make_game("connect4")
    agents = arena.make_agents(["alphabeta", "minimax"], Limit(moves=10), game)
    arena.load_compiled(schedule(game, agents, [()], 0, truth_nodes=TRUTH_NODES))
    assert events == ["judge", "searchers"]
    (loading,) = loads
    assert loading is not None and loading.done() and loading.exception() is None


def test_round_robin_prints_standings(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "arena",
        "--agents",
        "minimax:depth=1",
        "minimax:depth=1",
        "minimax:depth=2",
        "--openings",
        "1",
        "--moves",
        "40",
        "--workers",
        "1",
    ]
    assert main(argv) == 0
    printed = capsys.readouterr().out.splitlines()
    assert [line.split(": ")[0] for line in printed[:9:3]] == [
        "Score of minimax:depth=1 vs minimax:depth=1 #2",
        "Score of minimax:depth=1 vs minimax:depth=2",
        "Score of minimax:depth=1 #2 vs minimax:depth=2",
    ]
    assert [line.split(": ")[0] for line in printed[9:12]] == [
        "Accuracy of minimax:depth=1",
        "Accuracy of minimax:depth=1 #2",
        "Accuracy of minimax:depth=2",
    ]
    assert printed[12].startswith("A move keeps the value when")
    header = printed[13]
    assert header.split() == ["#", "PLAYER", ":", "RATING", "ERROR", "POINTS", "PLAYED", "(%)", "KEPT(%)", "LOSS"]
    assert {line.rpartition(" :")[0][5:].strip() for line in printed[14:17]} == {
        "minimax:depth=1",
        "minimax:depth=1 #2",
        "minimax:depth=2",
    }


def test_interrupted_arena_keeps_its_games_and_exits_130(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import plyscope.engine.arena.pool
    from plyscope.engine.arena.play import play_game as real_play
    from plyscope.engine.arena.schedule import GameTask

    calls: list[int] = []

    def play_then_interrupt(task: GameTask, on_turn: Callable[[tuple[int, int]], None] | None = None) -> GameRecord:
        calls.append(task.index)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real_play(task, on_turn)

    monkeypatch.setattr(plyscope.engine.arena.pool, "play_game", play_then_interrupt)
    out = tmp_path / "cut.json"
    argv = ["arena", *AGENTS, "--openings", "3", "--moves", "40", "--workers", "1", "--out", str(out)]
    assert main(argv) == 130
    assert "interrupted: 2 of 6 games finished" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert (data["games_played"], data["complete"], data["interrupted"]) == (2, False, True)
    assert [g["index"] for g in data["games"]] == [0, 1]
    assert data["summary"]["pairings"][0]["games"] == 2


def test_rivest_says_which_agent_is_missing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    known = dict(algorithms())
    known.pop("rivest", None)
    monkeypatch.setattr(plyscope.engine.rivest_experiment, "algorithms", lambda: known)
    line = _refused(["rivest", "--openings", "1"], capsys)
    assert "needs 'rivest' (MM, Rivest's min/max approximation), not in the registry" in line
    assert "ab-rivest" not in line


def test_a_tiny_rivest_run_prints_the_paper_beside_ours(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("plyscope.engine.search.bestfirst.rivest")
    out = tmp_path / "rivest.json"
    assert main(["rivest", "--values", "1000", "--openings", "1", "--workers", "1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "1000 moves" in printed and "move total" in printed
    row = next(line for line in printed.splitlines() if "1000 moves" in line)
    assert [cell.strip() for cell in row.split("│")[-5:-1]] == ["47", "35", "16", "+43 +/- 64"]  # the paper's row
    data = json.loads(out.read_text())
    assert data["agents"] == {
        "MM": plyscope.engine.rivest_experiment.MM_SPEC,
        "AB": plyscope.engine.rivest_experiment.AB_SPEC,
    }
    assert {g["group"] for g in data["games"]} == {"1000 moves"}
    assert {(g["first"], g["second"]) for g in data["games"]} == {("MM", "AB"), ("AB", "MM")}
    ours, total = data["summary"]["table"]
    assert ours["mm_wins"] + ours["ab_wins"] + ours["ties"] + ours["errors"] == 2
    paper = {
        "mm_wins": 47,
        "ab_wins": 35,
        "ties": 16,
        "elo": pytest.approx(42.76, abs=0.005),
        "elo_error": pytest.approx(64.05, abs=0.005),
        "los": pytest.approx(0.9094, abs=5e-5),
    }
    assert ours["paper"] == paper
    assert total["bound"] == "move total" and total["paper"] == paper
    assert ours["pentanomial"] == total["pentanomial"] and sum(ours["pentanomial"]) == 1
    for side in ("mm_accuracy", "ab_accuracy"):
        assert ours[side] == total[side] and ours[side]["judged"] > 0
    assert "Move quality against perfect play" in printed and "MM kept" in printed
    assert ours["sprt"]["elo0"] == -10 and ours["sprt"]["elo1"] == 10 and ours["sprt"]["pairs"] == 1
    assert ours["sprt"]["result"] is None and "undecided" in row  # one opening pair decides nothing
    assert data["compiled"] is True


def _stats(results: list[str]) -> PairingStats:
    """The pairing of ``a`` against ``b`` over games whose results (``a`` first in even games) are ``results``."""
    records = [
        GameRecord(index, "", *(("a", "b") if index % 2 == 0 else ("b", "a")), "44", index, "44", result)
        for index, result in enumerate(results)
    ]
    return pairing_stats(records, "a", "b")


def test_the_score_line_is_cutechess_clis_to_the_byte() -> None:
    # cutechess-cli, projects/cli/src/enginematch.cpp: qInfo("Score of %s vs %s: %d - %d - %d  [%.3f] %d", ...)
    line = match_lines(_stats(["first", "first", "draw", "second", "second", "draw"]))[0]
    assert line == "Score of a vs b: 2 - 2 - 2  [0.500] 6"
    assert line == "Score of %s vs %s: %d - %d - %d  [%.3f] %d" % ("a", "b", 2, 2, 2, 0.5, 6)  # noqa: UP031


@pytest.mark.parametrize(
    ("results", "pairs"),
    [([], 0), (["first"], 0), (["first", "first", "second"], 1), (["first", "first", "second", "first"], 2)],
)
def test_too_few_pairs_for_an_interval_are_said_to_be(results: list[str], pairs: int) -> None:
    _, elo, ptnml = match_lines(_stats(results))
    assert elo.startswith(f"Elo difference: too few opening pairs for an interval ({pairs} of at least 3), ")
    assert ptnml.endswith(", nElo: too few opening pairs for an interval")
    assert "+/-" not in elo + ptnml and "nan +/-" not in elo + ptnml
    assert _stats(results).as_dict()["error"] is None


def test_no_game_gives_no_nan() -> None:
    # Issue 36, item 4: "0 - 0 - 0  [nan]", "DrawRatio: nan %" (C's printf of 0/0, as cutechess-cli has it).
    score, elo, _ = match_lines(_stats([]))
    assert score == "Score of a vs b: 0 - 0 - 0  [-] 0"
    assert elo.endswith("DrawRatio: - %") and "nan" not in " ".join(match_lines(_stats([])))


def test_three_pairs_give_an_interval() -> None:
    _, elo, ptnml = match_lines(_stats(["first", "first", "first", "second", "draw", "draw"]))
    assert elo.startswith("Elo difference: ") and " +/- " in elo and "too few" not in elo
    assert " +/- " in ptnml


def test_the_progress_line_gives_each_agents_own_budget(capsys: pytest.CaptureFixture[str]) -> None:
    agents = ["--agents", "minimax:depth=1,moves=50", "minimax:depth=2,moves=80"]
    assert main(["arena", *agents, "--openings", "1", "--workers", "1"]) == 0
    err = capsys.readouterr().err
    assert "minimax:depth=1,moves=50 vs minimax:depth=2,moves=80, 50 moves / 80 moves per turn" in err
    assert "1000 moves" not in err
    assert main(["arena", *AGENTS, "--openings", "1", "--moves", "40", "--workers", "1"]) == 0
    assert "minimax:depth=2 vs minimax:depth=1, 40 moves per turn" in capsys.readouterr().err


def test_a_rivest_run_of_long_turns_states_their_cap_and_shows_each_turn(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Defect 9: plyscope rivest --values 1000000000 grew to its trees' node caps (the same as plyscope search's,
    # about 1 GB in each worker) for minutes a turn, printing nothing; now it states the caps and shows each turn.
    import plyscope.tui.commands.arena
    from plyscope.engine.games import Connect4
    from plyscope.engine.rivest_experiment import rivest_tasks

    openings = [(3, 3)]
    mm, ab = (algorithms()[name] for name in ("rivest", "ab-rivest"))
    assert plyscope.tui.commands.arena.cap_note(rivest_tasks(Connect4(), "moves", (1000, 10**9), openings, 0)) == (
        "plyscope: a turn whose budget is above its tree's node cap stops at the cap: "
        f"MM at {mm.node_cap:,} nodes (about {round(mm.node_cap * mm.node_bytes / 2**20):,} MB of tree), "
        f"AB at {ab.node_cap:,} nodes (about {round(ab.node_cap * ab.node_bytes / 2**20):,} MB of tree), in each "
        "worker process"
    )
    assert plyscope.tui.commands.arena.cap_note(rivest_tasks(Connect4(), "moves", (5000,), openings, 0)) == ""
    monkeypatch.setattr(
        plyscope.tui.commands.arena, "PLAIN_PROGRESS_SECONDS", 0.0
    )  # a line at every turn (not a terminal)
    assert main(["rivest", "--values", "60", "--openings", "1", "--workers", "1"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert re.fullmatch(
        r"Rivest's experiment, moves bound: \d+ s, 0 of 2 games finished; under way: turn 1 for \d+ s", lines[0]
    )
    assert any(re.fullmatch(r".*: \d+ s, 1 of 2 games finished; under way: turn 2 for \d+ s", line) for line in lines)
