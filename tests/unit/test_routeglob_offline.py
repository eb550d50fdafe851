"""A route's glob reads as Playwright's does, against the URL's path: an address in the query is none."""

from __future__ import annotations

import pytest

from refbrowse.daemon.services.routeglob import glob_names, glob_regex


@pytest.mark.parametrize(
    ("glob", "url", "named"),
    [
        ("**/api/items", "http://h/api/items", True),
        ("**/api/items", "http://h/search?next=/api/items", False),
        ("**/api/items", "http://h/search#/api/items", False),
        ("**/api/*", "http://h/page?u=/api/x", False),
        ("**/api/items*", "http://h/api/items?page=2", True),
        ("**/search?q=*", "http://h/search?q=1", True),
        ("**/*.{png,jpg}", "http://h/a/b.jpg", True),
        ("http://h/**", "http://h/x?y=1", True),
    ],
)
def test_a_glob_names_a_url_by_its_path(glob: str, url: str, named: bool) -> None:
    assert glob_names(glob, url) is named


@pytest.mark.parametrize(
    ("glob", "url", "matches"),
    [
        ("**/a/*", "http://h/a/b", True),
        ("**/a/*", "http://h/a/b/c", False),
        ("http://h/**/c", "http://h/c", True),
        ("http://h/**/c", "http://h/a/b/c", True),
        ("**/x.{js,css}", "http://h/x.css", True),
        ("**/a+b", "http://h/a+b", True),
        ("**/a+b", "http://h/aab", False),
    ],
)
def test_the_glob_reads_as_playwrights(glob: str, url: str, matches: bool) -> None:
    assert bool(glob_regex(glob).match(url)) is matches
