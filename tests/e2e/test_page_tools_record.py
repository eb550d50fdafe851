"""A recorded page tool call: Playwright's own `page.webmcp.call_tool`, in a test that runs green."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CHROMIUM, Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

SHOP = """<!doctype html><meta charset="utf-8"><title>Shop</title><h1>Shop</h1><script>
document.modelContext.registerTool({name: "search_books", description: "Search the catalogue",
  inputSchema: {type: "object", properties: {q: {type: "string"}, limit: {type: "integer"}}, required: ["q"]},
  execute: async ({q, limit}) => ({content: [{type: "text", text: `${limit} books about ${q}`}]})});
</script>"""


@pytest.fixture(scope="module")
def shop(site: Site) -> str:
    return site.page("/recordtools/shop", SHOP)


def test_record_writes_a_tool_call_as_playwright_code_that_runs_green(
    workspace: Workspace, shop: str, tmp_path: Path
) -> None:
    workspace.ok("goto", shop)
    workspace.ok("record", "start")
    workspace.ok("tool", "search_books", "q=3", "limit=2")
    workspace.ok("record", "stop", str(tmp_path / "test_tool.py"))
    written = (tmp_path / "test_tool.py").read_text()
    assert "page.webmcp.call_tool(\"search_books\", {'q': '3', 'limit': 2})" in written  # q is a string field
    assert "--enable-features=" in written
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path / "test_tool.py")],
        cwd=tmp_path,
        env={**os.environ, "BROWSE_CHROMIUM_PATH": CHROMIUM},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout + run.stderr
