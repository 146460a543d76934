"""`manage.py check --deploy` with the README's production environment, and nothing else.

Each check runs in a fresh process whose environment is exactly the one given, so that
nothing of the test run (DEBUG=true, DATABASE_URL, ...) leaks into the settings.
"""

import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

# The documented production environment: every other setting keeps its default.
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "k7Gq2vX9pL4mN8rT1wZ5yB3cF6hJ0dS-aE_uI2oP9sD4fG7hK1lZ3xC5vB8nM0q",
    "ALLOWED_HOSTS": "euchre.example",
    "CSRF_TRUSTED_ORIGINS": "https://euchre.example",
    "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
    "EMAIL_HOST": "smtp.euchre.example",
}


def check_deploy(environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO_ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_the_production_environment() -> None:
    result = check_deploy(PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_names_each_https_setting_switched_off() -> None:
    result = check_deploy(
        {
            **{name: value for name, value in PRODUCTION.items() if name != "EMAIL_BACKEND"},
            "SECURE_SSL_REDIRECT": "false",
            "SECURE_HSTS_SECONDS": "0",
            "SESSION_COOKIE_SECURE": "false",
            "CSRF_COOKIE_SECURE": "false",
        }
    )
    assert result.returncode != 0
    for issue in ("W004", "W008", "W012", "W016", "mail.E001"):
        assert issue in result.stderr, issue


def test_check_deploy_names_hsts_subdomains_and_preload_switched_off() -> None:
    # Django checks these two only while HSTS is on, so apart from the test above.
    result = check_deploy(
        {**PRODUCTION, "SECURE_HSTS_INCLUDE_SUBDOMAINS": "false", "SECURE_HSTS_PRELOAD": "false"}
    )
    assert result.returncode != 0
    assert "security.W005" in result.stderr
    assert "security.W021" in result.stderr


def test_without_a_secret_key_the_site_does_not_start_and_says_why() -> None:
    result = check_deploy({name: v for name, v in PRODUCTION.items() if name != "SECRET_KEY"})
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr
