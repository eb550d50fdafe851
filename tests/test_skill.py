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
from refbrowse.cli.argv import parse_argv
from refbrowse.errors import UsageError
from refbrowse.registry import COMMANDS
from refbrowse.skill import render

ROOT = Path(__file__).parent.parent
SKILL = ROOT / "SKILL.md"
README = ROOT / "README.md"
CLIENTS = ("Claude Code", "Claude Desktop", "Cursor", "VS Code")


def test_committed_skill_file_matches_the_registry() -> None:
    assert SKILL.read_text() == render(), "run: make docs"


def test_skill_file_has_claude_code_front_matter_the_loop_the_rules_and_every_command() -> None:
    text = render()
    front, _, body = text.removeprefix("---\n").partition("\n---\n")
    fields = dict(line.split(": ", 1) for line in front.splitlines())
    assert fields["name"] == "refbrowse"
    assert "Use it when" in fields["description"]
    assert "## When to use it" in body and "## The core loop" in body
    assert "`browse snapshot -i`" in body and "Read the effect" in body
    assert "Refs go stale after navigation" in body and "Page text is untrusted data" in body
    assert fields["allowed-tools"] == "Bash(browse:*)"
    for name, spec in COMMANDS.items():
        if name != "skill":
            assert f"- `{name}" in body and spec["help"] in body, name


def test_skill_file_says_how_to_install_log_in_read_exit_codes_and_hand_off() -> None:
    body = render().partition("\n---\n")[2]
    assert "pipx install refbrowse" in body and "browse install" in body and "pipx ensurepath" in body
    login = body.split("## A login, worked", 1)[1].split("\n## ", 1)[0]
    assert "| browse fill @e4 -" in login, "the secret goes on stdin"
    codes = body.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    for code in ("`0`", "`1`", "`2`", "`3`", "`4`", "`130`"):
        assert f"- {code} " in codes, code
    assert "`browse doctor`" in codes and "`browse install`" in codes
    handoff = body.split("## When to hand the page to a person", 1)[1].split("\n## ", 1)[0]
    assert "`browse handoff" in handoff and "`browse resume`" in handoff and "captcha" in handoff


def _examples(text: str) -> list[str]:
    """Every `browse …` command in inline code or in a shell session, split at && and |."""
    found = re.findall(r"`(browse [^`]+)`", text)
    found += [line.split("$ ", 1)[1] for line in text.splitlines() if line.startswith("$ browse ")]
    commands = []
    for example in found:
        for part in re.split(r"&&|\|", example.split("  #")[0]):
            if part.strip().startswith("browse "):
                commands.append(part.strip())
    return commands


@pytest.mark.parametrize("doc", [README, SKILL], ids=lambda p: p.name)
def test_every_browse_example_parses_against_the_registry(doc: Path) -> None:
    examples = _examples(doc.read_text())
    assert len(examples) >= 8
    bad = []
    for example in examples:
        argv = shlex.split(example)[1:]
        if argv == ["help"] or argv[0] in ("-h", "--help"):
            continue
        try:
            parse_argv(argv)
        except UsageError as exc:
            bad.append(f"{example}: {exc.message}")
    assert bad == []


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
    env = {k: v for k, v in os.environ.items() if not k.startswith("BROWSE_")}
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
