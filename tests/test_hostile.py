"""Issue 12: hostile input and faults.  Every bad input is one line on stderr with exit status 2, files that
are not files are refused at once, a scheduler that is not Dask is named, a dead worker loses no game, a
killed arena leaves no orphan, Ctrl-C keeps what finished, and every tree is bounded by default."""

from __future__ import annotations

import http.server
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from plyscope.engine.agents import Agent
from plyscope.engine.arena import pool as pool_module
from plyscope.engine.arena.openings import two_move_openings
from plyscope.engine.arena.pool import GamePool, run_games
from plyscope.engine.arena.schedule import schedule
from plyscope.engine.kits import make_game
from plyscope.engine.search.base import Limit
from plyscope.engine.search.registry import AgentSpec
from plyscope.tui.cli import main

SMALL_ARENA = ["arena", "--agents", "minimax:depth=1", "minimax:depth=2", "--openings", "1", "--moves", "40"]
"""Two quick agents over one opening pair: an arena run that is over in a second, to add a bad option to."""

ROOT = Path(__file__).resolve().parents[1]
SUPERSCRIPT_TWO = "\u00b2"
FULLWIDTH_FOUR = "\uff14"
HUGE = "9" * 5000

BAD = [
    # numbers: Unicode digits, thousands of digits, nan and inf, negative seeds, out of range
    ["search", "--algo", "mcts", "--moves", SUPERSCRIPT_TWO],
    ["search", "--algo", "mcts", "--moves", FULLWIDTH_FOUR],
    ["search", "--algo", "mcts", "--moves", HUGE],
    ["search", "--algo", "mcts", "--moves", "-1"],
    ["search", "--algo", "mcts", "--moves", "1e3"],
    ["search", "--algo", "mcts", "--seconds", "nan"],
    ["search", "--algo", "mcts", "--seconds", "inf"],
    ["search", "--algo", "mcts", "--seconds", "-inf"],
    ["search", "--algo", "mcts", "--seconds", "0"],
    ["search", "--algo", "mcts", "--seconds", HUGE],
    ["search", "--algo", "mcts", "--iterations", SUPERSCRIPT_TWO],
    ["search", "--algo", "mcts", "--seed", "-1"],
    ["search", "--algo", "flat-mc", "--seed", "-5"],
    ["search", "--algo", "rivest", "--seed", "-5"],
    ["search", "--algo", "mcts", "--seed", HUGE],
    ["search", "--algo", "mcts", "--seed", "1" + "0" * 19],
    ["search", "--algo", "mcts", "--max-nodes", "0"],
    ["search", "--algo", "mcts", "--param", "c=nan"],
    ["search", "--algo", "mcts", "--param", "c=inf"],
    ["search", "--algo", "mcts", "--param", f"k={SUPERSCRIPT_TWO}"],
    ["search", "--algo", "mcts", "--param", f"k={HUGE}"],
    ["search", "--algo", "rivest", "--param", "p=-inf"],
    ["search", "--algo", "minimax", "--param", "depth=1.5"],
    ["search", "--algo", "mcts", "--param", "nosuch=1"],
    ["search", "--algo", "mcts", "--param", "=1"],
    ["search", "--algo", "", "4453"],
    ["search", "--algo", "nosuch"],
    ["search", "--game", "nim", f"3,{SUPERSCRIPT_TWO}", "--algo", "pns"],
    ["search", "--game", "nim", f"3,{HUGE}", "--algo", "pns"],
    ["search", "--game", "nim", "3,-4", "--algo", "pns"],
    ["search", "--game", "grundy", f"{FULLWIDTH_FOUR}", "--algo", "pns"],
    ["search", "--game", f"connect4:{SUPERSCRIPT_TWO}x4", "--algo", "mcts"],
    ["search", "--game", f"connect4:{HUGE}x4", "--algo", "mcts"],
    ["search", "--game", "connect4:3x4", "--algo", "mcts"],
    ["search", "--game", "connect4-chance:nan,0.2", "--algo", "mcts"],
    ["search", "--game", "", "--algo", "mcts"],
    ["search", "4453x", "--algo", "mcts"],
    ["search", "\x1b[31m", "--algo", "mcts"],
    ["solve", "44x"],
    ["solve", "1212121"],
    ["solve", f"3,{SUPERSCRIPT_TWO}", "--game", "nim"],
    ["arena", "--agents", "mcts"],
    ["arena", "--agents", "", "mcts"],
    ["arena", "--agents", "mcts", " "],
    ["arena", "--agents", "mcts", "rivest", "--openings", SUPERSCRIPT_TWO],
    ["arena", "--agents", "mcts", "rivest", "--openings", HUGE],
    ["arena", "--agents", "mcts", "rivest", "--openings", "0"],
    ["arena", "--agents", "mcts", "rivest", "--openings", "-3"],
    ["arena", "--agents", "mcts", "rivest", "--workers", "0"],
    ["arena", "--agents", "mcts", "rivest", "--workers", HUGE],
    ["arena", "--agents", "mcts", "rivest", "--seed", "-1"],
    ["arena", "--agents", "mcts", "rivest", "--moves", "0"],
    ["arena", "--agents", "mcts", "rivest", "--seconds", "nan"],
    ["arena", "--agents", "mcts:moves=nan", "rivest"],
    ["arena", "--agents", "mcts", "rivest", "--scheduler", "http://example"],
    ["arena", "--agents", "mcts", "rivest", "--scheduler", "tcp://127.0.0.1:99999"],
    ["arena", "--agents", "mcts", "rivest", "--out", "/no/such/folder/out.json"],
    ["rivest", "--values", "nan"],
    ["rivest", "--values", SUPERSCRIPT_TWO],
    ["rivest", "--values", HUGE],
    ["rivest", "--bound", "seconds", "--values", "inf"],
    ["rivest", "--bound", "seconds", "--values", "-0.5"],
    ["rivest", "--values", ",".join(["1000"] * 100)],
    ["rivest", "--mm", ""],
    ["play", "--second", ""],
    ["play", "--first", "   "],
    ["play", "--hint", ""],
    ["play", "--second", "mcts:seconds=nan"],
    ["play", "--second", "mcts:seconds=inf"],
    ["play", "--second", f"mcts:moves={SUPERSCRIPT_TWO}"],
    ["play", "--seed", "-2"],
    ["play", "--position", f"4{FULLWIDTH_FOUR}"],
    ["compare", "4453", "--agents", "", "mcts"],
    ["compare", "4453", "--agents", "mcts", "rivest", "--seconds", "inf"],
    ["compare", "4453", "--agents", "mcts", "rivest", "--seed", "-1"],
    ["explore", "--moves", HUGE],
    ["explore", "--seed", "-1"],
    ["explore", "--algo", "mcts", "--param", "c=nan"],
    ["explore", f"3{SUPERSCRIPT_TWO}"],
    ["tune", "--out", "w.json", "--positions", SUPERSCRIPT_TWO],
    ["tune", "--out", "w.json", "--l2", "nan"],
    ["tune", "--out", "w.json", "--plies", f"1-{HUGE}"],
    ["bench", "--only", "nosuch"],
    ["nosuch-command"],
    ["search", "--no-such-option"],
]


