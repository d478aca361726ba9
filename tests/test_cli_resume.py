"""``plyscope arena --resume`` and ``--sprt`` from the command line: interrupted runs end as uninterrupted ones.

A run is stopped by a real signal (SIGINT, or SIGKILL) sent by the arena process to itself right
after its results file holds a given number of games (a wrapper around ``plyscope.tui.commands.arena.save``,
so the moment is exact, not a matter of timing); the same command line then resumes it from the
file.  The final file must equal, less the seconds each search took, the file of a run that was
never stopped.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from plyscope.tui.cli import main

ROOT = Path(__file__).resolve().parents[1]
AGENTS = ["--agents", "minimax:depth=2", "mcts:k=1"]
"""Two agents whose games depend on the seeds (MCTS), quick enough for a dozen games."""
STOPPER = """
import json, os, signal, sys
import plyscope.tui.commands.arena as arena
from plyscope.tui.cli import main

real_save = arena.save
fired = []

def save(path, text):
    real_save(path, text)
    contents = json.loads(text)
    if not fired and contents["games_played"] >= {after} and not contents["complete"]:
        fired.append(True)
        os.kill(os.getpid(), signal.{signal})

arena.save = save
sys.exit(main(sys.argv[1:]))
"""
"""A ``plyscope`` that sends itself ``signal`` once its results file holds ``after`` games."""


def _run(argv: list[str], *, stop: tuple[str, int] | None = None, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``plyscope argv`` in a subprocess; with ``stop = (signal name, games)``, stopped by that signal then."""
    if stop is None:
        command = [sys.executable, "-m", "plyscope.tui.cli", *argv]
    else:
        command = [sys.executable, "-c", STOPPER.format(signal=stop[0], after=stop[1]), *argv]
    return subprocess.run(
        command,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "160"},
    )


def _less_timings(document: dict[str, object]) -> dict[str, object]:
    """``document`` without the seconds each side's searches took (they differ from run to run)."""
    games = document["games"]
    assert isinstance(games, list)
    for game in games:
        for side in game["stats"].values():
            side.pop("seconds")
    return document


def _load(path: Path) -> dict[str, object]:
    document = json.loads(path.read_text())
    assert isinstance(document, dict)
    return document


