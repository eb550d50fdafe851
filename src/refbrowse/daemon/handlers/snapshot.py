"""Snapshot: the page as the agent reads it, with refs to act on.

The one `snapshot` handler: the view flags (`-i -c -d -s -C --max-tokens`),
the diff against the previous snapshot of the same tab (`-D`), and the
annotated screenshot (`-a`, `-o PATH`) all start from the same capture.

`-a` draws nothing in the agent's page: the viewport is captured as it is, and
the boxes are drawn over that image in a blank page of a throwaway browser
context, which is screenshotted and closed. Boxes come from the snapshot
(`@e` refs) and from the live `@c` refs' element handles, so the boxes and
the refs printed are the same ones.
"""

from __future__ import annotations

import base64
import html

from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.command import Call, Reply, handler
from refbrowse.daemon.core.browser.host import not_running
from refbrowse.daemon.core.io.envelope import fence
from refbrowse.daemon.core.runtime import trace
from refbrowse.daemon.page.snapshot import huge_page, prepared
from refbrowse.daemon.page.snapshot.data import snapshot_data
from refbrowse.daemon.page.snapshot.render import RenderOptions, diff, render
from refbrowse.daemon.page.snapshot.service import (
    PageSnapshot,
    SnapshotHistory,
    history_kind,
    scope,
    scope_clickables,
    take_snapshot,
)
from refbrowse.daemon.page.webmcp.mention import tools_line
from refbrowse.daemon.services.policy import ALLOW_PATH_FLAG
from refbrowse.daemon.services.screenshots import (
    default_path,
    output_path,
    png_size,
    save_png,
    take_screenshot,
)
from refbrowse.errors import Unavailable

# Without --max-tokens a snapshot still stops near this many tokens (~100 KB).
DEFAULT_MAX_TOKENS = 25_000
# …and a whole page's `-i`, near this many, as an action's report does (twice its budget): what is
# in view and actionable first, then a note says how to see more.
INTERACTIVE_MAX_TOKENS = 2_000


def default_budget(call: Call) -> int:
    """The budget when --max-tokens is not given: small for a whole page's `-i`, else a ceiling."""
    whole_interactive = call.flag("-i") and call.flag("-s") is None and not call.flag("-D")
    return INTERACTIVE_MAX_TOKENS if whole_interactive else DEFAULT_MAX_TOKENS


def options(call: Call) -> RenderOptions:
    return RenderOptions(
        interactive=bool(call.flag("-i")),
        compact=bool(call.flag("-c")),
        depth=call.flag("-d"),
        max_tokens=call.flag("--max-tokens") or default_budget(call),
        show_url=call.raw,
        in_view_first=bool(call.flag("-i")) and call.flag("-s") is None,
    )


@handler("snapshot")
async def snapshot(call: Call) -> str:
    selector = call.flag("-s")
    now = await prepared.look(call.tab)
    if selector is None and now.elements > huge_page.FULL_SNAPSHOT_ELEMENTS:
        return fence(await huge_page.in_view(call.tab, now.elements), call.page.url, call.raw)
    clickables = bool(call.flag("-C"))
    reading = prepared.served(call.tab, now)
    trace.note("snapshot: prepared reading served" if reading else "snapshot: page read now")
    # A big page's snapshot gets the navigation budget, not an action's (5 s ran out on a loaded machine).
    unnamed = bool(call.flag("--all"))
    taken = await take_snapshot(
        call.tab, clickables=clickables, unnamed=unnamed, reading=reading, timeout_ms=call.nav_timeout_ms
    )
    roots = None
    if isinstance(selector, str):
        roots = await scope(call.tab, taken, selector)
        taken = await scope_clickables(call.tab, taken, selector) if clickables else taken
    text = render(taken, options(call), roots)
    # -D compares like with like: the previous snapshot taken with the same view flags.
    kind = history_kind(call.flags, call.raw)
    history = call.tab.memory.of(SnapshotHistory)
    others = history.flags_taken(taken.triage.document)
    previous = history.swap(kind, taken.triage.document, text)
    shown = diff(previous, taken.triage.document, text) if call.flag("-D") else text
    if call.flag("-D") and previous is None and (other := next((f for f in others if f), None)):
        shown = _other_view(other, text)
    if roots is None and not call.flag("-D"):  # the page's own tools, named as an arrival names them
        shown += f"\n{line}" if (line := await tools_line(call.tab)) else ""
    fenced = fence(shown, call.page.url, call.raw)
    budget = default_budget(call)
    if call.flag("--max-tokens") is None and f"to stay under {budget} tokens" in text:
        fenced += f"\n(this snapshot stops at {budget} tokens by default: `--max-tokens N` allows more)"
    saved: dict[str, object] = {}
    if wanted(call):
        line, path = await annotate(call, taken)
        fenced, saved = f"{fenced}\n{line}", {"saved": [path]}
    return Reply(fenced, {**snapshot_data(taken, shown), **saved}) if call.json else fenced


def _other_view(flags: str, text: str) -> str:
    """`-D` with no previous snapshot of its view, while one of another view (`-i`) was taken."""
    said = f"(no previous snapshot of this view; the last was `snapshot {flags}`"
    return f"{said}: `snapshot {flags} -D` diffs it)\n{text}"


# snapshot -a: the annotated screenshot

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
        raise not_running()
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
    return bool(call.flag("-a")) or isinstance(call.flag("-o"), str)


async def annotate(call: Call, taken: PageSnapshot) -> tuple[str, str]:
    """Save the annotated screenshot of `taken`; the line that says where it went, and its path."""
    given = call.flag("-o")
    path = output_path(
        call.services.policy, given if isinstance(given, str) else None, call.flag(ALLOW_PATH_FLAG), ""
    )
    size = call.page.viewport_size or {"width": 1280, "height": 720}
    width, height = size["width"], size["height"]
    boxes = on_screen(await ref_boxes(call, taken), width, height)
    png, _ = await take_screenshot(call.services.cdp, call.page, None)
    try:
        drawn = await draw(call, png, boxes, width, height)
    except PlaywrightError as exc:
        raise Unavailable(
            f"could not draw the annotations: {exc.message}", "retry, or `browse restart`"
        ) from exc
    shot = await save_png(path or default_path(call.services.policy.roots[0], "annotated"), drawn, None)
    return shot.describe(f"annotated screenshot, {len(boxes)} refs in view"), shot.path
