"""A `PageSnapshot` → the text `browse snapshot` prints.

Header (title, URL unless the untrusted-content fence already names it,
triage), then blocking overlays with their refs so the
agent deals with them first, then the tree, then `-C` clickables, then a
footer with the estimated tokens. `--max-tokens` trims the tree to fit.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, replace

from refbrowse.daemon.core.runtime import heap
from refbrowse.daemon.page.snapshot import linkcloud, rowcap, viewfirst
from refbrowse.daemon.page.snapshot.budget import Trimmed, estimate_tokens, fit, left_out_note
from refbrowse.daemon.page.snapshot.repeats import repeated
from refbrowse.daemon.page.snapshot.roles import DIALOGS, actionable, shorten
from refbrowse.daemon.page.snapshot.service import PageSnapshot
from refbrowse.daemon.page.snapshot.tree import Node
from refbrowse.daemon.page.snapshot.triage import Overlay
from refbrowse.daemon.page.snapshot.view import ViewOptions, build_lines

_FOOTER_RESERVE = 60  # characters kept free for the footer lines

NOTHING = "(nothing to show)"  # the view of a page with no lines to show


@dataclass(frozen=True, slots=True)
class RenderOptions:
    interactive: bool = False
    compact: bool = False
    depth: int | None = None
    max_tokens: int | None = None
    show_url: bool = True  # off when the fence around the snapshot already names the URL
    prose: bool = False  # with `interactive`: the page's text lines too (a small page shown whole)
    in_view_first: bool = False  # a scrolled page's lines in view first, then by distance (`viewfirst`)
    links: linkcloud.Folds | None = None  # prose links folded as in the view an action's diff compares to
    first_rows: bool = False  # a long table's first rows and a line for the rest (`rowcap`: arrival views)


def render(snapshot: PageSnapshot, options: RenderOptions, roots: list[Node] | None = None) -> str:
    with heap.paused():  # a big page's lines are thousands of objects at once
        return _render(snapshot, options, roots)


def _render(snapshot: PageSnapshot, options: RenderOptions, roots: list[Node] | None) -> str:
    facts = snapshot.triage
    view = ViewOptions(
        interactive=options.interactive,
        compact=options.compact,
        depth=options.depth,
        page_url=facts.url,
        redact=facts.passwords,
        messages=facts.messages,
        repeated=repeated(snapshot.tree),
        unfold=roots is not None,
        prose=options.prose,
        said=snapshot.said,
    )
    head = [f"title: {json.dumps(facts.title, ensure_ascii=False)}"]
    head += [f"url: {facts.url}"] if options.show_url else []
    head.append(facts.summary())
    overlays, above = overlay_lines(snapshot, view)
    if roots is not None:  # a scoped view shows an overlay inside its scope in place, whole
        overlays, above = [line for line in overlays if line.startswith("⚠")], frozenset()
    head += overlays
    lines = build_lines(roots if roots is not None else [snapshot.tree], replace(view, listed_above=above))
    if options.interactive and roots is None and not options.prose:
        # an article's prose links, one line; `-s` lists them one a line
        lines = linkcloud.fold(lines, facts.viewport, options.links)
    tail = clickable_lines(snapshot)
    if options.first_rows:
        lines, rows_left = rowcap.cap(lines)
        tail = [*tail, rows_left] if rows_left else tail
    if options.max_tokens is None:
        body = [line.render() for line in lines]
    else:  # only the lines kept are rendered: a small budget costs less than a large one
        note = left_out_note(Trimmed([], 10**6, 10**6), options.max_tokens)  # the longest it can be
        used = sum(len(text) + 1 for text in [*head, *tail, note]) + _FOOTER_RESERVE
        trimmed = fit(lines, max(options.max_tokens * 4 - used, 0), facts.viewport)
        if options.in_view_first and facts.scrolled > 0:  # an app's own scrolled panes are left as they are
            body = viewfirst.ordered(lines, trimmed.lines, facts.viewport)
        else:
            body = [line.render() for line in trimmed.lines]
        if trimmed.left_out:
            tail = [*tail, left_out_note(trimmed, options.max_tokens)]
    empty = [NOTHING] if not lines else ["(no room left under --max-tokens: raise it)"]
    text = "\n".join(head + (body or empty) + tail)
    return f"{text}\n~{estimate_tokens(text)} tokens"


def overlay_lines(snapshot: PageSnapshot, view: ViewOptions) -> tuple[list[str], frozenset[int]]:
    """Blocking overlays with their inside, in the view's own mode; and the ids of the nodes listed.

    The tree below gives each listed node one line where it sits, so a modal's
    inside is never written twice.
    """
    out: list[str] = []
    listed: set[int] = set()
    for overlay in snapshot.triage.overlays:
        label = f" {json.dumps(shorten(overlay.label, 60), ensure_ascii=False)}" if overlay.label else ""
        out.append(f"⚠ blocking {overlay.kind}{label}: deal with it first")
        roots = overlay_nodes(snapshot.tree, overlay)
        listed.update(id(node) for node in roots)
        inner = build_lines(roots, replace(view, depth=None))
        out += ["  " + line.render() for line in inner] or ["  (no refs inside: try `browse press Escape`)"]
    return out, frozenset(listed)


def overlay_nodes(tree: Node, overlay: Overlay) -> list[Node]:
    nodes = [n for n in tree.walk() if n.box is not None and not n.in_frame]
    if overlay.kind == "modal dialog":
        dialogs = [n for n in nodes if n.role in DIALOGS and _overlaps(n, overlay)]
        if dialogs:
            return dialogs[:1]
    return [n for n in nodes if actionable(n) and n.box in overlay.controls]


def _overlaps(node: Node, overlay: Overlay) -> bool:
    assert node.box is not None
    x, y, w, h = node.box
    ox, oy, ow, oh = overlay.box
    return x < ox + ow and ox < x + w and y < oy + oh and oy < y + h


def clickable_lines(snapshot: PageSnapshot) -> list[str]:
    if not snapshot.clickables:
        return []
    out = ["clickable elements outside the accessibility tree:"]
    for ref, found in snapshot.clickables:
        text = f" {json.dumps(found.text, ensure_ascii=False)}" if found.text else ""
        out.append(f"- {found.tag}{text} {ref}")
    return out


def diff(previous: tuple[str, str] | None, document: str, current: str) -> str:
    """`-D`: a unified diff against this tab's previous snapshot (document, text) of the same document."""
    if previous is None:
        return "(no previous snapshot in this tab: this is the first one)\n" + current
    if previous[0] != document:
        return "(new page since the previous snapshot: nothing to compare)\n" + current
    old, new = _without_footer(previous[1]), _without_footer(current)
    lines = list(difflib.unified_diff(old, new, "previous snapshot", "this snapshot", n=1, lineterm=""))
    return "\n".join(lines) if lines else "(no change since the previous snapshot)"


def _without_footer(text: str) -> list[str]:
    lines = text.splitlines()
    return lines[:-1] if lines and lines[-1].endswith(" tokens") else lines
