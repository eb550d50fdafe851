"""The two ways a task is driven: `browse` commands in a shell, and @playwright/mcp tool calls.

Both keep what the agent last read (`last`), count every call in a `Tally`,
and find refs the way an agent does: in what it just read if the element is
there, else in a fresh snapshot (which counts as a call). An action that fails
with a false error (covered, stale, timeout) is retried as an agent would:
after a short wait, then with `--force`; every attempt counts.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Callable
from typing import Any

from harness.mcp_tool import PlaywrightMcp

from agent.reading import NotFound, Tally, is_stale, pick, pick_hinted, pick_near

TIMEOUT = 120.0
LOOKS, LOOK_AGAIN = 2, 0.5
NAVIGATED = re.compile(r"\bnavigated\b", re.IGNORECASE)
PAGE_URL = re.compile(r"Page URL: (\S+)")


class TaskFailed(Exception):
    """The script could not go on: a real error, or an element that is not there."""


class Browse:
    """`browse` as an agent runs it: one process per command, stdout and stderr read back."""

    def __init__(self, executable: str, env: dict[str, str]) -> None:
        self.executable, self.env = executable, env
        self.tally = Tally()
        self.last = ""
        # what the agent has read on the current page, newest first; a navigation starts it anew
        self.seen: list[str] = []

    def run(self, *args: str, action: bool = False) -> tuple[bool, str]:
        try:
            done = subprocess.run(
                [self.executable, *args], env=self.env, capture_output=True, text=True, timeout=TIMEOUT
            )
            ok, said = done.returncode == 0, done.stdout + done.stderr
        except subprocess.TimeoutExpired:
            ok, said = False, f"error: `browse {args[0]}` timed out after {TIMEOUT:.0f} s"
        self.tally.add(args[0], said, ok, action)
        self.read(said, bool(NAVIGATED.search(said)))
        return ok, said

    def documented(self, command: str, words: str) -> bool:
        """Whether this build's help for `command` says `words`: what an agent knows from the skill
        before it starts, so not a call."""
        done = subprocess.run(
            [self.executable, command, "--help"], env=self.env, capture_output=True, text=True
        )
        return words in done.stdout

    def read(self, text: str, new_page: bool) -> None:
        self.last = text
        self.seen = [text] if new_page else [text, *self.seen]

    def must(self, *args: str) -> str:
        ok, said = self.run(*args)
        if not ok:
            raise TaskFailed(f"`browse {' '.join(args)}`: {said.strip()[-200:]}")
        return said

    def act(self, *args: str) -> str:
        """An action; after a false error, wait and retry, then force, as an agent would.

        A retry refused as stale means the first try did happen after all (it
        started a navigation, then timed out): the page moved on, and so does
        the agent, reading the new page afresh.
        """
        for attempt in range(3):
            extra = ("--force",) if attempt == 2 else ()
            ok, said = self.run(*args, *extra, action=True)
            if ok:
                return said
            if attempt and is_stale(said):
                self.tally.calls[-1].false_error = False
                self.seen = []
                return said
            if not self.tally.calls[-1].false_error:
                break
            if attempt == 0:
                self.run("wait", "500")
        raise TaskFailed(f"`browse {' '.join(args)}`: {said.strip()[-200:]}")

    def snapshot(self, *flags: str) -> str:
        return self.must("snapshot", *flags)

    def reread(self, *flags: str) -> str:
        """A snapshot taken only because what was read lacked the ref: counted as a re-read."""
        missed = self.last
        said = self.snapshot(*flags)
        self.tally.calls[-1].reread = True
        self.tally.missed.append(missed[-1500:])
        return said

    def wait(self, *args: str) -> str:
        return self.must("wait", *args)

    def find(
        self,
        role: str,
        name: str = "",
        exact: bool = False,
        flags: tuple[str, ...] = ("-i",),
        looks: int = LOOKS,
    ) -> str:
        """The ref from what was read on this page (newest first), or else from a fresh snapshot."""
        picker = lambda t: pick(t, role, name, exact)  # noqa: E731
        return "@" + _found(self.seen, lambda: self.reread(*flags), picker, looks)

    def find_near(
        self, anchor: str, role: str, before: bool = False, flags: tuple[str, ...] = ("-i",)
    ) -> str:
        """An unnamed element, by the text written next to it."""
        return "@" + _found(
            self.seen, lambda: self.reread(*flags), lambda t: pick_near(t, anchor, role, before)
        )

    def find_hinted(self, role: str, hint: str, looks: int = LOOKS) -> str:
        """An unnamed element, by the `(near "…")` hint refbrowse gives it."""
        picker = lambda t: pick_hinted(t, role, hint)  # noqa: E731
        return "@" + _found(self.seen, lambda: self.reread("-i"), picker, looks)


def _found(seen: list[str], look: Callable[[], str], picker: Callable[[str], str], looks: int = LOOKS) -> str:
    """The first text that `picker` finds a ref in: what was read, then fresh looks (counted calls).

    An element that is not there yet gets a second look a moment later, as an
    agent that reads a page still rendering would take one.
    """
    for text in seen:
        try:
            return picker(text)
        except NotFound:
            continue
    missing = NotFound("nothing to look at")
    for attempt in range(looks):
        if attempt:
            time.sleep(LOOK_AGAIN)
        try:
            return picker(look())
        except NotFound as exc:
            missing = exc
    raise TaskFailed(f"{missing} in the snapshot")


class Mcp:
    """@playwright/mcp's tools over JSON-RPC; each tool call is one agent call."""

    def __init__(self, server: PlaywrightMcp) -> None:
        self.server = server
        self.tally = Tally()
        self.last = ""
        self.seen: list[str] = []
        self.url = ""

    def call(self, tool: str, arguments: dict[str, Any], action: bool = True) -> tuple[bool, str]:
        result = self.server.request("tools/call", {"name": tool, "arguments": arguments})
        parts = result.get("content", [])
        text = "\n".join(p.get("text", "") for p in parts if p.get("type") == "text")
        ok = not result.get("isError")
        self.tally.add(tool, text, ok, action)
        url = PAGE_URL.search(text)
        new_page = bool(url) and url.group(1) != self.url
        self.url = url.group(1) if url else self.url
        self.last = text
        self.seen = [text] if new_page else [text, *self.seen]
        return ok, text

    def act(self, tool: str, **arguments: Any) -> str:
        for attempt in range(2):
            ok, text = self.call(tool, arguments)
            if ok:
                return text
            if attempt == 0 and self.tally.calls[-1].false_error:
                self.call("browser_wait_for", {"time": 0.5}, action=False)
                continue
            break
        raise TaskFailed(f"{tool} {json.dumps(arguments)[:80]}: {text.strip()[:200]}")

    def snapshot(self) -> str:
        ok, text = self.call("browser_snapshot", {}, action=False)
        if not ok:
            raise TaskFailed(f"browser_snapshot: {text[:200]}")
        return text

    def find(self, role: str, name: str = "", exact: bool = False, looks: int = LOOKS) -> str:
        return _found(self.seen, self.snapshot, lambda t: pick(t, role, name, exact), looks)

    def find_near(self, anchor: str, role: str, before: bool = False, looks: int = LOOKS) -> str:
        return _found(self.seen, self.snapshot, lambda t: pick_near(t, anchor, role, before), looks)
