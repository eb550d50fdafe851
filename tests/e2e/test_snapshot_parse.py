"""The snapshot tokenizer, and a golden test of the raw ai-mode format of the pinned Playwright."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from playwright.async_api import async_playwright

from refbrowse.daemon.core.browser.chromium import find_chromium, launch_flags
from refbrowse.daemon.page.snapshot.parse import parse_snapshot
from refbrowse.daemon.page.snapshot.tree import Node

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


TRICKY_HTML = """<title>Tricky</title>
<p>'quoted at the start' and "double" too</p><p>"</p><p>a: b # c</p><p>back\\slash \\"x\\"</p>
<button>It's: [ref=e1]</button><button aria-label='say "hi"'>x</button><a href="/a b?c='d'">link: "q"</a>
<input value='v "1"' aria-label="Field"><textarea aria-label="T">line one
line two</textarea><h3>tab\there</h3><span role="img" aria-label="✓ ünïcode 日本"></span>
<div style="transform: translateX(-40px)"><button>Off to the left</button></div>
<details><summary>More</summary><p>inside</p></details><select aria-label="S"><option>[a]</option></select>"""


def _raw_snapshots(urls: list[str], html: str) -> list[str]:
    async def take() -> list[str]:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=find_chromium(), args=launch_flags())
            page = await browser.new_page()
            texts = []
            for url in urls:
                await page.goto(url, wait_until="load", timeout=10_000)
                texts.append(await page.aria_snapshot(mode="ai", boxes=True))
            await page.set_content(html)
            texts.append(await page.aria_snapshot(mode="ai", boxes=True))
            await browser.close()
            return texts

    return asyncio.run(take())


def _shape(tree: Node) -> list[tuple[object, ...]]:
    return [
        (n.role, n.name, n.attrs, n.pw_ref, n.pointer, n.box, n.value, n.props, n.in_frame, n.origin, kids)
        for n in tree.walk()
        for kids in [[c if isinstance(c, str) else c.role for c in n.children]]
    ]


def test_whole_lines_read_every_fixture_as_the_token_reader_does() -> None:
    pages = sorted(Path(__file__).parent.parent.joinpath("fixtures").rglob("*.html"))
    texts = _raw_snapshots([page.as_uri() for page in pages], TRICKY_HTML)
    assert len(texts) == len(pages) + 1 > 40
    for page, text in zip([*pages, "tricky"], texts, strict=True):
        assert _shape(parse_snapshot(text)) == _shape(parse_snapshot(text, whole_lines=False)), page
    # lines only the token reader takes (an escaped quote) were among them, and read right
    tricky = {node.value for node in parse_snapshot(texts[-1]).walk()}
    assert {"'quoted at the start' and \"double\" too", '"', 'back\\slash \\"x\\"'} <= tricky