@pytest.mark.parametrize("argv", BAD, ids=lambda argv: " ".join(a[:12] for a in argv)[:60])
def test_bad_input_is_one_line_and_exit_status_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("plyscope"), captured.err
    assert "Traceback" not in captured.err and len(captured.err) < 400


# --- files that are not files ---------------------------------------------------------------------


def refused_quickly(argv: list[str]) -> str:
    """Run plyscope with ``argv`` in a subprocess that must end within seconds; its one line of stderr."""
    done = subprocess.run(
        [sys.executable, "-m", "plyscope.tui.cli", *argv],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1
    return done.stderr


def test_a_named_pipe_a_device_a_folder_and_a_socket_are_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert "is a named pipe, not a file" in refused_quickly(["play", "--load", str(fifo)])
    assert "is a character device, not a file" in refused_quickly(["play", "--load", "/dev/zero"])
    assert "is a folder, not a file" in refused_quickly(["play", "--load", str(tmp_path)])
    sock = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(sock))
    try:
        assert "is a socket, not a file" in refused_quickly(["play", "--load", str(sock)])
    finally:
        server.close()
    weights = f"eval=features,weights={fifo}"
    assert "is a named pipe" in refused_quickly(
        ["search", "--algo", "minimax", "--param", weights.split(",")[0], "--param", weights.split(",")[1]]
    )


