"""The compiled build: the hot pure modules compiled with mypyc, beside their sources.

    .venv/bin/python scripts/build_compiled.py            build when out of date (bootstrap)
    .venv/bin/python scripts/build_compiled.py --force    build again from scratch
    .venv/bin/python scripts/build_compiled.py --status   print which build runs
    .venv/bin/python scripts/build_compiled.py --clean    remove every compiled output

``scripts/bootstrap`` runs it after installing the dependencies. It compiles the modules of
:data:`COMPILED` (mypyc comes with mypy; a C compiler and Python's headers are needed) into
extension modules next to their ``.py`` files, separately (one extension a module, no
shared library outside its package), then checks the build (every module imports compiled,
and a few reviews come out the same as on the pure build) and writes its manifest,
``games/engine/compiled-build.json``: the modules and the SHA-256 of every source they were
compiled from. ``games/engine/compiled.py`` reads it at import time; a build whose sources
changed is never imported. The build is skipped while the manifest matches the sources,
this Python and this mypy.

It never fails the set-up: without a compiler, mypy or the headers, or when mypyc or the
check fails, it says so in one line, removes what it built and exits 0, and the pure
Python modules run. A module mypyc rejects is left out of the build (named, with mypyc's
message) and the others are built. ``--require`` (CI) exits 1 instead unless every module
of COMPILED is built and running compiled.

The C files, objects and mypy's cache go to ``build/mypyc/``; nothing it writes is
committed (.gitignore).
"""

from __future__ import annotations

import argparse
import ast
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
from collections.abc import Collection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import compiled  # noqa: E402

COMPILED: tuple[str, ...] = (
    # The double-dummy search and its tables: nearly all of every review's time.
    "analysis.solver.dd",
    "analysis.solver.tables",
    # The reviews: hindsight (and the double-dummy table), foresight's sampling, the marks.
    "analysis.solver.hindsight",
    "analysis.solver.foresight",
    "analysis.solver.judgement",
    # The engine and strategy code the reviews call for every sampled layout.
    "games.engine.cards",
    "games.engine.scoring",
    "games.engine.actions",
    "games.strategy.observation",
    # Not yet, each for a reason of its source:
    # analysis.solver.review: ReviewParams.samples read through the class (mypyc: "Cannot
    #   access instance attribute through class object").
    # games.engine.hand: HandState.copy builds its copy through __dict__, which a native
    #   class has not.
    # games.engine.rules: notation.py reads the Rules fields' Literal types with
    #   get_type_hints, which a compiled dataclass does not keep.
    # games.strategy.policy: PolicyError subclasses RuntimeError, which mypyc compiles only
    #   as a non-native class (@mypyc_attr(native_class=False)).
)
"""The modules of the compiled build, one a line: adding one is adding its line."""

BUILD_DIR = ROOT / "build" / "mypyc"
FAILED = BUILD_DIR / "failed.json"
"""What the last build that failed was made of: not tried again until something changes."""
ERROR_LINE = re.compile(r"^(?P<path>[^:\s]+\.py):(?P<line>\d+): error: (?P<message>.*)$", re.M)


def say(message: str) -> None:
    print(f"Compiled build: {message}", file=sys.stderr, flush=True)


# What a build depends on --------------------------------------------------------------


def source_path(module: str) -> Path:
    path = ROOT.joinpath(*module.split("."))
    package = path / "__init__.py"
    return package if package.is_file() else path.with_suffix(".py")


