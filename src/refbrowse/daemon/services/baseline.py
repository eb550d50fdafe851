"""Visual baselines for `screenshot --baseline FILE`: save the first time, compare after.

Pixels are compared with `pixelmatch` (a port of mapbox's pixelmatch, with its
anti-aliasing detection) on Pillow images; Pillow first finds the box that holds
every difference, so an unchanged page costs no per-pixel loop and a change
costs one only over that box. The diff image is saved beside FILE
(`NAME.diff.png`). Changed areas are cut into boxes on a grid and each is named by
the smallest element with a ref that holds its centre. `--mask SEL` paints the
elements' boxes grey in both images before comparing: a clock or a carousel
does not count as a change.
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass, field

from PIL import Image, ImageChops, ImageDraw, UnidentifiedImageError
from pixelmatch.contrib.PIL import pixelmatch

from refbrowse.daemon.page.snapshot.tree import Box, Node
from refbrowse.daemon.services.policy import write_new
from refbrowse.daemon.services.screenshots import Region
from refbrowse.errors import PageError

CELL = 16  # image pixels: the grid changed boxes are built on
MAX_BOXES = 10  # changed boxes listed; the rest are counted
MASK_COLOUR = (128, 128, 128, 255)


@dataclass(slots=True)
class Comparison:
    width: int
    height: int
    changed: int = 0  # pixels that differ
    diff_path: str = ""
    boxes: list[tuple[int, int, int, int]] = field(default_factory=list)  # CSS px of the document
    more_boxes: int = 0

    @property
    def share(self) -> float:
        return self.changed / max(1, self.width * self.height)


def diff_path(baseline: str) -> str:
    root, _ = os.path.splitext(baseline)
    return root + ".diff.png"


def masked_png(data: bytes, masks: list[tuple[float, float, float, float]], scale: float) -> Image.Image:
    """The screenshot as RGBA, with each mask box (CSS px of the captured region) painted over."""
    image = Image.open(io.BytesIO(data)).convert("RGBA")
    draw = ImageDraw.Draw(image)
    for x, y, w, h in masks:
        draw.rectangle([x * scale, y * scale, (x + w) * scale - 1, (y + h) * scale - 1], fill=MASK_COLOUR)
    return image


def save_image(path: str, image: Image.Image) -> None:
    out = io.BytesIO()
    image.save(out, format="PNG")
    write_new(path, out.getvalue())


def _read_baseline(path: str) -> Image.Image:
    """The baseline's pixels; PageError when the file is not an image Pillow reads whole (the
    file's own errors, which carry an errno, go on to the caller as they are)."""
    try:
        with Image.open(path) as raw:
            return raw.convert("RGBA")
    except (UnidentifiedImageError, Image.DecompressionBombError, SyntaxError, ValueError, OSError) as exc:
        if isinstance(exc, OSError) and exc.errno is not None:
            raise
        raise PageError(
            f"the baseline {path} is not an image this can compare against ({exc})",
            "take this screenshot as the baseline with --update, or give another FILE",
        ) from exc


def compare(
    baseline_path: str, current: Image.Image, threshold: float, scale: float, origin: Region
) -> Comparison:
    """`current` against the baseline at `baseline_path` (masked the same way before the call)."""
    baseline = _read_baseline(baseline_path)
    if baseline.size != current.size:
        raise PageError(
            f"the baseline {baseline_path} is {baseline.width}x{baseline.height}, this screenshot is"
            f" {current.width}x{current.height}: the page or the viewport changed size",
            "take this one as the baseline with --update, or set the viewport it was taken at",
        )
    result = Comparison(current.width, current.height)
    bbox = ImageChops.difference(baseline.convert("RGB"), current.convert("RGB")).getbbox()
    if bbox is None:
        return result
    left, top = bbox[0], bbox[1]
    a, b = baseline.crop(bbox), current.crop(bbox)
    out = Image.new("RGBA", a.size)
    result.changed = pixelmatch(a, b, out, threshold=threshold)
    if result.changed == 0:
        return result
    diff = Image.blend(baseline, Image.new("RGBA", baseline.size, (255, 255, 255, 255)), 0.7)
    diff.paste(out, (left, top))
    result.diff_path = diff_path(baseline_path)
    save_image(result.diff_path, diff)
    boxes = _boxes(out, (left, top))
    result.boxes = [_css(box, scale, origin) for box in boxes[:MAX_BOXES]]
    result.more_boxes = max(0, len(boxes) - MAX_BOXES)
    return result


