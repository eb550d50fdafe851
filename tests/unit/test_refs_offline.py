"""Refs: stable while Playwright keeps an element, new when it changes, never reused; stale ones fail fast."""

from __future__ import annotations

import pytest

from refbrowse.daemon.core.refs import Ref, RefMap, parse_ref


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
