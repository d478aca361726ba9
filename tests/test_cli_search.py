"""``plyscope search``: text and JSON reports, the registry listing, and exit status 2 for every bad input."""

from __future__ import annotations

import json

import pytest

from plyscope.engine.kits import make_game
from plyscope.engine.search import Limit
from plyscope.engine.search.registry import algorithm, algorithms, kits_played, make_searcher
from plyscope.tui.cli import main
from plyscope.tui.commands.search import SEARCH_DEFAULT_MOVES
from plyscope.tui.formatting import format_memory
from tests.engine.test_kits import OPENSPIEL

CONTRACT_KEYS = {"best_move", "value", "pv", "moves", "nodes", "max_depth", "seconds"}


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["search", *argv, "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    report = json.loads(out)
    assert isinstance(report, dict)
    return report


def test_json_report_matches_the_searcher_run_through_the_api(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(capsys, "2737", "--algo", "pns", "--moves", "5000")
    assert report.keys() >= CONTRACT_KEYS
    state = make_game("connect4").parse("2737")
    result = make_searcher("pns", state).run(Limit(moves=5000))
    assert report["best_move"] == "4"
    assert report["value"] == 0.993  # won at ply 7 (proof-number search: 1 - ply/1000)
    assert report["pv"] == [state.move_label(m) for m in result.principal_variation]
    assert (report["moves"], report["nodes"], report["max_depth"], report["iterations"]) == (
        result.stats.moves,
        result.stats.nodes,
        result.stats.max_depth,
        result.stats.iterations,
    )
    assert report["finished"] is True
    assert (report["algo"], report["params"], report["game"], report["position"]) == (
        "pns",
        {"target": "win"},
        "connect4",
        "2737",
    )
    assert isinstance(report["seconds"], float)


def test_compiled_reports_the_python_searcher_s_result_without_work(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("4453", "--algo", "rivest", "--param", "mode=mean", "--moves", "3000", "--truth-nodes", "0")
    compiled, python = run_json(capsys, *argv, "--compiled"), run_json(capsys, *argv)
    same = ("best_move", "value", "pv", "moves", "nodes", "max_depth", "iterations", "finished", "root_moves")
    assert {key: compiled[key] for key in same} == {key: python[key] for key in same}
    assert python["work_unit"] == "moves" and compiled["work_unit"] is None and compiled["work_by_outcome"] is None


def test_text_report_names_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "8", "--game", "grundy", "--algo", "pns"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert lines[0] == "pns (target=win) on grundy 8, seed 0"
    fields = {line[:11].strip(): line[12:] for line in lines[1:]}
    assert list(fields) == [
        "best move",
        "value",
        "pv",
        "moves",
        "nodes",
        "max depth",
        "iterations",
        "seconds",
        "finished",
        "optimal",
        "work",
    ]
    assert fields["best move"] == "8=7+1"
    assert fields["optimal"] == "yes (1 of 3 root moves are)"  # only 8=7+1 wins
    assert fields["value"] == "+0.995 (for the first player)"  # grundy 8: won at ply 5
    assert fields["pv"].split()[0] == "8=7+1"
    assert fields["finished"] == "yes"


def test_parameters_reach_the_searcher(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(capsys, "33445", "--algo", "pns", "--param", "target=draw-or-win")
    assert report["params"] == {"target": "draw-or-win"}
    assert report["value"] == 0.993  # the second player, to move, is lost: the first player wins at ply 7


def test_without_a_budget_the_search_spends_the_default_moves(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(capsys, "--algo", "minimax", "--param", "depth=5")  # depth 5 needs 19,607 moves
    assert report["position"] == ""
    assert report["moves"] == SEARCH_DEFAULT_MOVES
    assert report["finished"] is False


def test_iterations_budget(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(capsys, "--algo", "pns", "--iterations", "3")
    assert report["iterations"] == 3
    assert report["moves"] == 21  # three Connect Four expansions of 7 children


def test_a_zero_budget_reports_no_move(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(capsys, "--algo", "pns", "--moves", "0")
    assert (report["best_move"], report["pv"], report["moves"], report["nodes"]) == (None, [], 0, 1)


def test_help_documents_the_default_budget(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "--help"]) == 0
    assert f"spends {SEARCH_DEFAULT_MOVES:,} moves" in capsys.readouterr().out


def test_list_json_describes_every_registered_algorithm(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "--list", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert [entry["name"] for entry in listing] == list(algorithms())
    by_name = {entry["name"]: entry for entry in listing}
    assert by_name["pns"]["params"] == [
        {
            "name": "target",
            "type": "str",
            "default": "win",
            "range": "win|draw-or-win",
            "help": algorithms()["pns"].params[0].help,
        }
    ]
    assert by_name["minimax"]["params"][0] == {
        "name": "depth",
        "type": "int",
        "default": 4,
        "range": "0..12",
        "help": "search depth in plies",
    }
    for entry in listing:
        assert entry["description"] == algorithms()[entry["name"]].description
        assert entry["games"] == kits_played(algorithms()[entry["name"]])
        assert entry["chance"] == algorithms()[entry["name"]].chance
    assert by_name["solver"]["games"] == ["connect4"] and not by_name["solver"]["chance"]
    assert by_name["minimax"]["games"] == ["connect4", "nim", *OPENSPIEL, "tictactoe", "tree"]
    assert by_name["mcts"]["games"] == ["connect4", "connect4-chance", "nim", *OPENSPIEL, "tictactoe", "tree"]
    assert by_name["mcts"]["chance"]


def test_list_table_shows_names_and_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "--list"]) == 0
    out = capsys.readouterr().out
    for name in algorithms():
        assert f"│ {name} " in out
    assert "target: str = win" in out
    assert "depth: int = 4 (0..12)" in out


BAD_INPUTS = [
    (["--algo", "nope"], "unknown algorithm 'nope'"),
    (["--algo", "pns", "--param", "nope=1"], "pns has no parameter 'nope'"),
    (["--algo", "minimax", "--param", "depth=99"], "parameter depth: 99 is above its range 0..12"),
    (["--algo", "minimax", "--param", "depth=-1"], "parameter depth: -1 is below its range 0..12"),
    (["--algo", "minimax", "--param", "depth=two"], "parameter depth: 'two' is not a whole number"),
    (["--algo", "pns", "--param", "target=lose"], "parameter target: 'lose' is not one of win, draw-or-win"),
    (["--algo", "pns", "--param", "target"], "--param 'target' is not KEY=VALUE"),
    (["--algo", "pns", "--param", "=win"], "--param '=win' is not KEY=VALUE"),
    (["4444444", "--algo", "pns"], "move 7 ('4'): column 4 is full"),
    (["48", "--algo", "pns"], "move 2 ('8'): not a column"),
    (["4455667", "--algo", "pns"], "the game is already over"),
    (["1,1", "--game", "grundy", "--algo", "pns"], "the game is already over"),
    (["x", "--game", "nim", "--algo", "pns"], "pile 'x' is not a whole number"),
    (["--game", "chess", "--algo", "pns"], "unknown game 'chess'"),
    (["--algo", "pns", "--moves", "-1"], "argument --moves: -1 is out of range (from 0 to 1,000,000,000,000)"),
    (["--algo", "pns", "--iterations", "-5"], "argument --iterations: -5 is out of range (from 0 to"),
    (["--algo", "pns", "--seconds", "-0.5"], "argument --seconds: -0.5 is out of range (more than 0 and at most"),
    ([], "choose an algorithm with --algo NAME"),
    (["--algo", "mcts", "--param", "k=2", "--compiled"], "--compiled: mcts has no compiled twin here"),
    (["--algo", "bestfirst", "--compiled"], "--compiled: bestfirst has no compiled twin here"),
    (["--algo", "rivest", "--compiled", "--export", "x.json"], "--compiled keeps no tree to export"),
]


@pytest.mark.parametrize(("argv", "message"), BAD_INPUTS, ids=[" ".join(a) or "no-algo" for a, _ in BAD_INPUTS])
@pytest.mark.parametrize("as_json", [False, True])
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str, as_json: bool
) -> None:
    assert main(["search", *argv, *(["--json"] if as_json else [])]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1
    assert err.startswith("plyscope search: ")
    assert message in err


def test_an_algorithm_outside_its_games_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    restricted = [info for info in algorithms().values() if info.games and "nim" not in info.games]
    if not restricted:
        pytest.skip("no registered algorithm is limited to Connect Four")
    assert main(["search", "7", "--game", "grundy", "--algo", restricted[0].name]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"{restricted[0].name} works on connect4 only, not on grundy" in err


def test_the_solver_solves_under_its_own_budget_held_to_the_cap_of_its_tree(capsys: pytest.CaptureFixture[str]) -> None:
    # Pons' Middle-Medium takes 440,709 solver moves: over the 10,000 other searchers get, and over a cap of 50 nodes
    # when the cap counted negamax nodes; the tree the solver keeps is 34 nodes.
    report = run_json(capsys, "274552224131661", "--algo", "solver", "--max-nodes", "50")
    assert report["finished"] is True and report["stopped_at_node_cap"] is False
    assert (report["moves"], report["nodes"], report["node_cap"]) == (440_709, 34, 50)
    assert report["value"] == 0.0 and len(report["pv"]) == 27  # type: ignore[arg-type]


def test_json_judges_the_best_move_and_shares_the_work_by_the_root_moves_values(
    capsys: pytest.CaptureFixture[str],
) -> None:
    report = run_json(capsys, "2,3,4", "--game", "nim", "--algo", "minimax", "--param", "depth=2")
    # nim-sum 5: one move of nine makes it 0, which minimax at depth 2, with its evaluator, does not see
    assert (report["best_move_optimal"], report["optimal_root_moves"], report["root_moves"]) == (False, 1, 9)
    work = report["work_by_outcome"]
    assert isinstance(work, dict) and sum(work.values()) == report["nodes"] - 1  # type: ignore[operator]
    assert report["work_unit"] == "moves" and work["unsettled"] == 0
    assert report["losing_work_share"] == work["loss"] / (report["nodes"] - 1)  # type: ignore[operator]


def test_json_says_null_not_zero_for_the_losing_share_while_nothing_is_settled(
    capsys: pytest.CaptureFixture[str],
) -> None:
    report = run_json(capsys, "4453", "--algo", "alphabeta", "--moves", "300", "--truth-nodes", "0")
    work = report["work_by_outcome"]
    assert isinstance(work, dict) and work["unsettled"] == sum(work.values()) > 0
    assert report["losing_work_share"] is None and report["best_move_optimal"] is None


def test_json_has_no_truth_with_chance(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(capsys, "4454", "--game", "connect4-chance", "--algo", "mcts", "--moves", "300")
    assert report["best_move_optimal"] is None and report["losing_work_share"] is None
    assert "expected values" in str(report["truth_refused"])


@pytest.mark.parametrize(
    ("cap", "said"),
    [
        ("1", "1 node (under 1 KB of tree)"),
        ("10", "10 nodes (about 2 KB of tree)"),
        ("3000", "3,000 nodes (about 586 KB"),
    ],
)
def test_a_small_node_cap_states_a_true_size(cap: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 36, item 12: --max-nodes 10 said "about 1 MB of tree" (200 bytes a node: 2,000 bytes).
    assert algorithm("mcts").node_bytes == 200
    assert main(["search", "4453", "--algo", "mcts", "--moves", "100000", "--max-nodes", cap, "--json"]) == 0
    assert f"stopped at the node cap of {said}" in capsys.readouterr().err


def test_memory_is_said_in_the_largest_unit_it_holds_one_of() -> None:
    sizes = (0, 1023, 1024, 2000, 600_000, (1 << 20) - 1, 1 << 20, 6_100_805 * 176)
    assert [format_memory(size) for size in sizes] == [
        "under 1 KB",
        "under 1 KB",
        "about 1 KB",
        "about 2 KB",
        "about 586 KB",
        "about 1,024 KB",
        "about 1 MB",
        "about 1,024 MB",
    ]