def _boxes(out: Image.Image, offset: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    """Boxes (image px) around groups of touching grid cells that hold a changed pixel (red in `out`)."""
    red = out.convert("RGB").split()[0].point(lambda v: 255 if v > 200 else 0)
    green = out.convert("RGB").split()[1].point(lambda v: 255 if v < 100 else 0)
    changed = ImageChops.multiply(red, green)
    cols, rows = (changed.width + CELL - 1) // CELL, (changed.height + CELL - 1) // CELL
    cells = {
        (c, r)
        for r in range(rows)
        for c in range(cols)
        if changed.crop((c * CELL, r * CELL, (c + 1) * CELL, (r + 1) * CELL)).getbbox()
    }
    groups = _groups(cells)
    ox, oy = offset
    found = [
        (
            ox + min(c for c, _ in g) * CELL,
            oy + min(r for _, r in g) * CELL,
            ox + (max(c for c, _ in g) + 1) * CELL,
            oy + (max(r for _, r in g) + 1) * CELL,
        )
        for g in groups
    ]
    return sorted(found, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]), reverse=True)


def _groups(cells: set[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    left, groups = set(cells), []
    while left:
        stack, group = [left.pop()], []
        while stack:
            c, r = stack.pop()
            group.append((c, r))
            for near in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
                if near in left:
                    left.remove(near)
                    stack.append(near)
        groups.append(group)
    return groups


def _css(box: tuple[int, int, int, int], scale: float, origin: Region) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = box
    return (
        round(origin.x + x0 / scale),
        round(origin.y + y0 / scale),
        round((x1 - x0) / scale),
        round((y1 - y0) / scale),
    )


def holder(nodes: list[Node], box: tuple[int, int, int, int], scroll: tuple[float, float]) -> Node | None:
    """The smallest node with a ref whose box (viewport px) holds the centre of `box` (document px)."""
    cx, cy = box[0] + box[2] / 2 - scroll[0], box[1] + box[3] / 2 - scroll[1]
    best: tuple[int, Node] | None = None
    for node in nodes:
        b: Box | None = node.box
        if b is None or not node.short_ref or node.in_frame:
            continue
        x, y, w, h = b
        if x <= cx <= x + w and y <= cy <= y + h and (best is None or w * h < best[0]):
            best = (w * h, node)
    return best[1] if best else None


@dataclass(frozen=True, slots=True)
class Shot:
    """A screenshot to compare: its PNG, the document region it shows, and the boxes to mask."""

    png: bytes
    region: Region
    masks: list[tuple[float, float, float, float]]  # CSS px of the document


def run(shot: Shot, path: str, update: bool, threshold: float) -> tuple[str, Comparison | None]:
    """Save `shot` as the baseline (first time, or `update`), else compare: (what was done, comparison)."""
    with Image.open(io.BytesIO(shot.png)) as probe:
        scale = probe.width / max(1.0, shot.region.width)
    relative = [(x - shot.region.x, y - shot.region.y, w, h) for x, y, w, h in shot.masks]
    image = masked_png(shot.png, relative, scale)
    existed = os.path.exists(path)
    if update or not existed:
        save_image(path, image)
        verb = "Updated" if existed else "Saved"
        return (
            f"{verb} the baseline {path} ({image.width}x{image.height}): later runs compare against it",
            None,
        )
    return "", compare(path, image, threshold, scale, shot.region)
