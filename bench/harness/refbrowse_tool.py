"""refbrowse, driven through the venv's `browse` entry point, as an agent would.

The console script is the one a user gets from `pip install`; the `python3`
shim would add an interpreter start of its own to every figure. The workspace
is a temporary state directory (`BROWSE_STATE_DIR`), so the benchmark never
touches a daemon of the repo. The daemon and Playwright's node driver (its
child) are counted as refbrowse's own processes.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Sequence

from harness.procs import alive, end
from harness.stats import NotAvailable
from harness.tool import CliTool

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BROWSE = os.path.join(REPO, ".venv", "bin", "browse")


class Refbrowse(CliTool):
    name = "refbrowse"
    action_shows_page = True  # the effect report
    goto_shows_refs = True

    def __init__(self, workdir: str, chromium: str, checkout: str = "") -> None:
        """`checkout`: another checkout of refbrowse with its own .venv, measured as "refbrowse (base)"."""
        if checkout:
            self.name = "refbrowse (base)"
        state = os.path.join(workdir, "refbrowse-base-state" if checkout else "refbrowse-state")
        env = {
            **os.environ,
            "BROWSE_STATE_DIR": state,
            "BROWSE_CHROMIUM_PATH": chromium,
            "BROWSE_IDLE_TIMEOUT": str(3_600_000),
        }
        env.pop("BROWSE_SESSION", None)
        super().__init__(os.path.join(checkout, ".venv", "bin", "browse") if checkout else BROWSE, env)
        self.state = state

    def version(self) -> str:
        return self.run("--version", count=False).strip() or "refbrowse"

    def failed(self, args: Sequence[str], done: subprocess.CompletedProcess[str]) -> None:
        if done.returncode == 2 and "unknown command" in done.stderr:
            raise NotAvailable(f"n/a: command not available ({args[0]})")
        super().failed(args, done)

    def start(self) -> None:
        self.run("goto", "about:blank", count=False)

    def stop(self) -> None:
        pids = [self.root_pid(), *self.own_pids(), *self.browser_pids()]
        if self.root_pid():
            self.run("stop", count=False)
        end(p for p in pids if p)

    def root_pid(self) -> int:
        try:
            with open(os.path.join(self.state, "daemon.json")) as f:
                pid = int(json.load(f)["pid"])
        except (OSError, ValueError, KeyError):
            return 0
        return pid if alive(pid) else 0

    def goto(self, url: str) -> str:
        return self.run("goto", url)

    def url(self) -> str:
        return self.run("url")

    def text(self) -> str:
        return self.run("text")

    def snapshot(self, interactive: bool) -> str:
        return self.run("snapshot", "-i") if interactive else self.run("snapshot")

    def click(self, ref: str) -> str:
        return self.run("click", self.ref_arg(ref))

    def fill(self, ref: str, value: str) -> str:
        # The other tools take a password field's text in argv; so does this one when told to.
        return self.run("fill", self.ref_arg(ref), value, "--allow-argv-secret")

    def select(self, ref: str, value: str) -> str:
        return self.run("select", self.ref_arg(ref), value)

    def check(self, ref: str) -> str:
        return self.run("check", self.ref_arg(ref))

    def uncheck(self, ref: str) -> str:
        return self.run("uncheck", self.ref_arg(ref))

    def evaluate(self, expression: str) -> str:
        return self.run("js", expression)

    def new_tab(self, url: str) -> str:
        return self.run("newtab", url)

    def switch_tab(self, number: int) -> str:
        return self.run("tab", str(number))
