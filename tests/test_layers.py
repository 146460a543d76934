"""The layers of the project, as a test: every import runs down a stack, none goes round in a
circle, and no model imports the pages built on it.

Two stacks, arrows downward only::

    pure, stdlib only:  games.engine < games.strategy < analysis.solver < games.bots
                        lessons.quiz uses engine, strategy, solver (never bots, never Django)
    Django apps:        accounts < notifications < analysis < games < lessons < classes
                        < euchre_site

The pure packages sit beneath every app: any app may use them, they use no app. "analysis
imports nothing of games" and "games imports nothing of classes" are what the app stack says
of the two apps' Django code. Every import counts, module-level and inside functions alike
(a function-level import hides a circle, it does not remove it); the one accepted idiom is a
model method importing its own app's Celery task module inside the function, since the task
module loads the models to run.

This file is the one home of the rule table (``PURE``, ``APPS``, ``VIEW_MODELS``).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

APPS = (
    "accounts",
    "notifications",
    "analysis",
    "games",
    "lessons",
    "classes",
    "tables",
    "ratings",
    "euchre_site",
)
"""The Django apps, lowest first: each may import the ones before it and the pure packages."""

PURE: dict[str, tuple[str, ...]] = {
    "games.engine": (),
    "games.strategy": ("games.engine",),
    "analysis.solver": ("games.engine", "games.strategy"),
    "games.bots": ("games.engine", "games.strategy", "analysis.solver"),
    "lessons.quiz": ("games.engine", "games.strategy", "analysis.solver"),
    # The course's loader words its exercises with the quiz's one explainer per kind.
    "lessons.content": ("games.engine", "games.strategy", "analysis.solver", "lessons.quiz"),
}
"""Each pure package and the pure packages beneath it that it may import."""

PURE_THIRD_PARTY: dict[str, tuple[str, ...]] = {
    # The course is written in YAML; its loader is otherwise as pure as the quiz it feeds.
    "lessons.content": ("yaml",),
}
"""Packages outside the standard library that a pure package may import, by exception."""

COMPILER_HINTS = ("mypy_extensions",)
"""What any pure package may import besides the standard library: mypyc's native integer
types and class attributes (the compiled build, scripts/build_compiled.py). Imported at run
time, it must be a runtime dependency (a test below checks)."""

VIEW_MODELS = ("games.table", "games.replay")
"""Modules that shape models for pages: a models module must not import them."""

PRESENTATION_NAMES = ("forms", "views")
"""Module names (or ``*_views``) of the pages and their forms."""

STDLIB = frozenset(sys.stdlib_module_names)


@dataclass(frozen=True)
class Import:
    """One import statement's target, as seen in the importing module's source."""

    importer: str
    target: str
    line: int
    in_function: bool


@dataclass(frozen=True)
class Violation:
    path: str
    line: int
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: [{self.rule}] {self.message}"


@dataclass(frozen=True)
class Module:
    name: str
    path: str
    source: str
    is_package: bool


def inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def group_of(module: str) -> str | None:
    """The pure package or Django app ``module`` belongs to (the longest match wins)."""
    pure = [package for package in PURE if inside(module, package)]
    if pure:
        return max(pure, key=len)
    top = module.split(".")[0]
    return top if top in APPS else None


def may_import(importer_group: str, target_group: str) -> bool:
    if importer_group == target_group:
        return True
    if importer_group in PURE:
        return target_group in PURE[importer_group]
    if target_group in PURE:
        return True
    return APPS.index(target_group) < APPS.index(importer_group)


def is_presentation(module: str) -> bool:
    """Forms, views and view-models: what a models module must never import."""
    last = module.rsplit(".", 1)[-1]
    parts = module.split(".")
    return (
        any(inside(module, view_model) for view_model in VIEW_MODELS)
        or last in PRESENTATION_NAMES
        or last.endswith("_views")
        or any(part in PRESENTATION_NAMES for part in parts[1:-1])
    )


def is_models(module: str) -> bool:
    return "models" in module.split(".")[1:]


def is_task_idiom(found: Import) -> bool:
    """A model method importing its own app's Celery task module inside the function."""
    app = found.importer.split(".")[0]
    return found.in_function and is_models(found.importer) and inside(found.target, f"{app}.tasks")


