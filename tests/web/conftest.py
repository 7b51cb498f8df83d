"""The one headless browser of the browser tests: Debian's chromium driven by Playwright, one per test module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.web import page_walk


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=page_walk.CHROMIUM, args=page_walk.ARGS)
        yield launched
        launched.close()
