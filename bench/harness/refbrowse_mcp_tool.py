"""refbrowse through its MCP server (`browse mcp`), driven as @playwright/mcp is: JSON-RPC over stdio.

The server talks to its own refbrowse daemon (a state directory of its own, so
it shares nothing with the CLI figures); the daemon is started on the first
call, detached from the server, so its processes are found through its
`daemon.json`. Everyday verbs are tools of their own; `url`, `check`, `js`
and the tab commands go through the `browse` tool's command line.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess

from harness.mcp_tool import StdioMcp
from harness.procs import alive, descendants, end, is_browser
from harness.refbrowse_tool import BROWSE


class RefbrowseMcp(StdioMcp):
    name = "refbrowse via MCP"
    action_shows_page = True  # the effect report
    goto_shows_refs = True

    def __init__(self, workdir: str, chromium: str) -> None:
        cwd = os.path.join(workdir, "refbrowse-mcp")
        self.state = os.path.join(cwd, "state")
        env = {
            **os.environ,
            "BROWSE_STATE_DIR": self.state,
            "BROWSE_CHROMIUM_PATH": chromium,
            "BROWSE_IDLE_TIMEOUT": str(3_600_000),
        }
        env.pop("BROWSE_SESSION", None)
        super().__init__(cwd, env)

    def server_argv(self) -> list[str]:
        return [BROWSE, "mcp"]

    def version(self) -> str:
        done = subprocess.run([BROWSE, "--version"], capture_output=True, text=True, check=False)
        return done.stdout.strip().removeprefix("refbrowse").strip() or "refbrowse"

    def start(self) -> None:
        if self.proc is None:
            self.launch()
            self.call("goto", {"url": "about:blank"}, count=False)

    def cold_start(self, url: str) -> str:
        self.launch()
        return self.goto(url)

    def stop(self) -> None:
        daemon = self.daemon_pid()
        pids = [daemon, *descendants(daemon)] if daemon else []
        super().stop()
        if daemon:
            subprocess.run([BROWSE, "stop"], env=self.env, capture_output=True, timeout=60, check=False)
        end(p for p in pids if p)

    def daemon_pid(self) -> int:
        try:
            with open(os.path.join(self.state, "daemon.json")) as f:
                pid = int(json.load(f)["pid"])
        except (OSError, ValueError, KeyError):
            return 0
        return pid if alive(pid) else 0

    def own_pids(self) -> list[int]:
        daemon = self.daemon_pid()
        under = [daemon, *(p for p in descendants(daemon) if not is_browser(p))] if daemon else []
        # the server starts the daemon, so it may be among the server's own descendants too: count it once
        return list(dict.fromkeys([*super().own_pids(), *under]))

    def browser_pids(self) -> list[int]:
        daemon = self.daemon_pid()
        return [p for p in descendants(daemon) if is_browser(p)] if daemon else []

    def line(self, *words: str) -> str:
        return self.call("browse", {"command": shlex.join(words)})

    # the commands

    def goto(self, url: str) -> str:
        return self.call("goto", {"url": url})

    def url(self) -> str:
        return self.line("url")

    def text(self) -> str:
        return self.call("text", {})

    def snapshot(self, interactive: bool) -> str:
        return self.call("snapshot", {"i": True} if interactive else {})

    def click(self, ref: str) -> str:
        return self.call("click", {"sel": self.ref_arg(ref)})

    def fill(self, ref: str, value: str) -> str:
        return self.call("fill", {"sel": self.ref_arg(ref), "text": value})

    def select(self, ref: str, value: str) -> str:
        return self.call("select", {"sel": self.ref_arg(ref), "value": [value]})

    def check(self, ref: str) -> str:
        return self.line("check", self.ref_arg(ref))

    def uncheck(self, ref: str) -> str:
        return self.line("uncheck", self.ref_arg(ref))

    def evaluate(self, expression: str) -> str:
        return self.line("js", expression)

    def new_tab(self, url: str) -> str:
        return self.line("newtab", url)

    def switch_tab(self, number: int) -> str:
        return self.line("tab", str(number))
