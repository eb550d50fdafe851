"""An action's report: the `Outcome` that collects its lines and fields, and the lines themselves.

`perform.perform` finds out what an action did; this module words it: where
the page went, downloads, messages that appeared or went (said once: not
again when the diff of the view already shows them). Our own words go in
`notes` and `trailer`, page text in `quoted` (fenced), the same facts in
`fields` for `--json`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Download

from refbrowse.daemon.action.settle import ActionWatch
from refbrowse.daemon.core.io.envelope import fence
from refbrowse.daemon.core.io.reply import Reply
from refbrowse.daemon.page.pageprobe import Message, PageReport

TEXT_LIMIT = 150  # characters of one quoted message
MESSAGE_LIMIT = 8  # messages listed; the rest are counted
_WORD = re.compile(r"\w+")
_SAID_IN_DIFF = frozenset(("dialog opened", "dialog closed", "alert", "status", "message", "live region"))


@dataclass(slots=True)
class Outcome:
    """An action's effects: our own lines, lines that quote the page (fenced), and the same as fields.

    `fields` is what `--json` gives as the result's `data`: `navigation`
    ({kind, url}), and lists under `tabs`, `dialogs`, `downloads`, `messages`, `text`,
    `view` and `notes`, each present only when there is something to say.
    """

    url: str
    raw: bool
    json: bool = False
    notes: list[str] = field(default_factory=list)
    quoted: list[str] = field(default_factory=list)
    trailer: list[str] = field(default_factory=list)
    fields: dict[str, Any] = field(default_factory=dict)
    # what the action's field or box holds after it, as `element_state` says, when the look after read it
    held: tuple[str, str] | None = None
    boxes: int = 0  # other boxes the action checked or unchecked (a "select all")

    def add(self, key: str, *records: object) -> None:
        if records:
            self.fields.setdefault(key, []).extend(records)

    def along(self, now: str) -> str:
        """`now` (`: now checked`) with what came along: a "select all" says how many boxes it took."""
        if not self.boxes:
            return now
        with_it = f"{self.boxes} box{'es' if self.boxes != 1 else ''} changed with it"
        return f"{now}; {with_it}" if now else f": {with_it}"

    def report(self, first: str) -> str:
        lines = [first, *self.notes]
        if self.quoted:
            lines.append(fence("\n".join(self.quoted), self.url, self.raw))
        text = "\n".join(lines + self.trailer)
        return Reply(text, {"url": self.url, **self.fields}) if self.json else text


def in_diff(message: str, diff: list[str]) -> bool:
    """A message line that the diff of the view says too: a dialog as a blocking overlay or a
    dialog line that appeared or went, an alert or status as a line that appeared. Said once is enough."""
    kind, _, quoted = message.partition(": ")
    if kind not in _SAID_IN_DIFF or not (quoted.startswith('"') or kind.startswith("dialog")):
        return False
    if kind.startswith("dialog"):  # an unnamed one ("") is shown by any dialog line
        start = quoted[:40]  # the overlay line shortens long labels
        sign = "+" if kind == "dialog opened" else "-"
        return any(_shows_dialog(line, sign, start) for line in diff)
    loose = kind == "live region"  # a toast or an alert keeps its line: it says what kind of news it is
    return any(line.startswith("+") and _says(line, quoted, loose) for line in diff)


def _says(line: str, quoted: str, loose: bool) -> bool:
    """The diff line's value is the message; or, `loose`, the line is that text, or holds its words
    in order (a chat log's line, with labels the page hides from sight: "user: hello bot: 42" for
    the live region's "hello 42")."""
    if line.endswith(f": {quoted}"):
        return True
    if not loose:
        return False
    if line[1:].lstrip().removeprefix("- ") == quoted:
        return True
    words = iter(_WORD.findall(line.partition(": ")[2]))
    wanted = _WORD.findall(quoted)
    return len(wanted) >= 3 and all(word in words for word in wanted)


def _shows_dialog(line: str, sign: str, start: str) -> bool:
    """`+⚠ blocking modal dialog "X"…` or `+  - dialog "X" @e7`: the dialog coming or going."""
    body = line[1:].lstrip()
    kinds = ("⚠ blocking modal dialog", "- dialog", "- alertdialog")
    shown = tuple(f"{kind} {start}".rstrip() for kind in kinds)
    return line.startswith(sign) and body.startswith(shown)


_NAVIGATION_LINES = {
    "started": "navigation started to {} (not waited for)",
    "same document": "URL changed to {} (same document)",
    "same URL": "navigated (same URL) to {}",
    "navigated": "navigated to {}",
}


def navigation_line(
    out: Outcome, watch: ActionWatch, before: PageReport | None, after: PageReport | None, new_document: bool
) -> None:
    kind, url = _navigation_kind(watch, before, after, new_document)
    if kind:
        out.notes.append(_NAVIGATION_LINES[kind].format(url))
        out.fields["navigation"] = {"kind": kind, "url": url}


def _navigation_kind(
    watch: ActionWatch, before: PageReport | None, after: PageReport | None, new_document: bool
) -> tuple[str, str]:
    """What the action did to the page's address, and the URL: ("", url) when nothing."""
    url = after.url if after else watch.page.url
    if watch.navigating:
        return "started", watch.navigation.url if watch.navigation else url
    if not watch.committed:
        return "", url
    if not new_document:
        return ("", url) if before and before.url == url else ("same document", url)
    if before is not None and before.url == url:
        return "same URL", url
    return "navigated", url


def download_line(download: Download) -> str:
    # Downloads a page starts on its own are not kept; `browse download` asks for one.
    name = quote(download.suggested_filename)
    return f"download started: {name} from {download.url} (not kept: `browse download SEL` saves it)"


def message_lines(
    out: Outcome,
    before: tuple[Message, ...],
    after: tuple[Message, ...],
    *,
    unprinted: frozenset[str] = frozenset(),
) -> None:
    """Messages that appeared, and dialogs that closed, as fields, and as lines but for the kinds
    in `unprinted` (those a new page's whole interactive view lists already)."""
    old = set(before)
    appeared = [m for m in dict.fromkeys(after) if m not in old]
    closed = [m for m in dict.fromkeys(before) if m[0] == "dialog" and m not in set(after)]
    lines = [_message_line(m) for m in appeared if m[0] not in unprinted]
    lines += [_dialog_line("closed", m[1]) for m in closed]
    records = [_message_record(m, "appeared") for m in appeared] + [
        _message_record(m, "closed") for m in closed
    ]
    if len(lines) > MESSAGE_LIMIT:
        lines = [*lines[:MESSAGE_LIMIT], f"… {len(lines) - MESSAGE_LIMIT} more messages"]
    out.quoted += lines
    out.add("messages", *records[:MESSAGE_LIMIT])


def _message_record(message: Message, event: str) -> dict[str, str]:
    kind, label, text = message
    return {"event": event, "kind": kind, "label": label, "text": text[:TEXT_LIMIT]}


def _message_line(message: Message) -> str:
    kind, label, text = message
    if kind == "dialog":
        return _dialog_line("opened", label)
    if kind == "invalid":
        return f"invalid field {quote(label)}: {quote(text)}"
    return f"{kind}: {quote(text)}"


def _dialog_line(event: str, label: str) -> str:
    """`dialog opened: "Label"`, or `dialog opened` for a dialog that has no name of its own."""
    return f"dialog {event}: {quote(label)}" if label else f"dialog {event}"


def quote(text: str) -> str:
    short = text if len(text) <= TEXT_LIMIT else text[: TEXT_LIMIT - 1] + "…"
    return json.dumps(short, ensure_ascii=False)


def said_above(view: str, texts: set[str]) -> str:
    """`view` less its plain text lines (`- "Welcome admin!"`) that a message line above says already."""
    flat = {" ".join(text.split()) for text in texts}
    return "\n".join(line for line in view.split("\n") if _text_line(line) not in flat)


def _text_line(line: str) -> str | None:
    body = line.lstrip()
    if not (body.startswith('- "') and body.endswith('"')):
        return None
    try:
        text = json.loads(body[2:])
    except ValueError:
        return None
    return text if isinstance(text, str) else None