def imported_modules(path: Path, module: str) -> set[str]:
    """Every module name ``path`` imports (function-level ones too), made absolute."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            found.add(source)
            found.update(f"{source}.{alias.name}" for alias in node.names)
    return found


def dependencies(modules: tuple[str, ...] | list[str]) -> list[str]:
    """The project's sources the compiled ``modules`` are made from: each module, every
    project module it imports, and so on, with their packages' ``__init__.py`` (paths
    relative to the root, sorted)."""
    seen: set[str] = set()
    todo = list(modules)
    while todo:
        name = todo.pop()
        parts = name.split(".")
        # The packages above a module are imported (and type-checked) with it.
        for end in range(1, len(parts) + 1):
            candidate = ".".join(parts[:end])
            path = source_path(candidate)
            if candidate in seen or not path.is_file():
                continue
            seen.add(candidate)
            todo.extend(imported_modules(path, candidate))
    return sorted(str(source_path(name).relative_to(ROOT)) for name in seen)


def wanted(modules: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """What a manifest of a build of ``modules`` made now would record (but its results)."""
    try:
        from mypy.version import __version__ as mypy_version
    except ImportError:
        mypy_version = "not installed"
    paths = dependencies(modules)
    return {
        "format": compiled.MANIFEST_FORMAT,
        "ext_suffix": compiled.EXT_SUFFIX,
        "python": sys.version.split()[0],
        "mypy": mypy_version,
        "asked": list(modules),
        "sources": {path: compiled.sha256_of(ROOT / path) for path in paths},
    }


def matches(record: dict[str, object] | None, now: dict[str, Any]) -> bool:
    """Whether ``record`` (a manifest, or a failed attempt) was made of what ``now`` is."""
    return record is not None and all(record.get(key) == value for key, value in now.items())


def up_to_date(now: dict[str, Any]) -> bool:
    manifest = compiled.read_manifest()
    built = manifest.get("modules", []) if manifest else []
    return (
        matches(manifest, now)
        and isinstance(built, list)
        and all(path.is_file() for m in built for path in compiled.outputs_of(m))
    )


# Cleaning up ------------------------------------------------------------------------


def outputs() -> list[Path]:
    """Every compiled output in the packages: extension modules and mypyc's shared
    libraries (also those an older build left at the top level)."""
    found: list[Path] = []
    for suffix in compiled.EXTENSION_SUFFIXES:
        found.extend(ROOT.glob(f"*__mypyc*{suffix}"))
        for top in ("games", "analysis", "lessons"):
            found.extend((ROOT / top).rglob(f"*{suffix}"))
    return sorted(set(found))


def clean(keep: Collection[Path] = ()) -> list[Path]:
    """Remove the manifest and every output but ``keep``; returns what was removed."""
    compiled.MANIFEST.unlink(missing_ok=True)
    removed = []
    for path in outputs():
        if path not in keep:
            path.unlink()
            removed.append(path)
    return removed


# Building ---------------------------------------------------------------------------


def missing_tools() -> str | None:
    """Why nothing can be compiled here, or None."""
    try:
        import mypyc.build  # noqa: F401
        import setuptools  # noqa: F401
    except ImportError as error:
        return f"{error.name} is not installed (it comes with the dev dependencies)"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    if not compiler or shutil.which(compiler[0]) is None:
        return f"no C compiler ({compiler[0] if compiler else 'CC'} not found)"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        return f"no Python headers ({headers} missing: install python3-dev)"
    return None


def compile_modules(modules: list[str], log: Path) -> tuple[bool, str]:
    """Run mypyc and the C compiler over ``modules`` in a child process (a crash there
    cannot stop the set-up); its output goes to ``log``. Whether it worked, and its output."""
    with log.open("w") as out:
        done = subprocess.run(
            [sys.executable, __file__, "--compile-step", *modules],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    return done.returncode == 0, log.read_text(errors="replace")


def compile_step(modules: list[str]) -> None:
    """In the child: generate the C with mypyc, build the extensions into build/mypyc/lib
    (setuptools rebuilds only what changed), then move each into place beside its source
    by renaming, so a process that has the old one loaded keeps its copy."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    os.chdir(ROOT)
    paths = [str(source_path(m).relative_to(ROOT)) for m in modules]
    options = [
        "--config-file=",  # not the project's: its Django plugin would load the settings
        f"--cache-dir={BUILD_DIR / 'mypy-cache'}",
    ]
    extensions = mypycify(
        [*options, *paths],
        opt_level="3",
        separate=True,
        target_dir=str(BUILD_DIR / "c"),
    )
    distribution = Distribution({"name": "euchre-compiled", "ext_modules": extensions})
    command: Any = distribution.get_command_obj("build_ext")
    command.build_lib = str(BUILD_DIR / "lib")
    command.build_temp = str(BUILD_DIR / "temp")
    command.parallel = os.cpu_count() or 1
    distribution.run_command("build_ext")
    for extension in extensions:
        built = Path(command.get_ext_fullpath(extension.name))
        target = ROOT / built.relative_to(ROOT / command.build_lib)
        temporary = target.with_name(f".{target.name}.new")
        shutil.copyfile(built, temporary)
        os.replace(temporary, target)


