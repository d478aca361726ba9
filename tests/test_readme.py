"""The examples of README.md and GUIDE.md are tests: every ``plyscope ...`` line in their code blocks and tables is run.

* Batch commands run as subprocesses, with their budgets shrunk so that the suite stays fast
  (``shrink``), and must end with the exit status the file shows (2 where its example
  prints a refusal, 0 otherwise) and no traceback.
* Screen commands (``plyscope``, ``explore``, ``play``, ``compare``) build their app as the
  command does and are driven under ``App.run_test`` with every key their screen offers (a key
  that opens a bar, a form or another screen is followed by escape); any exception fails.
* ``plyscope serve`` examples serve: each is started on a free port of 127.0.0.1 (whatever
  host and port it names), its page fetched, then stopped with Ctrl-C (exit status 130).
* Synopses (with ``[options]`` or CAPITAL placeholders) are not commands; every command a
  synopsis names must have at least one concrete example.

A new example added to either file is covered without touching this file; each test's id names
the file and line of its example.  The README stays a five-minute read (at most
``README_MOST_LINES`` lines), and every relative link and ``#anchor`` of the project's top-level
Markdown files leads to a file and a heading that exist.
"""

from __future__ import annotations

import asyncio
import importlib
import re
import shlex
import subprocess
import sys
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.pilot import Pilot
from textual.screen import Screen

from plyscope.tui.cli import COMMANDS, parse_arguments
from plyscope.tui.widgets.prompt_bar import PromptBar
from tests.tui.contest_helpers import PATIENCE
from tests.tui.helpers import keys_without_idle_waits

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = (ROOT / "README.md", ROOT / "GUIDE.md")
"""The files whose examples are run: the README (the tour) and the guide (the manual)."""
README_MOST_LINES = 250
"""The README's length at most, as ``wc -l`` counts it: the rest belongs in GUIDE.md."""
SCREEN_COMMANDS = ("explore", "play", "compare")
"""Commands that open the app; the others print and exit."""
PLACEHOLDER = re.compile(r"\[|\]|\.\.\.|(?<![\w:=-])[A-Z][A-Z0-9_]*(?![\w])")
"""What makes a line a synopsis rather than a command: brackets, an ellipsis, a CAPITAL placeholder."""
SKIPPED_KEYS = {"q", "ctrl+c", "question_mark", "escape"}
"""Keys not pressed: they quit, leave the screen, or only show help (each has tests of its own)."""


@dataclass(frozen=True)
class Example:
    """One ``plyscope`` line of README.md or GUIDE.md: where it is, the command line, and the exit status it shows."""

    file: str
    line: int
    command: str
    status: int = 0

    @property
    def words(self) -> list[str]:
        return shlex.split(self.command)[1:]

    @property
    def name(self) -> str:
        """The subcommand (``explore`` when the line gives none)."""
        return str(parse_arguments(self.words).command)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.command}"


def document_lines(document: Path) -> tuple[list[Example], list[Example]]:
    """The concrete examples and the synopses of ``document``, from its code blocks and tables."""
    examples: list[Example] = []
    synopses: list[Example] = []
    lines = document.read_text().splitlines()
    fence: str | None = None
    for index, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("```"):
            fence = None if fence is not None else stripped[3:].strip()
            continue
        found: list[tuple[str, int]] = []
        if fence in ("sh", "bash", "shell"):
            command = stripped.split(" #")[0].strip()
            if re.match(r"plyscope(\s|$)", command):
                found.append((command, 0))
        elif fence == "console" and re.match(r"\$ plyscope(\s|$)", stripped):
            command = stripped[2:].strip()
            following = lines[index + 1].strip() if index + 1 < len(lines) else ""
            refused = re.match(rf"plyscope {re.escape(command.split()[1])}: ", following) if " " in command else None
            found.append((command, 2 if refused else 0))
        elif fence is None and stripped.startswith("|"):
            found.extend((span, 0) for span in re.findall(r"`(plyscope(?:\s[^`]*)?)`", stripped))
        for command, status in found:
            example = Example(document.name, index + 1, command, status)
            (synopses if PLACEHOLDER.search(command) else examples).append(example)
    return examples, synopses


def readme_lines() -> tuple[list[Example], list[Example]]:
    """The concrete examples (each command line once) and the synopses of README.md, then of GUIDE.md."""
    examples: list[Example] = []
    synopses: list[Example] = []
    for document in DOCUMENTS:
        found, named = document_lines(document)
        examples += found
        synopses += named
    seen: set[tuple[str, int]] = set()
    unique = []
    for example in examples:  # (a line written twice, in the README and in the guide, is run once)
        if (example.command, example.status) not in seen:
            seen.add((example.command, example.status))
            unique.append(example)
    return unique, synopses


