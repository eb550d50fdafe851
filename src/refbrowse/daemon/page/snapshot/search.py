"""`find TEXT`: the places in one whole-page snapshot where TEXT occurs.

The ai snapshot already holds the page's text, frames and open shadow roots
included, so searching its parsed tree costs no extra round trip and every hit
comes with a ref. Text is searched a line at a time, as a reader sees it: a
block (a paragraph, a list item, a definition term) with its inline elements
joined in (a signature split into spans, a sentence around a link), and
spaces do not count for a plain TEXT. A hit prints its whole line, or the
sentence that holds it when the line is long, and is located by the control
that holds it or else the nearest heading or definition term before it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from refbrowse.daemon.page.snapshot.roles import actionable, shorten, text_of
from refbrowse.daemon.page.snapshot.tree import Node

LINE_CHARS = 240  # a hit's line is printed whole up to this, else the sentence around the match
# Roles that flow inside a line of text; any other role starts a line of its own.
_INLINE = frozenset(
    "generic text emphasis strong code link mark subscript superscript time deletion insertion".split()  # noqa: SIM905
)
_ANCHORS = frozenset(("heading", "term"))  # what a hit is located under
_NO_SPACE_AFTER = tuple("([{.=*/@#")
_GLYPHS = frozenset(("¶", "#", "§", "🔗"))
_NO_SPACE_BEFORE = tuple(")]},.;:=!?%")


@dataclass(frozen=True, slots=True)
class Hit:
    ref: str  # "" when nothing before it has a ref
    where: str  # `link "Next"`, or `under heading "Install"`
    excerpt: str


@dataclass(frozen=True, slots=True)
class Needle:
    """What `find` looks for: a pattern, and whether spaces are left out on both sides (plain text)."""

    pattern: re.Pattern[str]
    squeezed: bool


def needle(text: str, regex: bool) -> Needle:
    """A plain TEXT matches whatever the spacing (raises re.error for a bad --regex)."""
    if regex:
        return Needle(re.compile(text, re.IGNORECASE), False)
    return Needle(re.compile(re.escape("".join(text.split())), re.IGNORECASE), True)


def _inline(node: Node) -> bool:
    return node.role in _INLINE and all(_inline(c) for c in node.children if isinstance(c, Node))


def flat_text(node: Node) -> str:
    """An inline node's text as one piece: its name, value and text, joined as a reader sees them."""
    parts = [node.value or ""] if node.value else []
    for child in node.children:
        parts.append(child if isinstance(child, str) else flat_text(child))
    joined = join_pieces(parts)
    return joined or node.name


def join_pieces(parts: list[str]) -> str:
    """Text pieces joined with a space, except around punctuation (`asyncio.` `gather` `(`);
    a permalink's glyph (`¶`) is no text."""
    return _joined(parts)[0]


def _joined(parts: list[str]) -> tuple[str, list[tuple[int, int]]]:
    """The joined text, and where each part landed in it ((0, 0) for a part left out)."""
    out = ""
    spans: list[tuple[int, int]] = []
    for part in (" ".join(p.split()) for p in parts):
        if not part or part in _GLYPHS:
            spans.append((0, 0))
            continue
        glue = not out or out.endswith(_NO_SPACE_AFTER) or part.startswith(_NO_SPACE_BEFORE)
        out += "" if glue else " "
        spans.append((len(out), len(out) + len(part)))
        out += part
    return out, spans


@dataclass(frozen=True, slots=True)
class Line:
    """One line of text as a reader sees it: the node that holds it, the heading or term above it,
    and the inline elements in it with where their text sits (a link inside a sentence)."""

    node: Node
    anchor: Node | None
    text: str
    inline: tuple[tuple[int, int, Node], ...] = ()


def lines(node: Node, anchor: list[Node | None]) -> Iterator[Line]:
    """Each line of text under `node`, in document order."""
    if node.role in _ANCHORS:
        anchor[0] = node
    own = (
        node.name if not _inline(node) else "",
        node.value or "",
        node.props.get("placeholder", ""),
        node.called,
    )
    for text in own:
        if text and not (node.role in _ANCHORS and text == node.name and node.children):
            yield Line(node, anchor[0], text)
    run: list[Node | str] = []
    for child in node.children:
        if isinstance(child, str) or _inline(child):
            run.append(child)
            continue
        if run:
            yield _line(node, anchor[0], run)
            run = []
        yield from lines(child, anchor)
    if run:
        yield _line(node, anchor[0], run)


def _line(node: Node, anchor: Node | None, run: list[Node | str]) -> Line:
    text, spans = _joined([part if isinstance(part, str) else flat_text(part) for part in run])
    inline = tuple(
        (start, end, part)
        for part, (start, end) in zip(run, spans, strict=True)
        if isinstance(part, Node) and end
    )
    return Line(node, anchor, text, inline)


Mint = Callable[[Node], str]  # gives a node of the tree a ref of its own, and returns it


