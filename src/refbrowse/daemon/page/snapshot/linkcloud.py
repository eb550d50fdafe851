"""Prose link clouds said once: the links inside an article's sentences folded into one line.

A docs page links words in its prose (`sorted()`, `key function`, `PEP 412`):
the interactive view listed each one a line, hundreds of tokens before
anything an agent came for. A run of such links under one parent becomes one
line that counts them and names each distinct one once with its first ref;
`browse find NAME` gives the ref of any other, and `snapshot -i -s` of their
paragraph lists them one a line.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from refbrowse.daemon.page.snapshot.roles import shorten, text_of
from refbrowse.daemon.page.snapshot.tree import Node
from refbrowse.daemon.page.snapshot.view import Line

MIN_LINKS = 6  # fewer prose links than this cost less said one a line
SHOWN = 24  # distinct links named on the folded line
SENTENCE_WORDS = 3  # words of its own that make a holder a sentence, not a label
ALIKE = 3  # a control repeated this often under one parent, reading the same, is one line
NUMBERED = 32  # links named 1, 2, 3… with refs in step: a run longer than a month's days is one line
_NAME = 40
_WORD = re.compile(r"\S+")  # \s is what str.split splits at
_INLINE = frozenset(("strong", "emphasis", "code", "generic", "mark", "subscript", "superscript", "none"))


@dataclass(frozen=True, slots=True)
class Folds:
    """The refs of the prose links a view had, and of those it showed one a line (in view then).

    The next view of the same document folds its links alike, so that an action that scrolled
    the page (a click on an in-page anchor, a fill of a field below) is no change in its diff:
    links that left the viewport folded into the text's line, or came out of it, read as removed
    and added."""

    known: frozenset[str] = frozenset()
    single: frozenset[str] = frozenset()


def fold(lines: list[Line], viewport: tuple[int, int] = (0, 0), like: Folds | None = None) -> list[Line]:
    """`lines` with each run of six or more prose links under one parent as one line, and controls
    repeated alike under one parent as one line with their refs; the links `like` knows as it did."""
    runs: dict[int, list[int]] = {}  # a parent's index → its prose link lines, in order
    sentences: dict[int, bool] = {}  # id of a holder → whether it is a sentence: a paragraph holds many links
    for index, line in enumerate(lines):
        node = line.node
        if (
            not line.children
            and node is not None
            and _prose_link(line, sentences)
            and not _single(node, viewport, like)
        ):
            runs.setdefault(line.parent, []).append(index)
    folded: dict[int, str] = {}
    dropped: set[int] = set()
    for found in runs.values():
        if len(found) >= MIN_LINKS:
            folded[found[0]] = _said_once([lines[i] for i in found])
            dropped.update(found[1:])
    clouds = set(folded) | dropped
    for found in _alike(lines).values():
        if len(found) >= ALIKE and not clouds.intersection(found) and _side_by_side(lines, found, clouds):
            refs = " ".join(line.node.short_ref for i in found[1:] if (line := lines[i]).node is not None)
            folded[found[0]] = f"{lines[found[0]].text} ({len(found) - 1} more alike: {refs})"
            dropped.update(found[1:])
    dropped.update(i for i, line in enumerate(lines) if not line.children and _permalink(line.node))
    for found in _numbered(lines, clouds | set(folded) | dropped):
        folded[found[0]] = _run_line(lines[found[0]], lines[found[-1]], len(found))
        dropped.update(found[1:])
    if not folded and not dropped:
        return lines
    return without(lines, folded, dropped)


def _permalink(node: Node | None) -> bool:
    """A heading's own permalink (`¶` by each heading of a docs page, shown on hover): the heading says
    where it is, and nobody needs its ref; `find` still gives it."""
    if node is None or node.role != "link" or any(ch.isalnum() for ch in node.name):
        return False
    holder = node.parent
    while holder is not None and holder.role in _INLINE:
        holder = holder.parent
    own = node.props.get("url", "").startswith("#")
    return own and holder is not None and holder.role in ("heading", "term")


def _numbered(lines: list[Line], taken: set[int]) -> list[list[int]]:
    """Runs of side-by-side lines `link "7" @e30`, `link "8" @e31`… (a data table's row ids, Datasette's
    100 of them): each one a number past the one before, with the next ref, under one parent."""
    runs: list[list[int]] = []
    run: list[int] = []
    for index, line in enumerate(lines):
        number = None if index in taken else _number(line)
        before = _number(lines[run[-1]]) if run else None
        if number is not None and before is not None and _next(before, number, lines[run[-1]], line):
            run.append(index)
            continue
        runs += [run] if len(run) >= NUMBERED else []
        run = [index] if number is not None else []
    return runs + ([run] if len(run) >= NUMBERED else [])


def _next(before: tuple[int, int, str], number: tuple[int, int, str], was: Line, line: Line) -> bool:
    return number == (before[0] + 1, before[1] + 1, before[2]) and was.parent == line.parent


def _number(line: Line) -> tuple[int, int, str] | None:
    """A plain line `- link "7" @e30`: its number, its ref's number and kind."""
    node = line.node
    if node is None or line.children or node.role != "link" or not node.name.isdigit():
        return None
    ref = node.short_ref
    if line.text != f'- link "{node.name}" {ref}' or not ref[2:].isdigit():
        return None
    return int(node.name), int(ref[2:]), ref[:2]


