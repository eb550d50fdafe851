"""Screenshots: PNGs of a page, its region or an element, saved where the file policy allows.

A PNG is no longer than `MAX_SIDE` pixels on a side: a larger capture is
scaled down by Chromium itself, and the report says so. What headed mode
draws over the page (its marker) is hidden while the picture is taken.
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct
import time
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import FloatRect, Locator, Page

from refbrowse.daemon.core.browser.display import WINDOW_TAGS
from refbrowse.daemon.core.devtools.cdp import CdpKeeper
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.services.emulation import override_metrics
from refbrowse.daemon.services.policy import Policy, write_new

MAX_SIDE = 2_000

# Shows or hides what the headed window draws over the page (its marker, the @ref labels);
# true when the page has any of it.
_MARKER_DISPLAY_JS = script("marker_display")

_LAYOUT_JS = script("layout")


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


DEFAULT_FOLDER = "screenshots"


def default_path(workspace: str, name: str, ext: str = "png") -> str:
    """A new file in `screenshots/` of the workspace, where a person finds it (not the hidden state dir)."""
    folder = os.path.join(workspace, DEFAULT_FOLDER)
    os.makedirs(folder, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S") + f"-{int(time.time() * 1000) % 1000:03d}"
    return os.path.join(folder, f"{name}-{stamp}.{ext}")


async def take_screenshot(
    cdp: CdpKeeper, page: Page, region: Region | None, element: Locator | None = None
) -> tuple[bytes, tuple[int, int] | None]:
    """PNG bytes of a region (None: the viewport), scaled down past `MAX_SIDE`; and the natural size.

    The headed-mode marker is hidden while the picture is taken: it is there for
    the person at the window, not part of the page.
    """
    layout = await page.evaluate(_LAYOUT_JS, [list(WINDOW_TAGS), "none"])
    try:
        return await _take_screenshot(cdp, page, layout, region, element)
    finally:
        if layout["marker"]:
            with suppress(PlaywrightError):
                await page.evaluate(_MARKER_DISPLAY_JS, [list(WINDOW_TAGS), "block"])


async def _take_screenshot(
    cdp: CdpKeeper, page: Page, layout: dict[str, Any], region: Region | None, element: Locator | None
) -> tuple[bytes, tuple[int, int] | None]:
    dpr = float(layout["dpr"])
    area = region or Region(layout["sx"], layout["sy"], layout["vw"], layout["vh"])
    natural = (round(area.width * dpr), round(area.height * dpr))
    if max(natural) > MAX_SIDE:
        # A CDP clip's scale maps CSS pixels to output pixels, whatever the device scale.
        data = await _scaled(page, area, MAX_SIDE / max(area.width, area.height), region is not None)
        # Capturing beyond the viewport resets a device scale set through CDP.
        await keep_scale(cdp, page, layout["vw"], layout["vh"], dpr)
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


def output_path(policy: Policy, given: str | None, allowed: str | bool | None, default: str) -> str:
    """The caller's path, if the file policy lets it be written (with `allowed`, the command's
    --allow-path), else our default under the state dir."""
    if not given:
        return default
    return policy.output_path(given, allowed)


async def keep_scale(keeper: CdpKeeper, page: Page, width: int, height: int, dpr: float) -> None:
    """Resizing, or capturing beyond the viewport, resets a device scale set through CDP
    (`viewport --scale`): set it again.

    The page's kept DevTools session sets it (see `refbrowse.daemon.core.devtools.cdp`).
    """
    if float(await page.evaluate("devicePixelRatio")) == dpr:
        return
    await override_metrics(await keeper.session(page), width, height, dpr, anew=True)


async def whole_page(page: Page) -> Region:
    layout = await page.evaluate(_LAYOUT_JS, [list(WINDOW_TAGS), "block"])
    return Region(0, 0, layout["dw"], layout["dh"])