EXAMPLES, SYNOPSES = readme_lines()


def test_the_readme_and_the_guide_have_examples_of_every_command_they_name() -> None:
    assert len(EXAMPLES) >= 10
    named = {synopsis.command.split()[1].strip("[]") for synopsis in SYNOPSES if " " in synopsis.command}
    covered = {example.name for example in EXAMPLES}
    assert named & set(COMMANDS) <= covered, "commands named in a synopsis with no concrete example"


# --- the documents themselves ---------------------------------------------------------------------------


MARKDOWN = sorted(ROOT.glob("*.md"))
"""The project's top-level Markdown files, whose links are checked."""
LINK_TARGET = re.compile(r"\]\(([^()\s]+)\)")
"""The target of an inline link or image, ``[text](target)``."""


def outside_code(document: Path) -> list[tuple[int, str]]:
    """``document``'s lines (numbered from 1) outside fenced code blocks, inline code spans blanked."""
    kept: list[tuple[int, str]] = []
    fenced = False
    for number, line in enumerate(document.read_text().splitlines(), 1):
        if line.strip().startswith("```"):
            fenced = not fenced
        elif not fenced:
            kept.append((number, line))
    return kept


def anchors(document: Path) -> set[str]:
    """The ``#anchor`` of each heading of ``document``, as GitHub makes them: the heading's text (a link's
    text for the link, code spans' characters kept) lower-cased, every character but letters, digits, ``_``,
    ``-`` and spaces dropped, spaces made ``-``; a repeated one gets ``-1``, ``-2``..."""
    found: set[str] = set()
    for _, line in outside_code(document):
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading is None:
            continue
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.group(1)).lower()
        slug = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
        repeated = 0
        while (slug if repeated == 0 else f"{slug}-{repeated}") in found:
            repeated += 1
        found.add(slug if repeated == 0 else f"{slug}-{repeated}")
    return found


def test_the_readme_is_a_five_minute_read() -> None:
    lines = (ROOT / "README.md").read_text().count("\n")  # as wc -l counts
    assert lines <= README_MOST_LINES, f"README.md has {lines} lines: move the detail to GUIDE.md"


def test_the_markdown_files_are_found_and_have_anchors() -> None:
    assert {document.name for document in DOCUMENTS} <= {document.name for document in MARKDOWN}
    assert {"commands", "development"} <= anchors(ROOT / "README.md")
    assert {"the-explorer", "rivests-1988-experiment", "command-line-solve-and-search"} <= anchors(ROOT / "GUIDE.md")


@pytest.mark.parametrize("document", MARKDOWN, ids=lambda document: document.name)
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(document: Path) -> None:
    broken: list[str] = []
    for number, line in outside_code(document):
        for target in LINK_TARGET.findall(re.sub(r"`[^`]*`", "", line)):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:: not this repository's
                continue
            path, _, anchor = target.partition("#")
            linked = (document.parent / path).resolve() if path else document
            if not linked.exists():
                broken.append(f"{document.name}:{number}: {target}: no such file")
            elif anchor and (linked.suffix != ".md" or anchor not in anchors(linked)):
                broken.append(f"{document.name}:{number}: {target}: no such heading in {linked.name}")
    assert not broken, "\n".join(broken)


# --- batch commands -----------------------------------------------------------------------------------


SHRUNK_OPTIONS: dict[str, dict[str, str]] = {
    "arena": {"--openings": "1", "--workers": "2"},
    "rivest": {"--openings": "1", "--workers": "2"},
    "tune": {"--positions": "60", "--openings": "1", "--workers": "2", "--moves": "300"},
    "study": {"--positions": "random:3", "--workers": "1"},
}
"""Per command, options set to these values (added when absent)."""
CAPPED_OPTIONS: dict[str, dict[str, float]] = {
    "arena": {"--seconds": 0.05},
    "rivest": {"--seconds": 0.05},
    "search": {"--moves": 20_000, "--seconds": 1.0},
}
"""Per command, options given no more than these (left out when absent)."""


