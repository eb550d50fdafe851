"""What every tool driver offers, and the pieces the CLI drivers share.

A driver runs one tool the way an agent would: the CLIs as a subprocess per
command, @playwright/mcp as JSON-RPC over stdio. Each method returns what the
tool printed; `printed` adds up the characters, which the scripted task
reports. A missing command raises `NotAvailable`, a failed one `ToolFailed`.
"""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Callable, Sequence

from harness.procs import descendants, is_browser
from harness.stats import NotAvailable, ToolFailed

# The element roles an agent acts on: a ref on one of these is an actionable ref.
ACTIONABLE_ROLES = frozenset(
    {
        "link",
        "button",
        "textbox",
        "searchbox",
        "checkbox",
        "radio",
        "combobox",
        "listbox",
        "switch",
        "slider",
        "spinbutton",
        "tab",
        "menuitem",
        "menuitemcheckbox",
        "menuitemradio",
        "treeitem",
    }
)

LINE = re.compile(r'^\s*-\s+([A-Za-z]+)(?:\s+"((?:[^"\\]|\\.)*)")?(.*)$')
REF = re.compile(r"(?:\bref=|\[@|\s@)(e\d+|c\d+|f\d+e\d+)\b")
CLI_TIMEOUT = 120.0


def snapshot_refs(text: str) -> list[tuple[str, str, str]]:
    """(role, name, ref) for every line of a snapshot that carries a ref."""
    found = []
    for line in text.splitlines():
        match = LINE.match(line)
        if not match:
            continue
        ref = REF.search(match.group(3) or "")
        if ref:
            found.append((match.group(1), match.group(2) or "", ref.group(1)))
    return found


def find_ref(text: str, role: str, name: str) -> str:
    """The ref of the first element of this role whose name contains `name`."""
    for found_role, found_name, ref in snapshot_refs(text):
        if found_role == role and name.lower() in found_name.lower():
            return ref
    raise ToolFailed(f"no {role} named {name!r} in the snapshot")


def actionable_refs(text: str) -> int:
    return sum(1 for role, _, _ in snapshot_refs(text) if role in ACTIONABLE_ROLES)


class Tool:
    """One tool under test. Subclasses fill in the commands they have."""

    name = ""
    has_interactive_snapshot = True
    # Whether an action's own answer shows the page after it (a report or a snapshot), and whether
    # a navigation's answer carries the new page's refs: else the agent needs a snapshot to see them.
    action_shows_page = False
    goto_shows_refs = False

    def __init__(self) -> None:
        self.printed = 0
        # (command, seconds, characters printed) of every counted command, for per-command breakdowns
        self.log: list[tuple[str, float, int]] = []

    def version(self) -> str:
        raise NotImplementedError

    def start(self) -> None:
        """A warm tool: its daemon (or server) and browser running."""

    def stop(self) -> None:
        """Nothing of the tool left running."""

    def cold_start(self, url: str) -> str:
        """From nothing running to `url` loaded; what the tool printed."""
        return self.goto(url)

    def root_pid(self) -> int:
        return 0

    def own_pids(self) -> list[int]:
        """The tool's processes other than the browser's (daemon, drivers)."""
        root = self.root_pid()
        if not root:
            return []
        return [root, *(p for p in descendants(root) if not is_browser(p))]

    def browser_pids(self) -> list[int]:
        root = self.root_pid()
        return [p for p in descendants(root) if is_browser(p)] if root else []

    def ref_arg(self, ref: str) -> str:
        return "@" + ref

    def goto(self, url: str) -> str:
        raise NotAvailable("goto")

    def url(self) -> str:
        raise NotAvailable("url")

    def text(self) -> str:
        raise NotAvailable("text")

    def snapshot(self, interactive: bool) -> str:
        raise NotAvailable("snapshot")

    def click(self, ref: str) -> str:
        raise NotAvailable("click")

    def click_to(self, ref: str, url_part: str) -> str:
        """A click that leads to another page, done as the tool's docs say (a wait where they ask for one)."""
        return self.click(ref)

    def act_and_see(self, act: Callable[[], str]) -> str:
        """An action and what the agent needs to see its effect: its answer, else a snapshot after it."""
        printed = act()
        if self.action_shows_page:
            return printed
        return printed + self.snapshot(self.has_interactive_snapshot)

    def goto_and_see(self, url: str) -> str:
        """A navigation and the new page's refs: its answer, else a snapshot after it."""
        printed = self.goto(url)
        if self.goto_shows_refs:
            return printed
        return printed + self.snapshot(self.has_interactive_snapshot)

    def fill(self, ref: str, value: str) -> str:
        raise NotAvailable("fill")

    def select(self, ref: str, value: str) -> str:
        raise NotAvailable("select")

    def check(self, ref: str) -> str:
        raise NotAvailable("check")

    def uncheck(self, ref: str) -> str:
        raise NotAvailable("uncheck")

    def evaluate(self, expression: str) -> str:
        raise NotAvailable("evaluate")

    def new_tab(self, url: str) -> str:
        raise NotAvailable("new tab")

    def switch_tab(self, number: int) -> str:
        raise NotAvailable("switch tab")


class CliTool(Tool):
    """A tool driven as one subprocess per command, with one fixed environment."""

    def __init__(self, executable: str, env: dict[str, str], cwd: str | None = None) -> None:
        super().__init__()
        self.executable = executable
        self.env = env
        self.cwd = cwd

    def run(self, *args: str, count: bool = True) -> str:
        started = time.perf_counter()
        done = subprocess.run(
            [self.executable, *args],
            env=self.env,
            cwd=self.cwd,
            capture_output=True,
            text=True,
            timeout=CLI_TIMEOUT,
            check=False,
        )
        if done.returncode != 0:
            self.failed(args, done)
        if count:
            self.printed += len(done.stdout)
            self.log.append((args[0], time.perf_counter() - started, len(done.stdout)))
        return done.stdout

    def failed(self, args: Sequence[str], done: subprocess.CompletedProcess[str]) -> None:
        said = (done.stderr or done.stdout).strip().splitlines()
        detail = " / ".join(line.strip() for line in said[-2:])
        raise ToolFailed(f"`{' '.join(args)[:60]}` exited {done.returncode}: {detail[:200]}")
