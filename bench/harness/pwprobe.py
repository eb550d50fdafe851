"""Where refbrowse's time goes, measured from below: run with the venv's Python.

`python pwprobe.py cold` times the steps of a daemon's start (importing
Playwright and aiohttp, starting Playwright's node driver, launching Chromium,
opening a context and a page); `python pwprobe.py warm URL` times single
Playwright calls on a page, each a round trip Python → node driver → Chromium
and back. Prints one JSON object. refbrowse's daemon is built from exactly
these calls, so they bound what its commands can cost.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

started = time.perf_counter()
import asyncio  # noqa: E402 - the import itself is what is timed

from playwright.async_api import Page, async_playwright  # noqa: E402

playwright_imported = time.perf_counter()
import aiohttp.web  # noqa: E402, F401 - the daemon imports it: its cost is part of a cold start

aiohttp_imported = time.perf_counter()

from refbrowse.daemon.core.browser.chromium import launch_flags  # noqa: E402 - after the timed imports

RUNS = 15


async def cold(chromium: str) -> dict[str, float]:
    marks = [time.perf_counter()]
    playwright = await async_playwright().start()
    marks.append(time.perf_counter())
    browser = await playwright.chromium.launch(executable_path=chromium, args=launch_flags())
    marks.append(time.perf_counter())
    page = await (await browser.new_context()).new_page()
    marks.append(time.perf_counter())
    await page.goto("about:blank")
    marks.append(time.perf_counter())
    await browser.close()
    await playwright.stop()
    steps = ("node driver start", "chromium launch", "context and page", "first goto (about:blank)")
    return {step: (b - a) * 1000 for step, a, b in zip(steps, marks, marks[1:], strict=False)}


async def median_ms(call: Callable[[], Awaitable[object]]) -> float:
    samples = []
    for _ in range(RUNS):
        begin = time.perf_counter()
        await call()
        samples.append(time.perf_counter() - begin)
    return statistics.median(samples) * 1000


async def warm(chromium: str, url: str) -> dict[str, float]:
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium, args=launch_flags())
        page = await browser.new_page()
        await page.goto(url)
        return await calls(page)


async def calls(page: Page) -> dict[str, float]:
    snapshot = await page.aria_snapshot(mode="ai")
    ref = next(line.split("[ref=")[1].split("]")[0] for line in snapshot.splitlines() if "Add one" in line)
    button = page.get_by_ref(ref)
    return {
        "page.evaluate('1')": await median_ms(lambda: page.evaluate("1")),
        "locator.count()": await median_ms(button.count),
        "locator.scroll_into_view_if_needed()": await median_ms(button.scroll_into_view_if_needed),
        "locator.evaluate(...)": await median_ms(lambda: button.evaluate("e => e.isConnected")),
        "locator.click()": await median_ms(button.click),
        "page.aria_snapshot(mode='ai')": await median_ms(lambda: page.aria_snapshot(mode="ai")),
        "page.aria_snapshot(mode='ai'), first on a new document": await first_snapshot_ms(page),
    }


async def first_snapshot_ms(page: Page) -> float:
    """The first ai snapshot of a document also sets up Playwright's script in it: timed after a reload."""
    samples = []
    for _ in range(RUNS // 2):
        await page.reload()
        begin = time.perf_counter()
        await page.aria_snapshot(mode="ai")
        samples.append(time.perf_counter() - begin)
    return statistics.median(samples) * 1000


def main() -> None:
    mode, chromium = sys.argv[1], sys.argv[2]
    result: dict[str, Any]
    if mode == "cold":
        result = {
            "import playwright": (playwright_imported - started) * 1000,
            "import aiohttp": (aiohttp_imported - playwright_imported) * 1000,
            **asyncio.run(cold(chromium)),
        }
    else:
        result = asyncio.run(warm(chromium, sys.argv[3]))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
