"""What an agent reads off a tool's output: refs by role and name, and what a failure meant.

Pure text functions, shared by the refbrowse and @playwright/mcp drivers and
tested without a browser: a ref is picked by role and (part of) its name, or,
for an element with no name, as the first one of a role after a line that
names something next to it (how an agent reads "the checkbox after the
'Breakfast included' text").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from harness.tool import LINE, REF, snapshot_refs

# Failures of an action that should have worked: an element reported covered by
# something that is going away, a ref called stale while its element is still
# there, or a wait that ran out. Anything else is a real error of the script.
STALE = re.compile(r"\bstale\b|not in the latest snapshot", re.IGNORECASE)
FALSE_ERROR = re.compile(
    r"\bcovered\b|\bstale\b|not in the latest snapshot|timed? ?out|Timeout \d+ms exceeded", re.IGNORECASE
)


ADDED = re.compile(r"^\+(?=[\s-])", re.MULTILINE)


class NotFound(Exception):
    """The text holds no element the agent is looking for."""


def added_as_lines(text: str) -> str:
    """A diff's added lines read as snapshot lines (`+- button ...`); removed ones stay unreadable."""
    return ADDED.sub(" ", text)


def pick(text: str, role: str, name: str = "", exact: bool = False) -> str:
    """The ref of the first element of `role` whose name contains (or is) `name`."""
    for found_role, found_name, ref in snapshot_refs(added_as_lines(text)):
        if found_role != role:
            continue
        if (found_name == name) if exact else (name.lower() in found_name.lower()):
            return ref
    raise NotFound(f"no {role} named {name!r}")


def has(text: str, role: str, name: str = "", exact: bool = False) -> bool:
    try:
        pick(text, role, name, exact)
    except NotFound:
        return False
    return True


def pick_near(text: str, anchor: str, role: str, before: bool = False) -> str:
    """The ref of the nearest `role` element after (or before) the first line that contains `anchor`."""
    lines = added_as_lines(text).splitlines()
    start = next((i for i, line in enumerate(lines) if anchor in line), None)
    if start is None:
        raise NotFound(f"nothing reads {anchor!r}")
    for line in reversed(lines[:start]) if before else lines[start + 1 :]:
        match = LINE.match(line)
        ref = REF.search(match.group(3) or "") if match else None
        if match and ref and match.group(1) == role:
            return ref.group(1)
    raise NotFound(f"no {role} {'before' if before else 'after'} {anchor!r}")


HINT = re.compile(r'\(near "((?:[^"\\]|\\.)*)"\)')


def pick_hinted(text: str, role: str, hint: str) -> str:
    """The ref of the first unnamed `role` element whose `(near "…")` hint contains `hint`."""
    for line in added_as_lines(text).splitlines():
        match = LINE.match(line)
        if not match or match.group(1) != role or match.group(2):
            continue
        near, ref = HINT.search(match.group(3) or ""), REF.search(match.group(3) or "")
        if near and ref and hint.lower() in near.group(1).lower():
            return ref.group(1)
    raise NotFound(f"no {role} near {hint!r}")


def line_with(text: str, needle: str) -> str:
    """The first line of `text` that contains `needle`, stripped (what an agent quotes back)."""
    for line in text.splitlines():
        if needle in line:
            return line.strip()
    raise NotFound(f"no line reads {needle!r}")


def is_false_error(message: str) -> bool:
    return bool(FALSE_ERROR.search(message))


def is_stale(message: str) -> bool:
    return bool(STALE.search(message))


@dataclass
class Call:
    """One call an agent made: what it ran, what it read back, how it ended."""

    command: str
    chars: int
    ok: bool
    false_error: bool = False
    reread: bool = False  # a snapshot taken only because what was read lacked the ref


@dataclass
class Tally:
    """The calls of one task by one tool, and the figures made from them."""

    calls: list[Call] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)  # what was read before each re-read, to see why

    def add(self, command: str, output: str, ok: bool, action: bool) -> Call:
        call = Call(command, len(output), ok, action and not ok and is_false_error(output))
        self.calls.append(call)
        return call

    def figures(self) -> dict[str, int]:
        return {
            "calls": len(self.calls),
            "chars": sum(c.chars for c in self.calls),
            "errors": sum(1 for c in self.calls if not c.ok),
            "false_errors": sum(1 for c in self.calls if c.false_error),
            "rereads": sum(1 for c in self.calls if c.reread),
            "screenshots": sum(1 for c in self.calls if c.command == "screenshot"),
        }

    def commands(self) -> list[str]:
        return [c.command + ("" if c.ok else " (failed)") for c in self.calls]
