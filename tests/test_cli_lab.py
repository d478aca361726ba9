"""The evaluation lab from the command line: ``plyscope tune``, the chance game's refusals, ``bench --only lab``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from plyscope.engine.games.evaluators import FEATURE_NAMES, parse_weights
from plyscope.engine.kits import kits
from plyscope.tui.cli import main

OPENSPIEL = "openspiel, " if "openspiel" in kits() else ""
"""How refusals that list the kits a searcher plays name OpenSpiel's (only where it is installed)."""


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``argv``, expect exit status 2, and return the one line it printed on stderr."""
    try:
        status = main(argv)
    except SystemExit as stop:  # argparse's own refusals
        status = int(stop.code or 0)
    assert status == 2
    err = capsys.readouterr().err.strip()
    assert err and "Traceback" not in err
    return err.splitlines()[-1]


def test_tune_writes_weights_and_plays_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "w.json"
    argv = [
        "tune",
        "--out",
        str(out),
        "--game",
        "connect4:5x4",
        "--positions",
        "80",
        "--plies",
        "4-10",
        "--openings",
        "2",
        "--match",
        "minimax:depth=2",
        "--moves",
        "500",
        "--workers",
        "1",
        "--json",
    ]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    weights = json.loads(out.read_text())
    assert weights["format"] == "plyscope-weights" and list(weights["weights"]) == list(FEATURE_NAMES)
    assert parse_weights(str(out)) == tuple(weights["weights"].values()) == tuple(report["weights"].values())
    assert report["fit"]["positions"] == 80 and report["fit"]["converged"] is True
    match = weights["match"]
    assert match["agent"] == "tuned" and match["opponent"] == "hand-set" and match["openings"] == 2
    assert match["games"] + match["errors"] == 4 and match["errors"] == 0
    assert match == report["match"]
    assert {"elo", "elo_95", "score", "score_95"} <= set(match)


def test_tune_without_a_match_prints_the_fit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "w.json"
    assert (
        main(
            [
                "tune",
                "--out",
                str(out),
                "--game",
                "connect4:4x4",
                "--positions",
                "40",
                "--plies",
                "3-8",
                "--no-match",
                "--source",
                "selfplay",
                "--labels",
                "games",
                "--seed",
                "3",
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert "40 positions (selfplay, plies 3-8, labels: games)" in printed
    lines = printed.splitlines()  # (off a terminal, 160 columns) issue 36, item 10: titles are whole lines
    assert "Feature weights (hundredths of a logit of the first player's expected score)" in lines
    assert any(line.startswith("Fit: logistic regression, l2 0.0001, ") and "Newton steps" in line for line in lines)
    assert any(line.startswith("cross-entropy in nats per position; squared error") for line in lines)
    assert "Feature weights" in printed and "cross-entropy" in printed and f"weights written to {out}" in printed
    assert "match" not in json.loads(out.read_text())


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "grundy"], "tune fits Connect Four weights: --game connect4 or connect4:WxH, not grundy"),
        (["--game", "connect4-chance"], "not connect4-chance"),
        (["--positions", "0"], "argument --positions: 0 is out of range (from 10 to 1,000,000)"),
        (["--plies", "30-10"], "--plies '30-10': plies go from 0 to 41"),
        (["--match", "mcts"], "--match 'mcts': mcts uses no evaluator"),
        (["--match", "alphabeta:eval=rivest"], "--match 'alphabeta:eval=rivest': leave out eval, tune sets them"),
        (["--match", "nosuch"], "unknown algorithm 'nosuch'"),
        (["--openings", "0"], "openings '0': use all2, a number from 1 to 49, balanced:N or a file of move strings"),
        (["--moves", "0"], "argument --moves: 0 is out of range (from 1 to"),
        (["--source", "dreams"], "invalid choice"),
        (
            ["--source", "random", "--labels", "games"],
            "labels from games need positions from self-play (--source selfplay)",
        ),
        (["--l2", "-1", "--positions", "5"], "argument --l2: -1 is out of range (from 0 to 1,000,000)"),
        (["--seed", "-1"], "argument --seed: -1 is out of range (from 0 to"),
    ],
)
def test_bad_tune_input_exits_2_with_one_line(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert message in _refused(["tune", "--out", str(tmp_path / "w.json"), *argv], capsys)


def test_tune_needs_an_existing_folder(capsys: pytest.CaptureFixture[str]) -> None:
    assert "--out /no/such/w.json: the folder /no/such does not exist" in _refused(
        ["tune", "--out", "/no/such/w.json"], capsys
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["search", "--algo", "minimax", "--game", "connect4-chance"],
            "minimax cannot search chance nodes: on connect4-chance use expectiminimax, mcts or flat-mc",
        ),
        (["search", "4", "--algo", "expectiminimax", "--game", "connect4-chance"], "this position is a chance node"),
        (
            ["search", "--algo", "expectiminimax", "--game", "connect4-chance:0.5,0.3"],
            "chance probabilities 0.5,0.3: KEEP and SIDE must be between 0 and 1 with KEEP + 2 x SIDE = 1",
        ),
        (["search", "--algo", "minimax", "--param", "transform=cube:2"], "minimax: transform 'cube:2' is not one of"),
        (
            ["search", "--algo", "minimax", "--param", "eval=features", "--param", "weights=nosuch.json"],
            "minimax: weights 'nosuch.json': no such file",
        ),
        (["solve", "4454", "--game", "connect4-chance"], "connect4-chance"),
        (
            ["arena", "--agents", "pns", "mcts", "--game", "connect4-chance"],
            f"agent 'pns': pns plays connect4, nim, {OPENSPIEL}tictactoe and tree only, not connect4-chance",
        ),
    ],
)
def test_the_lab_refuses_bad_input_in_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert message in _refused(argv, capsys)


def test_search_runs_expectiminimax_on_the_chance_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "search",
                "4454",
                "--game",
                "connect4-chance",
                "--algo",
                "expectiminimax",
                "--param",
                "depth=2",
                "--param",
                "pruning=star1",
                "--json",
            ]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "connect4-chance" and report["position"] == "4454" and report["finished"] is True
    assert report["params"]["pruning"] == "star1" and report["best_move"] in list("1234567")
    assert len(report["pv"]) == 4  # choice, landing, choice, landing


def test_bench_lab_quick_reports_speed_and_star1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--quick", "--only", "lab", "--json"]) == 0
    speed, star1 = json.loads(capsys.readouterr().out)["lab"]  # --quick leaves the tuning match out
    minimax, same, chance = speed["rows"]
    assert (minimax["search"], same["search"], chance["game"]) == ("minimax", "expectiminimax", "connect4-chance")
    assert minimax["nodes"] == same["nodes"] < chance["nodes"]  # without chance it is minimax, node for node
    assert all(row["nodes/s"] > 0 for row in speed["rows"])
    for row in star1["rows"]:
        assert row["Star1"] < row["plain"] and row["alpha-beta"] < row["minimax"]
