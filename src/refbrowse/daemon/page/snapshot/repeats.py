"""Names said more than once on a page: the controls whose hints must tell them apart (see `hints`)."""

from __future__ import annotations

import re
from collections import Counter

from refbrowse.daemon.page.snapshot.roles import actionable
from refbrowse.daemon.page.snapshot.tree import Node


def repeated(tree: Node) -> dict[tuple[str, str], int]:
    """How often each (role, name) of a control that appears more than once is on the page; a name
    the page's class words gave (`called`) counts as the name. Names that differ only by an index
    counted from 0 (Gradio's tokens' `Remove 0`, `Remove 1`) count as one name too, under `indexed`."""
    counts = Counter(
        (n.role, n.name or n.called) for n in tree.walk() if (n.name or n.called) and actionable(n)
    )
    stems = Counter((role, indexed(name)) for role, name in counts.elements() if indexed(name))
    zero_based = {(role, indexed(name)) for role, name in counts if name.endswith(" 0")}
    alike = {key: count for key, count in stems.items() if count > 1 and key in zero_based}
    return {**{key: count for key, count in counts.items() if count > 1}, **alike}


_INDEXED = re.compile(r"(\S.*) \d+")


def indexed(name: str) -> str:
    """The key under which names that end in an index are counted as one ("Remove 0" → "Remove #")."""
    found = _INDEXED.fullmatch(name)
    return f"{found.group(1)} #" if found else ""
