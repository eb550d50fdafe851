"""`screenshot --baseline FILE [SEL]`: the screenshot compared with a saved one (see `baseline.py`).

The `screenshot` handler hands over to `compare_shot` when --baseline is given: it
shares the capture and adds the masks, the comparison and the refs of what changed.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.io.reply import Reply
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.snapshot.service import take_snapshot
from refbrowse.daemon.services.baseline import Comparison, Shot, holder, run
from refbrowse.daemon.services.policy import Policy
from refbrowse.daemon.services.screenshots import Region

_BOX_JS = script("box")
DEFAULT_THRESHOLD = 0.1  # pixelmatch's own default: how far two colours may be and still match


@dataclass(frozen=True, slots=True)
class Asked:
    """What the caller asked of the comparison: --baseline, --allow-path, --mask, --threshold, --update."""

    baseline: str
    allow: str | None
    masks: list[str]
    threshold: float | None
    update: bool
    snapshot_ms: float


async def compare_shot(tab: Tab, policy: Policy, asked: Asked, png: bytes, region: Region) -> Reply:
    path = policy.output_path(asked.baseline, asked.allow)
    masks = await _mask_boxes(tab, asked.masks)
    threshold = DEFAULT_THRESHOLD if asked.threshold is None else float(asked.threshold)
    said, found = await asyncio.to_thread(run, Shot(png, region, masks), path, asked.update, threshold)
    if found is None:
        return Reply(said, {"saved": [path], "baseline": path, "changed": None})
    if not found.changed:
        return Reply(f"No change against {path} ({found.width}x{found.height})", _data(path, found, []))
    named = await _named(tab, found, asked.snapshot_ms)
    lines = [
        f"Changed: {found.share:.2%} of the pixels ({found.changed} of {found.width * found.height})"
        f" against {path}; diff image: {found.diff_path}",
        "changed boxes (x,y WxH in CSS px of the page, and the element that holds each):",
        *(f"  {x},{y} {w}x{h} {who}".rstrip() for (x, y, w, h), who in zip(found.boxes, named, strict=True)),
    ]
    if found.more_boxes:
        lines.append(f"  … and {found.more_boxes} smaller boxes")
    return Reply("\n".join(lines), _data(path, found, named))


async def _mask_boxes(tab: Tab, selectors: list[str]) -> list[tuple[float, float, float, float]]:
    boxes: list[tuple[float, float, float, float]] = []
    for selector in selectors:
        for element in await tab.page.locator(selector).all():
            x, y, w, h = await element.evaluate(_BOX_JS)
            boxes.append((x, y, w, h))
    return boxes


async def _named(tab: Tab, found: Comparison, snapshot_ms: float) -> list[str]:
    nodes = [n for n in (await take_snapshot(tab, timeout_ms=snapshot_ms)).tree.walk() if n.short_ref]
    scroll = await tab.page.evaluate("[scrollX, scrollY]")
    names = []
    for box in found.boxes:
        node = holder(nodes, box, (scroll[0], scroll[1]))
        if node is None:
            names.append("")
            continue
        said = f'{node.role} "{node.name[:50]}"' if node.name else node.role
        names.append(f"{node.short_ref} {said}")
    return names


def _data(path: str, found: Comparison, named: list[str]) -> dict[str, Any]:
    return {
        "saved": [found.diff_path] if found.diff_path else [],
        "baseline": path,
        "changed": found.share,
        "changed_pixels": found.changed,
        "boxes": [{"box": list(box), "element": who} for box, who in zip(found.boxes, named, strict=False)],
    }
