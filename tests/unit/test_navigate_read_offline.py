"""Navigation and reading commands on real pages, through the `browse` CLI."""

from __future__ import annotations

import pytest

from conftest import Site, Workspace
from refbrowse.errors import UsageError
from refbrowse.kinds import parse_value


@pytest.fixture(scope="module")
def article(workspace: Workspace, site: Site) -> str:
    url = site.url("/read/article.html")
    assert workspace.ok("goto", url).splitlines()[0] == f"Navigated to {url} (200)"
    return url


@pytest.mark.parametrize(
    ("given", "loaded"),
    [
        ("example.com", "https://example.com"),
        ("localhost:3000/x", "http://localhost:3000/x"),
        ("127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("http://a.test/", "http://a.test/"),
        ("about:blank", "about:blank"),
        ("data:text/html,<p>x</p>", "data:text/html,<p>x</p>"),
        ("file:///tmp/x.html", "file:///tmp/x.html"),
    ],
)
def test_urls_are_normalised_before_loading(given: str, loaded: str) -> None:
    assert parse_value("url", given, "goto URL") == loaded


@pytest.mark.parametrize("bad", ["javascript:alert(1)", "chrome://settings", "  "])
def test_unloadable_urls_are_usage_errors(bad: str) -> None:
    with pytest.raises(UsageError):
        parse_value("url", bad, "goto URL")
