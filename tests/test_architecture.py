"""The shape of the code: which layer loads what, and imports that run one way (ARCHITECTURE.md)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"tui/_plyscope": "plyscope", "engine": "plyscope.engine", "tui": "plyscope.tui", "tests": "tests"}
"""The project's folders (the tests' too) and the packages they are installed as (``pyproject.toml``'s
``package-dir``), whose modules the import graph is made of."""


def project_modules() -> dict[str, Path]:
    """Every module of ``PACKAGES`` by its dotted name (a package by its own, for its ``__init__.py``)."""
    modules: dict[str, Path] = {}
    for folder, package in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            if any(other.startswith(f"{folder}/") and path.is_relative_to(ROOT / other) for other in PACKAGES):
                continue  # (in a folder installed as a package of its own)
            dotted = (package, *(parts[:-1] if parts[-1] == "__init__" else parts))
            modules[".".join(dotted)] = path
    return modules


def _for_type_checking_only(node: ast.If) -> bool:
    """``if TYPE_CHECKING:``: imports that annotations name and that never run."""
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _nodes_that_run(tree: ast.AST, annotations: bool = False) -> Iterator[ast.AST]:
    """Every node of ``tree`` (in functions too) but those under ``if TYPE_CHECKING:`` (those too with
    ``annotations``)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _for_type_checking_only(node) and not annotations:
            for other in node.orelse:
                yield other
                yield from _nodes_that_run(other)
            continue
        yield node
        yield from _nodes_that_run(node, annotations)


def _is_import_module(call: ast.Call) -> bool:
    function = call.func
    name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
    return name == "import_module"


def imports_of(name: str, path: Path, modules: Mapping[str, Path], *, annotations: bool = False) -> set[str]:
    """The project's modules that the module ``name`` (at ``path``) imports, wherever the import stands (in a
    function too; under ``if TYPE_CHECKING:`` only with ``annotations``: imports that annotations name).  ``from a
    import b`` imports ``a.b`` if that is a module, else ``a``; ``import_module("a.b")`` imports ``a.b``; a module that
    calls ``import_module`` with a name it computes may import every module it names in a string
    (``plyscope.tui.cli``'s ``COMMANDS``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    imported: set[str] = set()
    named: set[str] = set()
    computed = False
    for node in _nodes_that_run(tree, annotations):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.update(_imported_from(node, package, modules))
        elif isinstance(node, ast.Call) and _is_import_module(node) and node.args:
            argument = node.args[0]
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                imported.add(argument.value)
            else:
                computed = True
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in modules:
            named.add(node.value)
    if computed:
        imported |= named
    return {module for module in imported if module in modules and module != name}


def _imported_from(node: ast.ImportFrom, package: str, modules: Mapping[str, Path]) -> list[str]:
    """The modules ``from a import b`` (``node``, in ``package``; relative imports resolved) imports: ``a.b`` if
    that is one of ``modules``, else ``a``."""
    base = node.module or ""
    if node.level:
        parent = package
        for _ in range(node.level - 1):
            parent = parent.rpartition(".")[0]
        base = f"{parent}.{base}".strip(".")
    return [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]


def import_graph(annotations: bool = False) -> dict[str, set[str]]:
    """Each module's imports (``imports_of``): those that run, and with ``annotations`` those for annotations."""
    modules = project_modules()
    return {name: imports_of(name, path, modules, annotations=annotations) for name, path in modules.items()}


