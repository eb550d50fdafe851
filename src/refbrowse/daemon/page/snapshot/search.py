"""`find TEXT`: the places in one whole-page snapshot where TEXT occurs.

The ai snapshot already holds the page's text, frames and open shadow roots
included, so searching its parsed tree costs no extra round trip and every hit
comes with a ref: the control or heading that holds the text, else the heading
of the section it sits in.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

from refbrowse.daemon.page.snapshot.parse import Node
from refbrowse.daemon.page.snapshot.roles import actionable, shorten, text_of

CONTEXT_CHARS = 60


@dataclass(frozen=True, slots=True)
class Hit:
    ref: str  # "" when nothing before it has a ref
    where: str  # `link "Next"`, or `under heading "Install"`
    excerpt: str


def _pieces(node: Node, heading: list[Node | None]) -> Iterator[tuple[Node, Node | None, str]]:
    """(node, heading above it, text) for every name, value and text of the tree, in document order."""
    if node.role == "heading":
        heading[0] = node
    for text in (node.name, node.value or "", node.props.get("placeholder", "")):
        if text:
            yield node, heading[0], text
    for child in node.children:
        if isinstance(child, Node):
            yield from _pieces(child, heading)
        elif child.strip():
            yield node, heading[0], child


def search(tree: Node, pattern: re.Pattern[str], limit: int) -> tuple[list[Hit], int]:
    """At most `limit` hits, and how many there were in all."""
    hits: list[Hit] = []
    total = 0
    seen: set[tuple[int, str]] = set()
    for node, heading, text in _pieces(tree, [None]):
        for match in pattern.finditer(text):
            key = (id(node), text)
            if key in seen:
                break  # one line per text is enough: its excerpt shows the first match
            seen.add(key)
            total += 1
            if len(hits) < limit:
                hits.append(_hit(node, heading, text, match))
    return hits, total


def _hit(node: Node, heading: Node | None, text: str, match: re.Match[str]) -> Hit:
    holder = next((n for n in [node, *node.ancestors()] if n.short_ref and _worth_naming(n)), None)
    if holder is not None:
        return Hit(holder.short_ref, _label(holder), _excerpt(text, match))
    if heading is not None and heading is not node:
        return Hit(heading.short_ref, f"under {_label(heading)}", _excerpt(text, match))
    return Hit("", "", _excerpt(text, match))


def _worth_naming(node: Node) -> bool:
    return actionable(node) or node.role in ("heading", "dialog", "alertdialog", "alert", "iframe")


def _label(node: Node) -> str:
    name = node.name or text_of(node, 50)
    return f"{node.role} {json.dumps(shorten(name, 50), ensure_ascii=False)}" if name else node.role


def _excerpt(text: str, match: re.Match[str]) -> str:
    flat_start = max(match.start() - CONTEXT_CHARS, 0)
    end = min(match.end() + CONTEXT_CHARS, len(text))
    excerpt = " ".join(text[flat_start:end].split())
    return ("…" if flat_start else "") + excerpt + ("…" if end < len(text) else "")


def hit_lines(hits: list[Hit], total: int, needle: str) -> list[str]:
    lines = []
    for hit in hits:
        where = f" ({hit.where})" if hit.where else ""
        lines.append(f"{hit.ref or '-'}{where}: {json.dumps(hit.excerpt, ensure_ascii=False)}")
    if total > len(hits):
        lines.append(f"… {total - len(hits)} more matches: narrow the search, or `--limit N` shows more")
    return lines or [f"no match for {needle!r} on this page (frames and shadow DOM included)"]
