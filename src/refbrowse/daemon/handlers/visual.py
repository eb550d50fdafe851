"""Visual: `screenshot`, `pdf`, `responsive`, `diff`.

Screenshots are PNGs no longer than `MAX_SIDE` pixels on a side: a larger
capture is scaled down by Chromium itself (the `scale` of a CDP clip), so no
image library is needed, and the output says it was scaled. Files go where
the caller says, else under `.refbrowse/screenshots/`.
"""

from __future__ import annotations

import asyncio
import base64
import difflib
import os
import struct
import time
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import FloatRect, Locator, Page

from refbrowse.daemon.cdp import CdpKeeper
from refbrowse.daemon.envelope import fence
from refbrowse.daemon.handlers import Call, handler
from refbrowse.daemon.handlers.navigate import checked_url, load
from refbrowse.daemon.handlers.read import clean_text
from refbrowse.daemon.headed import WINDOW_TAGS
from refbrowse.daemon.policy import ALLOW_PATH_FLAG, write_new
from refbrowse.daemon.resolver import resolve
from refbrowse.errors import UsageError
from refbrowse.kinds import looks_like_selector

MAX_SIDE = 2_000
SELECTOR_STARTS = ("@", ".", "#", "[")
SIZES = (("mobile", 375, 812), ("tablet", 768, 1024), ("desktop", 1280, 800))

# Shows or hides what the headed window draws over the page (its marker, the @ref labels);
# true when the page has any of it.
_MARKER_DISPLAY_JS = """([tags, display]) => {
  const root = document.documentElement;
  const hosts = root ? tags.flatMap(tag => Array.from(root.querySelectorAll(`:scope > ${tag}`))) : [];
  for (const host of hosts) host.style.setProperty('display', display, 'important');
  return hosts.length > 0;
}"""

_LAYOUT_JS = (
    """([tag, display]) => ({
  marker: ("""
    + _MARKER_DISPLAY_JS
    + """)([tag, display]),
  sx: scrollX, sy: scrollY, vw: innerWidth, vh: innerHeight, dpr: devicePixelRatio,
  dw: Math.max(document.documentElement.scrollWidth, document.body ? document.body.scrollWidth : 0),
  dh: Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0),
})"""
)

_BOX_JS = """el => {
  const r = el.getBoundingClientRect();
  return [r.x + scrollX, r.y + scrollY, r.width, r.height];
}"""


@dataclass(frozen=True, slots=True)
class Region:
    """A rectangle of the document, in CSS pixels."""

    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True, slots=True)
class Shot:
    path: str
    width: int
    height: int
    natural: tuple[int, int] | None  # the size before scaling down, when it was

    def describe(self, what: str) -> str:
        line = f"Saved {what} ({self.width}x{self.height}) to {self.path}"
        if self.natural:
            w, h = self.natural
            line += f"\n(downscaled from {w}x{h} to fit {MAX_SIDE} px a side)"
        return line


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header."""
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def default_path(call: Call, name: str, ext: str = "png") -> str:
    folder = os.path.join(call.daemon.state_dir, "screenshots")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S") + f"-{int(time.time() * 1000) % 1000:03d}"
    return os.path.join(folder, f"{name}-{stamp}.{ext}")


async def capture(
    cdp: CdpKeeper, page: Page, region: Region | None, element: Locator | None = None
) -> tuple[bytes, tuple[int, int] | None]:
    """PNG bytes of a region (None: the viewport), scaled down past `MAX_SIDE`; and the natural size.

    The headed-mode marker is hidden while the picture is taken: it is there for
    the person at the window, not part of the page.
    """
    layout = await page.evaluate(_LAYOUT_JS, [list(WINDOW_TAGS), "none"])
    try:
        return await _capture(cdp, page, layout, region, element)
    finally:
        if layout["marker"]:
            with suppress(PlaywrightError):
                await page.evaluate(_MARKER_DISPLAY_JS, [list(WINDOW_TAGS), "block"])


async def _capture(
    cdp: CdpKeeper, page: Page, layout: dict[str, Any], region: Region | None, element: Locator | None
) -> tuple[bytes, tuple[int, int] | None]:
    dpr = float(layout["dpr"])
    area = region or Region(layout["sx"], layout["sy"], layout["vw"], layout["vh"])
    natural = (round(area.width * dpr), round(area.height * dpr))
    if max(natural) > MAX_SIDE:
        # A CDP clip's scale maps CSS pixels to output pixels, whatever the device scale.
        data = await _scaled(page, area, MAX_SIDE / max(area.width, area.height), region is not None)
        # Capturing beyond the viewport resets a device scale set through CDP.
        await _keep_scale(cdp, page, layout["vw"], layout["vh"], dpr)
        return data, natural
    # caret="initial": the default hides the caret by restyling inputs, which would touch the page.
    if element is not None:
        return await element.screenshot(type="png", caret="initial"), None
    if region is None:
        return await page.screenshot(type="png", caret="initial"), None
    clip: FloatRect = {"x": area.x, "y": area.y, "width": area.width, "height": area.height}
    return await page.screenshot(type="png", caret="initial", full_page=True, clip=clip), None


async def _scaled(page: Page, area: Region, scale: float, beyond_viewport: bool) -> bytes:
    """Chromium itself scales the capture down (the `scale` of a CDP clip)."""
    clip = {"x": area.x, "y": area.y, "width": area.width, "height": area.height, "scale": scale}
    cdp = await page.context.new_cdp_session(page)
    try:
        shot = await cdp.send(
            "Page.captureScreenshot",
            {"format": "png", "clip": clip, "captureBeyondViewport": beyond_viewport},
        )
    finally:
        await cdp.detach()
    return base64.b64decode(shot["data"])


async def save_png(path: str, data: bytes, natural: tuple[int, int] | None) -> Shot:
    await asyncio.to_thread(_write, path, data)
    width, height = png_size(data)
    return Shot(path, width, height, natural)


def _write(path: str, data: bytes) -> None:
    write_new(path, data)


def output_path(call: Call, given: str | None, default: str) -> str:
    """The caller's path, if the file policy lets it be written, else our default under the state dir."""
    if not given:
        return default
    return call.services.policy.output_path(given, call.flags.get(ALLOW_PATH_FLAG))


