"""The package: what the wheel carries, where run-time files go, and the locks.

The slow test (marked ``package``, run by CI with the rest) builds the wheel from the files
a commit would hold, installs it with its locked dependencies into a fresh virtual
environment and runs the site from another folder, as someone who never saw the checkout
would. The others check the settings' data directory and the lock files in a moment.
"""

from __future__ import annotations

import os
import re
import runpy
import shutil
import socket
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

REPO_ROOT = Path(__file__).resolve().parents[2]
SETTINGS_FILE = REPO_ROOT / "euchre_site" / "settings.py"
APPS = (
    "euchre_site",
    "accounts",
    "notifications",
    "analysis",
    "games",
    "lessons",
    "classes",
    "tables",
    "ratings",
)

# Variables that would point a child process at this checkout or at the services.
CHECKOUT_VARIABLES = (
    "PYTHONPATH",
    "DJANGO_SETTINGS_MODULE",
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "REDIS_URL",
    "EUCHRE_DATA_DIR",
    "DEBUG",
    "SECRET_KEY",
    # The browser tests' fixture sets it for the session; a deployment never has it.
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "EMAIL_BACKEND",
    "VIRTUAL_ENV",
)


def load_settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Any]:
    """Run settings.py afresh as in development, the embedded defaults and these variables."""
    for name in CHECKOUT_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in {"DEBUG": "true", **env}.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(SETTINGS_FILE))


def run_time_paths(settings: dict[str, Any]) -> list[Path]:
    options = settings["CELERY_BROKER_TRANSPORT_OPTIONS"]
    return [
        Path(settings["DATABASES"]["default"]["NAME"]),
        Path(settings["DATABASES"]["default"]["TEST"]["NAME"]),
        Path(settings["STATIC_ROOT"]),
        Path(settings["CELERY_BEAT_SCHEDULE_FILENAME"]),
        *(Path(options[key]) for key in ("data_folder_in", "processed_folder", "control_folder")),
    ]


def test_in_a_checkout_run_time_files_go_to_var_beside_manage_py(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # the working directory does not matter in a checkout
    settings = load_settings(monkeypatch)
    assert settings["DATA_DIR"] == REPO_ROOT / "var"
    for path in run_time_paths(settings):
        assert path.is_relative_to(REPO_ROOT / "var"), path
    assert not (tmp_path / "var").exists()


def test_euchre_data_dir_moves_every_run_time_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    settings = load_settings(monkeypatch, EUCHRE_DATA_DIR="site-data")  # relative: to the cwd
    data_dir = tmp_path / "site-data"
    assert settings["DATA_DIR"] == data_dir
    for path in run_time_paths(settings):
        assert path.is_relative_to(data_dir), path
    assert Path(settings["DATABASES"]["default"]["NAME"]) == data_dir / "db.sqlite3"
    # The broker's folders exist, for the worker and the web process alike.
    assert (data_dir / "celery" / "messages").is_dir()


def test_a_data_dir_inside_site_packages_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sysconfig

    inside = Path(sysconfig.get_path("purelib")) / "var"
    with pytest.raises(ImproperlyConfigured, match="EUCHRE_DATA_DIR"):
        load_settings(monkeypatch, EUCHRE_DATA_DIR=str(inside))
    assert not inside.exists()


def test_the_sites_templates_and_static_files_live_in_its_package() -> None:
    # A templates/ or static/ at the top level would be left out of the wheel.
    assert not (REPO_ROOT / "templates").exists()
    assert not (REPO_ROOT / "static").exists()


LOCK_LINE = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)", re.M)
REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(lock: str) -> dict[str, str]:
    text = (REPO_ROOT / "requirements" / lock).read_text()
    return {canonical(name): version for name, version in LOCK_LINE.findall(text)}


def declared(requirements: list[str]) -> set[str]:
    names = set()
    for requirement in requirements:
        match = REQUIREMENT_NAME.match(requirement)
        assert match, requirement
        names.add(canonical(match.group(1)))
    return names


def test_the_locks_pin_every_dependency_pyproject_declares() -> None:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    base, dev = pins("base.lock"), pins("dev.lock")
    runtime = declared(project["dependencies"])
    development = declared(project["optional-dependencies"]["dev"])
    hint = "pyproject.toml changed: run scripts/lock"
    assert runtime - set(base) == set(), hint
    assert (runtime | development) - set(dev) == set(), hint
    # The development tools stay out of what the site needs to run.
    assert development & set(base) == set()
    # One version of each package in both locks.
    assert {name: dev[name] for name in base if name in dev} == base


# The installed package, for real ---------------------------------------------------------


def git_files() -> list[str]:
    """The files a commit of this tree would hold: tracked ones and new, unignored ones."""
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO_ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return [name for name in listing.split("\0") if name and (REPO_ROOT / name).is_file()]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def installed_files(site_packages: Path) -> set[Path]:
    return {
        path.relative_to(site_packages)
        for path in site_packages.rglob("*")
        if "__pycache__" not in path.parts
    }


