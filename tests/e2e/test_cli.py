"""The CLI on its own: argument checks and help from the registry, the lean warm path."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import BROWSE, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

HEAVY_MODULES = (
    "playwright",
    "aiohttp",
    "asyncio",
    "subprocess",
    "dataclasses",
    "typing",
    "http",
    "json",
    "re",
    "enum",
    "socket",
    # the MCP server's SDK and its stack, imported only by `browse mcp`
    "mcp",
    "mcp_types",
    "anyio",
    "pydantic",
    "uvicorn",
    "starlette",
    "refbrowse.mcp",
)


def test_unknown_command_exits_2_and_suggests_the_nearest(fresh_workspace: Workspace) -> None:
    result = fresh_workspace.run("gotoo", "http://x")
    assert result.code == 2
    assert "unknown command: gotoo" in result.err
    assert "browse goto" in result.err
    assert not fresh_workspace.state_dir.exists(), "bad usage must not start a daemon"


def test_warm_command_imports_nothing_heavy(workspace: Workspace, site: object) -> None:
    workspace.ok("url")  # the daemon is up: what follows is the warm path
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", BROWSE, "url"],
        cwd=workspace.root,
        env=workspace.env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.returncode == 0, proc.stderr
    imported = {line.split("|")[-1].strip() for line in proc.stderr.splitlines() if "|" in line}
    assert "refbrowse.cli.main" in imported
    heavy = [
        name for name in HEAVY_MODULES if name in imported or any(m.startswith(name + ".") for m in imported)
    ]
    assert heavy == []
