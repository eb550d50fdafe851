"""The snapshot tokenizer, and a golden test of the raw ai-mode format of the pinned Playwright."""

from __future__ import annotations

import asyncio

import pytest
from playwright.async_api import async_playwright

from refbrowse.daemon.core.chromium import find_chromium, launch_flags
from refbrowse.daemon.page.snapshot.parse import parse_snapshot

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

GOLDEN_HTML = """<title>Golden</title>
<h1>Hello</h1>
<input aria-label="Email" placeholder="you@x" value="bob">
<input type="checkbox" checked aria-label="Agree">
<select aria-label="Pick"><option>a</option><option selected>b</option></select>
<button disabled>Go "x" [ref=e2]</button>
<button aria-expanded="true">Menu</button>
<a href="/foo">Foo link</a>
<button>Note: a #hash</button>
<iframe srcdoc="<button>In frame</button>"></iframe>"""

GOLDEN_RAW = """- generic [active] [ref=e1]:
  - heading "Hello" [level=1] [ref=e2]
  - textbox "Email" [ref=e3]:
    - /placeholder: you@x
    - text: bob
  - checkbox "Agree" [checked] [ref=e4]
  - combobox "Pick" [ref=e5]:
    - option "a"
    - option "b" [selected]
  - button "Go \\"x\\" [ref=e2]" [disabled] [ref=e6]
  - button "Menu" [expanded] [ref=e7]
  - link "Foo link" [ref=e8] [cursor=pointer]:
    - /url: /foo
  - 'button "Note: a #hash" [ref=e9]'
  - iframe [ref=e10]:
    - button "In frame" [ref=f1e2]"""


def _raw_snapshot(html: str) -> str:
    async def take() -> str:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=find_chromium(), args=launch_flags())
            page = await browser.new_page()
            await page.set_content(html)
            await page.frames[-1].wait_for_load_state()
            text = await page.aria_snapshot(mode="ai")
            await browser.close()
            return text

    return asyncio.run(take())


@pytest.mark.browser
def test_pinned_playwright_writes_the_ai_snapshot_format_the_parser_expects() -> None:
    raw = _raw_snapshot(GOLDEN_HTML)
    assert raw == GOLDEN_RAW
    tree = parse_snapshot(raw)
    roles = [node.role for node in tree.walk()]
    assert roles.count("button") == 4 and "iframe" in roles