def a_cycle(graph: Mapping[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` (its modules in order, the first again at the end), or ``None`` when it has none."""
    state: dict[str, str] = {}
    """``open`` while a module's imports are being followed, ``done`` after."""
    path: list[str] = []

    def follow(module: str) -> list[str] | None:
        state[module] = "open"
        path.append(module)
        for other in sorted(graph[module]):
            if state.get(other) == "open":
                return [*path[path.index(other) :], other]
            if other not in state:
                found = follow(other)
                if found is not None:
                    return found
        path.pop()
        state[module] = "done"
        return None

    for module in sorted(graph):
        if module not in state:
            found = follow(module)
            if found is not None:
                return found
    return None


def test_the_cycle_finder_finds_a_cycle_and_reads_every_kind_of_import(tmp_path: Path) -> None:
    assert a_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert a_cycle({"a": {"b"}, "b": {"c"}, "c": {"b"}}) == ["b", "c", "b"]
    modules = {name: tmp_path / f"{name}.py" for name in ("p.q", "p.r", "p.s", "p.t", "p.u")}
    source = (
        "from typing import TYPE_CHECKING\n"
        "import importlib\n"
        "if TYPE_CHECKING:\n"
        "    import p.u\n"
        "TABLE = {'x': 'p.t'}\n"
        "def f(name):\n"
        "    from p import r\n"
        "    importlib.import_module('p.s')\n"
        "    return importlib.import_module(TABLE[name])\n"
    )
    (tmp_path / "q.py").write_text(source)
    assert imports_of("p.q", tmp_path / "q.py", modules) == {"p.r", "p.s", "p.t"}
    assert imports_of("p.q", tmp_path / "q.py", modules, annotations=True) == {"p.r", "p.s", "p.t", "p.u"}


def test_no_import_cycle_among_the_projects_modules() -> None:
    """Imports run one way: in functions too, through ``import_module`` (the command line loads each command's
    module by name, and no command imports the command line back), and under ``TYPE_CHECKING`` too (a searcher types
    its journal by a protocol of its own; the journal imports the searcher, never the other way)."""
    graph = import_graph(annotations=True)
    assert "plyscope.tui.commands.arena" in graph["plyscope.tui.cli"]  # (the graph sees the imports made by name)
    assert "plyscope.engine.compiled.base" in graph["plyscope.engine.search.entry"]  # (and those for annotations)
    assert a_cycle(graph) is None, " -> ".join(a_cycle(graph) or [])


def test_the_match_runner_takes_nothing_from_the_arena() -> None:
    """``plyscope.tui.match`` imports no module of ``plyscope.engine.arena``, nor does anything it loads."""
    assert not [module for module in import_graph()["plyscope.tui.match"] if module.startswith("plyscope.engine.arena")]
    code = (
        "import sys, plyscope.tui.match\nassert not [k for k in sys.modules if k.startswith('plyscope.engine.arena')]\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=Path.home(), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_engine_loads_neither_textual_nor_rich_and_the_ui_logic_no_textual() -> None:
    code = (
        "import importlib, pkgutil, sys, plyscope.engine\n"
        "for m in pkgutil.walk_packages(plyscope.engine.__path__, 'plyscope.engine.'):\n"
        "    importlib.import_module(m.name)\n"
        "assert not [k for k in sys.modules if k.split('.')[0] in ('textual', 'rich')], 'engine'\n"
        "import plyscope.tui.session, plyscope.tui.contest, plyscope.tui.match, plyscope.tui.diffing\n"
        "assert not [k for k in sys.modules if k.split('.')[0] == 'textual'], 'tui logic'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=Path.home(), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_installed_packages_are_plyscopes_own(tmp_path: Path) -> None:
    """Installed, the project is one package, ``plyscope`` (``plyscope.engine``, ``plyscope.tui``): no top-level
    ``engine`` or ``tui`` that another distribution's package of that name would clash with; every folder with an
    ``__init__.py`` is installed (``pyproject.toml`` lists them); ``python -m plyscope`` is the command line."""
    code = (
        "import importlib.util, plyscope, plyscope.engine, plyscope.tui\n"
        "assert importlib.util.find_spec('engine') is None and importlib.util.find_spec('tui') is None\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    modules = project_modules()
    packages = {name for name, path in modules.items() if path.name == "__init__.py" and not name.startswith("tests")}
    assert listed - packages == {"plyscope.tui.web.templates"}  # (the page's templates: data only)
    assert packages <= listed
    assert (ROOT / "tui" / "_plyscope" / "py.typed").is_file()
    done = subprocess.run([sys.executable, "-m", "plyscope", "--help"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("usage: plyscope"), done.stderr


CONCRETE_GAMES = frozenset(
    {
        "Connect4",
        "Connect4State",
        "Connect4Chance",
        "Connect4ChanceState",
        "ChanceDrop",
        "Nim",
        "NimState",
        "Tree",
        "TreeGame",
        "TreeState",
        "Mnk",
        "MnkState",
    }
)
"""The games' own classes (``plyscope.engine.games``, ``plyscope.engine.kits``): what the engine and the UI ask a
game's kit about instead of checking for."""
GAME_NAMES = frozenset({"connect4", "connect4-chance", "grundy", "nim", "nim-misere", "tree", "tictactoe", "classic"})
"""Games by name (and a Nim variant's): checking for one is checking for its class."""
GAMES_OWN = ("engine/games/", "engine/kits/", "engine/solver/", "tui/widgets/boards/")
"""Where a game's own code lives, which may name its classes: the rules, the kits, Connect Four's solver, the board
views."""
MOST_GAME_CHECKS = 3


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
    }


def game_checks(source: str) -> list[str]:
    """The checks on concrete games in ``source``: ``isinstance`` on a game's class (or ``type(x) is``), and a
    comparison (or ``startswith``) of a game's name with one of ``GAME_NAMES``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance" and len(node.args) == 2:
            if _names(node.args[1]) & CONCRETE_GAMES:
                found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Compare) and "type" in _names(node) and _names(node) & CONCRETE_GAMES:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Compare | ast.Call):
            texts = {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
            named = _names(node) & {"name", "game_name", "variant", "kit"}
            if texts & GAME_NAMES and named and (isinstance(node, ast.Compare) or "startswith" in _names(node)):
                found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_game_checker_finds_class_and_name_checks() -> None:
    source = (
        "if isinstance(state, Connect4State) or isinstance(game, TreeGame | Nim): pass\n"
        "if game.name == 'grundy' or game_name in ('nim', 'tree') or name.startswith('connect4-chance'): pass\n"
        "if isinstance(searcher, SavedTree) or kit.has_chance(game) or game.name == 'other': pass\n"
        "if type(game) is Connect4 and type(state) is not MctsNode: pass\n"
    )
    assert [check.split(":")[0] for check in game_checks(source)] == ["1", "1", "2", "2", "2", "4"]


def test_the_engine_and_the_ui_ask_the_games_kit_not_its_class() -> None:
    """Issue 37: at most ``MOST_GAME_CHECKS`` checks on concrete games outside the games' own code (``GAMES_OWN``);
    everything else asks the game's kit (``plyscope.engine.kits``)."""
    checks = [
        f"{path.relative_to(ROOT)}:{check}"
        for folder in ("engine", "tui")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if not str(path.relative_to(ROOT)).startswith(GAMES_OWN)
        for check in game_checks(path.read_text(encoding="utf-8"))
    ]
    assert len(checks) <= MOST_GAME_CHECKS, "\n".join(checks)


MOST_ANY_LINES = 24
"""Lines of ``engine/`` and ``tui/`` naming ``Any`` (issue 37: under 25): a value's type is said, or ``object``."""
MOST_TYPE_IGNORES = 10
"""``type: ignore`` comments in ``engine/`` and ``tui/`` (issue 37: at most 10)."""


def test_types_are_said_not_waived() -> None:
    """Issue 37, item 6: few lines with ``Any``, few ``type: ignore``, and no file-level disable of mypy error codes
    in ``engine/`` and ``tui/``."""
    lines = [
        (f"{path.relative_to(ROOT)}:{number}", line)
        for folder in ("engine", "tui")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
    ]
    with_any = [where for where, line in lines if re.search(r"\bAny\b", line)]
    ignored = [where for where, line in lines if "type: ignore" in line]
    disabled = [where for where, line in lines if re.match(r"#\s*mypy:\s*disable-error-code", line)]
    assert len(with_any) <= MOST_ANY_LINES, "\n".join(with_any)
    assert len(ignored) <= MOST_TYPE_IGNORES, "\n".join(ignored)
    assert not disabled, "\n".join(disabled)
