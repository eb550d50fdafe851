"""Prose in the tree: a sentence broken by links read as one line, and what holds a node."""

from __future__ import annotations

from refbrowse.daemon.page.snapshot.nodes import TEXT_LIMIT
from refbrowse.daemon.page.snapshot.roles import actionable, text_of
from refbrowse.daemon.page.snapshot.tree import Node


def sentence_with_links(node: Node) -> str:
    """The words of a run of text broken by links (`See` link `TracTickets` `for help.`), joined: a
    small page's sentence reads as one line, not as its pieces between the links; "" for anything else
    (a run holding another kind of control, or no link at all)."""
    inner = [c for c in node.children if isinstance(c, Node)]
    words = "".join(c for c in node.children if isinstance(c, str))
    if not any(c.role == "link" for c in inner) or not any(ch.isalnum() for ch in words):
        return ""  # `Modify ↓`: the link says it all
    for child in inner:
        below = child.walk()[1:]
        if (actionable(child) and child.role != "link") or any(actionable(n) for n in below):
            return ""
    if _label_then_links(node.children):
        return ""
    pieces = (c if isinstance(c, str) else c.name or text_of(c) for c in node.children)
    joined = " ".join(" ".join(piece.split()) for piece in pieces if piece.strip())
    for spaced, tight in ((" .", "."), (" ,", ","), ("( ", "("), (" )", ")")):
        joined = joined.replace(spaced, tight)
    return joined if len(joined) <= TEXT_LIMIT else ""


def _label_then_links(children: list[Node | str]) -> bool:
    """`Administration` then links `Class List`, `User List`: a label over links, not a sentence (no
    word follows the first link): joined, it would only say the links' names twice."""
    first = next(i for i, c in enumerate(children) if isinstance(c, Node) and c.role == "link")
    after = (c if isinstance(c, str) else "" if c.role == "link" else text_of(c) for c in children[first:])
    return not any(ch.isalnum() for piece in after for ch in piece)


def holders(node: Node | None) -> list[Node]:
    """`node` and the nodes that hold it."""
    chain = []
    while node is not None:
        chain.append(node)
        node = node.parent
    return chain