def rejected(output: str, modules: list[str]) -> dict[str, str]:
    """The modules mypyc's errors are in, with the first error of each."""
    by_path = {str(source_path(m).relative_to(ROOT)): m for m in modules}
    found: dict[str, str] = {}
    for match in ERROR_LINE.finditer(output):
        module = by_path.get(match["path"])
        if module is not None and module not in found:
            found[module] = f"{match['path']}:{match['line']}: {match['message']}"
    return found


def check_step(modules: list[str]) -> None:
    """In a child, compiled or pure (EUCHRE_PURE): print one JSON line with the build that
    runs, the modules imported compiled and a digest of a few reviews."""
    import hashlib
    import importlib

    from analysis.solver.hindsight import dd_table, hindsight_review
    from analysis.solver.review import ReviewParams, review_hand
    from games.bots.match import play_hand
    from games.engine.cards import Seat
    from games.engine.game import Game
    from games.engine.record import parse_record, record_from_state
    from games.engine.rules import PRESETS
    from games.strategy.policy import decide

    imported = [importlib.import_module(name) for name in modules]
    results: list[object] = []
    seed = 0
    while len(results) < 3 * 3:
        seed += 1
        hand = play_hand(Game(PRESETS["standard"], seed).new_hand(), dict.fromkeys(Seat, decide))
        if hand.passed_out:
            continue
        record = parse_record(record_from_state(hand))
        results.append([decision.to_json() for decision in hindsight_review(record)])
        results.append(dd_table(record))
        results.append(review_hand(record, ReviewParams(samples=6, seed=1)).to_json())
    text = json.dumps(results, sort_keys=True, separators=(",", ":"), default=str)
    answer = {
        "build": compiled.euchre_build(),
        "compiled": sorted(m.__name__ for m in imported if compiled.is_compiled(m)),
        "digest": hashlib.sha256(text.encode()).hexdigest(),
    }
    print(json.dumps(answer))