def split_target(args: list[str]) -> tuple[str | None, str | None]:
    """(selector, path) from `[SEL] [PATH]`: a selector starts with @ . # or [."""
    if len(args) == 2:
        if not args[0].startswith(SELECTOR_STARTS):
            raise UsageError(
                f"screenshot takes one path, got two: {args[0]} {args[1]}",
                "a selector starts with @ . # or [ (e.g. @e3, #main); take a ref from `browse snapshot -i`",
            )
        return args[0], args[1]
    if len(args) == 1:
        return (args[0], None) if looks_like_selector(args[0]) else (None, args[0])
    return None, None


def one_mode(selector: str | None, viewport: bool, clip: object) -> None:
    modes = [
        name for name, on in (("--viewport", viewport), ("--clip", clip), ("an element", selector)) if on
    ]
    if len(modes) > 1:
        raise UsageError(
            f"screenshot takes one of --viewport, --clip or an element, got {' and '.join(modes)}", "pick one"
        )


async def element_region(call: Call, selector: str) -> tuple[Region, Locator]:
    element = await resolve(call.tab, selector)
    await element.scroll_into_view_if_needed()
    return Region(*await element.evaluate(_BOX_JS)), element


async def whole_page(page: Page) -> Region:
    layout = await page.evaluate(_LAYOUT_JS, [list(WINDOW_TAGS), "block"])
    return Region(0, 0, layout["dw"], layout["dh"])


@handler("screenshot")
async def screenshot(call: Call) -> str:
    selector, given = split_target(call.args)
    viewport, clip = bool(call.flags.get("--viewport")), call.flags.get("--clip")
    one_mode(selector, viewport, clip)
    path = output_path(call, given, "") or default_path(call, "screenshot")
    element: Locator | None = None
    region: Region | None = None  # None: the viewport
    if selector:
        region, element = await element_region(call, selector)
    elif clip:
        region = Region(*clip)
    elif not viewport:
        region = await whole_page(call.page)
    data, natural = await capture(call.services.cdp, call.page, region, element)
    shot = await save_png(path, data, natural)
    return shot.describe("screenshot")


@handler("pdf")
async def pdf(call: Call) -> str:
    path = output_path(call, call.arg(0), "") or default_path(call, "page", "pdf")
    data = await call.page.pdf()
    await asyncio.to_thread(_write, path, data)
    return f"Saved PDF ({len(data)} bytes) of {call.page.url} to {path}"


@handler("responsive")
async def responsive(call: Call) -> str:
    given = call.arg(0)
    for name, _, _ in SIZES if given else ():
        output_path(call, f"{given}-{name}.png", "")
    prefix = given or default_path(call, "responsive").removesuffix(".png")
    page = call.page
    before, dpr = page.viewport_size, float(await page.evaluate("devicePixelRatio"))
    lines = []
    try:
        for name, width, height in SIZES:
            await page.set_viewport_size({"width": width, "height": height})
            data, natural = await capture(call.services.cdp, page, None)
            shot = await save_png(f"{prefix}-{name}.png", data, natural)
            lines.append(shot.describe(f"{name} {width}x{height}"))
    finally:
        if before is not None:
            await page.set_viewport_size(before)
            await _keep_scale(call.services.cdp, page, before["width"], before["height"], dpr)
    return "\n".join(lines)


async def _keep_scale(keeper: CdpKeeper, page: Page, width: int, height: int, dpr: float) -> None:
    """Resizing, or capturing beyond the viewport, resets a device scale set through CDP
    (`viewport --scale`): set it again.

    The page's kept DevTools session sets it (see `refbrowse.daemon.cdp`).
    """
    if float(await page.evaluate("devicePixelRatio")) == dpr:
        return
    cdp = await keeper.session(page)
    metrics = {"width": width, "height": height, "deviceScaleFactor": dpr, "mobile": False}
    await cdp.send("Emulation.clearDeviceMetricsOverride")  # the same override sent again is a no-op
    await cdp.send("Emulation.setDeviceMetricsOverride", metrics)


_TEXT_JS = "() => document.body ? document.body.innerText : document.documentElement.textContent"


async def page_text(call: Call, url: str) -> list[str]:
    """The visible text of `url`, loaded in a tab of its own that is closed afterwards."""
    checked = checked_url(call, url)
    page = await call.session.context.new_page()
    call.services.file_grants.grant(page, checked)
    try:
        await load(page, checked, call.nav_timeout_ms)
        return clean_text(str(await page.evaluate(_TEXT_JS) or "")).splitlines()
    finally:
        await page.close()


@handler("diff")
async def diff(call: Call) -> str:
    first, second = call.args
    checked_url(call, first), checked_url(call, second)  # refuse either before loading one
    before, after = await page_text(call, first), await page_text(call, second)
    lines = list(difflib.unified_diff(before, after, fromfile=first, tofile=second, lineterm=""))
    return fence("\n".join(lines) if lines else "(no differences)", f"{first} and {second}", call.raw)
