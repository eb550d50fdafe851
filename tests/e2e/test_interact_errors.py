"""Each Playwright message `pwerrors` must recognise, raised by the pinned Playwright and translated.

These call Playwright directly (real Chromium), so a change in its wording
fails here first rather than as a vague error in front of an agent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from playwright.async_api import Browser, Page, async_playwright
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.core.browser.chromium import find_chromium, launch_flags
from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.errors import ActionTimeout, BrowseError, PageError, StaleRef, Unavailable, UsageError

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

pytestmark = pytest.mark.browser  # every case runs the pinned Playwright against Chromium

PAGE = """<div id=d>x</div><input id=n type=number><input id=f type=file>
<input id=c type=checkbox onclick="return false"><button id=dis disabled>d</button>
<select id=s><option>a</option></select><button id=cov>cov</button>
<div style="position:fixed;inset:0" id=ov>overlay</div>"""

Step = Callable[[Page], Awaitable[object]]

CASES: list[tuple[str, Step, type[BrowseError], str]] = [
    ("press", lambda p: p.keyboard.press("Foo"), UsageError, "not a key name"),
    ("fill div", lambda p: p.fill("#d", "x"), PageError, "not a text field"),
    ("fill number", lambda p: p.fill("#n", "abc"), UsageError, "takes a number only"),
    ("fill file", lambda p: p.fill("#f", "abc"), UsageError, "browse upload"),
    ("select div", lambda p: p.select_option("#d", "a"), PageError, "not a <select>"),
    ("check div", lambda p: p.check("#d", force=True), PageError, "not a checkbox or radio"),
    ("check refused", lambda p: p.check("#c", force=True), PageError, "did not change its state"),
    ("upload div", lambda p: p.set_input_files("#d", []), PageError, "not a file input"),
    ("gone frame", lambda p: p.get_by_ref("f9e9").count(), StaleRef, "frame that ref belonged to is gone"),
    ("missing option", lambda p: p.select_option("#s", "zzz"), ActionTimeout, "no option has that value"),
    ("disabled", lambda p: p.click("#dis"), ActionTimeout, "stayed disabled"),
    ("covered", lambda p: p.click("#cov"), ActionTimeout, '<div id="ov">overlay</div> covers it'),
]


def _errors() -> dict[str, BrowseError]:
    async def collect() -> dict[str, BrowseError]:
        found: dict[str, BrowseError] = {}
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=find_chromium(), args=launch_flags())
            page = await browser.new_page()
            page.set_default_timeout(1500)
            await page.set_content(PAGE)
            await page.aria_snapshot(mode="ai")
            for name, step, _, _ in CASES:
                try:
                    await step(page)
                except PlaywrightError as exc:
                    found[name] = translate(exc, name)
            await browser.close()
        return found

    return asyncio.run(collect())


@pytest.fixture(scope="module")
def errors() -> dict[str, BrowseError]:
    return _errors()


@pytest.mark.parametrize(("name", "kind", "words"), [(c[0], c[2], c[3]) for c in CASES])
def test_playwright_failures_become_errors_an_agent_can_act_on(
    errors: dict[str, BrowseError], name: str, kind: type[BrowseError], words: str
) -> None:
    error = errors[name]
    assert isinstance(error, kind), error.message
    assert words in error.message + " " + error.hint
    assert error.hint
    assert "Call log" not in error.message and "\n" not in error.message


async def _closed_tab(page: Page) -> object:
    await page.close()
    return await page.title()


async def _navigates_away(page: Page) -> object:
    return await page.evaluate(
        "() => { setTimeout(() => location.reload(), 0); return new Promise(() => {}) }"
    )


async def _detached_click(page: Page) -> object:
    """An element held by its handle (as @c refs are) that leaves the page before the action."""
    handle = await page.query_selector("#ro")
    assert handle is not None
    await page.evaluate("document.getElementById('ro').remove()")
    return await handle.click()


ALONE_PAGE = """<button>a</button><button>b</button><input id=ro readonly>
<div id=h style="display:none">h</div>
<button id=m style="position:relative;animation:mv .2s linear infinite alternate">m</button>
<style>@keyframes mv { from { left: 0 } to { left: 200px } }</style>
<div style="position:fixed;top:95vh;left:0"><p style="height:100px">a popup taller than the window</p>
<button id=below>Done</button></div>"""

# Each on a page of its own: some of them leave their page unusable.
ALONE: list[tuple[str, Step, type[BrowseError], str]] = [
    ("strict", lambda p: p.locator("button").click(), PageError, "matches more than one element"),
    ("bad css", lambda p: p.locator("p[[").count(), UsageError, "the selector is not valid"),
    ("css chromium refuses", lambda p: p.locator(":nth-child(x)").count(), UsageError, "not valid CSS"),
    ("detached", _detached_click, StaleRef, "left the page during the action"),
    ("moving", lambda p: p.click("#m"), ActionTimeout, "the element kept moving"),
    ("bad url", lambda p: p.goto("http://"), UsageError, "not a URL a browser can load"),
    ("closed", _closed_tab, Unavailable, "the tab or browser was closed"),
    ("navigated", _navigates_away, PageError, "the page navigated away"),
    ("hidden", lambda p: p.click("#h"), ActionTimeout, "the element stayed hidden"),
    ("read-only", lambda p: p.fill("#ro", "x"), ActionTimeout, "the element is read-only"),
    ("fixed below", lambda p: p.click("#below"), ActionTimeout, "outside the window, where no scroll"),
]


async def _one_alone(browser: Browser, step: Step, name: str) -> BrowseError | None:
    page = await browser.new_page()
    page.set_default_timeout(1500)
    await page.set_content(ALONE_PAGE)
    try:
        await step(page)
    except PlaywrightError as exc:
        return translate(exc, name)
    finally:
        await page.context.close()
    return None


def _alone_errors() -> dict[str, BrowseError | None]:
    async def collect() -> dict[str, BrowseError | None]:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=find_chromium(), args=launch_flags())
            found = {name: await _one_alone(browser, step, name) for name, step, _, _ in ALONE}
            await browser.close()
        return found

    return asyncio.run(collect())


@pytest.fixture(scope="module")
def alone_errors() -> dict[str, BrowseError | None]:
    return _alone_errors()


@pytest.mark.parametrize(
    ("name", "kind", "words"), [(n, k, w) for n, _, k, w in ALONE], ids=[c[0] for c in ALONE]
)
def test_more_playwright_failures_each_on_a_page_of_its_own(
    alone_errors: dict[str, BrowseError | None], name: str, kind: type[BrowseError], words: str
) -> None:
    error = alone_errors[name]
    assert error is not None, f"{name}: Playwright raised nothing"
    assert isinstance(error, kind), f"{name}: {type(error).__name__}: {error.message}"
    assert words in error.message and name in error.message and error.hint