@pytest.mark.parametrize(("name", "status"), [("SIGINT", 130), ("SIGKILL", -signal.SIGKILL)])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_resumed_run_ends_as_an_uninterrupted_one(name: str, status: int, workers: str, tmp_path: Path) -> None:
    argv = ["arena", *AGENTS, "--openings", "5", "--moves", "200", "--seed", "4", "--workers", workers]
    whole = _run([*argv, "--out", "whole.json"], cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    cut = _run([*argv, "--resume", "run.json"], stop=(name, 3), cwd=tmp_path)
    assert cut.returncode == status, cut.stderr
    stopped = _load(tmp_path / "run.json")
    assert stopped["complete"] is False and 3 <= int(str(stopped["games_played"])) < 10
    assert stopped["interrupted"] is (name == "SIGINT")
    resumed = _run([*argv, "--resume", "run.json"], cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert _less_timings(_load(tmp_path / "run.json")) == _less_timings(_load(tmp_path / "whole.json"))
    assert resumed.stdout.splitlines()[:3] == whole.stdout.splitlines()[:3]  # Score, Elo difference, Ptnml


def test_a_resumed_sprt_stops_where_an_uninterrupted_one_does(tmp_path: Path) -> None:
    argv = [
        "arena",
        "--agents",
        "mcts",
        "mcts:moves=20",
        "--moves",
        "800",
        "--openings",
        "20",
        "--workers",
        "2",
        "--sprt",
        "elo0=0,elo1=50",
    ]
    whole = _run([*argv, "--out", "whole.json"], cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    cut = _run([*argv, "--resume", "run.json"], stop=("SIGKILL", 5), cwd=tmp_path)
    assert cut.returncode == -signal.SIGKILL
    resumed = _run([*argv, "--resume", "run.json"], cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    final = _less_timings(_load(tmp_path / "run.json"))
    assert final == _less_timings(_load(tmp_path / "whole.json"))
    summary = final["summary"]
    assert isinstance(summary, dict) and summary["sprt"]["result"] == "H1"
    assert final["complete"] is True and int(str(final["games_played"])) < 40
    assert resumed.stdout.splitlines()[:-1] == whole.stdout.splitlines()[:-1]  # all but "results written to ..."


def test_a_resumed_run_on_a_dask_cluster_ends_as_an_uninterrupted_one(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed", reason="the cluster extra (Dask distributed) is not installed")
    argv = ["arena", *AGENTS, "--openings", "4", "--moves", "200", "--seed", "9"]
    whole = _run([*argv, "--workers", "1", "--out", "whole.json"], cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, protocol="tcp", dashboard_address=None
    ) as cluster:
        on_dask = [*argv, "--scheduler", cluster.scheduler_address, "--resume", "run.json"]
        cut = _run(on_dask, stop=("SIGKILL", 2), cwd=tmp_path)
        assert cut.returncode == -signal.SIGKILL
        assert _load(tmp_path / "run.json")["complete"] is False
        resumed = _run(on_dask, cwd=tmp_path)
        assert resumed.returncode == 0, resumed.stderr
    assert _less_timings(_load(tmp_path / "run.json")) == _less_timings(_load(tmp_path / "whole.json"))


def test_the_sprt_runs_to_its_cap_on_equal_agents(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "equal.json"
    argv = [
        "arena",
        "--agents",
        "mcts",
        "mcts",
        "--moves",
        "200",
        "--openings",
        "12",
        "--workers",
        "2",
        "--sprt",
        "elo0=0,elo1=10",
        "--out",
        str(out),
    ]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Score of mcts vs mcts #2: ") and lines[0].endswith("] 24")
    assert lines[3].startswith("SPRT: llr ") and lines[3].endswith(", lbound -2.94, ubound 2.94")
    data = json.loads(out.read_text())
    assert (data["games_played"], data["complete"], data["summary"]["sprt"]["result"]) == (24, True, None)


def test_resume_refuses_a_file_of_another_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "run.json"
    argv = [
        "arena",
        "--agents",
        "minimax:depth=1",
        "minimax:depth=2",
        "--openings",
        "1",
        "--moves",
        "40",
        "--workers",
        "1",
        "--resume",
        str(path),
    ]
    assert main(argv) == 0
    assert main(argv) == 0  # complete: nothing to play, the same results
    assert "Score of minimax:depth=1 vs minimax:depth=2: " in capsys.readouterr().out
    assert main([*argv, "--seed", "1"]) == 2
    assert capsys.readouterr().err == (
        f"plyscope arena: --resume {path}: the run in it has another seed; "
        "resume a run with the command line that started it\n"
    )
    path.write_text("{}")
    assert main(argv) == 2
    assert capsys.readouterr().err == f"plyscope arena: --resume {path}: not a results file (no list of games)\n"


def test_a_results_file_from_before_the_compiled_field_resumes_as_compiled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run written before ``--no-compiled`` was (no ``compiled`` field) was a compiled run: it resumes as one, and
    is refused to a ``--no-compiled`` run."""
    path = tmp_path / "run.json"
    argv = ["arena", "--agents", "minimax:depth=1", "minimax:depth=2", "--openings", "1", "--moves", "40"]
    assert main([*argv, "--workers", "1", "--out", str(path)]) == 0
    data = json.loads(path.read_text())
    del data["compiled"]
    path.write_text(json.dumps(data))
    assert main([*argv, "--workers", "1", "--resume", str(path)]) == 0
    assert main([*argv, "--workers", "1", "--no-compiled", "--resume", str(path)]) == 2
    assert "has another compiled" in capsys.readouterr().err


def test_rivest_resumes_too(tmp_path: Path) -> None:
    pytest.importorskip("plyscope.engine.search.bestfirst.rivest")
    argv = ["rivest", "--values", "300,400", "--openings", "1", "--workers", "1"]
    whole = _run([*argv, "--out", "whole.json"], cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    cut = _run([*argv, "--resume", "run.json"], stop=("SIGKILL", 2), cwd=tmp_path)
    assert cut.returncode == -signal.SIGKILL
    assert _load(tmp_path / "run.json")["games_played"] == 2
    resumed = _run([*argv, "--resume", "run.json"], cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert _less_timings(_load(tmp_path / "run.json")) == _less_timings(_load(tmp_path / "whole.json"))


def test_resume_keeps_the_summary_game_by_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Saved after every game, the file's summary is the one of its games, kept game by game: the summary is
    made from every game only once, for the last save (not after each game, at a cost growing with the run)."""
    import plyscope.engine.arena.summary
    import plyscope.tui.commands.arena as arena
    from plyscope.engine.arena.records import GameRecord

    made: list[int] = []
    saved: list[dict[str, object]] = []
    real_summary, real_save = plyscope.engine.arena.summary.summary, arena.save

    def summary(records: list[GameRecord], *args: object, **kwargs: object) -> object:
        made.append(len(records))
        return real_summary(records, *args, **kwargs)  # type: ignore[arg-type]

    def save(path: Path, text: str) -> None:
        real_save(path, text)
        saved.append(json.loads(text))

    monkeypatch.setattr(arena, "summary", summary)
    monkeypatch.setattr(arena, "save", save)
    argv = ["arena", "--agents", "minimax:depth=1", "minimax:depth=2", "mcts:k=1", "--openings", "2"]
    assert main([*argv, "--moves", "40", "--workers", "1", "--resume", str(tmp_path / "run.json")]) == 0
    assert made == [12] and len(saved) == 1 + 12 + 1  # before the first game, after each game, at the end
    names = ["minimax:depth=1", "minimax:depth=2", "mcts:k=1"]
    for document in saved:
        games = [GameRecord.from_dict(game) for game in document["games"]]  # type: ignore[attr-defined]
        assert document["summary"] == real_summary(games, names)