def check(modules: list[str]) -> str | None:
    """Why the build just made is not fit to run, or None: every module imports compiled,
    EUCHRE_PURE=1 imports none, and a few reviews come out the same on both builds."""
    answers = {}
    for name, pure in (("compiled", False), ("pure", True)):
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        env.pop(compiled.PURE_VARIABLE, None)
        if pure:
            env[compiled.PURE_VARIABLE] = "1"
        done = subprocess.run(
            [sys.executable, __file__, "--check-step", *modules],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            lines = done.stderr.strip().splitlines() or ["no output"]
            return f"the {name} build's check failed: {lines[-1]}"
        answers[name] = json.loads(done.stdout.strip().splitlines()[-1])
    running = answers["compiled"]
    if running["compiled"] != sorted(modules):
        missing = sorted(set(modules) - set(running["compiled"]))
        return f"not imported compiled: {', '.join(missing)} ({running['build']})"
    if answers["pure"]["compiled"]:
        return "EUCHRE_PURE=1 still imported compiled modules"
    if running["digest"] != answers["pure"]["digest"]:
        return "a review came out differently on the compiled build and the pure one"
    return None


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` to ``path`` whole or not at all (a rename)."""
    temporary = path.with_name(f".{path.name}.new")
    temporary.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def guarded(module: str) -> bool:
    """Whether ``module``'s package guards its imports (games/engine/compiled.py)."""
    init = source_path(module.rpartition(".")[0])
    return "compiled.install(__name__)" in init.read_text(encoding="utf-8")


def failed(now: dict[str, Any], why: str) -> int:
    """Record a build that failed (so the set-up does not try it again until something
    changes), remove what it made, say so; 0: the set-up goes on, on pure Python."""
    clean()
    write_json(FAILED, {**now, "why": why})
    say(f"{why}; pure Python runs")
    return 0


def build(modules: list[str], now: dict[str, Any]) -> int:
    """Build ``modules``, leaving out any that mypyc rejects: 0 when the set-up may go on
    (compiled or not)."""
    FAILED.unlink(missing_ok=True)
    start = time.monotonic()
    say(f"compiling {len(modules)} modules with mypyc (a minute or two the first time)")
    # Until it is checked, no build: a process started meanwhile runs the pure modules.
    clean(keep=[path for m in modules for path in compiled.outputs_of(m)])
    left_out: dict[str, str] = {}
    log = BUILD_DIR / "build.log"
    todo = list(modules)
    fresh_cache = False
    while True:
        ok, output = compile_modules(todo, log)
        if ok:
            break
        bad = rejected(output, todo)
        if not bad and not fresh_cache:
            # mypyc can crash on its own incremental cache after the sources moved on
            # (seen: "ValueError: value is not in list" in emit_undefined_attr_check);
            # once more from an empty cache before giving up.
            say("mypyc failed; once more with an empty cache")
            shutil.rmtree(BUILD_DIR / "mypy-cache", ignore_errors=True)
            fresh_cache = True
            continue
        if not bad:
            last = output.strip().splitlines()[-1:] or ["no output"]
            return failed(now, f"mypyc failed ({last[0]}; the whole log: {log})")
        for module, message in bad.items():
            say(f"leaving out {module}: {message}")
        left_out.update(bad)
        todo = [m for m in todo if m not in bad]
        if not todo:
            return failed(now, "mypyc compiled no module")
    clean(keep=[path for m in todo for path in compiled.outputs_of(m)])
    # The check's children must find a build: the manifest first, then the check.
    made = time.strftime("%Y-%m-%d %H:%M:%S")
    write_json(
        compiled.MANIFEST, {**now, "modules": sorted(todo), "left_out": left_out, "built": made}
    )
    problem = check(todo)
    if problem:
        return failed(now, f"built, but {problem} (the log: {log})")
    seconds = time.monotonic() - start
    say(
        f"built in {seconds:.0f} s: {compiled.examine(compiled.read_manifest(), environ={}).line()}"
    )
    return 0


def status(require: bool) -> int:
    """Print the build that runs here; with ``require``, 1 unless all of COMPILED does."""
    current = compiled.examine(compiled.read_manifest())
    print(current.line())
    for module, why in sorted(current.left_out.items()):
        print(f"  left out: {module}: {why}")
    if require and (not current.compiled or set(current.modules) != set(COMPILED)):
        print(
            "The compiled build is required (--require), and it is not running in full: "
            "see what scripts/build_compiled.py said in scripts/bootstrap.",
            file=sys.stderr,
        )
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--force", action="store_true", help="build even when up to date")
    group.add_argument("--status", action="store_true", help="print which build runs here")
    group.add_argument("--clean", action="store_true", help="remove every compiled output")
    group.add_argument("--compile-step", nargs="+", help=argparse.SUPPRESS)
    group.add_argument("--check-step", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument(
        "--require", action="store_true", help="with --status: 1 unless all runs compiled"
    )
    parser.add_argument(
        "--only", nargs="+", metavar="MODULE", help="build only these modules of COMPILED"
    )
    args = parser.parse_args(argv)
    if args.compile_step:
        compile_step(args.compile_step)
        return 0
    if args.check_step:
        check_step(args.check_step)
        return 0
    if args.status:
        return status(args.require)
    if args.clean:
        removed = clean()
        shutil.rmtree(BUILD_DIR, ignore_errors=True)
        say(f"removed {len(removed)} compiled files and {BUILD_DIR.relative_to(ROOT)}/")
        return 0

    modules = list(COMPILED)
    if args.only:
        unknown = sorted(set(args.only) - set(COMPILED))
        if unknown:
            parser.error(f"--only: not in COMPILED: {', '.join(unknown)}")
        modules = [m for m in COMPILED if m in args.only]
    unguarded = [m for m in modules if not guarded(m)]
    if unguarded:
        say(
            f"{', '.join(unguarded)}: its package's __init__.py must first call "
            "compiled.install(__name__), as games/engine/__init__.py does"
        )
        return 1
    BUILD_DIR.mkdir(parents=True, exist_ok=True)
    with (BUILD_DIR / "lock").open("w") as lock:
        # One build at a time (a test run and the server's set-up, say): the second waits,
        # then finds the first one's build up to date.
        fcntl.flock(lock, fcntl.LOCK_EX)
        return build_if_needed(modules, force=args.force)


def build_if_needed(modules: list[str], force: bool) -> int:
    now = wanted(modules)
    if compiled.pure_forced():
        say(f"{compiled.PURE_VARIABLE}=1 is set: pure Python runs, whatever is built")
    if not force:
        if up_to_date(now):
            line = compiled.examine(compiled.read_manifest(), environ={}).line()
            say(f"up to date, {line}")
            return 0
        if matches(compiled.read_manifest(FAILED), now):
            say(
                "not built: the last build of these sources failed (build/mypyc/build.log; "
                "--force tries again); pure Python runs"
            )
            return 0
    reason = missing_tools()
    if reason:
        clean()
        say(f"not built: {reason}; pure Python runs")
        return 0
    return build(modules, now)


if __name__ == "__main__":
    sys.exit(main())