def project_modules() -> list[Module]:
    """Every module of the project's code: the apps and their subpackages, no migrations."""
    modules = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if "migrations" in relative.parts:
                continue
            parts = list(relative.with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            modules.append(
                Module(".".join(parts), str(relative), path.read_text(encoding="utf-8"), is_package)
            )
    return modules


def function_nodes(tree: ast.AST) -> set[int]:
    """The ids of the import nodes that sit inside a function."""
    inner: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            inner |= {
                id(child)
                for child in ast.walk(node)
                if isinstance(child, ast.Import | ast.ImportFrom)
            }
    return inner


def imports_of(module: Module, known: frozenset[str]) -> Iterator[Import]:
    """Every module ``module`` imports, relative imports made absolute.

    ``from package import name`` counts as an import of ``package.name`` when that is a
    module of the project, else of ``package``.
    """
    tree = ast.parse(module.source, module.path)
    inner = function_nodes(tree)
    package = module.name if module.is_package else module.name.rpartition(".")[0]
    for node in ast.walk(tree):
        in_function = id(node) in inner
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(module.name, alias.name, node.lineno, in_function)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                target = submodule if submodule in known else source
                yield Import(module.name, target, node.lineno, in_function)


def deepest_known(target: str, known: frozenset[str]) -> str | None:
    parts = target.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in known:
            return candidate
    return None


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm (iterative): the components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))
    return components


def check(modules: Iterable[Module]) -> list[Violation]:
    """Every breach of the layer rules in ``modules``, in file and line order."""
    modules = list(modules)
    known = frozenset(module.name for module in modules)
    paths = {module.name: module.path for module in modules}
    tops = {name.split(".")[0] for name in known}
    violations: list[Violation] = []
    graph: dict[str, set[str]] = {name: set() for name in known}
    edges: dict[tuple[str, str], Import] = {}

    for module in modules:
        importer_group = group_of(module.name)
        for found in imports_of(module, known):
            top = found.target.split(".")[0]
            where = (paths[module.name], found.line)
            if top not in tops:
                allowed = (
                    STDLIB
                    | set(COMPILER_HINTS)
                    | set(PURE_THIRD_PARTY.get(importer_group or "", ()))
                )
                if importer_group in PURE and top not in allowed:
                    violations.append(
                        Violation(
                            *where,
                            "pure",
                            f"{module.name} imports {found.target}: {importer_group} "
                            "is pure Python, standard library only (and mypy_extensions)",
                        )
                    )
                continue
            target = deepest_known(found.target, known)
            if target is None or target == module.name:
                continue
            target_group = group_of(target)
            if importer_group and target_group and not may_import(importer_group, target_group):
                violations.append(
                    Violation(
                        *where,
                        "upward",
                        f"{module.name} imports {target}: {importer_group} is beneath "
                        f"{target_group}, arrows run down the stack only",
                    )
                )
            if is_models(module.name) and is_presentation(target):
                violations.append(
                    Violation(
                        *where,
                        "models",
                        f"{module.name} imports {target}: models never import forms, views "
                        "or view-models",
                    )
                )
            if is_task_idiom(found):
                continue
            graph[module.name].add(target)
            edges.setdefault((module.name, target), found)

    for component in strongly_connected(graph):
        members = set(component)
        inner = sorted(
            (edge for pair, edge in edges.items() if pair[0] in members and pair[1] in members),
            key=lambda edge: (paths[edge.importer], edge.line),
        )
        first = inner[0]
        arrows = "; ".join(
            f"{paths[edge.importer]}:{edge.line} {edge.importer} -> {edge.target}"
            + (" (inside a function)" if edge.in_function else "")
            for edge in inner
        )
        violations.append(
            Violation(
                paths[first.importer],
                first.line,
                "circle",
                f"a circle of {len(component)} modules ({', '.join(component)}): {arrows}",
            )
        )
    # One statement importing two names of a module is one breach.
    return sorted(set(violations), key=lambda v: (v.path, v.line, v.rule, v.message))


@cache
def project_violations() -> tuple[Violation, ...]:
    return tuple(check(project_modules()))


def violations_of(rule: str) -> list[str]:
    return [str(violation) for violation in project_violations() if violation.rule == rule]


# The project's own tree.