@pytest.mark.package
def test_the_wheel_installs_and_runs_the_site_from_elsewhere(tmp_path: Path) -> None:
    files = git_files()
    source = tmp_path / "source"
    for name in files:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO_ROOT / name, source / name)

    # The wheel holds every file of every app: code, migrations, templates, static, lessons.
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", dist, source],
        check=True,
    )
    (wheel,) = dist.glob("euchre_school-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        in_wheel = set(archive.namelist())
    app_files = {name for name in files if name.split("/")[0] in APPS}
    assert app_files - in_wheel == set()
    assert "euchre_site/static/vendor/htmx/htmx.min.js" in in_wheel
    assert "euchre_site/templates/base.html" in in_wheel
    assert "lessons/content/01-cards-and-ranks.yaml" in in_wheel
    assert "classes/migrations/0001_initial.py" in in_wheel
    top_level = {name.split("/")[0] for name in in_wheel}
    assert {name for name in top_level if not name.endswith(".dist-info")} == set(APPS)
    # The wheel is pure Python, for any platform: no compiled module, no build's manifest.
    assert wheel.name.endswith("-py3-none-any.whl")
    assert not [name for name in in_wheel if name.endswith((".so", ".pyd", "-build.json"))]

    # A fresh environment: the locked runtime dependencies and the wheel, nothing else.
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    pip = [venv / "bin" / "python", "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, "-r", REPO_ROOT / "requirements" / "base.lock", wheel], check=True)
    site_packages = Path(
        subprocess.run(
            [
                venv / "bin" / "python",
                "-c",
                "import sysconfig; print(sysconfig.get_path('purelib'))",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    before = installed_files(site_packages)

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    data_dir = tmp_path / "data"
    env = {name: value for name, value in os.environ.items() if name not in CHECKOUT_VARIABLES}
    env["EUCHRE_DATA_DIR"] = str(data_dir)
    env["DEBUG"] = "true"  # development first; then the production environment
    production = {
        **env,
        "DEBUG": "false",
        "SECRET_KEY": "a-test-key-made-for-this-run-only-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1",
        "CSRF_TRUSTED_ORIGINS": "https://euchre.example",
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "mail.euchre.example",
    }
    euchre_school = str(venv / "bin" / "euchre-school")

    def run(*args: str, environment: dict[str, str] = env) -> str:
        done = subprocess.run(
            [euchre_school, *args],
            cwd=elsewhere,
            env=environment,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, f"euchre-school {' '.join(args)}:\n{done.stderr}"
        return done.stdout + done.stderr

    # With no EUCHRE_DATA_DIR, the working directory's var/.
    run(
        "check",
        environment={name: value for name, value in env.items() if name != "EUCHRE_DATA_DIR"},
    )
    assert (elsewhere / "var" / "celery" / "messages").is_dir()
    run("check")
    run("check", "--deploy", environment=production)
    # The installed package runs the pure Python build, and says so.
    build = subprocess.run(
        [
            venv / "bin" / "python",
            "-c",
            "from games.engine.compiled import euchre_build; print(euchre_build())",
        ],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert build.stdout.strip() == "pure Python (not built)"
    run("migrate", "--noinput")
    assert (data_dir / "db.sqlite3").is_file()
    assert "lesson" in run("load_content").lower()
    run("collectstatic", "--noinput", environment=production)
    collected = data_dir / "staticfiles"
    for name in ("vendor/htmx/htmx.min.js", "css/site.css", "classes/classes.css"):
        assert (collected / name).is_file(), name
    assert (collected / "staticfiles.json").is_file()  # the manifest DEBUG=false serves from

    # The production server, on the installed package, answers pages that need every part.
    port = free_port()
    server_log = tmp_path / "server.log"
    log = server_log.open("w")
    server = subprocess.Popen(
        [
            str(venv / "bin" / "uvicorn"),
            "euchre_site.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        cwd=elsewhere,
        # Plain HTTP on loopback: no redirect to HTTPS.
        env={**production, "SECURE_SSL_REDIRECT": "false"},
        # To a file, never a pipe nobody reads (a full pipe would stop the server).
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _attempt in range(120):
            try:
                status, home = get(base + "/")
                break
            except (ConnectionError, urllib.error.URLError):
                assert server.poll() is None, server_log.read_text()
                time.sleep(0.5)
        else:
            pytest.fail("the server never answered")
        assert status == 200
        match = re.search(rb'src="(/static/vendor/htmx/htmx\.min\.[0-9a-f]+\.js)"', home)
        assert match, "the home page links the hashed, collected htmx"
        assert get(base + match.group(1).decode())[0] == 200
        status, learn = get(base + "/learn/")
        assert status == 200
        assert b"The cards and how they rank" in learn  # the first lesson, loaded from the wheel
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()

    # Nothing of the run was written inside site-packages (compiled bytecode aside).
    assert installed_files(site_packages) - before == set()
    assert not list(site_packages.rglob("var"))
