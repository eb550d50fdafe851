"""@playwright/cli 0.1.22 from npm (`playwright-cli`), driven as a subprocess per command.

Its configuration is read from `.playwright/cli.config.json` in the directory
it runs in: that file points it at the shared Chromium with the shared flags
(`browser.launchOptions`). `open` starts its daemon (a node process that
prints its pid and outlives the command) and browser; `close` ends them.
`HOME` is a temporary directory, so its daemon's session files are the
benchmark's own; its daily update check (a fetch from npm) is off.

What it prints: a navigation or an action prints the page's URL and title and
a link to a snapshot file, not the snapshot; `snapshot` prints the tree. So
its act-and-see is the action followed by `snapshot`. It has no
interactive-only snapshot, no "get url" and no "get text": those figures use
`eval` of `location.href` and `document.body.innerText`.
"""

from __future__ import annotations

import json
import os
import re

from harness.procs import alive, descendants, end
from harness.tool import CliTool

VERSION = "0.1.22"
OPENED = re.compile(r"opened with pid (\d+)")


def write_config(cwd: str, chromium: str, flags: list[str]) -> None:
    launch = {"executablePath": chromium, "headless": True, "args": flags}
    if "--no-sandbox" in flags:
        launch["chromiumSandbox"] = False
    config = {"browser": {"browserName": "chromium", "launchOptions": launch}}
    os.makedirs(os.path.join(cwd, ".playwright"), exist_ok=True)
    with open(os.path.join(cwd, ".playwright", "cli.config.json"), "w") as f:
        json.dump(config, f, indent=1)


class PlaywrightCli(CliTool):
    name = "playwright-cli"
    has_interactive_snapshot = False

    def __init__(self, peers: str, workdir: str, chromium: str, flags: list[str]) -> None:
        cwd = os.path.join(workdir, "playwright-cli")
        home = os.path.join(cwd, "home")
        os.makedirs(home, exist_ok=True)
        write_config(cwd, chromium, flags)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": home,
            "NO_UPDATE_NOTIFIER": "1",
        }
        super().__init__(
            os.path.join(peers, "node_modules", "@playwright", "cli", "playwright-cli.js"), env, cwd
        )
        self.daemon = 0

    def version(self) -> str:
        return self.run("--version", count=False).strip() or VERSION

    def ref_arg(self, ref: str) -> str:
        return ref

    def open(self, url: str, count: bool) -> str:
        printed = self.run("open", url, count=count)
        found = OPENED.search(printed)
        self.daemon = int(found.group(1)) if found else 0
        return printed

    def start(self) -> None:
        if not self.root_pid():
            self.open("about:blank", count=False)

    def cold_start(self, url: str) -> str:
        return self.open(url, count=True)

    def stop(self) -> None:
        root = self.root_pid()
        pids = [root, *descendants(root)] if root else []
        if root:
            self.run("close", count=False)
        end(p for p in pids if p)
        self.daemon = 0

    def root_pid(self) -> int:
        return self.daemon if alive(self.daemon) else 0

    def goto(self, url: str) -> str:
        return self.run("goto", url)

    def url(self) -> str:
        return self.run("eval", "location.href")

    def text(self) -> str:
        return self.run("eval", "document.body.innerText")

    def snapshot(self, interactive: bool) -> str:
        return self.run("snapshot")

    def click(self, ref: str) -> str:
        return self.run("click", ref)

    def fill(self, ref: str, value: str) -> str:
        return self.run("fill", ref, value)

    def select(self, ref: str, value: str) -> str:
        return self.run("select", ref, value)

    def check(self, ref: str) -> str:
        return self.run("check", ref)

    def uncheck(self, ref: str) -> str:
        return self.run("uncheck", ref)

    def evaluate(self, expression: str) -> str:
        return self.run("eval", expression)

    def new_tab(self, url: str) -> str:
        return self.run("tab-new", url)

    def switch_tab(self, number: int) -> str:
        # its tab indexes start at 0
        return self.run("tab-select", str(number - 1))