def test_a_file_too_large_to_be_a_save_is_refused_without_reading_it(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    with big.open("wb") as stream:
        stream.truncate(10 * (1 << 30))  # ten gigabytes, sparse: reading it would take a long time
    assert "is too large to be a saved game" in refused_quickly(["play", "--load", str(big)])


# --- a scheduler that is not Dask -------------------------------------------------------------------


@pytest.fixture
def http_server() -> Iterator[int]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def test_an_http_server_as_the_scheduler_fails_in_seconds_naming_it(http_server: int) -> None:
    started = time.monotonic()
    line = refused_quickly(["arena", "--agents", "mcts", "rivest", "--scheduler", f"tcp://127.0.0.1:{http_server}"])
    assert f"tcp://127.0.0.1:{http_server}" in line and "no Dask handshake" in line
    assert time.monotonic() - started < 20


def test_a_closed_port_as_the_scheduler_fails_at_once() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    line = refused_quickly(["arena", "--agents", "mcts", "rivest", "--scheduler", f"tcp://127.0.0.1:{port}"])
    assert "cannot connect" in line


# --- arena faults ---------------------------------------------------------------------------------


def small_tasks() -> list:  # type: ignore[type-arg]
    game = make_game("connect4")
    agents = [
        Agent(AgentSpec.parse("minimax:depth=1"), Limit(moves=50)),
        Agent(AgentSpec.parse("rivest"), Limit(moves=50)),
    ]
    return schedule(game, agents, two_move_openings(game)[:6], seed=1)


def _report_unread_turns(count: int) -> int:
    """In a ``GamePool`` worker: report ``count`` turns, far more than a pipe holds, that nobody reads."""
    for turn in range(count):
        pool_module._report_turn((turn, turn))
    return count


def test_a_pool_shuts_down_though_nobody_read_the_turns_its_workers_reported() -> None:
    """A worker's turn reports are progress only: one left unread in a full pipe once held the worker at its exit,
    and the arena's shutdown with it, for good."""
    pool = GamePool(2)
    try:
        assert pool.submit(_report_unread_turns, 20_000).result(timeout=60) == 20_000
        shutting = threading.Thread(target=pool.shutdown, daemon=True)
        shutting.start()
        shutting.join(timeout=60)
        assert not shutting.is_alive(), "the pool's shutdown waited for a worker held by its unread reports"
    finally:
        pool.stop_now()


def test_a_worker_killed_in_a_local_pool_loses_no_game() -> None:
    tasks = small_tasks()
    here = run_games(tasks)
    killed: list[int] = []

    def kill_a_worker(record: object) -> None:
        if not killed:
            import multiprocessing

            victim = multiprocessing.active_children()[0]
            assert victim.pid is not None
            os.kill(victim.pid, signal.SIGKILL)
            killed.append(victim.pid)

    pool = GamePool(2)
    try:
        outcome = run_games(tasks, pool, in_flight=4, on_game=kill_a_worker)
    finally:
        pool.shutdown()
    assert killed and not outcome.interrupted
    assert [r.index for r in outcome.records] == [r.index for r in here.records]
    assert [(r.moves, r.result) for r in outcome.records] == [(r.moves, r.result) for r in here.records]


def children_of(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        children = (task / "children").read_text().split() if (task / "children").exists() else []
        found.update(int(child) for child in children)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split()[2]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc to find the workers")
def test_a_sigkilled_arena_leaves_no_worker_behind(tmp_path: Path) -> None:
    arena = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "plyscope.tui.cli",
            "arena",
            "--agents",
            "mcts",
            "rivest",
            "--moves",
            "200000",
            "--workers",
            "2",
            "--openings",
            "4",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            workers = children_of(arena.pid)
        assert len(workers) >= 2, "the arena started no workers"
        arena.kill()
        arena.wait()
        deadline = time.monotonic() + 10
        while any(alive(worker) for worker in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(alive(worker) for worker in workers), "workers play on after the arena was killed"
    finally:
        arena.kill()


def test_ctrl_c_keeps_the_finished_games_and_says_how_many(tmp_path: Path) -> None:
    out = tmp_path / "games.json"
    arena = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "plyscope.tui.cli",
            "arena",
            "--agents",
            "minimax:depth=1",
            "mcts:k=2",
            "--moves",
            "3000",
            "--workers",
            "2",
            "--out",
            str(out),
        ],  # 98 games, some 20 s: far longer than the first save's 5 s (k=2: MCTS with no compiled twin)
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        time.sleep(0.3)
        if out.exists() and json.loads(out.read_text())["games_played"] >= 1:
            break
    time.sleep(1.5)  # a save every few seconds: let a game or two more finish
    arena.send_signal(signal.SIGINT)
    stdout, stderr = arena.communicate(timeout=60)
    assert arena.returncode == 130, stderr
    assert "Traceback" not in stdout + stderr
    document = json.loads(out.read_text())
    assert document["interrupted"] is True and document["games_played"] == len(document["games"]) >= 1
    assert f"interrupted: {document['games_played']} of {document['games_planned']} games finished" in stdout


def test_every_error_record_carries_the_errors_type_and_message() -> None:
    import dataclasses

    from plyscope.engine.arena.play import play_game

    task = dataclasses.replace(
        small_tasks()[0], game="grundy", opening=(), first=Agent(AgentSpec.parse("solver"), Limit(moves=50))
    )
    record = play_game(task)
    assert record.result == "error" and record.error_agent == "solver"
    assert record.error is not None and record.error.startswith("SearchError: solver")


# --- bounded by default ---------------------------------------------------------------------------


def test_a_huge_search_stops_at_its_node_cap_with_the_result_so_far(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "4453", "--algo", "rivest", "--moves", "1000000000", "--max-nodes", "3000", "--json"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["stopped_at_node_cap"] is True and report["node_cap"] == 3000
    assert 3000 <= report["nodes"] < 3010 and report["best_move"] is not None
    assert captured.err.count("\n") == 1 and "stopped at the node cap of 3,000 nodes" in captured.err


def test_an_agent_searches_within_its_node_cap() -> None:
    from dataclasses import replace

    agent = Agent(AgentSpec.parse("rivest"), Limit(moves=10**9, nodes=5000))
    decision = agent.decide(make_game("connect4").parse("4453"), seed=0)
    assert decision.stats.nodes <= 5000 + 7  # the cap is checked before each step (an expansion adds 7)
    default = replace(agent, limit=Limit(moves=10))
    assert default.decide(make_game("connect4").start(), seed=0).stats.nodes <= 10 + 1


def test_more_workers_than_cores_are_capped_with_a_notice(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        *SMALL_ARENA,
        "--workers",
        "1000",
    ]
    assert main(argv) == 0
    cores = os.cpu_count() or 1
    assert f"--workers 1000: this machine has {cores} cores; running {cores} workers" in capsys.readouterr().err


# --- the hostile-input sweep (branch hostile): each case below failed before its fix ---------------


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``plyscope argv`` in this process: it must exit with status 2 and one line on stderr; that line."""
    status = main(argv)
    captured = capsys.readouterr()
    assert status == 2, captured.err
    assert captured.err.count("\n") == 1 and captured.err.startswith("plyscope"), captured.err
    assert "Traceback" not in captured.err and "internal error" not in captured.err
    return captured.err


HOSTILE_JSON = {
    "nested-array": "[" * 200_000 + "]" * 200_000,
    "nested-object": '{"a":' * 100_000 + "1" + "}" * 100_000,
    "5000-digit-integer": '{"format": "plyscope-weights", "version": 1, "seed": ' + "9" * 5000 + "}",
    "nan": '{"format": "plyscope-search", "version": NaN}',
    "infinite-float": '{"format": "plyscope-search", "version": 1e400}',
    "400-digit-weight": '{"format": "plyscope-weights", "weights": {"threes": ' + "9" * 400 + "}}",
}
JSON_READERS: dict[str, Callable[[str], list[str]]] = {
    "replay": lambda path: ["replay", "--check", path],
    "weights": lambda path: [
        "search",
        "4453",
        "--algo",
        "minimax",
        "--moves",
        "50",
        "--param",
        "eval=features",
        "--param",
        f"weights={path}",
    ],
    "arena-weights": lambda path: [
        "arena",
        "--agents",
        f"minimax:depth=1,eval=features,weights={path}",
        "mcts",
        "--openings",
        "1",
        "--moves",
        "40",
        "--workers",
        "1",
    ],
    "arena-resume": lambda path: [
        *SMALL_ARENA,
        "--workers",
        "1",
        "--resume",
        path,
    ],
    "rivest-resume": lambda path: ["rivest", "--values", "40", "--openings", "1", "--workers", "1", "--resume", path],
}


@pytest.mark.parametrize("reader", list(JSON_READERS))
@pytest.mark.parametrize("content", list(HOSTILE_JSON))
def test_hostile_json_is_refused_in_one_line_by_every_reader(
    reader: str, content: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / f"{content}.json"
    path.write_text(HOSTILE_JSON[content])
    refused(JSON_READERS[reader](str(path)), capsys)


def test_parse_json_turns_every_failure_into_not_json() -> None:
    from plyscope.engine.files import NotJson, parse_json

    bad: list[str | bytes] = [text for name, text in HOSTILE_JSON.items() if name != "400-digit-weight"]
    for text in [*bad, b"\xff\xfe", "", "[1,", '{"a": Infinity}', '{"a": -Infinity}']:
        with pytest.raises(NotJson):
            parse_json(text, 5)
    assert parse_json('{"a": [1, 2.5, "x", null, true]}', 2) == {"a": [1, 2.5, "x", None, True]}


def test_numbers_refuse_python_ints_too_large_for_a_float() -> None:
    from plyscope.engine.numbers import NumberError, parse_float, parse_int

    with pytest.raises(NumberError, match="over 30 digits"):
        parse_float(10**400, "weight")
    with pytest.raises(NumberError, match="over 30 digits"):
        parse_int(10**5000, "seed", lo=0)


NL = "a\nb"
"""User text with a newline in it: echoed raw, it split a refusal into two lines."""
ONE_LINE_BAD = [
    ["search", "4453", "--algo", NL],
    ["search", "4453", "--algo", "\x1b[2J"],
    ["explore", "--algo", NL],
    ["search", "4453", "--algo", "mcts", "--param", f"{NL}=1"],
    ["explore", "--algo", "mcts", "--param", f"{NL}=1"],
    ["search", "4\n4", "--algo", "mcts"],
    ["search", "4\u20284", "--algo", "mcts"],
    ["search", "3\x1b4", "--game", "nim", "--algo", "pns"],
    ["solve", "4\r4"],
    ["arena", "--agents", "minimax:depth=1", NL],
    ["arena", "--agents", "mcts", "rivest", "bestfirst", "--anchor", NL],
    ["play", "--second", NL],
    ["play", "--first", NL, "--second", "human"],
    ["play", "--hint", NL],
    ["compare", "44", "--agents", "minimax:depth=1", NL],
    ["rivest", "--mm", NL],
    ["rivest", "--ab", NL],
    ["tune", "--out", "w.json", "--match", NL],
    ["replay", "--check", f"/no/such/{NL}.json"],
    ["play", "--load", f"/no/such/{NL}.txt"],
    ["search", "4453", "--algo", "minimax", "--param", "eval=features", "--param", f"weights=/no/{NL}.json"],
    ["search", "--game", NL, "--algo", "mcts"],
]


@pytest.mark.parametrize("argv", ONE_LINE_BAD, ids=lambda argv: " ".join(argv)[:50].encode("unicode_escape").decode())
def test_a_refusal_quoting_a_newline_or_an_escape_is_still_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    line = refused(argv, capsys)
    assert "\x1b" not in line and "\r" not in line and "\u2028" not in line and "\x85" not in line


def test_a_file_quoting_a_newline_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    weights = tmp_path / "w.json"
    weights.write_text(json.dumps({"format": "plyscope-weights", "weights": {NL: 1}}))
    refused(
        ["search", "4453", "--algo", "minimax", "--param", "eval=features", "--param", f"weights={weights}"], capsys
    )
    assert (
        main(["search", "4453", "--algo", "alphabeta", "--iterations", "20", "--export", str(tmp_path / "s.json")]) == 0
    )
    saved = json.loads((tmp_path / "s.json").read_text())
    for field, value in [("algorithm", NL), ("position", "44\n53"), ("params", {NL: 1}), ("game", NL)]:
        (tmp_path / "bad.json").write_text(json.dumps({**saved, field: value}))
        capsys.readouterr()
        refused(["replay", "--check", str(tmp_path / "bad.json")], capsys)


def test_one_line_escapes_only_what_is_not_printable() -> None:
    from plyscope.engine.errors import one_line

    assert one_line("connect4 ² ４ … é") == "connect4 ² ４ … é"
    assert one_line("a\nb\rc\x1b[2J\u2028\x85\t") == "a\\nb\\rc\\x1b[2J\\u2028\\x85\\t"


def unwritable_paths(tmp_path: Path) -> dict[str, str]:
    """Output paths no file can be written to (named .json, as search --export wants), with what their refusal says."""
    folder = tmp_path / "folder.json"
    folder.mkdir()
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    return {
        str(folder): "is a folder, not a file",
        str(fifo): "is a named pipe, not a file",
        str(tmp_path / "missing" / "out.json"): "does not exist",
        str(tmp_path / "out.json") + "/": "names a folder",
        "/proc/plyscope-out.json": "cannot write there",
        str(tmp_path / ("x" * 300 + ".json")): "cannot write there",
        "": "",
    }


WRITERS: dict[str, Callable[[str], list[str]]] = {
    "arena --out": lambda path: [
        *SMALL_ARENA,
        "--workers",
        "1",
        "--out",
        path,
    ],
    "arena --resume": lambda path: [
        *SMALL_ARENA,
        "--workers",
        "1",
        "--resume",
        path,
    ],
    "rivest --out": lambda path: ["rivest", "--values", "40", "--openings", "1", "--workers", "1", "--out", path],
    "tune --out": lambda path: ["tune", "--out", path, "--positions", "10", "--no-match"],
    "search --export": lambda path: ["search", "4453", "--algo", "mcts", "--moves", "50", "--export", path],
}


@pytest.mark.parametrize("writer", list(WRITERS))
def test_an_output_path_where_no_file_can_be_written_is_refused_before_any_work(
    writer: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for path, says in unwritable_paths(tmp_path).items():
        started = time.monotonic()
        line = refused(WRITERS[writer](path), capsys)
        assert says in line, (path, line)
        assert time.monotonic() - started < 5, "refused only after the work"
    assert stat_is_fifo(tmp_path / "pipe.json"), "the named pipe was replaced by a file"


def stat_is_fifo(path: Path) -> bool:
    import stat

    return stat.S_ISFIFO(os.stat(path).st_mode)


def test_write_atomic_never_replaces_a_named_pipe_or_a_folder(tmp_path: Path) -> None:
    from plyscope.engine.files import write_atomic

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for target in (fifo, tmp_path):
        with pytest.raises(OSError, match="not a file"):
            write_atomic(target, "text")
    assert stat_is_fifo(fifo) and sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def quiet_http_server() -> Iterator[int]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), QuietHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("scheme", ["tls", "ucx", "ws"])
def test_another_dask_transport_at_a_port_that_is_not_dask_is_one_line(
    scheme: str, quiet_http_server: int, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed")
    address = f"{scheme}://127.0.0.1:{quiet_http_server}"
    started = time.monotonic()
    line = refused(
        [
            *SMALL_ARENA,
            "--scheduler",
            address,
        ],
        capsys,
    )
    assert address in line and time.monotonic() - started < 20


@pytest.mark.parametrize("address", ["", " ", "tls://127.0.0.1:{closed}", "ws://127.0.0.1:{closed}"])
def test_a_blank_scheduler_or_a_closed_port_of_another_transport_is_refused_at_once(
    address: str, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    started = time.monotonic()
    line = refused(
        [
            *SMALL_ARENA,
            "--scheduler",
            address.format(closed=closed),
        ],
        capsys,
    )
    assert ("tcp://HOST:PORT" if not address.strip() else "cannot connect") in line
    assert time.monotonic() - started < 3


@pytest.mark.parametrize("weights", ["pipe", "folder", "missing", "nested"])
@pytest.mark.parametrize("option", ["play --second", "play --first", "play --hint", "compare --agents"])
def test_an_agent_with_a_bad_weights_file_is_refused_before_the_screen_opens(
    option: str, weights: str, tmp_path: Path
) -> None:
    from plyscope.engine.errors import UserError
    from plyscope.tui.cli import parse_arguments
    from plyscope.tui.commands import compare, play

    paths = {
        "pipe": tmp_path / "pipe",
        "folder": tmp_path,
        "missing": tmp_path / "missing.json",
        "nested": tmp_path / "nested.json",
    }
    os.mkfifo(paths["pipe"])
    paths["nested"].write_text("[" * 100_000 + "]" * 100_000)
    spec = f"minimax:depth=1,eval=features,weights={paths[weights]}"
    argv = {
        "play --second": ["play", "--second", spec],
        "play --first": ["play", "--first", spec, "--second", "human"],
        "play --hint": ["play", "--hint", spec],
        "compare --agents": ["compare", "44", "--agents", "mcts", spec],
    }[option]
    module = compare if argv[0] == "compare" else play
    with pytest.raises(UserError, match="weights"):
        module.app_for(parse_arguments(argv))


SAVED_SEARCH_EDITS: dict[str, dict[str, object]] = {
    "negative seed": {"seed": -1},
    "80-bit seed": {"seed": 2**80},
    "negative budget": {"budget": -5},
    "40-digit budget": {"budget": 10**40},
    "version true": {"version": True},
    "version 1.0": {"version": 1.0},
    "best move 99": {"events": "best=99"},
    "best move true": {"events": "best=true"},
    "path through column 99": {"events": "path=99"},
    "path of a full column": {"events": "path=full"},
    "negative count": {"events": "added=-5"},
}


@pytest.mark.parametrize("edit", list(SAVED_SEARCH_EDITS))
@pytest.mark.parametrize("algo", ["mcts", "rivest"])
def test_an_edited_saved_search_is_refused_in_one_line(
    edit: str, algo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "saved.json"
    assert main(["search", "4453", "--algo", algo, "--iterations", "30", "--export", str(saved)]) == 0
    capsys.readouterr()
    document = json.loads(saved.read_text())
    change = dict(SAVED_SEARCH_EDITS[edit])
    if change.get("events"):
        what, _, value = str(change["events"]).partition("=")
        events = document["events"]
        if what == "best":
            events[5][3] = 99 if value == "99" else True
        elif what == "path":
            events[5][0] = [98] if value == "99" else [3, 3, 3, 3, 3, 3, 3]  # column 4 holds 2 discs: 7 more overflow
        else:
            events[5][1] = -5
        change["events"] = events
    (tmp_path / "edited.json").write_text(json.dumps({**document, **change}))
    refused(["replay", "--check", str(tmp_path / "edited.json")], capsys)


RECORD_EDITS: dict[str, dict[str, object]] = {
    "moves not a game": {"moves": "9999"},
    "moves a number": {"moves": 5},
    "moves of another opening": {"moves": "1111"},
    "moves that do not end the game": {"moves": "{opening}"},
    "result not the game's": {"result": "draw"},
    "opening null": {"opening": None},
    "group null": {"group": None},
    "error_agent a number": {"result": "error", "error": "x", "error_agent": 5},
    "stats a list": {"stats": [1, 2]},
    "stats of text": {"stats": {"first": {"moves": "x"}, "second": {}}},
    "negative seconds": {"stats": {"first": {"seconds": -1.0}, "second": {}}},
    "negative index": {"index": -1},
}


@pytest.mark.parametrize("edit", list(RECORD_EDITS))
def test_a_resumed_results_file_with_a_damaged_game_is_refused_in_one_line(
    edit: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "results.json"
    argv = [
        *SMALL_ARENA,
        "--workers",
        "1",
        "--resume",
        str(results),
    ]
    assert main(argv) == 0
    capsys.readouterr()
    document = json.loads(results.read_text())
    game = document["games"][0]
    change = {
        key: value.format(opening=game["opening"]) if isinstance(value, str) else value
        for key, value in RECORD_EDITS[edit].items()
    }
    if edit == "result not the game's" and game["result"] == "draw":
        change["result"] = "first"
    document["games"][0] = {**game, **change}
    results.write_text(json.dumps(document))
    refused(argv, capsys)


@pytest.mark.parametrize("budget", [["--nodes", "1,000"], ["--nodes", "1_000"], ["--nodes", "+1000"]])
def test_solve_reads_its_budgets_as_every_other_number_is_read(
    budget: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", "4453", *budget, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["finished"] is False


COMMA_NOT_THOUSANDS = [
    ["search", "4453", "--algo", "mcts", "--seconds", "0,5"],
    ["search", "4453", "--algo", "mcts", "--moves", "1,2"],
    ["search", "4453", "--algo", "mcts", "--moves", "1,00"],
    ["search", "4453", "--algo", "mcts", "--param", "k=1,2"],
    ["search", "4453", "--algo", "rivest", "--param", "p=0,5"],
    ["arena", "--agents", "mcts:k=1,2", "rivest"],
    ["arena", "--agents", "mcts", "rivest", "--openings", "1,5"],
    ["arena", "--agents", "mcts", "rivest", "--seconds", "0,5"],
    ["solve", "4453", "--seconds", "0,5"],
]


@pytest.mark.parametrize("argv", COMMA_NOT_THOUSANDS, ids=lambda argv: " ".join(argv[-2:]))
def test_a_comma_that_does_not_group_thousands_is_refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    refused(argv, capsys)


class FailingOutput:
    """A standard output that cannot be written: a full disk, or a pipe whose reader is gone."""

    def __init__(self, error: OSError) -> None:
        self.error = error

    def write(self, text: str) -> int:
        raise self.error

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise OSError("no file descriptor")

    encoding = "utf-8"


OUTPUT_COMMANDS = [
    ["search", "--list"],
    ["search", "--list", "--json"],
    ["search", "4453", "--algo", "mcts", "--moves", "50"],
    ["search", "4453", "--algo", "mcts", "--moves", "50", "--json"],
    ["solve", "2252576253462244111563365343671351441"],
    ["arena", "--agents", "minimax:depth=1", "minimax:depth=2", "--openings", "1", "--moves", "40", "--workers", "1"],
    ["--help"],
    ["search", "--help"],
]


@pytest.mark.parametrize("broken_pipe", [False, True], ids=["disk full", "reader gone"])
@pytest.mark.parametrize("argv", OUTPUT_COMMANDS, ids=lambda argv: " ".join(argv[:3]))
def test_an_output_that_cannot_be_written_is_not_a_crash(
    argv: list[str],
    broken_pipe: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import errno

    monkeypatch.setenv("PLYSCOPE_CRASH_DIR", str(tmp_path))
    error = BrokenPipeError(errno.EPIPE, "Broken pipe") if broken_pipe else OSError(errno.ENOSPC, "No space left")
    with monkeypatch.context() as patched:
        patched.setattr(sys, "stdout", FailingOutput(error))
        status = main(argv)
    err = capsys.readouterr().err
    assert status == 2, err
    assert not list(tmp_path.iterdir()), "a crash report was written"
    lines = [line for line in err.splitlines() if not line.startswith(("minimax", "\r"))]  # the arena's progress bar
    assert lines == ([] if broken_pipe else [lines[-1]]) and (broken_pipe or "cannot write the output" in lines[-1])


@pytest.mark.parametrize(
    "transform",
    ["affine:1e308,1e308", "affine:1e300,0", "affine:1e-320,0", "affine:1,1e300", "affine:1e7,0", "affine:1,-1e10"],
)
@pytest.mark.parametrize("algo", ["rivest", "alphabeta"])
def test_an_affine_transform_whose_values_overflow_or_lose_their_order_is_refused(
    algo: str, transform: str, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refused(["search", "4453", "--algo", algo, "--moves", "50", "--param", f"transform={transform}"], capsys)
    assert "A must be from" in line


GIVEN_TWICE = [
    ["search", "4453", "--algo", "mcts", "--param", "k=1", "--param", "k=2"],
    ["arena", "--agents", "mcts:k=1,k=2", "rivest"],
    ["arena", "--agents", "mcts:c=1,k=2,c=3", "rivest"],
    ["play", "--second", "mcts:k=1,k=2"],
    ["compare", "44", "--agents", "mcts:k=1,k=2", "rivest"],
    ["explore", "--algo", "mcts", "--param", "k=1", "--param", "k=2"],
    ["explore", "--algo", ""],
    ["explore", "--algo", "  "],
]


@pytest.mark.parametrize("argv", GIVEN_TWICE, ids=lambda argv: " ".join(argv[1:])[:40])
def test_a_parameter_given_twice_or_a_blank_algorithm_is_refused(argv: list[str], tmp_path: Path) -> None:
    from plyscope.engine.errors import UserError
    from plyscope.tui.cli import parse_arguments
    from plyscope.tui.commands import arena, compare, explore, play, search

    module = {"search": search, "arena": arena, "play": play, "compare": compare, "explore": explore}[argv[0]]
    args = parse_arguments(argv)
    with pytest.raises(UserError):
        (module.run if argv[0] in ("search", "arena") else module.app_for)(args)


def test_a_run_of_more_games_than_a_results_file_holds_is_refused_before_scheduling(
    capsys: pytest.CaptureFixture[str],
) -> None:
    started = time.monotonic()
    line = refused(["arena", "--agents", *["minimax:depth=1"] * 400, "--moves", "40", "--workers", "1"], capsys)
    assert "400 agents on 49 openings make 7,820,400 games" in line and time.monotonic() - started < 10
    gauntlet = [
        "arena",
        "--agents",
        *["minimax:depth=1"] * 400,
        "--tournament",
        "gauntlet",
        "--openings",
        "1",
        "--moves",
        "1",
        "--workers",
        "1",
        "--sprt",
        "elo0=0,elo1=5",
    ]
    assert "two agents" in refused(gauntlet, capsys)  # a gauntlet of 400 is 798 games: the schedule is not refused


@pytest.mark.parametrize("content", [b"\x8b\xff\x00garbage\n", b"4453 x\n", b"44x 3\n", b"4444444 1\n", b"4453\n"])
def test_a_corrupt_file_of_pons_positions_is_one_line(content: bytes, tmp_path: Path) -> None:
    from plyscope.engine.benchmarks.solver import read_set
    from plyscope.engine.errors import UserError

    path = tmp_path / "Test_L3_R1"
    path.write_bytes(b"2252576253462244111563365343671351441 -1\n" + content)
    if b"garbage" not in content:  # text: the lines before the damaged one are read
        assert read_set(path, 1) == [("2252576253462244111563365343671351441", -1)]
    with pytest.raises(UserError, match=r"line 2|not text") as raised:
        read_set(path, 2)
    assert "\n" not in str(raised.value)
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(UserError, match="named pipe"):
        read_set(tmp_path / "pipe", 2)


@pytest.mark.parametrize(
    ("name", "compiled"), [("connect4:10x10", False), ("connect4:9x6", False), ("connect4:6x5", True)]
)
def test_balanced_openings_of_a_board_the_compiled_solver_does_not_play_are_refused_before_any_search(
    name: str, compiled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """10x10 was refused after 21 s of CPU: the pure Python solver spent 3,000,000 nodes on its first opening, and
    no opening of a board of 54 cells or more is settled in that many."""
    import plyscope.engine.arena.openings as openings
    from plyscope.engine.errors import UserError
    from plyscope.engine.solver import ScoreSearch

    budgets: list[int] = []

    def advance(self: object, nodes: int) -> None:
        budgets.append(nodes)

    monkeypatch.setattr(ScoreSearch, "advance", advance)
    game = make_game(name)
    with pytest.raises(UserError, match="more than 50,000,000" if compiled else "out of the exact solver's reach"):
        openings.opening_scores(game, openings.two_move_openings(game)[:1])
    assert budgets == ([openings.BALANCED_NODES] if compiled else [])


@pytest.mark.parametrize("host", ["x" * 100_000, "a" * 64, "a..b"])
def test_a_scheduler_host_name_that_idna_refuses_is_one_line(host: str, capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(["arena", "--agents", "mcts", "rivest", "--scheduler", f"tcp://{host}:1"], capsys)
    assert "cannot connect" in line and len(line) < 300


LONG = "x" * 100_000


@pytest.mark.parametrize(
    "argv",
    [
        ["replay", "--check", LONG],
        ["play", "--load", LONG],
        ["search", "44", "--algo", "mcts", "--export", LONG + ".json"],
        ["search", "44", "--algo", "mcts", "--export", "/no/such/" + LONG + ".json"],
    ],
    ids=["replay", "load", "export", "export-folder"],
)
def test_a_path_of_100000_characters_is_quoted_short(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert len(refused(argv, capsys)) < 400


def test_a_save_is_readable_as_any_new_file_is_and_keeps_the_mode_of_the_one_it_replaces(tmp_path: Path) -> None:
    """mkstemp makes 0600 files: saves meant to be shared (weights, exports, games) were private to their writer."""
    from plyscope.engine.files import write_atomic

    umask = os.umask(0o022)
    try:
        fresh = tmp_path / "fresh.json"
        write_atomic(fresh, "{}")
        assert fresh.stat().st_mode & 0o777 == 0o644
        kept = tmp_path / "kept.json"
        kept.write_text("{}")
        kept.chmod(0o640)
        write_atomic(kept, "[]")
        assert kept.stat().st_mode & 0o777 == 0o640 and kept.read_text() == "[]"
    finally:
        os.umask(umask)


TOO_LARGE = [
    (["search", "--algo", "mcts", "--moves", HUGE], "--moves: a number of over 30 digits is out of range (from 0 to"),
    (["search", "--algo", "mcts", "--seed", HUGE], "--seed: a number of over 30 digits is out of range (from 0 to"),
    (["search", "--algo", "mcts", "--seconds", HUGE], "--seconds: 99999999999999999999999… is out of range (more"),
    (["search", "--algo", "mcts", "--seconds", "1e999"], "--seconds: 1e999 is out of range (more than 0 and at most"),
    (["search", "--algo", "mcts", "--param", f"k={HUGE}"], "parameter k: 99999999999999999999999… is above its range"),
    (["search", "--algo", "mcts", "--param", "k=100000"], "parameter k: 100000 is above its range"),
    (["search", "--game", "nim", "3,1000000000", "--algo", "pns"], "pile 1000000000 is too large: at most 1000"),
    (["search", "--game", "nim", f"3,{HUGE}", "--algo", "pns"], "is too large: at most 1000 tokens a pile"),
    (["search", "--game", "connect4:1000x6", "--algo", "mcts"], "board size 1000x6 is out of range: width and"),
    (["search", "--game", "connect4-chance:1000x6", "--algo", "mcts"], "board size 1000x6 is out of range"),
    (["search", "--game", f"connect4:{HUGE}x4", "--algo", "mcts"], "board size 99999999999999999999999…x4 is out"),
    (["solve", "4453", "--nodes", "1000000000000001"], "--nodes: 1000000000000001 is out of range (from 0 to"),
    (["solve", "4453", "--nodes", HUGE], "--nodes: a number of over 30 digits is out of range (from 0 to"),
    (["solve", "4453", "--seconds", "100000001"], "--seconds: 100,000,001 is out of range (from 0 to"),
    (["tune", "--out", "w.json", "--plies", "1-43"], "--plies '1-43': plies go from 0 to 41"),
    (["tune", "--out", "w.json", "--plies", f"1-{HUGE}"], "plies go from 0 to 41"),
]


@pytest.mark.parametrize(
    ("argv", "says"), TOO_LARGE, ids=lambda value: " ".join(value)[-40:] if isinstance(value, list) else ""
)
def test_a_number_too_large_is_refused_as_too_large(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A whole number (or a number) that is too large is refused for that, never as "not a number"."""
    said = refused(argv, capsys)
    assert says in said and "is not a" not in said, said


def test_a_number_of_many_digits_that_is_small_is_read() -> None:
    from plyscope.engine.numbers import parse_float, parse_int

    assert parse_int("0" * 40 + "5", "--moves", lo=1) == 5
    assert parse_float("0." + "0" * 40 + "5", "--seconds", above=0.0) == 5e-41
