"""Refs: stable while Playwright keeps an element, new when it changes, never reused; stale ones fail fast."""

from __future__ import annotations

import pytest

from refbrowse.daemon.core.sessions.refs import Ref, RefMap, parse_ref
from refbrowse.daemon.page.snapshot.parse import parse_nodes
from refbrowse.daemon.page.snapshot.roles import referable
from refbrowse.daemon.page.snapshot.service import _unnamed


@pytest.mark.parametrize("text", ["@e3", "e3", "ref=e3", " @e3 "])
def test_every_spelling_of_a_ref_is_accepted(text: str) -> None:
    assert parse_ref(text) == Ref("e", 3)


@pytest.mark.parametrize("text", ["@e0", "#e3", "e3x", "@x3", "button"])
def test_other_words_are_not_refs(text: str) -> None:
    assert parse_ref(text) is None


def test_a_ref_map_never_gives_a_number_twice() -> None:
    refs_of_tab = RefMap()
    first = refs_of_tab.give("doc1", "e5", "button", "Save")
    assert refs_of_tab.give("doc1", "e5", "button", "Save") == first
    second = refs_of_tab.give("doc2", "e5", "button", "Save")
    assert second.number > first.number


def test_a_tab_that_navigates_for_long_keeps_a_bounded_ref_map() -> None:
    """Numbers are kept for the current document only, and old refs for error messages up to a cap:
    a long session of navigations no longer grows the daemon by every page's refs."""
    refs_of_tab = RefMap()
    for document in range(400):
        refs_of_tab.begin()
        for element in range(50):
            refs_of_tab.give(f"doc{document}", f"e{element}", "link", f"Link {element}")
    assert len(refs_of_tab._numbers) == 50  # the current document's
    assert len(refs_of_tab._targets) <= 5_000 + 50  # the cap, and the newest snapshot's until the next
    assert refs_of_tab.give("doc399", "e7", "link", "Link 7") == refs_of_tab.give(
        "doc399", "e7", "link", "Link 7"
    )


def _snapshot(refs_of_tab: RefMap, *given: tuple[str, str, str, bool]) -> list[Ref]:
    """One snapshot of doc1: (Playwright ref, role, name, muted), every element at the same box."""
    refs_of_tab.begin("doc1", frozenset(pw_ref for pw_ref, *_ in given))
    box = (8, 26, 46, 21)
    return [refs_of_tab.give("doc1", p, role, name, box=box, muted=m) for p, role, name, m in given]


def test_an_element_a_modal_hides_then_shows_keeps_its_number() -> None:
    refs_of_tab = RefMap()
    [save] = _snapshot(refs_of_tab, ("e6", "button", "Save", False))
    assert _snapshot(refs_of_tab, ("e10", "button", "", True)) == [save]  # hidden: renamed, new ref
    assert _snapshot(refs_of_tab, ("e15", "button", "Save", False)) == [save]  # shown again


def test_only_a_move_into_or_out_of_hiding_keeps_a_number_never_a_replacement() -> None:
    refs_of_tab = RefMap()
    [save] = _snapshot(refs_of_tab, ("e6", "button", "Save", False))
    [again] = _snapshot(refs_of_tab, ("e7", "button", "Save", False))  # re-rendered in place
    assert again != save
    [other] = _snapshot(refs_of_tab, ("e8", "button", "Delete", True))  # another name, hidden
    assert other not in (save, again)
    [link] = _snapshot(refs_of_tab, ("e9", "link", "", False))  # another role
    assert link not in (save, again, other)


def test_two_elements_that_left_one_place_give_their_numbers_to_neither() -> None:
    refs_of_tab = RefMap()
    first, second = _snapshot(refs_of_tab, ("e1", "button", "", False), ("e2", "button", "", False))
    assert set(_snapshot(refs_of_tab, ("e3", "button", "", True))) & {first, second} == set()


def _given_in(raw: str) -> list[str]:
    """The descriptions a stale ref's error gives the refs of an ai snapshot, as `snapshot` gives them."""
    tree, _ = parse_nodes(raw)
    refs = RefMap()
    refs.begin()
    out = []
    for node in tree.walk():
        if referable(node):
            said, told = _unnamed(node, {})
            ref = refs.give("doc", node.pw_ref, node.role, node.name, said=said, told=told)
            out.append(refs.target(ref).describe())
    return out


def test_an_unnamed_select_is_described_as_the_view_tells_it_never_by_its_options() -> None:
    options = (
        '      - option "- no selection -" [selected]\n      - option "unread"\n      - option "deferred"'
    )
    raw = (
        '- table [ref=e1]:\n  - row [ref=e2]:\n    - rowheader "Status" [ref=e3]\n    - cell [ref=e4]:\n'
        f"      - combobox [ref=e5]:\n{options.replace('      -', '        -')}\n"
        f"- combobox [ref=e6]:\n{options.replace('      -', '  -')}\n"
        '- link [ref=e7] [cursor=pointer]:\n  - text: "12"'
    )
    assert _given_in(raw)[-3:] == ['combobox (near "Status")', 'combobox: "- no selection -"', 'link "12"']