def test_the_walker_sees_the_whole_project() -> None:
    names = {module.name for module in project_modules()}
    assert {
        "games.engine.cards",
        "games.models",
        "analysis.solver.dd",
        "analysis.models",
        "lessons.quiz.skills",
        "classes.models",
        "euchre_site.settings",
        "accounts.models",
        "notifications.models",
    } <= names
    assert not [name for name in names if ".migrations" in name]
    assert all(group_of(name) is not None for name in names)


def test_no_arrow_runs_back_up_a_stack() -> None:
    bad = violations_of("upward")
    assert bad == [], "\n".join(bad)


def test_the_pure_packages_import_only_the_standard_library_and_each_other() -> None:
    bad = violations_of("pure")
    assert bad == [], "\n".join(bad)


def test_no_modules_import_each_other_in_a_circle() -> None:
    bad = violations_of("circle")
    assert bad == [], "\n".join(bad)


def test_no_model_imports_forms_views_or_view_models() -> None:
    bad = violations_of("models")
    assert bad == [], "\n".join(bad)


def test_the_app_packages_stay_empty_so_importing_the_engine_never_loads_django() -> None:
    for init in ("games/__init__.py", "analysis/__init__.py", "lessons/__init__.py"):
        tree = ast.parse((ROOT / init).read_text(encoding="utf-8"))
        assert not [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)], init


def undeclared_imports(modules: Iterable[Module], dependencies: Iterable[str]) -> list[str]:
    """The modules importing a package outside the standard library, for a few packages
    whose import is allowed here but which pyproject.toml does not declare a dependency on
    (``dependencies``: its ``[project] dependencies``)."""
    declared = {
        re.sub(r"[-_.]+", "_", re.split(r"[\s<>=!~;\[]", item.strip(), maxsplit=1)[0]).lower()
        for item in dependencies
    }
    needed = {"yaml": "pyyaml", **{name: name for name in COMPILER_HINTS}}
    found = []
    for module in modules:
        for imported in imports_of(module, frozenset()):
            top = imported.target.split(".")[0]
            if top in needed and needed[top] not in declared:
                found.append(f"{module.path}:{imported.line}: {top} is not a dependency")
    return found


def test_the_pure_packages_third_party_imports_are_runtime_dependencies() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    bad = undeclared_imports(project_modules(), project["dependencies"])
    assert bad == [], "\n".join(bad)


def test_the_dependency_check_catches_an_undeclared_mypy_extensions() -> None:
    planted = tree(analysis__solver__dd="from mypy_extensions import i64\n")
    assert undeclared_imports(planted, ["Django>=6.1"]) == [
        "analysis/solver/dd.py:1: mypy_extensions is not a dependency"
    ]
    assert undeclared_imports(planted, ["mypy-extensions>=1.0"]) == []
    assert check(planted) == []


