"""The package's imports form layers without circles: read from the code with ``ast``, every
import a module makes (at the top, inside a function, or for type checking only: a name a module
needs for its types is a dependency too) is an arrow, and the arrows may not close a loop. ``core`` is the ground floor:
nothing in it imports the floors above (the games and players, analysis, studies, the API, the
report, the CLI): the game contract itself (``core/spec.py``) is the core's."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import simbalance.core.spec as spec_module

ROOT = Path(spec_module.__file__).resolve().parents[2]  # the folder holding the package
PACKAGE = ROOT / "simbalance"
ABOVE_CORE = ("simbalance.games", "simbalance.players", "simbalance.analysis", "simbalance.studies", "simbalance.api",
              "simbalance.report", "simbalance.cli")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, known: set[str]) -> set[str]:
    """The simbalance modules ``path`` imports (``from a.b import c`` is an arrow to ``a.b.c`` when
    that is a module, else to ``a.b``)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                found.update(a.name for a in child.names if a.name.split(".")[0] == "simbalance")
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                if child.module.split(".")[0] == "simbalance":
                    for alias in child.names:
                        sub = f"{child.module}.{alias.name}"
                        found.add(sub if sub in known else child.module)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    found.discard(module_name(path))
    return {name for name in found if name in known}


def import_graph() -> dict[str, set[str]]:
    files = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    known = set(files)
    return {name: imports_of(path, known) for name, path in files.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return found


def test_the_package_has_no_import_circle():
    assert circles(import_graph()) == []


def test_core_imports_nothing_above_it():
    bad = [(module, target) for module, targets in import_graph().items() if module.startswith("simbalance.core")
           for target in targets if target.startswith(ABOVE_CORE)]
    assert bad == []


def test_a_planted_circle_is_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_a_command_starts_without_the_imports_only_some_commands_need():
    """Every command's start-up imports every module under simbalance/cli/ and simbalance/studies/
    (cli/main._register finds the commands there): none may import at its top what only its own
    work needs. card-value's table imported matplotlib through its page's module, check's --junit
    xml.sax (with urllib.request, http and ssl): issue 52's A/B, `simbalance games` 0.4 s of CPU
    more than before the contract."""
    heavy = ("matplotlib", "xml.sax", "http", "ssl")
    code = ("import sys, simbalance.cli.main; print(sorted(m for m in sys.modules if m.startswith("
            f"{heavy!r})))")
    out = subprocess.run([sys.executable, "-P", "-c", code], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
