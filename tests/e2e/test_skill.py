"""SKILL.md and the README follow the registry: the skill file, its installer, every `browse …`
example, and the MCP configuration snippets (each started with the command it names)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from conftest import BROWSE, Workspace
from refbrowse.skill import render

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

ROOT = Path(__file__).parent.parent.parent
SKILL = ROOT / "SKILL.md"
README = ROOT / "README.md"
CLIENTS = ("Claude Code", "Claude Desktop", "Cursor", "VS Code")


def test_skill_prints_and_installs_for_the_project_and_the_user(
    fresh_workspace: Workspace, tmp_path: Path
) -> None:
    ws = fresh_workspace
    assert ws.ok("skill") == render()
    out = ws.ok("skill", "install")
    project = ws.root / ".claude" / "skills" / "refbrowse" / "SKILL.md"
    assert str(project) in out and project.read_text() == render()
    project.unlink()
    deep = ws.root / "src" / "app"
    deep.mkdir(parents=True)
    from_deep = subprocess.run(
        [BROWSE, "skill", "install"], cwd=deep, env=ws.env, capture_output=True, text=True
    )
    assert from_deep.returncode == 0 and str(project) in from_deep.stdout, "the workspace's root, not the cwd"
    assert project.read_text() == render() and not (deep / ".claude").exists()
    home = tmp_path / "home"
    ws.ok("skill", "install", "--user", HOME=str(home))
    assert (home / ".claude" / "skills" / "refbrowse" / "SKILL.md").read_text() == render()
    bad = ws.run("skill", "uninstall")
    assert bad.code == 2 and "skill takes `install`" in bad.err
    assert "## Exit codes" in ws.ok("skill", "get", "exit-codes")
    missing = ws.run("skill", "get", "nothing")
    assert missing.code == 2 and "topics: reports, " in missing.err
    assert not ws.state_dir.exists(), "the skill command needs no daemon"


def _snippets() -> dict[str, tuple[str, str]]:
    pattern = r"\*\*(" + "|".join(CLIENTS) + r")\*\*(?:(?!```).)*?```(\w+)\n(.*?)```"
    return {name: (lang, body) for name, lang, body in re.findall(pattern, README.read_text(), re.S)}


def _server_of(client: str, lang: str, body: str) -> tuple[str, list[str], dict[str, str]]:
    """The command, args and env a client's snippet starts the server with."""
    if lang == "sh":
        argv = shlex.split(body.strip())
        assert argv[:3] == ["claude", "mcp", "add"] and "--" in argv
        command = argv[argv.index("--") + 1 :]
        return command[0], command[1:], {}
    config = json.loads(body)
    servers = config["servers" if client == "VS Code" else "mcpServers"]
    entry = servers["refbrowse"]
    assert entry.get("type", "stdio") == "stdio"
    return entry["command"], entry["args"], entry.get("env", {})


@pytest.mark.browser
def test_readme_has_a_snippet_for_each_client_and_each_starts_a_working_server(tmp_path: Path) -> None:
    snippets = _snippets()
    assert sorted(snippets) == sorted(CLIENTS)
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    # A desktop's environment: a home of its own and no XDG folders set, so the defaults under it.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BROWSE_", "XDG_"))}
    env["PATH"] = f"{Path(BROWSE).parent}{os.pathsep}{env['PATH']}"  # `browse` as installed on PATH

    async def serve(command: str, args: list[str], extra: dict[str, str], cwd: str) -> tuple[list[str], str]:
        """The tools the server lists, and what its `status` says (it names the workspace it serves)."""
        params = StdioServerParameters(command=command, args=args, cwd=cwd, env={**env, **extra})
        async with Client(params) as client:
            names = [tool.name for tool in (await client.list_tools()).tools]
            status = await client.call_tool("browse", {"command": "status"})
            return names, " ".join(getattr(block, "text", "") for block in status.content)

    home = tmp_path / "home"
    home.mkdir()
    for client, (lang, body) in snippets.items():
        command, args, extra = _server_of(client, lang, body)
        assert command == "browse" and args == ["mcp"], client
        assert "BROWSE_STATE_DIR" not in extra, f"{client}: the snippet runs as written"
        # Desktop starts its servers in no particular folder: `/` here, as on macOS.
        cwd = "/" if client == "Claude Desktop" else str(root)
        names, status = asyncio.run(serve(command, args, {**extra, "HOME": str(home)}, cwd))
        assert "goto" in names and "browse" in names, client
        # Outside any project, in `/`, the server serves a workspace of its own, not `/` or the home folder.
        served = home / ".local" / "state" / "refbrowse" if client == "Claude Desktop" else root
        assert f"no daemon is running for {served}\n" in status + "\n", (client, status)
