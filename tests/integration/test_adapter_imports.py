"""No platform package's modules import each other round about, even lazily or for types, and
no package of the core imports one that imports it back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


def _imports(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` with the modules of it that it names in any import."""
    files = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
        for path in (ROOT / package.replace(".", "/")).rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
            elif isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
        graph[module] = {n for n in names if n in files and n != module}
    return graph


def _in_a_circle(graph: dict[str, set[str]]) -> list[str]:
    """The modules from which an import leads back to themselves."""

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), list(graph[start])
        while todo:
            module = todo.pop()
            if module == goal:
                return True
            if module not in seen:
                seen.add(module)
                todo.extend(graph[module])
        return False

    return sorted(module for module in graph if reaches(module, module))


def _core_unit(module: str) -> str | None:
    """The package or loose module of ``bot.core`` that ``module`` belongs to."""
    parts = module.split(".")
    return ".".join(parts[:3]) if parts[:2] == ["bot", "core"] and len(parts) > 2 else None


@pytest.mark.parametrize("package", ["bot.slack", "bot.telegram"])
def test_a_platform_package_has_no_import_circle(package: str) -> None:
    assert _in_a_circle(_imports(package)) == []


def test_storage_imports_nothing_of_the_bot() -> None:
    # Storage stands below the bot: the states it keeps in columns live in storage itself.
    named = {
        alias.name if isinstance(node, ast.Import) else node.module or ""
        for path in (ROOT / "storage").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert sorted(name for name in named if name.split(".")[0] == "bot") == []


def test_no_package_of_the_core_imports_one_that_imports_it_back() -> None:
    # The dialogs stand below the plans and the sharing built on them: what those bring to a
    # dialog (a plan's checkout, its pause at /cikis) is handed in by the wiring.
    units: dict[str, set[str]] = {}
    for module, named in _imports("bot.core").items():
        unit = _core_unit(module)
        if unit is not None:
            others = {other for other in map(_core_unit, named) if other is not None}
            units.setdefault(unit, set()).update(others - {unit})
    assert _in_a_circle(units) == []
