"""`--max-tokens` on a big generated page: a shorter snapshot, made of the full one's own lines.

No browser: a page the size of the Python docs' stdtypes.html (tens of
thousands of snapshot lines) is written in Playwright's ai-snapshot format,
then parsed, given refs and rendered as `snapshot` does.
"""

from __future__ import annotations

import re
from functools import cache
from itertools import pairwise

from refbrowse.daemon.core.sessions.refs import RefMap
from refbrowse.daemon.page.snapshot.parse import parse_snapshot
from refbrowse.daemon.page.snapshot.render import RenderOptions, render
from refbrowse.daemon.page.snapshot.roles import referable
from refbrowse.daemon.page.snapshot.service import PageSnapshot
from refbrowse.daemon.page.snapshot.triage import Triage

SECTIONS = 2_000  # ~18,000 lines of snapshot
ROW_HEIGHT = 120  # a section's height: the first six are inside the 720-pixel viewport
FOOTER = re.compile(r"^~(\d+) tokens$")


@cache
def big_snapshot() -> str:
    lines = ["- main [ref=e1] [box=0,0,1280,240000]:"]
    ref = 1
    for i in range(SECTIONS):
        top = i * ROW_HEIGHT
        ref += 4
        lines += [
            f'  - region "Section {i}" [ref=e{ref}] [box=0,{top},1280,{ROW_HEIGHT}]:',
            f'    - heading "Section {i}" [level=2] [ref=e{ref + 1}] [box=0,{top},1280,30]',
            f"    - paragraph [ref=e{ref + 2}] [box=0,{top + 30},1280,40]:",
            f'      - text: "Text of section {i}, long enough to cost a few tokens of its own."',
            "    - list:",
            "      - listitem:",
            f'        - link "Read section {i}" [ref=e{ref + 3}] [box=0,{top + 80},200,20] [cursor=pointer]:',
            f"          - /url: /section/{i}",
            f'        - button "Save {i}" [ref=e{ref + 4}] [box=210,{top + 80},80,20]',
        ]
    return "\n".join(lines)


@cache
def snapshot_text(raw: str, max_tokens: int | None) -> str:
    url = "http://127.0.0.1/big.html"
    viewport = (1280, 720)
    facts = Triage("Big", url, "doc", viewport, "article", False, False, 0, (), frozenset(), {}, frozenset())
    tree = parse_snapshot(raw)
    refs = RefMap()
    refs.begin()
    for node in tree.walk():
        if referable(node):
            node.short_ref = str(refs.give(facts.document, node.pw_ref, node.role, node.name))
    return render(PageSnapshot(tree, facts), RenderOptions(interactive=True, max_tokens=max_tokens))


def tree_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.lstrip().startswith("- ")]


def test_max_tokens_on_a_big_page_gives_fewer_lines_all_taken_from_the_full_snapshot() -> None:
    raw = big_snapshot()
    whole = snapshot_text(raw, 10**7)
    small = snapshot_text(raw, 500)
    assert len(small) < len(whole) / 50
    assert int(FOOTER.match(small.splitlines()[-1]).group(1)) <= 500  # type: ignore[union-attr]
    kept = tree_lines(small)
    assert kept
    in_order = iter(tree_lines(whole))
    assert all(line in in_order for line in kept)  # the same lines, refs included, in the same order


def test_max_tokens_keeps_what_is_in_view_with_its_enclosing_lines_and_counts_the_rest() -> None:
    small = snapshot_text(big_snapshot(), 500)
    kept = tree_lines(small)
    assert any(line.strip().startswith('- button "Save 0" @e') for line in kept)
    assert '"Save 1999"' not in small  # far below the viewport: left out first
    for before, line in pairwise(kept):
        depth = (len(line) - len(line.lstrip())) // 2
        assert depth <= (len(before) - len(before.lstrip())) // 2 + 1  # never deeper than under its parent
    note = next(line for line in small.splitlines() if "left out" in line)
    left_out = int(note.split()[1])
    assert left_out + len(kept) == len(tree_lines(snapshot_text(big_snapshot(), 10**7)))


def test_a_smaller_budget_never_gives_a_longer_snapshot() -> None:
    raw = big_snapshot()
    sizes = [len(snapshot_text(raw, budget)) for budget in (200, 500, 2_000, 20_000)]
    assert sizes == sorted(sizes)
