"""Visual: `screenshot`, `pdf`, `responsive`, `diff`.

Screenshots are PNGs no longer than `MAX_SIDE` pixels on a side: a larger
capture is scaled down by Chromium itself (the `scale` of a CDP clip), so no
image library is needed, and the output says it was scaled. Files go where
the caller says, else under `.refbrowse/screenshots/`.
"""

from __future__ import annotations

import asyncio
import difflib

from playwright.async_api import Locator, Page

from refbrowse.checks import split_target
from refbrowse.daemon.action.navigation import load
from refbrowse.daemon.command import Call, Reply, handler
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.io.envelope import fence
from refbrowse.daemon.page.resolver import resolve
from refbrowse.daemon.page.text import page_text
from refbrowse.daemon.services.baselineshot import Asked, compare_shot
from refbrowse.daemon.services.policy import ALLOW_FILE_FLAG, ALLOW_PATH_FLAG, write_new
from refbrowse.daemon.services.screenshots import (
    Region,
    default_path,
    keep_scale,
    output_path,
    save_png,
    take_screenshot,
    whole_page,
)

SIZES = (("mobile", 375, 812), ("tablet", 768, 1024), ("desktop", 1280, 800))

_BOX_JS = script("box")


def _asked_path(call: Call, given: str | None) -> str:
    """The caller's path if the file policy lets it be written; "" when none was given."""
    return str(output_path(call.services.policy, given, call.flag(ALLOW_PATH_FLAG), ""))


async def element_region(call: Call, selector: str) -> tuple[Region, Locator]:
    element = await resolve(call.tab, selector)
    await element.scroll_into_view_if_needed()
    return Region(*await element.evaluate(_BOX_JS)), element


@handler("screenshot")
async def screenshot(call: Call) -> str:
    selector, given = split_target(call.args)  # one of them at most: the registry's check
    viewport, clip = bool(call.flag("--viewport")), call.flag("--clip")
    path = _asked_path(call, given) or default_path(call.services.policy.roots[0], "screenshot")
    element: Locator | None = None
    region: Region | None = None  # None: the viewport
    if selector:
        region, element = await element_region(call, selector)
    elif clip:
        region = Region(*clip)
    elif not viewport:
        region = await whole_page(call.page)
    data, natural = await take_screenshot(call.services.cdp, call.page, region, element)
    if call.flag("--baseline"):
        asked = Asked(
            call.flag("--baseline"),
            call.flag(ALLOW_PATH_FLAG),
            call.flag("--mask") or [],
            call.flag("--threshold"),
            bool(call.flag("--update")),
            call.nav_timeout_ms,
        )
        where = region or await viewport_region(call.page)
        return await compare_shot(call.tab, call.services.policy, asked, data, where)
    shot = await save_png(path, data, natural)
    return Reply(
        shot.describe("screenshot"), {"saved": [shot.path], "width": shot.width, "height": shot.height}
    )


async def viewport_region(page: Page) -> Region:
    x, y, w, h = await page.evaluate("[scrollX, scrollY, innerWidth, innerHeight]")
    return Region(x, y, w, h)


@handler("pdf")
async def pdf(call: Call) -> str:
    path = _asked_path(call, call.arg(0)) or default_path(call.services.policy.roots[0], "page", "pdf")
    data = await call.page.pdf()
    await asyncio.to_thread(write_new, path, data)
    return f"Saved PDF ({len(data)} bytes) of {call.page.url} to {path}"


@handler("responsive")
async def responsive(call: Call) -> str:
    given = call.arg(0)
    prefix = default_path(call.services.policy.roots[0], "responsive").removesuffix(".png")
    # Each file is written where its own check resolved it.
    paths = {name: _asked_path(call, f"{given}-{name}.png") for name, _, _ in SIZES} if given else {}
    page = call.page
    before, dpr = page.viewport_size, float(await page.evaluate("devicePixelRatio"))
    lines, saved = [], []
    try:
        for name, width, height in SIZES:
            await page.set_viewport_size({"width": width, "height": height})
            data, natural = await take_screenshot(call.services.cdp, page, None)
            shot = await save_png(paths.get(name) or f"{prefix}-{name}.png", data, natural)
            lines.append(shot.describe(f"{name} {width}x{height}"))
            saved.append(shot.path)
    finally:
        if before is not None:
            await page.set_viewport_size(before)
            await keep_scale(call.services.cdp, page, before["width"], before["height"], dpr)
    return Reply("\n".join(lines), {"saved": saved})


async def text_lines(call: Call, url: str) -> list[str]:
    """The visible text of `url`, loaded in a tab of its own that is closed afterwards."""
    checked = call.services.policy.checked_url(url, bool(call.flag(ALLOW_FILE_FLAG)))
    page = await call.session.context.new_page()
    call.services.file_grants.grant(page, checked)
    try:
        await load(page, checked, call.nav_timeout_ms)
        return (await page_text(page)).splitlines()
    finally:
        await page.close()


@handler("diff")
async def diff(call: Call) -> str:
    first, second = call.args
    (
        call.services.policy.checked_url(first, bool(call.flag(ALLOW_FILE_FLAG))),
        call.services.policy.checked_url(second, bool(call.flag(ALLOW_FILE_FLAG))),
    )  # refuse either before loading one
    before, after = await text_lines(call, first), await text_lines(call, second)
    lines = list(difflib.unified_diff(before, after, fromfile=first, tofile=second, lineterm=""))
    return fence("\n".join(lines) if lines else "(no differences)", f"{first} and {second}", call.raw)
