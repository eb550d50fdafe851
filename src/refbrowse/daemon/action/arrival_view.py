"""The page an action arrived at: its interactive view, printed in the action's report.

After an action lands on a new document (`goto`, `back`, a click on a link,
a form post…) an agent's next call is nearly always `snapshot -i`. So the
report carries that view, refs included, and the call is saved. The view is
exactly what `snapshot -i` would print, refs numbered the same way, and it
becomes that tab's previous `snapshot -i` for `-D`. A page whose view is
longer than `ARRIVAL_TOKENS` is cut to that budget the way `--max-tokens`
cuts it (what is in view first), with a note saying what was left out; a
huge page gets one line instead. Reading the page here replaces the reading
that would otherwise be prepared in the background for the next `snapshot`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from refbrowse.daemon.action import chrome, new_text
from refbrowse.daemon.core.runtime import trace
from refbrowse.daemon.page.snapshot import linkcloud
from refbrowse.daemon.page.snapshot.budget import LEFT_OUT, estimate_tokens
from refbrowse.daemon.page.snapshot.data import snapshot_data
from refbrowse.daemon.page.snapshot.render import NOTHING, RenderOptions, render
from refbrowse.daemon.page.snapshot.roles import shorten, text_of
from refbrowse.daemon.page.snapshot.service import PageSnapshot, SnapshotHistory, history_kind, take_snapshot
from refbrowse.daemon.page.snapshot.tree import Node
from refbrowse.daemon.page.snapshot.view import NAME_LIMIT
from refbrowse.errors import BrowseError

if TYPE_CHECKING:
    from refbrowse.daemon.core.sessions.tab import Tab
    from refbrowse.daemon.page.snapshot.prepared import Reading

# About 4,000 characters: a login form, a search page or an admin form fits whole;
# a long page shows what is in view first.
ARRIVAL_TOKENS = 1_000
# An article is read, not worked: its outline, its search box and what is on the first screen say where
# things are, and `find` or `read` reach the rest; filling 1,000 tokens with the links of its sections
# and sidebar cost each docs task about 2,000 characters that no next call used.
ARTICLE_TOKENS = 600
INTERACTIVE_FLAGS: dict[str, object] = {"-i": True}
SMALL_PAGE_CHARS = 1_200  # about 300 tokens of words: a page this small is shown whole on arrival
OUTLINE_LIMIT = 30  # headings in an article's outline; beyond, only the top two levels
_BESIDE_LIMIT = 8  # headings listed under each landmark beside the article
_BESIDE_ROLES = ("navigation", "complementary", "banner", "contentinfo")
JSON_VIEW_CHARS = ARRIVAL_TOKENS * 4  # a JSON answer is shown up to the arrival view's budget
_JSON_READ_LIMIT = JSON_VIEW_CHARS + 1  # what is read of the page's text: a little more than is shown


@dataclass(frozen=True, slots=True)
class Arrival:
    """The arrived page as the report shows it: the view (page content) or our own note why not."""

    view: str = ""
    note: str = ""
    data: dict[str, object] | None = None
    whole: bool = False  # the view was not cut to the budget
    texts: tuple[str, ...] | None = None  # the page's text (`new_text`), for the next action's report
    kept: str = ""  # the view the next action diffs against, where the printed one says more (prose)
    scheme: str = ""  # the page's colour scheme ("dark", "light"), for the next action's report
    links: linkcloud.Folds | None = None  # the prose links the kept view folded, when it is kept (whole)


async def look(
    tab: Tab,
    elements: int,
    huge_after: int,
    nav_timeout_ms: int,
    raw: bool,
    reading: Reading | None = None,
    spent: int = 0,
) -> Arrival:
    """The arrived page's interactive view (from `reading`, a reading of the page as it is now,
    if given), or a line saying why there is none; `spent`: tokens of the report a passage takes."""
    if elements > huge_after:
        return Arrival(
            note=f"(a big page: {elements} elements; `browse snapshot -i --max-tokens N` lists refs)"
        )
    try:
        taken = await trace.timed(
            "arrival view", take_snapshot(tab, reading=reading, timeout_ms=nav_timeout_ms)
        )
    except BrowseError:
        return Arrival(note="(the new page could not be read yet: run `browse snapshot -i`)")
    return shown(tab, taken, raw, spent)


def shown(tab: Tab, taken: PageSnapshot, raw: bool, spent: int = 0) -> Arrival:
    """The view of `taken` cut to the report's budget, less the `spent` tokens a passage takes (the page
    opened at a fragment: the passage is what the agent came to read, the view what is around it);
    it becomes the tab's previous `snapshot -i`."""
    lead = outline(taken) if taken.triage.page_type == "article" else []
    ceiling = ARTICLE_TOKENS if lead else ARRIVAL_TOKENS
    budget = max(ceiling - estimate_tokens("\n".join(lead)) - spent, ARRIVAL_TOKENS // 3)
    text = render(taken, RenderOptions(interactive=True, max_tokens=budget, show_url=raw, first_rows=True))
    kept = _led(text, lead) if lead else text
    # a scrolled page is printed with what is in view first; the next action diffs the page's order
    first = taken.triage.scrolled > 0
    if first:
        text = render(
            taken,
            RenderOptions(
                interactive=True, max_tokens=budget, show_url=raw, in_view_first=True, first_rows=True
            ),
        )
    text = _led(text, lead) if lead else text
    history = tab.memory.of(SnapshotHistory)
    history.swap(history_kind(INTERACTIVE_FLAGS, raw), taken.triage.document, text)
    answer = json_view(taken, text)
    if answer is not None:  # an API's answer has no controls: its JSON is what the agent came for
        return Arrival(answer, "", snapshot_data(taken, text), texts=new_text.texts(taken), kept=kept)
    if not lead and _small(taken.tree):  # its instructions and results are as needed as its controls
        options = RenderOptions(
            interactive=True,
            max_tokens=budget,
            show_url=raw,
            prose=True,
            in_view_first=first,
            first_rows=True,
        )
        text = render(taken, options)
    # an article's led view is not what `snapshot -i` prints: the next action diffs against a fresh one
    whole = not _cut(text) and not lead
    text = chrome.fold(tab, tab.page.url, text)  # the site's banner and sidebar once, not on every page
    data, texts = snapshot_data(taken, text), new_text.texts(taken)
    links = linkcloud.folds(taken.tree, taken.triage.viewport) if whole else None
    return Arrival(text, "", data, whole, texts, kept, taken.triage.scheme, links)


def json_view(taken: PageSnapshot, view: str) -> str | None:
    """A page that is one JSON document and nothing else: the view with the JSON as it came (the
    most of it per token), cut to the report's budget, in place of "(nothing to show)"; None for
    any other page."""
    lines = view.splitlines()
    if NOTHING not in lines:
        return None
    raw = text_of(taken.tree, _JSON_READ_LIMIT).strip()
    if not raw.startswith(("{", "[")):
        return None
    shown = raw[:JSON_VIEW_CHARS]
    if len(shown) < len(raw):
        shown += "\n… (cut to the report's budget: `browse text` prints the whole JSON)"
    body = "\n".join([*lines[: lines.index(NOTHING)], shown])
    return f"{body}\n~{estimate_tokens(body)} tokens"


def _small(tree: Node) -> bool:
    """A page whose words all fit in a few hundred tokens: its arrival view says them too."""
    chars = 0
    for node in tree.walk():  # names count: a data table's words are its cells' names
        chars += sum(len(child) for child in node.children if isinstance(child, str))
        chars += len(node.value or "") + len(node.name)
        if chars > SMALL_PAGE_CHARS:
            return False
    return True


def _cut(text: str) -> bool:
    """Whether the budget cut the view: its note is the line before the token count.

    Page lines are indented `- …` lines, so a line opening with `… ` is ours.
    """
    lines = text.splitlines()
    return len(lines) >= 2 and lines[-2].startswith("… ") and LEFT_OUT in lines[-2]


def outline(taken: PageSnapshot) -> list[str]:
    """An article's headings with their refs, indented by level, and its search box: what a reader
    of a long page looks for first. Headings outside the article (a sidebar's "Table of Contents")
    follow under their landmark, so that none reads as a section of the article's last one."""
    heads = [n for n in taken.tree.walk() if n.role == "heading" and n.short_ref]
    article, beside = _article_heads(heads)
    if len(article) > OUTLINE_LIMIT:
        article = [h for h in article if _level(h) <= 2][:OUTLINE_LIMIT]
    lines = ["outline:", *_heading_lines(article)] if article else []
    for landmark, group in beside.items():
        lines += [f"headings in {landmark}:", *_heading_lines(group[:_BESIDE_LIMIT])]
    lines += _search_lines(taken)
    return lines


def _article_heads(heads: list[Node]) -> tuple[list[Node], dict[str, list[Node]]]:
    """The article's headings (those in the page's main landmark when it holds some, else those in
    no navigation or aside), and the others by the landmark that holds them."""
    in_main = any(_landmark(h, ("main",)) for h in heads)
    article: list[Node] = []
    beside: dict[str, list[Node]] = {}
    for head in heads:
        landmark = _landmark(head, _BESIDE_ROLES)
        if (in_main and _landmark(head, ("main",))) or (not in_main and landmark is None):
            article.append(head)
        else:
            name = f" {_quote(shorten(landmark.name, 40))}" if landmark and landmark.name else ""
            beside.setdefault(f"{landmark.role if landmark else 'the page'}{name}", []).append(head)
    return article, beside


def _landmark(node: Node, roles: tuple[str, ...]) -> Node | None:
    return next((a for a in node.ancestors() if a.role in roles), None)


def _heading_lines(heads: list[Node]) -> list[str]:
    top = min((_level(h) for h in heads), default=1)
    lines = []
    for head in heads:
        name = (head.name or text_of(head, NAME_LIMIT)).rstrip(" ¶#§")
        indent = "  " * max(_level(head) - top, 0)
        lines.append(f"{indent}- heading {_quote(shorten(name, 80))} {head.short_ref}")
    return lines


def _search_lines(taken: PageSnapshot) -> list[str]:
    """The page's search boxes, one line for each name (a docs page repeats its box in the sidebar)."""
    lines: list[str] = []
    seen: set[tuple[str, str]] = set()
    for box in (n for n in taken.tree.walk() if n.short_ref and _search_box(n)):
        if (box.role, box.name) in seen or len(seen) == 2:
            continue
        seen.add((box.role, box.name))
        name = f" {_quote(shorten(box.name, 60))}" if box.name else ""
        lines.append(f"search: {box.role}{name} {box.short_ref}")
    return lines


def _search_box(node: Node) -> bool:
    in_search = any(a.role == "search" for a in node.ancestors())
    return node.role == "searchbox" or (node.role in ("textbox", "combobox") and in_search)


def _level(node: Node) -> int:
    level = node.attrs.get("level", "2")
    return int(level) if level.isdigit() else 2


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _led(text: str, lead: list[str]) -> str:
    """The view with the outline after its header line (`page: article …`), and without the heading
    lines the outline already gives."""
    lines = text.splitlines()
    at = next((i + 1 for i, line in enumerate(lines) if line.startswith("page: ")), 0)
    body = [line for line in lines[at:] if not line.lstrip().startswith("- heading ")]
    return "\n".join([*lines[:at], *lead, *body])
