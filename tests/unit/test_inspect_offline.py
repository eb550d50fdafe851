"""Inspect commands on a real page: js, eval, css, attrs, is, cookies, storage, perf, a11y, tables."""

from __future__ import annotations

import pytest

from conftest import Site, Workspace
from refbrowse.daemon.handlers.inspect import prepare, uses_await


@pytest.fixture(scope="module")
def page(workspace: Workspace, site: Site) -> str:
    url = site.url("/inspect/page.html")
    workspace.ok("goto", url)
    return url


@pytest.mark.parametrize(
    ("code", "awaits"),
    [
        ("await fetch('/')", True),
        ("1 + (await x)", True),
        ("'await me'", False),
        ('"say await"', False),
        ("`await ${1}`", False),
        ("x // await later", False),
        ("/* await */ 1", False),
        ("obj.await", False),
        ("awaited + 1", False),
    ],
)
def test_await_counts_only_outside_strings_and_comments(code: str, awaits: bool) -> None:
    assert uses_await(code) is awaits


def test_one_line_await_returns_its_value_and_longer_code_needs_return() -> None:
    assert prepare("await f();") == "(async () => { return (await f()\n); })()"
    assert prepare("await f()\nreturn 1") == "(async () => {\nawait f()\nreturn 1\n})()"
    assert prepare("1 + 1") == "1 + 1"