def search(tree: Node, wanted: Needle, limit: int, mint: Mint | None = None) -> tuple[list[Hit], int]:
    """At most `limit` hits, and how many there were in all: one a line. With `mint`, a hit that no
    control holds gets a ref for the smallest element holding it (a paragraph, a word in a `code`)."""
    hits: list[Hit] = []
    total = 0
    for line in lines(tree, [None]):
        span = _match(line.text, wanted)
        if span is None:
            continue
        hit = _hit(line, span, mint)
        if hit.ref and any(h.ref == hit.ref for h in hits):
            continue  # a word's own line, after the sentence that holds it
        total += 1
        if len(hits) < limit:
            hits.append(hit)
    return hits, total


def _match(text: str, wanted: Needle) -> tuple[int, int] | None:
    """Where `wanted` first matches in `text` (positions in `text`), spaces left out if squeezed."""
    if not wanted.squeezed:
        found = wanted.pattern.search(text)
        return found.span() if found else None
    kept = [at for at, ch in enumerate(text) if not ch.isspace()]
    found = wanted.pattern.search("".join(text[at] for at in kept))
    if found is None or found.end() == found.start():
        return None
    return kept[found.start()], kept[found.end() - 1] + 1


def _hit(line: Line, span: tuple[int, int], mint: Mint | None) -> Hit:
    """The hit located by the control that holds the match (a link in the sentence, a word the reach
    scan found, the line's own element or one around it); else by a ref of its own for the smallest
    element holding it, under the heading or term above it; else by that heading or term."""
    within = [n for start, end, n in line.inline if start <= span[0] and span[1] <= end]
    inner = [d for n in within for d in n.walk() if d.short_ref and _worth_naming(d)]
    holder = inner[0] if inner else _reached_child(line, span)
    holder = holder or next(
        (n for n in [line.node, *line.node.ancestors()] if n.short_ref and _worth_naming(n)), None
    )
    shown = excerpt(line.text, span)
    if holder is not None:
        label = _label(holder)
        return Hit(holder.short_ref, holder.role if shorten(shown, 60) in label else label, shown)
    under = line.anchor if line.anchor is not None and line.anchor is not line.node else None
    smallest = _smallest(line, span, within)
    if smallest is not None and mint is not None:
        where = smallest.role + (f" under {_under(under)}" if under is not None else "")
        return Hit(mint(smallest), where, shown)
    if under is not None:
        return Hit(under.short_ref, f"under {_label(under)}", shown)
    return Hit("", "", shown)


def _under(anchor: Node) -> str:
    """`term @e12 "gather(…)"`: the heading or term above a hit, with its ref for `read`."""
    role, _, name = _label(anchor).partition(" ")
    return " ".join(filter(None, [role, anchor.short_ref, name]))


def _reached_child(line: Line, span: tuple[int, int]) -> Node | None:
    """A control the reach scan placed in the line's element whose words are the match (a word with
    a listener inside a paragraph: the tree has it as text only)."""
    matched = "".join(line.text[span[0] : span[1]].split()).lower()
    for child in line.node.children:
        if isinstance(child, Node) and child.reached and matched in "".join(child.called.split()).lower():
            return child
    return None


def _smallest(line: Line, span: tuple[int, int], within: list[Node]) -> Node | None:
    """The innermost element of the tree's that holds the match: an inline one of the line, or the
    line's own element."""
    matched = "".join(line.text[span[0] : span[1]].split()).lower()
    inner = [
        d for n in within for d in n.walk() if d.pw_ref and matched in "".join(flat_text(d).split()).lower()
    ]
    if inner:
        return inner[-1]
    return line.node if line.node.pw_ref and line.node.role != "document" else None


def _worth_naming(node: Node) -> bool:
    """What a hit is located by when it holds it; a frame or a dialog is too big to say where."""
    return actionable(node) or node.role in ("heading", "term", "alert")


def _label(node: Node) -> str:
    name = node.name or (join_pieces([flat_text(node)]) if node.role in _ANCHORS else text_of(node, 50))
    return f"{node.role} {json.dumps(shorten(name, 60), ensure_ascii=False)}" if name else node.role


def excerpt(text: str, span: tuple[int, int]) -> str:
    """The whole line when short; else the sentence around the match, capped around it."""
    if len(text) <= LINE_CHARS:
        return text
    starts = [0, *(m.end() for m in re.finditer(r"[.!?]\s+", text[: span[0]]))]
    start = starts[-1]
    ends = re.search(r"[.!?](\s|$)", text[span[1] :])
    end = span[1] + ends.end() if ends else len(text)
    if end - start > LINE_CHARS:
        start = max(start, span[0] - LINE_CHARS // 3)
        end = min(end, start + LINE_CHARS)
    piece = text[start:end].strip()
    return ("…" if start > 0 else "") + piece + ("…" if end < len(text) else "")


def hit_lines(hits: list[Hit], total: int, needle_text: str) -> list[str]:
    out = []
    for hit in hits:
        where = f" ({hit.where})" if hit.where else ""
        out.append(f"{hit.ref or '-'}{where}: {json.dumps(hit.excerpt, ensure_ascii=False)}")
    if total > len(hits):
        out.append(f"… {total - len(hits)} more matches: narrow the search, or `--limit N` shows more")
    return out or [f"no match for {needle_text!r} on this page (frames and shadow DOM included)"]
