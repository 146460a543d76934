from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
AXE_CORE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
"""axe-core 4.14.1 (npm's ``axe-core``, MPL-2.0), kept here so no test downloads it."""
AXE_RUN = (
    "\n;axe.run(document, {resultTypes: ['violations']}).then(r => r.violations"
    ".map(v => ({id: v.id, nodes: v.nodes.map(n => n.target.join(' '))})))"
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(
            f"Browser tests need Debian's Chromium at {CHROMIUM} (apt-get install chromium); "
            "scripts/test installs it when run as root"
        )
    # Playwright's sync API runs an event loop in the test's thread, which makes
    # Django refuse ORM calls there (test data, the flush after each test) unless
    # told that this is safe: the loop only drives the browser.
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def axe_violations(page: Page) -> list[str]:
    """What axe-core finds on the page as it stands, one line a rule: its id and the first
    elements it names. The script is evaluated through the browser's devtools channel,
    which the site's Content-Security-Policy does not cover (a script tag would be blocked)."""
    found: list[dict[str, Any]] = page.evaluate(AXE_CORE.read_text() + AXE_RUN)
    return [f"{v['id']}: {', '.join(v['nodes'][:5])}" for v in found]


@pytest.fixture
def axe() -> Callable[[Page], list[str]]:
    """``axe(page)``: axe-core's violations on the page, as ``axe_violations`` words them."""
    return axe_violations
