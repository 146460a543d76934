"""``games/engine``, ``games/strategy``, ``games/bots``, ``analysis/solver``, ``lessons/quiz``
and the course's loader ``lessons/content.py`` are pure Python: they never import Django,
DRF or Celery, directly or through another module of the project.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE_PACKAGES = (
    "games.engine",
    "games.strategy",
    "games.bots",
    "analysis.solver",
    "lessons.quiz",
    "lessons.content",  # a module, not a package
)
FORBIDDEN = ("django", "rest_framework", "celery")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def pure_files() -> list[Path]:
    files = []
    for package in PURE_PACKAGES:
        path = ROOT / package.replace(".", "/")
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path.with_suffix(".py")]
    return files


def imports_of(path: Path) -> list[str]:
    """Every module ``path`` imports, relative imports made absolute."""
    return imports_in(
        path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py"
    )


def imports_in(source: str, name: str, is_package: bool) -> list[str]:
    package = name if is_package else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.append(module)
            found += [f"{module}.{alias.name}" for alias in node.names]
    return found


def is_forbidden(module: str) -> bool:
    top = module.split(".")[0]
    if top in FORBIDDEN:
        return True
    # The rest of the project (the apps' models, views, tasks) may load Django: only the
    # pure packages themselves, and the empty app packages holding them, are allowed.
    if top in ("games", "analysis", "lessons", "accounts", "euchre_site"):
        inside = any(module == p or module.startswith(p + ".") for p in PURE_PACKAGES)
        return not inside and module not in ("games", "analysis", "lessons")
    return False


def test_the_pure_packages_have_python_files_to_check() -> None:
    names = {module_name(path) for path in pure_files()}
    assert {"games.engine.cards", "games.engine.record", "analysis.solver"} <= names


@pytest.mark.parametrize("path", pure_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_pure_module_imports_no_django_drf_celery_or_app_code(path: Path) -> None:
    bad = [module for module in imports_of(path) if is_forbidden(module)]
    assert bad == [], f"{path.relative_to(ROOT)} imports {bad}"


@pytest.mark.parametrize(
    "init", ["games/__init__.py", "analysis/__init__.py", "lessons/__init__.py"]
)
def test_the_app_packages_stay_empty_so_importing_the_engine_never_loads_django(
    init: str,
) -> None:
    tree = ast.parse((ROOT / init).read_text(encoding="utf-8"))
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]


def test_the_import_walker_sees_imports_of_every_form() -> None:
    source = (
        "import django.db\nfrom rest_framework import views\nfrom celery import shared_task\n"
        "from ..models import Hand\nfrom . import cards\ndef f():\n    import django\n"
    )
    found = imports_in(source, "games.engine.fake", is_package=False)
    assert "games.engine.cards" in found and not is_forbidden("games.engine.cards")
    assert [m for m in found if is_forbidden(m)] == [
        "django.db",
        "rest_framework",
        "rest_framework.views",
        "celery",
        "celery.shared_task",
        "games.models",
        "games.models.Hand",
        "django",
    ]


def test_importing_the_engine_and_solver_leaves_django_unloaded() -> None:
    modules = sorted(module_name(path) for path in pure_files())
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