def shrink(words: list[str], name: str, folder: Path) -> list[str]:
    """``words`` with budgets small enough for a test: fewer openings, moves and seconds; files in ``folder``."""
    shrunk = list(words)
    for option, value in SHRUNK_OPTIONS.get(name, {}).items():
        _set_option(shrunk, option, value)
    for option, most in CAPPED_OPTIONS.get(name, {}).items():
        _cap(shrunk, option, most)
    _cap_work(shrunk, name)
    if name == "rivest":
        seconds = "--bound" in shrunk and shrunk[shrunk.index("--bound") + 1] == "seconds"
        _set_option(shrunk, "--values", "0.05" if seconds else "300")
    if name == "study":
        seconds = "--seconds" in shrunk
        _set_option(shrunk, "--seconds" if seconds else "--budgets", "0.01,0.02" if seconds else "10,30")
    if name == "replay":  # the file is made first; the screen is replaced by --check (no terminal here)
        _make_replayed(shrunk, folder)
    if name == "diff":  # the two files are made first: two steps of one search
        _make_diffed(shrunk, folder)
    if name == "bench":
        _shrink_bench(shrunk)
    if "--out" in shrunk:
        at = shrunk.index("--out") + 1
        shrunk[at] = str(folder / Path(shrunk[at]).name)
    return shrunk


def _cap_work(words: list[str], name: str) -> None:
    """An ``arena`` line's moves per turn, a ``solve --no-book`` line's nodes, capped when absent too."""
    if name == "arena" and "--seconds" not in words:
        _cap(words, "--moves", 200, absent="200")
    if name == "solve" and "--no-book" in words:  # (the empty board without the book takes hours)
        _cap(words, "--nodes", 3_000_000, absent="300000")


def _shrink_bench(words: list[str]) -> None:
    """A ``bench`` line's ``words`` made quick: small samples, the engine's rules alone, the explorer's quickest two
    parts (the whole of ``--ui --quick`` takes 100 s; tests/tui hold what each part measures)."""
    words.append("--quick")
    if "--ui" not in words and "--only" not in words:
        words.extend(["--only", "rules"])
    if "--ui" in words and "--ui-part" not in words:
        words.extend(["--ui-part", "quit", "--ui-part", "tree"])


def _set_option(words: list[str], option: str, value: str) -> None:
    """``option``'s value in ``words`` made ``value`` (``option value`` added when absent)."""
    if option in words:
        words[words.index(option) + 1] = value
    else:
        words.extend([option, value])


def _cap(words: list[str], option: str, most: float, *, absent: str | None = None) -> None:
    """``option``'s value in ``words`` made no more than ``most``; when absent, set to ``absent`` (if given)."""
    if option in words:
        at = words.index(option) + 1
        value = float(min(float(words[at]), most))
        words[at] = str(int(value)) if value.is_integer() else f"{value:g}"
    elif absent is not None:
        words.extend([option, absent])


def _make_diffed(words: list[str], folder: Path) -> None:
    """``plyscope diff A B``'s two files, made in ``folder`` (two steps of one search), put in ``words``."""
    for at, steps in ((1, "100"), (2, "130")):
        saved = folder / Path(words[at]).name
        made = ["search", "4453", "--algo", "bestfirst", "--iterations", steps, "--truth-nodes", "0"]
        subprocess.run(
            [sys.executable, "-m", "plyscope.tui.cli", *made, "--export", str(saved)],
            check=True,
            capture_output=True,
            env={"PYTHONPATH": str(ROOT)},
        )
        words[at] = str(saved)


def _make_replayed(words: list[str], folder: Path) -> None:
    """A ``replay`` command's ``words`` made to replay a small search saved in ``folder`` (made here), with
    ``--check`` for a screen."""
    saved = folder / Path(words[1]).name
    subprocess.run(
        [
            sys.executable,
            "-m",
            "plyscope.tui.cli",
            "search",
            "4453",
            "--algo",
            "alphabeta",
            "--iterations",
            "200",
            "--export",
            str(saved),
        ],
        check=True,
        capture_output=True,
        env={"PYTHONPATH": str(ROOT)},
    )
    words[1] = str(saved)
    if "--check" not in words:
        words.append("--check")


BATCH = [
    example
    for example in EXAMPLES
    if example.name not in SCREEN_COMMANDS and not (example.name == "serve" and example.status == 0)
]


@pytest.mark.parametrize("example", BATCH, ids=str)
def test_a_batch_example_runs(example: Example, tmp_path: Path) -> None:
    words = shrink(example.words, example.name, tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "plyscope.tui.cli", *words],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "160"},
    )
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    assert done.returncode == example.status, (words, done.stderr[-2000:])
    if example.status == 2:
        assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"plyscope {example.name}: ")


# --- plyscope serve -------------------------------------------------------------------------------------


SERVED = [example for example in EXAMPLES if example.name == "serve" and example.status == 0]


@pytest.mark.parametrize("example", SERVED, ids=str)
def test_a_serve_example_serves_the_page(example: Example) -> None:
    from plyscope.tui.web.browser import Served

    words = example.words[1:]
    for option in ("--host", "--port"):  # this machine only, on a free port
        if option in words:
            del words[words.index(option) : words.index(option) + 2]
    with Served("--host", "127.0.0.1", *words) as served:
        with urllib.request.urlopen(f"http://127.0.0.1:{served.port}/", timeout=60) as page:
            assert page.status == 200 and "<title>plyscope</title>" in page.read().decode()
        assert served.stop() == 130
    assert "Traceback" not in served.output, served.output


# --- screen commands ------------------------------------------------------------------------------------


def screen_keys(screen: Screen[object]) -> list[str]:
    """Every key ``screen`` binds (the first of each binding), but those that quit or only show help."""
    keys: list[str] = []
    for binding in Binding.make_bindings(type(screen).BINDINGS):
        if binding.key not in SKIPPED_KEYS and binding.key not in keys:
            keys.append(binding.key)
    return keys


LEAVING_KEYS = {("CompareMatchScreen", "m")}
"""The keys that leave their screen for the one below (m leaves compare's match): pressed again there, they bring
it back."""
SCREEN_CHANGE_PAUSES = 200
"""The most rounds of handled messages a screen change may take (a key's action runs a few rounds after it)."""


async def until(pilot: Pilot[object], condition: Callable[[], bool]) -> None:
    """Let the app handle its messages until ``condition()`` holds (at most ``SCREEN_CHANGE_PAUSES`` rounds)."""
    for _ in range(SCREEN_CHANGE_PAUSES):
        if condition():
            return
        await pilot.pause(0)
    assert condition()


async def left_and_back(pilot: Pilot[object], screen: Screen[object], key: str) -> Screen[object]:
    """The screen ``key`` brings back after it left ``screen`` (``LEAVING_KEYS``), pressed again below."""
    app = pilot.app
    await until(pilot, lambda: screen not in app.screen_stack)
    await pilot.press(key)
    await until(pilot, lambda: type(app.screen) is type(screen) and app.screen is not screen)
    return app.screen


def at_rest(pilot: Pilot[object], screen: Screen[object]) -> bool:
    """Whether ``screen`` is on top with no bar open."""
    bar = screen.query(PromptBar)
    return pilot.app.screen is screen and not (bar and bar.first(PromptBar).is_open)


async def escape_from(pilot: Pilot[object], screen: Screen[object]) -> None:
    """Press escape once, and let it take effect: the screen on top gone (a dismissal ends a few rounds later: an
    escape pressed again meanwhile left ``screen`` too), or ``screen`` at rest, or as many rounds as a screen change
    takes."""
    top = pilot.app.screen
    await pilot.press("escape")
    for _ in range(SCREEN_CHANGE_PAUSES):  # (an escape may change nothing else: focus only)
        if pilot.app.screen is not top or at_rest(pilot, screen):
            return
        await pilot.pause(0)


async def drive(example: Example) -> None:
    module = importlib.import_module(COMMANDS[example.name])
    app = module.app_for(parse_arguments(example.words))
    async with app.run_test(size=(120, 36)) as pilot:  # (each pause(0): every message sent so far is handled)
        await pilot.pause(0)
        screen = app.screen
        for key in screen_keys(screen):
            await pilot.press(key)
            await pilot.pause(0)
            if (type(screen).__name__, key) in LEAVING_KEYS:
                screen = await left_and_back(pilot, screen, key)
                continue
            for _ in range(3):  # back from a form, a palette, another screen or a bar
                if at_rest(pilot, screen):
                    break
                await escape_from(pilot, screen)
            assert app.screen is screen, f"{key} left {type(screen).__name__} for {type(app.screen).__name__}"
        await pilot.pause(0)


SCREENS = [example for example in EXAMPLES if example.name in SCREEN_COMMANDS]


@pytest.mark.parametrize("example", SCREENS, ids=str)
def test_a_screen_example_takes_every_key_of_its_screen(example: Example) -> None:
    with keys_without_idle_waits():
        asyncio.run(asyncio.wait_for(drive(example), PATIENCE))