def test_importing_the_pure_packages_leaves_django_unloaded() -> None:
    pure = sorted(module.name for module in project_modules() if group_of(module.name) in PURE)
    forbidden = ("django", "rest_framework", "celery")
    code = (
        "import importlib, sys\n"
        f"for name in {pure!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {forbidden!r}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"


# The checker itself: each rule must be able to fail.


def tree(**sources: str) -> list[Module]:
    """A planted project: ``games__engine__cards="..."`` is the module games.engine.cards;
    a name ending in ``__init`` is a package."""
    modules = []
    for key, source in sources.items():
        parts = key.split("__")
        is_package = parts[-1] == "init"
        if is_package:
            parts.pop()
        name = ".".join(parts)
        path = "/".join(parts) + ("/__init__.py" if is_package else ".py")
        modules.append(Module(name, path, source, is_package))
    return modules


def rules(violations: list[Violation]) -> list[tuple[str, int, str]]:
    return [(v.path, v.line, v.rule) for v in violations]


def test_the_checker_catches_an_upward_arrow_even_inside_a_function() -> None:
    found = check(
        tree(
            games__engine__cards="import json\n\ndef f():\n    from games.bots import easy\n",
            games__bots__init="",
            games__bots__easy="",
        )
    )
    assert rules(found) == [("games/engine/cards.py", 4, "upward")]
    assert "games.engine is beneath games.bots" in found[0].message


def test_the_checker_catches_an_app_reaching_up_the_app_stack() -> None:
    found = check(
        tree(
            analysis__models="from games.models import Hand\nfrom games.engine import record\n",
            games__models="from analysis.models import Job\n",
            games__engine__record="",
            games__classes_link="from classes import models\n",
            classes__models="from games import models\n",
        )
    )
    assert ("analysis/models.py", 1, "upward") in rules(found)
    assert ("games/classes_link.py", 1, "upward") in rules(found)
    # The engine is pure, beneath every app: analysis may use it.
    assert ("analysis/models.py", 2, "upward") not in rules(found)


def test_the_checker_catches_a_pure_package_importing_django_or_a_third_party() -> None:
    found = check(
        tree(
            analysis__solver__dd="import os\nfrom django.db import models\n",
            lessons__quiz__tricks="import numpy\nfrom games.bots import easy\n",
            games__bots__easy="",
            lessons__content="import yaml\n",
        )
    )
    assert rules(found) == [
        ("analysis/solver/dd.py", 2, "pure"),
        ("lessons/quiz/tricks.py", 1, "pure"),
        ("lessons/quiz/tricks.py", 2, "upward"),
    ]


def test_the_checker_catches_the_quiz_importing_the_course_loader() -> None:
    found = check(
        tree(lessons__quiz__house_rules="from lessons.content import load\n", lessons__content="")
    )
    assert rules(found) == [("lessons/quiz/house_rules.py", 1, "upward")]
    assert "lessons.quiz is beneath lessons.content" in found[0].message


def test_the_checker_catches_a_circle_through_a_function_level_import() -> None:
    found = check(
        tree(
            games__replay="from .models import Hand\n",
            games__models="def replay():\n    from . import library\n",
            games__library="from games import replay\n",
        )
    )
    circles = [v for v in found if v.rule == "circle"]
    assert len(circles) == 1
    assert "games.library, games.models, games.replay" in circles[0].message
    assert "(inside a function)" in circles[0].message


def test_the_checker_catches_a_model_importing_a_form_a_view_or_a_view_model() -> None:
    found = check(
        tree(
            classes__models=(
                "from .forms import F\nfrom classes import views\n"
                "def f():\n    from games.table import seat\n"
            ),
            classes__forms="",
            classes__views="",
            games__table="",
        )
    )
    assert rules(found) == [
        ("classes/models.py", 1, "models"),
        ("classes/models.py", 2, "models"),
        ("classes/models.py", 4, "models"),
    ]


def test_the_checker_accepts_a_model_method_importing_its_own_apps_tasks() -> None:
    accepted = tree(
        analysis__models="class Job:\n    def run(self):\n        from . import tasks\n",
        analysis__tasks="from .models import Job\n",
    )
    assert check(accepted) == []
    # ...but not at module level, nor another app's tasks, nor from outside the models.
    assert rules(
        check(
            tree(
                analysis__models="from . import tasks\n",
                analysis__tasks="from .models import Job\n",
            )
        )
    ) == [("analysis/models.py", 1, "circle")]
    assert rules(
        check(
            tree(
                analysis__views="def go():\n    from . import tasks\n",
                analysis__tasks="from .views import x\n",
            )
        )
    ) == [("analysis/tasks.py", 1, "circle")]


def test_relative_imports_resolve_against_the_package() -> None:
    modules = tree(
        games__engine__init="from . import cards\n",
        games__engine__cards="",
        games__engine__hand="from .cards import Card\nfrom ..bots.easy import X\n",
        games__bots__easy="",
    )
    known = frozenset(module.name for module in modules)
    targets = {(i.importer, i.target) for module in modules for i in imports_of(module, known)}
    assert targets == {
        ("games.engine", "games.engine.cards"),
        ("games.engine.hand", "games.engine.cards"),
        ("games.engine.hand", "games.bots.easy"),
    }


@pytest.mark.parametrize("rule", ["upward", "pure", "circle", "models"])
def test_each_rule_has_a_planted_case_that_fails(rule: str) -> None:
    planted = {
        "upward": tree(games__engine__cards="import games.bots\n", games__bots__init=""),
        "pure": tree(games__strategy__policy="import celery\n"),
        "circle": tree(
            notifications__a="import notifications.b\n", notifications__b="from . import a\n"
        ),
        "models": tree(games__models="import games.views\n", games__views=""),
    }
    assert rule in {v.rule for v in check(planted[rule])}
