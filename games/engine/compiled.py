"""Which build of the pure packages runs: the modules compiled with mypyc, or their Python.

``scripts/build_compiled.py`` (run by ``scripts/bootstrap``) compiles the hot pure modules
with mypyc into extension modules beside their sources (``analysis/solver/dd.py`` and
``analysis/solver/dd.cpython-313-x86_64-linux-gnu.so``), and writes the build's manifest
(``compiled-build.json``, beside this file): the modules it compiled, and the SHA-256 of
every source they were compiled from (each module and every module of the project it
imports, since the compiled code bakes in their types).

Python itself takes an extension module over the source beside it, however old. So each
pure package's ``__init__.py`` calls :func:`install`, which puts a finder first in
``sys.meta_path``; once per process it checks the manifest against the sources, and then

- the build's modules are imported compiled while every source is as it was built;
- when any source changed, *every* module of the build is imported from its ``.py``, with
  a :class:`StaleBuildWarning` naming the changed modules (compiled code calls its compiled
  neighbours directly, so a compiled module must never meet a newer Python neighbour);
- with ``EUCHRE_PURE=1`` in the environment, every module is imported from its ``.py``.

:func:`euchre_build` says in one line which is running. This module is standard library
only, and never compiled itself; ``scripts/build_compiled.py --status`` prints the line.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
"""The folder holding the packages: the checkout, or site-packages for an installed wheel."""

MANIFEST = Path(__file__).with_name("compiled-build.json")
"""The compiled build's manifest, written by scripts/build_compiled.py (never committed)."""

MANIFEST_FORMAT = 1

EXTENSION_SUFFIXES: tuple[str, ...] = tuple(importlib.machinery.EXTENSION_SUFFIXES)
EXT_SUFFIX = EXTENSION_SUFFIXES[0]
"""This interpreter's extension module suffix (``.cpython-313-x86_64-linux-gnu.so``)."""

PURE_VARIABLE = "EUCHRE_PURE"
_TRUE = frozenset({"1", "true", "yes", "on"})


class StaleBuildWarning(RuntimeWarning):
    """The compiled build is older than its sources: the Python modules run instead."""


@dataclass(frozen=True)
class Build:
    """The build a process runs, as :func:`current` found it."""

    compiled: bool
    reason: str = ""
    """Why the Python modules run (empty when compiled)."""
    modules: frozenset[str] = field(default_factory=frozenset)
    """The modules imported compiled (none when pure)."""
    left_out: Mapping[str, str] = field(default_factory=dict)
    """Modules the build was asked for but could not compile, with the reason."""

    def line(self) -> str:
        if self.compiled:
            count = len(self.modules)
            return f"compiled (mypyc, {count} module{'' if count == 1 else 's'})"
        return f"pure Python ({self.reason})"


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def module_of(path: str) -> str:
    """``analysis/solver/dd.py`` -> ``analysis.solver.dd`` (a package's ``__init__.py``
    -> the package)."""
    parts = list(Path(path).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def extension_path(module: str, root: Path = ROOT) -> Path:
    """Where the compiled ``module`` sits: beside its source."""
    return root.joinpath(*module.split(".")).with_suffix(EXT_SUFFIX)


def outputs_of(module: str, root: Path = ROOT) -> tuple[Path, Path]:
    """The two files of a compiled module, beside its source: the extension module Python
    imports (a shim), and mypyc's library of its code (``dd__mypyc.cpython-…so``)."""
    extension = extension_path(module, root)
    leaf = module.rpartition(".")[2]
    return extension, extension.with_name(f"{leaf}__mypyc{EXT_SUFFIX}")


def changed_sources(sources: Mapping[str, str], root: Path = ROOT) -> list[str]:
    """The sources (paths relative to ``root``) whose content is not the one recorded."""
    changed = []
    for path, digest in sources.items():
        file = root / path
        if not file.is_file() or sha256_of(file) != digest:
            changed.append(path)
    return changed


def pure_forced(environ: Mapping[str, str] = os.environ) -> bool:
    return environ.get(PURE_VARIABLE, "").strip().lower() in _TRUE


def read_manifest(path: Path = MANIFEST) -> dict[str, object] | None:
    """The manifest, or None when there is none or it cannot be read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def examine(
    manifest: Mapping[str, object] | None,
    root: Path = ROOT,
    environ: Mapping[str, str] = os.environ,
) -> Build:
    """The build that runs with this manifest, these sources and this environment."""
    if pure_forced(environ):
        return Build(False, f"{PURE_VARIABLE}=1")
    if manifest is None:
        return Build(False, "not built")
    modules = manifest.get("modules")
    sources = manifest.get("sources")
    left_out = manifest.get("left_out", {})
    if (
        manifest.get("format") != MANIFEST_FORMAT
        or not isinstance(modules, list)
        or not isinstance(sources, dict)
        or not isinstance(left_out, dict)
    ):
        return Build(False, f"the build's manifest {MANIFEST.name} is not one this code reads")
    if manifest.get("ext_suffix") != EXT_SUFFIX:
        return Build(False, f"built for another Python ({manifest.get('ext_suffix')})")
    if not modules:
        return Build(False, "no module compiled")
    changed = changed_sources(sources, root)
    if changed:
        names = ", ".join(module_of(path) for path in changed)
        return Build(False, f"changed since the compiled build: {names}")
    missing = [m for m in modules if not all(p.is_file() for p in outputs_of(m, root))]
    if missing:
        return Build(False, f"compiled module missing: {', '.join(missing)}")
    return Build(True, modules=frozenset(modules), left_out=dict(left_out))


@cache
def current() -> Build:
    """The build this process runs, decided once (the first import of a pure package)."""
    build = examine(read_manifest())
    if build.reason.startswith("changed since"):
        warnings.warn(
            f"{build.reason}; running pure Python until scripts/bootstrap rebuilds it",
            StaleBuildWarning,
            stacklevel=2,
        )
    return build


def euchre_build() -> str:
    """One line saying which build runs: ``compiled (mypyc, 9 modules)``, or
    ``pure Python (<why>)``."""
    return current().line()


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was imported from an extension module."""
    return str(getattr(module, "__file__", "")).endswith(EXTENSION_SUFFIXES)


class _SourceFirst:
    """Imports a guarded package's modules from their ``.py``, unless the build is fresh
    and compiled the module (then the standard finder takes the extension beside it).
    A meta path finder (not importlib.abc's, whose import costs more than all of this)."""

    def __init__(self) -> None:
        self.packages: set[str] = set()

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, leaf = fullname.rpartition(".")
        if package not in self.packages:
            return None
        build = current()
        if build.compiled and fullname in build.modules:
            return None
        for entry in path or ():
            source = Path(entry) / f"{leaf}.py"
            if source.is_file():
                return importlib.util.spec_from_file_location(fullname, source)
        return None


_FINDER = _SourceFirst()


def install(package: str) -> None:
    """Guard ``package``'s modules (its ``__init__.py`` calls this with ``__name__``)."""
    _FINDER.packages.add(package)
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def guarded_packages() -> list[str]:
    """The packages whose modules the finder guards (those that called :func:`install`)."""
    return sorted(_FINDER.packages)
