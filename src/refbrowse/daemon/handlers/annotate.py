"""`snapshot -a [-o PATH]`: the snapshot, plus a screenshot with a labelled box on each ref.

Nothing is drawn in the agent's page: the viewport is captured as it is, and
the boxes are drawn over that image in a blank page of a throwaway browser
context, which is screenshotted and closed. Boxes come from the snapshot
service (`@e` refs) and from the live `@c` refs' element handles.

The `snapshot` handler calls `annotate` with the snapshot it has just taken,
so the boxes and the refs printed are the same ones.
"""

from __future__ import annotations

import base64
import html

from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.handlers import Call
from refbrowse.daemon.handlers.visual import capture as capture_png
from refbrowse.daemon.handlers.visual import default_path, output_path, png_size, save_png
from refbrowse.daemon.page.snapshot.service import PageSnapshot
from refbrowse.errors import Unavailable

Box = tuple[float, float, float, float]

_STYLE = """body { margin: 0 } #shot { position: relative; background-size: 100% 100% }
.ref { position: absolute; box-sizing: border-box; border: 2px solid #e5007a; }
.ref.c { border-color: #0a7cff }
.ref span { position: absolute; left: -2px; top: -15px; font: bold 11px/13px monospace; color: #fff;
  background: #e5007a; padding: 0 3px; white-space: nowrap }
.ref.c span { background: #0a7cff }
.ref.top span { top: -2px }"""


async def ref_boxes(call: Call, taken: PageSnapshot) -> list[tuple[str, Box]]:
    """(ref, viewport box) of every ref with a box: `@e` from the snapshot, then the live `@c` refs."""
    found: list[tuple[str, Box]] = [
        (node.short_ref, node.box) for node in taken.tree.walk() if node.short_ref and node.box
    ]
    for target in call.tab.refs.live():
        if target.handle is not None:
            box = await target.handle.bounding_box()
            if box:
                found.append((str(target.ref), (box["x"], box["y"], box["width"], box["height"])))
    return found


def on_screen(boxes: list[tuple[str, Box]], width: int, height: int) -> list[tuple[str, Box]]:
    return [
        (ref, (x, y, w, h))
        for ref, (x, y, w, h) in boxes
        if w > 0 and h > 0 and x + w > 0 and y + h > 0 and x < width and y < height
    ]


def overlay_html(png: bytes, width: int, height: int, boxes: list[tuple[str, Box]]) -> str:
    """A page that shows the screenshot with each ref's box and label on top (CSS pixels)."""
    image = base64.b64encode(png).decode()
    marks = []
    for ref, (x, y, w, h) in boxes:
        kind = (" c" if ref.startswith("@c") else "") + (" top" if y < 15 else "")  # no room above
        marks.append(
            f'<div class="ref{kind}" style="left:{x:.0f}px;top:{y:.0f}px;width:{w:.0f}px;height:{h:.0f}px">'
            f"<span>{html.escape(ref.lstrip('@'))}</span></div>"
        )
    return (
        f"<!DOCTYPE html><style>{_STYLE}</style>"
        f'<div id="shot" style="width:{width}px;height:{height}px;'
        f'background-image:url(data:image/png;base64,{image})">'
        f"{''.join(marks)}</div>"
    )


async def draw(call: Call, png: bytes, boxes: list[tuple[str, Box]], width: int, height: int) -> bytes:
    """Draw `boxes` over `png` in a throwaway context, away from the agent's pages."""
    browser = call.daemon.host.browser
    if browser is None:
        raise Unavailable("the browser is not running", "run `browse restart`")
    scale = png_size(png)[0] / width
    context = await browser.new_context(
        viewport={"width": width, "height": height}, device_scale_factor=scale
    )
    try:
        page = await context.new_page()
        await page.set_content(overlay_html(png, width, height, boxes))
        return await page.screenshot(type="png")
    finally:
        await context.close()


def wanted(call: Call) -> bool:
    """`-a`, or `-o PATH` (which implies it)."""
    return bool(call.flags.get("-a")) or isinstance(call.flags.get("-o"), str)


async def annotate(call: Call, taken: PageSnapshot) -> str:
    """Save the annotated screenshot of `taken`; return the line that says where it went."""
    given = call.flags.get("-o")
    path = output_path(call, given if isinstance(given, str) else None, "")
    size = call.page.viewport_size or {"width": 1280, "height": 720}
    width, height = size["width"], size["height"]
    boxes = on_screen(await ref_boxes(call, taken), width, height)
    png, _ = await capture_png(call.services.cdp, call.page, None)
    try:
        drawn = await draw(call, png, boxes, width, height)
    except PlaywrightError as exc:
        raise Unavailable(
            f"could not draw the annotations: {exc.message}", "retry, or `browse restart`"
        ) from exc
    shot = await save_png(path or default_path(call, "annotated"), drawn, None)
    return shot.describe(f"annotated screenshot, {len(boxes)} refs in view")
