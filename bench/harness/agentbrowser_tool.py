"""agent-browser 0.41.2 from npm, driven as a subprocess per command.

The npm package ships its native binaries; a global install points the
`agent-browser` command straight at the one for this platform, so that is the
binary called here (not the node wrapper, which would add a node start to
every command). Its environment is the same for every call: agent-browser
restarts its browser when the launch environment changes. `HOME` is a
temporary directory, so its daemon socket and state are the benchmark's own.
"""

from __future__ import annotations

import os
import platform

from harness.procs import alive, end
from harness.tool import CliTool

VERSION = "0.41.2"


def binary(peers: str) -> str:
    arch = {"x86_64": "x64", "aarch64": "arm64"}.get(platform.machine(), platform.machine())
    path = os.path.join(peers, "node_modules", "agent-browser", "bin", f"agent-browser-linux-{arch}")
    os.chmod(path, 0o755)
    return path


def peer_env(workdir: str, chromium: str, flags: list[str]) -> dict[str, str]:
    """agent-browser's environment: one fixed set for every call (a change restarts its browser)."""
    home = os.path.join(workdir, "agent-browser-home")
    os.makedirs(home, exist_ok=True)
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": home,
        "AGENT_BROWSER_EXECUTABLE_PATH": chromium,
        "AGENT_BROWSER_ARGS": ",".join(flags),
        # its default start fetches a release blog to warn about old Chrome: not on a closed network
        "AGENT_BROWSER_NO_VERSION_CHECK": "1",
        "AGENT_BROWSER_IDLE_TIMEOUT_MS": str(3_600_000),
    }


class AgentBrowser(CliTool):
    name = "agent-browser"

    def __init__(self, peers: str, workdir: str, chromium: str, flags: list[str]) -> None:
        env = peer_env(workdir, chromium, flags)
        super().__init__(binary(peers), env)
        self.home = env["HOME"]

    def version(self) -> str:
        return self.run("--version", count=False).strip()

    def start(self) -> None:
        self.run("open", "about:blank", count=False)

    def stop(self) -> None:
        pids = [self.root_pid(), *self.browser_pids()]
        if self.root_pid():
            self.run("close", count=False)
        end(p for p in pids if p)

    def root_pid(self) -> int:
        try:
            with open(os.path.join(self.home, ".agent-browser", "default.pid")) as f:
                pid = int(f.read().strip())
        except (OSError, ValueError):
            return 0
        return pid if alive(pid) else 0

    def goto(self, url: str) -> str:
        return self.run("open", url)

    def url(self) -> str:
        return self.run("get", "url")

    def text(self) -> str:
        return self.run("get", "text", "body")

    def snapshot(self, interactive: bool) -> str:
        return self.run("snapshot", "-i") if interactive else self.run("snapshot")

    def click(self, ref: str) -> str:
        return self.run("click", self.ref_arg(ref))

    def click_to(self, ref: str, url_part: str) -> str:
        # its click returns before the navigation it starts; its guide says to wait for the URL
        return self.click(ref) + self.run("wait", "--url", f"**{url_part}**")

    def fill(self, ref: str, value: str) -> str:
        return self.run("fill", self.ref_arg(ref), value)

    def select(self, ref: str, value: str) -> str:
        return self.run("select", self.ref_arg(ref), value)

    def check(self, ref: str) -> str:
        return self.run("check", self.ref_arg(ref))

    def uncheck(self, ref: str) -> str:
        return self.run("uncheck", self.ref_arg(ref))

    def evaluate(self, expression: str) -> str:
        return self.run("eval", expression)

    def new_tab(self, url: str) -> str:
        return self.run("tab", "new", url)

    def switch_tab(self, number: int) -> str:
        # its tab ids are `t1`, `t2`, ... in the order the tabs were opened
        return self.run("tab", f"t{number}")
