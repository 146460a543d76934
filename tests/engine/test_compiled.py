"""Which build this test run imported (games/engine/compiled.py): the compiled modules when
the build is fresh, every one of them from its .py otherwise; the line says which.

scripts/test runs the engine and solver tests on both builds, so these hold on each.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from games.engine import compiled


def test_every_module_of_the_build_comes_from_the_build_that_runs() -> None:
    build = compiled.current()
    manifest = compiled.read_manifest()
    names = manifest.get("modules", []) if manifest else []
    assert isinstance(names, list)
    for name in names:
        module = importlib.import_module(name)
        assert compiled.is_compiled(module) == build.compiled, name
    if build.compiled:
        assert build.modules == frozenset(names)
        assert compiled.euchre_build().startswith("compiled (mypyc, ")
    else:
        assert compiled.euchre_build() == f"pure Python ({build.reason})"


def test_euchre_pure_in_the_environment_means_pure_python() -> None:
    if compiled.pure_forced():
        assert compiled.euchre_build() == "pure Python (EUCHRE_PURE=1)"
    assert compiled.pure_forced({"EUCHRE_PURE": "1"})
    assert not compiled.pure_forced({"EUCHRE_PURE": "0"})
    assert not compiled.pure_forced({})


def test_the_pure_packages_are_guarded() -> None:
    importlib.import_module("lessons.quiz")
    assert {"games.engine", "games.strategy", "analysis.solver", "lessons.quiz"} <= set(
        compiled.guarded_packages()
    )


def test_a_manifest_is_judged_against_the_sources(tmp_path: Path) -> None:
    root = tmp_path
    (root / "pkg").mkdir()
    source = root / "pkg" / "mod.py"
    source.write_text("X = 1\n")
    for path in compiled.outputs_of("pkg.mod", root):
        path.write_bytes(b"")
    manifest = {
        "format": compiled.MANIFEST_FORMAT,
        "ext_suffix": compiled.EXT_SUFFIX,
        "modules": ["pkg.mod"],
        "sources": {"pkg/mod.py": compiled.sha256_of(source)},
    }
    assert compiled.examine(manifest, root, environ={}).line() == "compiled (mypyc, 1 module)"
    assert compiled.examine(manifest, root, environ={"EUCHRE_PURE": "1"}).reason == (
        "EUCHRE_PURE=1"
    )
    assert compiled.examine(None, root, environ={}).reason == "not built"
    other = {**manifest, "ext_suffix": ".cpython-312-x86_64-linux-gnu.so"}
    assert "another Python" in compiled.examine(other, root, environ={}).reason
    source.write_text("X = 2\n")
    assert compiled.examine(manifest, root, environ={}).reason == (
        "changed since the compiled build: pkg.mod"
    )
    source.write_text("X = 1\n")
    compiled.outputs_of("pkg.mod", root)[1].unlink()
    assert compiled.examine(manifest, root, environ={}).reason == (
        "compiled module missing: pkg.mod"
    )
