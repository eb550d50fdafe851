"""A site's chrome said once: landmarks that come again unchanged on the next pages of one origin.

A banner, a navigation, a sidebar or a footer is printed whole the first time
an arrival view shows it in a tab; on the next page of the same origin that
shows it again line for line (refs aside), it is one line that says what it
is, how many links it holds and the command that lists them, under the ref
it has now. A Django admin's banner and sidebar were a third of every page's
report.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from refbrowse.daemon.page.snapshot.budget import estimate_tokens

if TYPE_CHECKING:
    from refbrowse.daemon.core.sessions.tab import Tab

_LANDMARK = re.compile(
    r'^(\s*)- (banner|navigation|complementary|contentinfo)((?: "(?:[^"\\]|\\.)*")?) (@e\d+)$'
)
_TOKENS = re.compile(r"^~\d+ tokens$")
_REF = re.compile(r" @[a-z]*\d+\b")
MIN_LINES = 5  # a landmark this short costs less printed than said to be the same


class SeenChrome:
    """The landmarks an arrival view printed whole in this tab, by origin (in the tab's `TabMemory`)."""

    def __init__(self) -> None:
        self.by_origin: dict[str, set[str]] = {}


def fold(tab: Tab, url: str, view: str) -> str:
    """`view` with each landmark this tab printed whole before on the same origin as one line."""
    parts = urlsplit(url)
    seen = tab.memory.of(SeenChrome).by_origin.setdefault(f"{parts.scheme}://{parts.netloc}", set())
    lines = view.splitlines()
    out: list[str] = []
    at = 0
    while at < len(lines):
        found = _LANDMARK.match(lines[at])
        end = _end_of(lines, at) if found else at + 1
        if found and end - at >= MIN_LINES:
            key = found.group(2) + found.group(3) + "\n" + _REF.sub("", "\n".join(lines[at + 1 : end]))
            if key in seen:
                out.append(_said_once(found, lines[at + 1 : end]))
                at = end
                continue
            seen.add(key)
        out.append(lines[at])
        at += 1
    if len(out) < len(lines) and _TOKENS.match(out[-1]):  # the footer counts what is printed
        out[-1] = f"~{estimate_tokens(chr(10).join(out[:-1]))} tokens"
    return "\n".join(out)


def _end_of(lines: list[str], at: int) -> int:
    """The index after the block of `lines[at]`: the lines deeper than it."""
    depth = len(lines[at]) - len(lines[at].lstrip())
    end = at + 1
    while end < len(lines) and len(lines[end]) - len(lines[end].lstrip()) > depth:
        end += 1
    return end


def _said_once(found: re.Match[str], inside: list[str]) -> str:
    indent, role, name, ref = found.groups()
    what = _counted(inside)
    return f"{indent}- {role}{name} {ref}: the same {what} as before (`browse snapshot -i -s {ref}`)"


def _counted(inside: list[str]) -> str:
    """`2 links`, `4 buttons and 2 links`: the controls a folded landmark holds (Wagtail's menu is
    buttons as much as links); its lines when it holds neither."""
    links = sum(1 for line in inside if line.lstrip().startswith("- link "))
    buttons = sum(1 for line in inside if line.lstrip().startswith("- button "))
    said = [
        f"{count} {word}{'s' if count != 1 else ''}"
        for count, word in ((buttons, "button"), (links, "link"))
        if count
    ]
    return " and ".join(said) or f"{len(inside)} lines"