def _run_line(first: Line, last: Line, count: int) -> str:
    """`- link "1"…"100" @e26…@e125 (100 links; "N" is @e(N+25))`: the ref of any one can be worked out."""
    assert first.node is not None and last.node is not None
    name, ref = first.node.name, first.node.short_ref
    offset = int(ref[2:]) - int(name)
    rule = f'"N" is {ref[:2]}(N{offset:+d})' if offset else f'"N" is {ref[:2]}N'
    return f'- link "{name}"…"{last.node.name}" {ref}…{last.node.short_ref} ({count} links; {rule})'


def folds(tree: Node, viewport: tuple[int, int], like: Folds | None = None) -> Folds:
    """What a view of `tree` folded with `like` shows one a line of its prose links (see `Folds`)."""
    known: list[str] = []
    single: list[str] = []
    sentences: dict[int, bool] = {}
    for node in tree.walk():
        if node.role == "link" and node.short_ref and _in_prose(node, sentences):
            known.append(node.short_ref)
            single += [node.short_ref] if _single(node, viewport, like) else []
    return Folds(frozenset(known), frozenset(single))


def _single(node: Node, viewport: tuple[int, int], like: Folds | None) -> bool:
    """Whether the link stays a line of its own: as in the view before when that had it, else when a
    reader sees it (in the viewport)."""
    if like is not None and node.short_ref in like.known:
        return node.short_ref in like.single
    return _seen(node, viewport)


def _seen(node: Node, viewport: tuple[int, int]) -> bool:
    """Whether the link is in the viewport: the links a reader sees stay lines of their own."""
    box = node.box
    return box is not None and box[1] < viewport[1] and box[1] + box[3] > 0 and box[0] < viewport[0]


def _side_by_side(lines: list[Line], found: list[int], clouds: set[int]) -> bool:
    """Whether nothing of their parent stands between the alike lines but folded prose links: Django's
    four "All" filters each follow their own "By …" line, which says which one each is."""
    members = set(found)
    parent = lines[found[0]].parent
    between = range(found[0] + 1, found[-1])
    return all(i in members or i in clouds or lines[i].parent != parent for i in between)


def _alike(lines: list[Line]) -> dict[tuple[int, str], list[int]]:
    """Controls under one parent whose lines read the same but for the ref (a docs page's "Hide the
    prompts and output" by each example), by parent and line."""
    found: dict[tuple[int, str], list[int]] = {}
    for index, line in enumerate(lines):
        node = line.node
        if line.children or node is None or not node.short_ref or not node.name:
            continue
        if f" {node.short_ref}" in line.text and line.text.count(" @") == 1:
            found.setdefault((line.parent, line.text.replace(f" {node.short_ref}", "", 1)), []).append(index)
    return found


def _prose_link(line: Line, sentences: dict[int, bool]) -> bool:
    node = line.node
    if node is None or node.role != "link" or not node.short_ref or not line.text.startswith("- link "):
        return False
    return _in_prose(node, sentences)


def _in_prose(node: Node, sentences: dict[int, bool]) -> bool:
    """Whether the link stands in a sentence; `sentences` keeps each holder's answer (see `_sentence`)."""
    holder = node.parent
    while holder is not None and holder.role in _INLINE and not _sentence(holder, sentences):
        holder = holder.parent
    return holder is not None and _sentence(holder, sentences)  # a paragraph of one link is a list


def _sentence(holder: Node, sentences: dict[int, bool]) -> bool:
    """`_words_beside`, once per holder."""
    known = sentences.get(id(holder))
    if known is None:
        known = sentences[id(holder)] = _words_beside(holder)
    return known


def _words_beside(node: Node) -> bool:
    """Whether `node` holds words of its own beside its elements: a sentence, not a list of links, nor a
    field's label beside its shortcuts (Django's "Date: … Today | 📅")."""
    words = 0
    for child in node.children:
        if isinstance(child, str):
            for word in _WORD.finditer(child):  # the words of `child.split()`, up to the third that counts
                words += any(ch.isalpha() for ch in word.group())
                if words >= SENTENCE_WORDS:
                    return True
    return False


def _said_once(links: list[Line]) -> str:
    seen: dict[str, str] = {}
    for line in links:
        assert line.node is not None
        seen.setdefault(line.node.name or text_of(line.node, _NAME), line.node.short_ref)
    shown = list(seen.items())[:SHOWN]
    named = ", ".join(f"{json.dumps(shorten(name, _NAME), ensure_ascii=False)} {ref}" for name, ref in shown)
    more = f", {len(seen) - len(shown)} more" if len(seen) > len(shown) else ""
    return f"- {len(links)} links in the text: {named}{more} (`browse find NAME` gives any one's ref)"


def without(lines: list[Line], folded: dict[int, str], dropped: set[int]) -> list[Line]:
    """The lines renumbered without `dropped`, the first of each fold saying the run."""
    new_at: dict[int, int] = {}
    out: list[Line] = []
    for index, line in enumerate(lines):
        if index in dropped:
            continue
        new_at[index] = len(out)
        text = folded.get(index, line.text)
        out.append(Line(line.depth, text, new_at.get(line.parent, -1), line.node))
    return _relinked(out)


def _relinked(lines: list[Line]) -> list[Line]:
    for line in lines:
        line.children = []
    for index, line in enumerate(lines):
        if line.parent >= 0:
            lines[line.parent].children.append(index)
    return lines
