"""The compiled build, for real: scripts/build_compiled.py compiles a module with mypyc in a
copy of the pure packages, and games/engine/compiled.py imports it only while its sources are
the ones it was built from.

Marked ``build`` (it runs the C compiler: about half a minute); skipped where there is no C
compiler or mypyc.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from games.engine.compiled import EXT_SUFFIX, PURE_VARIABLE

REPO_ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path("scripts") / "build_compiled.py"
MODULE = "games.engine.scoring"
"""The module the copy compiles: small, so the C compiler is quick about it."""

pytestmark = pytest.mark.build


@dataclass(frozen=True)
class Run:
    stdout: str
    stderr: str


def git_files(*folders: str) -> list[str]:
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", *folders],
        cwd=REPO_ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return [name for name in listing.split("\0") if name and (REPO_ROOT / name).is_file()]


class Copy:
    """A copy of the pure packages and the build script, run in child processes."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", PURE_VARIABLE)}
        return {**env, "PYTHONPATH": str(self.root), **extra}

    def python(self, code: str, **extra: str) -> Run:
        done = subprocess.run(
            [sys.executable, "-c", code],
            cwd=self.root,
            env=self.env(**extra),
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        return Run(done.stdout, done.stderr)

    def build(self, *args: str, **extra: str) -> Run:
        done = subprocess.run(
            [sys.executable, str(SCRIPT), "--only", MODULE, *args],
            cwd=self.root,
            env=self.env(**extra),
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return Run(done.stdout, done.stderr)

    def imported(self, module: str, **extra: str) -> tuple[str, str, str]:
        """Where ``module`` was imported from, the build line, and the child's stderr."""
        run = self.python(
            f"import {module} as m\n"
            "from games.engine.compiled import euchre_build\n"
            "print(m.__file__)\nprint(euchre_build())\n",
            **extra,
        )
        where, line = run.stdout.strip().splitlines()
        return where, line, run.stderr

    def edit(self, path: str, text: str) -> str:
        """Append ``text`` to the file at ``path``; returns what it held before."""
        file = self.root / path
        before = file.read_text(encoding="utf-8")
        file.write_text(before + text, encoding="utf-8")
        return before


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Copy]:
    if shutil.which(os.environ.get("CC", "cc").split()[0]) is None:
        pytest.skip("no C compiler")
    pytest.importorskip("mypyc.build")
    root = tmp_path_factory.mktemp("compiled")
    for name in [*git_files("games", "analysis"), str(SCRIPT)]:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO_ROOT / name, root / name)
    built = Copy(root)
    run = built.build()
    assert "built in" in run.stderr, run.stderr
    yield built


def test_the_built_module_is_imported_compiled_and_the_others_from_python(copy: Copy) -> None:
    where, line, stderr = copy.imported(MODULE)
    assert where.endswith(f"scoring{EXT_SUFFIX}")
    assert line == "compiled (mypyc, 1 module)"
    assert stderr == ""
    where, _, _ = copy.imported("games.engine.cards")
    assert where.endswith("cards.py")
    # Built once, the set-up finds it up to date.
    assert "up to date, compiled (mypyc, 1 module)" in copy.build().stderr


def test_euchre_pure_imports_the_python_modules(copy: Copy) -> None:
    where, line, _ = copy.imported(MODULE, **{PURE_VARIABLE: "1"})
    assert where.endswith("scoring.py")
    assert line == "pure Python (EUCHRE_PURE=1)"


def test_a_changed_source_is_imported_from_python_with_a_warning_naming_it(copy: Copy) -> None:
    before = copy.edit("games/engine/scoring.py", "\nCHANGED = True\n")
    try:
        where, line, stderr = copy.imported(MODULE)
        assert where.endswith("scoring.py")
        assert line == "pure Python (changed since the compiled build: games.engine.scoring)"
        assert "StaleBuildWarning" in stderr
        assert "games.engine.scoring" in stderr
    finally:
        (copy.root / "games/engine/scoring.py").write_text(before, encoding="utf-8")
    # The source as it was built: the build is good again.
    where, _, _ = copy.imported(MODULE)
    assert where.endswith(EXT_SUFFIX)


def test_a_changed_module_it_imports_makes_the_whole_build_stale(copy: Copy) -> None:
    # rules.py is not compiled, but the compiled scoring.py was compiled against its types.
    before = copy.edit("games/engine/rules.py", "\n# changed\n")
    try:
        where, line, stderr = copy.imported(MODULE)
        assert where.endswith("scoring.py")
        assert "games.engine.rules" in line
        assert "games.engine.rules" in stderr
    finally:
        (copy.root / "games/engine/rules.py").write_text(before, encoding="utf-8")


def test_an_extension_module_the_build_did_not_make_is_never_imported(copy: Copy) -> None:
    stray = copy.root / "games" / "engine" / f"words{EXT_SUFFIX}"
    stray.write_bytes(b"not a library")  # imported, it would fail
    try:
        where, _, _ = copy.imported("games.engine.words")
        assert where.endswith("words.py")
    finally:
        stray.unlink()


def test_the_set_up_rebuilds_a_module_whose_source_changed(copy: Copy) -> None:
    before = copy.edit("games/engine/scoring.py", "\nREBUILT = 19\n")
    try:
        assert "built in" in copy.build().stderr
        run = copy.python(f"import {MODULE} as m\nprint(m.__file__, m.REBUILT)")
        where, rebuilt = run.stdout.split()
        assert where.endswith(EXT_SUFFIX)
        assert rebuilt == "19"
    finally:
        (copy.root / "games/engine/scoring.py").write_text(before, encoding="utf-8")


def test_without_a_c_compiler_the_set_up_says_so_and_python_runs(copy: Copy) -> None:
    run = copy.build("--force", CC="/nonexistent/cc")
    assert "not built: no C compiler (/nonexistent/cc not found); pure Python runs" in run.stderr
    where, line, _ = copy.imported(MODULE)
    assert where.endswith("scoring.py")
    assert line == "pure Python (not built)"
    assert not list((copy.root / "games").rglob(f"*{EXT_SUFFIX}"))
