"""A page's own copy (`document.execCommand('copy')`) is its session's alone.

Chromium has one clipboard for all its contexts: what a page copies lands
there, where another context's page could read it. The daemon takes the copy
into the session's clipboard (the page's copy event tells it) and empties
Chromium's at once, through the page that copied and without bringing it to
the front. Two contexts of one real Chromium, the second reading Chromium's
clipboard with the permission granted (no keeper script there).
"""

from __future__ import annotations

import asyncio

import pytest
from playwright.async_api import Page, async_playwright

from conftest import CHROMIUM, Site
from refbrowse.daemon.core.devtools.cdp import CdpKeeper
from refbrowse.daemon.core.runtime.background import _tasks
from refbrowse.daemon.services.clipboard import Clipboards

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

COPIES = """<p id=words>LEGACY-COPY-6104</p><button id=copy onclick="const r = document.createRange();
r.selectNodeContents(words); getSelection().removeAllRanges(); getSelection().addRange(r);
document.execCommand('copy')">Copy</button>"""


async def _read(page: Page) -> str:
    await page.bring_to_front()  # the clipboard answers a focused document only
    return str(await page.evaluate("navigator.clipboard.readText()"))


def test_what_a_page_copies_leaves_chromiums_clipboard_and_stays_in_its_session(site: Site) -> None:
    copier, reader = site.page("/native/copy", COPIES), site.page("/native/read", "<p>reader</p>")

    async def run() -> tuple[str, str, str]:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            mine, other = await browser.new_context(), await browser.new_context()
            await other.grant_permissions(["clipboard-read"], origin=site.origin)
            page, theirs = await mine.new_page(), await other.new_page()
            await page.goto(copier)
            await theirs.goto(reader)
            clipboards = Clipboards(None, CdpKeeper())  # type: ignore[arg-type] # settings: no page reads here
            await page.click("#copy")
            before = await _read(theirs)  # what any context reads without the daemon's help
            # the copy event's report, as the keeper script sends it from the page
            await clipboards._from_page("mine", {"page": page}, "copied", "LEGACY-COPY-6104")
            await asyncio.gather(*list(_tasks))
            after = await _read(theirs)
            await browser.close()
            return before, after, clipboards.text("mine")

    before, after, kept = asyncio.run(run())
    assert before == "LEGACY-COPY-6104", (
        "the copy never reached Chromium's clipboard: the test proves nothing"
    )
    assert after == "" and kept == "LEGACY-COPY-6104"
