"""@playwright/mcp 0.0.83 from npm, driven as an MCP client does: JSON-RPC over stdio.

One server process per variant: with its default settle wait (500 ms after
each action, for the work the action triggered) and with it off
(`PLAYWRIGHT_MCP_TIMEOUT_SETTLE=0`). Its tools take the element as `target`;
it has no interactive-only snapshot, no "get url" and no "get text", so those
figures use `browser_tabs` (which lists the URL) and `browser_evaluate`.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
import time
from typing import Any

from harness.procs import end
from harness.stats import ToolFailed
from harness.tool import Tool

VERSION = "0.0.83"
PROTOCOL = "2025-06-18"
REPLY_TIMEOUT = 120.0


class StdioMcp(Tool):
    """An MCP server driven as a client does: one process, JSON-RPC over its stdin and stdout."""

    def __init__(self, cwd: str, env: dict[str, str]) -> None:
        super().__init__()
        self.cwd, self.env = cwd, env
        os.makedirs(self.cwd, exist_ok=True)
        self.proc: subprocess.Popen[str] | None = None
        self.replies: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.next_id = 0
        self.tools_list_chars = 0

    def server_argv(self) -> list[str]:
        raise NotImplementedError

    def launch(self) -> None:
        # its stderr goes to a log in its directory: the first place to look when it dies
        with open(os.path.join(self.cwd, "stderr.log"), "a") as log:
            self.proc = subprocess.Popen(
                self.server_argv(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                cwd=self.cwd,
                env=self.env,
                text=True,
                bufsize=1,
            )
        # each server gets its own queue: the reader of a stopped one must not post into the next one's
        self.replies = queue.Queue()
        threading.Thread(target=self._read, args=(self.proc, self.replies), daemon=True).start()
        hello = {
            "protocolVersion": PROTOCOL,
            "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"},
        }
        self.request("initialize", hello)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        tools = self.request("tools/list", {})
        self.tools_list_chars = len(json.dumps(tools.get("tools", [])))

    def stop(self) -> None:
        if self.proc is None:
            return
        pids = [self.proc.pid, *self.own_pids(), *self.browser_pids()]
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        end(pids)
        self.proc = None

    def root_pid(self) -> int:
        return self.proc.pid if self.proc is not None and self.proc.poll() is None else 0

    @staticmethod
    def _read(proc: subprocess.Popen[str], replies: queue.Queue[dict[str, Any] | None]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if "id" in message:
                replies.put(message)
        replies.put(None)

    def last_words(self) -> str:
        try:
            with open(os.path.join(self.cwd, "stderr.log"), errors="replace") as log:
                lines = [line.strip() for line in log if line.strip()]
        except OSError:
            return "(no log)"
        return " / ".join(lines[-2:])[:300] or "(nothing on stderr)"

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            try:
                reply = self.replies.get(timeout=REPLY_TIMEOUT)
            except queue.Empty as exc:
                raise ToolFailed(f"{method}: no reply in {REPLY_TIMEOUT:.0f} s") from exc
            if reply is None:
                raise ToolFailed(f"{method}: the server exited; its last words: {self.last_words()}")
            if reply.get("id") == self.next_id:
                break
        if "error" in reply:
            raise ToolFailed(f"{method}: {reply['error']}")
        result: dict[str, Any] = reply.get("result", {})
        return result

    def call(self, tool: str, arguments: dict[str, Any], count: bool = True) -> str:
        started = time.perf_counter()
        result = self.request("tools/call", {"name": tool, "arguments": arguments})
        text = "\n".join(
            part.get("text", "") for part in result.get("content", []) if part.get("type") == "text"
        )
        if result.get("isError"):
            raise ToolFailed(f"{tool}: {text[:120]}")
        if count:
            self.printed += len(text)
            self.log.append((tool, time.perf_counter() - started, len(text)))
        return text


class PlaywrightMcp(StdioMcp):
    has_interactive_snapshot = False
    action_shows_page = True  # every action answers with a snapshot
    goto_shows_refs = True

    def __init__(self, peers: str, workdir: str, chromium: str, flags: list[str], settle: bool) -> None:
        env = {**os.environ}
        if not settle:
            env["PLAYWRIGHT_MCP_TIMEOUT_SETTLE"] = "0"
        super().__init__(os.path.join(workdir, "mcp-settle" if settle else "mcp-nosettle"), env)
        self.name = "playwright-mcp" if settle else "playwright-mcp (settle 0)"
        self.cli = os.path.join(peers, "node_modules", "@playwright", "mcp", "cli.js")
        config = {"browser": {"browserName": "chromium", "launchOptions": {"args": flags}}}
        self.config = os.path.join(self.cwd, "config.json")
        with open(self.config, "w") as f:
            json.dump(config, f)
        self.chromium = chromium

    def server_argv(self) -> list[str]:
        argv = ["node", self.cli, "--headless", "--executable-path", self.chromium, "--isolated"]
        return [*argv, "--config", self.config]

    def version(self) -> str:
        return VERSION

    # the server

    def start(self) -> None:
        if self.proc is None:
            self.launch()
            self.call("browser_navigate", {"url": "about:blank"}, count=False)

    def cold_start(self, url: str) -> str:
        self.launch()
        return self.goto(url)

    # the commands

    def ref_arg(self, ref: str) -> str:
        return ref

    def goto(self, url: str) -> str:
        return self.call("browser_navigate", {"url": url})

    def url(self) -> str:
        return self.call("browser_tabs", {"action": "list"})

    def text(self) -> str:
        return self.call("browser_evaluate", {"function": "() => document.body.innerText"})

    def snapshot(self, interactive: bool) -> str:
        return self.call("browser_snapshot", {})

    def click(self, ref: str) -> str:
        return self.call("browser_click", {"target": ref})

    def fill(self, ref: str, value: str) -> str:
        return self.call("browser_type", {"target": ref, "text": value})

    def select(self, ref: str, value: str) -> str:
        return self.call("browser_select_option", {"target": ref, "values": [value]})

    def check(self, ref: str) -> str:
        return self.call("browser_click", {"target": ref})

    def uncheck(self, ref: str) -> str:
        return self.call("browser_click", {"target": ref})

    def evaluate(self, expression: str) -> str:
        return self.call("browser_evaluate", {"function": f"() => ({expression})"})

    def new_tab(self, url: str) -> str:
        self.call("browser_tabs", {"action": "new"})
        return self.goto(url)

    def switch_tab(self, number: int) -> str:
        return self.call("browser_tabs", {"action": "select", "index": number - 1})
