"""Time to the first card: a new player opens the lobby in headless chromium and plays against bots.

Starts ``dehla serve`` with its default timings (bot delay, trick pause) on a temporary
database, then, for each run, opens ``/`` in a fresh browser context (empty cache and
storage, as a first visit), presses "Play now against bots", and makes every decision the
page offers (a trump call, or the first playable card) until a card of its own lies on
the table.  The figure is the time from asking for the page until that card is shown.

    python benchmarks/bench_first_card.py --runs 20

Needs Playwright (the test extra) and Debian's chromium.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright
from served import served

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
MINE = ".felt .played.mine"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]


def _first_card(browser: object, base: str, timeout: float) -> tuple[float, bool]:
    """Seconds from opening the page until one of our cards lies on the table, and whether we called trump."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})  # type: ignore[attr-defined]
    page = context.new_page()
    called = False
    try:
        start = time.perf_counter()
        page.goto(base + "/")
        page.click("#quick-play")
        deadline = start + timeout
        while time.perf_counter() < deadline:
            if page.query_selector(MINE):
                return time.perf_counter() - start, called
            for selector in (".call-row button:not([disabled])", ".hand button.legal:not([disabled])"):
                button = page.locator(selector).first
                try:
                    if button.count():
                        button.click(timeout=250)
                        called = called or selector.startswith(".call")
                except PlaywrightError:
                    pass  # the table re-rendered under the pointer: look again
            page.wait_for_timeout(15)
        raise RuntimeError(f"no card of ours on the table within {timeout:g} s")
    finally:
        context.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=30.0, help="give up on a run after this many seconds")
    args = parser.parse_args()
    times: list[float] = []
    with (
        tempfile.TemporaryDirectory() as tmp,
        served(str(Path(tmp) / "first.sqlite3")) as base,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        _first_card(browser, base, args.timeout)  # warm-up: the server's first bot moves load their code
        for run in range(args.runs):
            seconds, called = _first_card(browser, base, args.timeout)
            times.append(seconds)
            print(f"run {run + 1}: {seconds:.2f} s{' (called trump first)' if called else ''}", flush=True)
        browser.close()
    times.sort()
    print(
        f"first card after opening the page, {len(times)} runs: median {statistics.median(times):.2f} s, "
        f"slowest {times[-1]:.2f} s, fastest {times[0]:.2f} s; within 3 s: {sum(t <= 3 for t in times)}/{len(times)}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
