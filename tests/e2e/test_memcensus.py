"""The daemon's census of live Playwright objects tells one held by the connection from one kept past it."""

from __future__ import annotations

import asyncio
import gc

import pytest
from playwright.async_api import Request, async_playwright

from conftest import CHROMIUM, Site
from refbrowse.daemon.core.runtime.memwatch import census

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def _counts(line: str) -> dict[str, tuple[int, int]]:
    """`Request 4/3 Response 4/4` -> {"Request": (4, 3), "Response": (4, 4)} (alive, held)."""
    words = line.split()
    pairs = (count.split("/") for count in words[1::2])
    return {name: (int(alive), int(held)) for name, (alive, held) in zip(words[::2], pairs, strict=True)}


def test_a_request_kept_after_its_page_is_disposed_counts_alive_but_not_held(site: Site) -> None:
    url = site.page("/census", "<title>c</title>" + "".join(f"<img src='/i{i}.png'>" for i in range(3)))

    async def look() -> tuple[str, str]:
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            context = await browser.new_context()
            page = await context.new_page()
            seen: list[Request] = []
            page.on("request", lambda request: seen.append(request))
            await page.goto(url)
            gc.collect()
            while_open = census()
            kept = seen[0]  # noqa: F841 - held on purpose past the context's disposal
            seen.clear()
            await context.close()  # the driver disposes of the context's objects: the client forgets them
            gc.collect()
            after_close = census()
            await browser.close()
            return while_open, after_close

    while_open, after_close = asyncio.run(look())
    alive, held = _counts(while_open)["Request"]
    assert alive == held >= 4  # the page and its three images (at least), all held
    assert _counts(after_close)["Request"] == (1, 0)  # the one kept: alive, no longer held
