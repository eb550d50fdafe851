"""How an action's report shows a change of the same document's view.

The diff of the interactive view, ordered by need (see `viewdiff`); or, when most
of the view is new (a single-page app's route, a panel replaced), the new view as
an arrival's. Then the text the action brought (see `new_text`): all of it when no
control came, else only the results that came with the new controls or view (code
blocks, table rows).
"""

from __future__ import annotations

import re

from refbrowse.daemon.action import arrival_view, new_text
from refbrowse.daemon.action.report import Outcome, in_diff
from refbrowse.daemon.action.viewdiff import AskedOf, view_change
from refbrowse.daemon.action.views import folds_in, keep_view, kept_texts, scheme_change
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.pageprobe import PageReport
from refbrowse.daemon.page.snapshot.service import PageSnapshot


def view_lines(
    tab: Tab,
    out: Outcome,
    after: PageReport,
    views: tuple[str, str | None],
    taken: PageSnapshot | None,
    asked: AskedOf = None,
    raw: bool = False,
) -> bool:
    """Add to `out` how the view went from `views[0]` (before the action) to `views[1]` (now, as
    `taken` read it); `asked` is the change the action asked for, which the diff leaves out. Whether
    elements came."""
    baseline, view = views
    was, now = kept_texts(tab), new_text.texts(taken)
    scheme = scheme_change(tab, taken)
    if scheme:
        out.trailer.append(scheme)
        out.add("notes", scheme)
    keep_view(tab, after, view, now, taken.triage.scheme if taken else "", folds_in(tab, after, taken))
    change = view_change(baseline, view, asked)
    out.boxes = change.boxes
    if change.most and taken is not None:
        found = arrival_view.shown(tab, taken, raw)
        out.quoted.append(found.view)
        out.fields["page"] = found.data
        # the rows or the answer the new view came with (Locust's Statistics tab: its table)
        _text(out, new_text.lines(was, now, new_text.results(taken)))
        return True
    out.quoted, quoted = said_once(out.quoted, change.quoted)
    if quoted:
        out.quoted += quoted
        out.trailer += change.trailer
        out.add("view", *quoted[1:])
        out.add("notes", *change.trailer)
    elif out.quoted:
        return False  # what the page said (a message, a dialog) is quoted already
    # No element came (a tab's prose, a total): the text the action brought says what it did. Else
    # of that text only results the new controls came with: a code block (Swagger's response), rows;
    # or all of it when it is a few lines (a notebook cell's output under the cell's new toolbar).
    results = new_text.results(taken) if change.came else None
    # a form's row ("Summary:") whose words the diff's new controls say already (`textbox "Summary:"`)
    words = new_text.words_said(change.quoted)
    brought = new_text.lines(was, now, results, words)
    if results is not None and not brought[0]:
        brought = _brief(new_text.lines(was, now, words=words), change.quoted)
    # a field's label went with its field: the diff's line says so
    said = [
        line for line in brought[0] if not (line.startswith("text gone: ") and _in_diff(line, change.quoted))
    ]
    _text(out, (said, brought[1]))
    return change.came


_NEWS = ("message", "status", "alert", "live region")
_QUOTE = r'("(?:[^"\\]|\\.)*")'
_CAME_ELEMENT = re.compile(rf"^\+\s*- [a-z][a-z ]* {_QUOTE} (@[ec]\d+)$")  # `+- clickable "Saved" @c10`
_CAME_TEXT = re.compile(rf"^\+\s*- {_QUOTE}$")  # `+  - "Saved"`


def said_once(lines: list[str], diff: list[str]) -> tuple[list[str], list[str]]:
    """The report's lines and the diff, each message said once. One the diff says too goes (see
    `in_diff`); one whose element came in the diff with nothing inside it but its text (a toast
    one can click away, Node-RED's "Successfully deployed") takes that element's ref, and the
    diff's lines of the element and of its text go."""
    lines = [line for line in lines if not in_diff(line, diff)]
    news = {quoted for line in lines if (quoted := _news(line))}
    refs: dict[str, str] = {}
    kept = diff[:1]
    for i, line in enumerate(diff[1:], 1):
        element, text = _CAME_ELEMENT.match(line), _CAME_TEXT.match(line)
        if element and element[1] in news and element[1] not in refs and _bare(diff, i, news):
            refs[element[1]] = element[2]
        elif not (text and text[1] in news):
            kept.append(line)
    said = [f"{line} {refs[quoted]}" if (quoted := _news(line)) in refs else line for line in lines]
    return said, kept if len(kept) > 1 else []


def _news(line: str) -> str:
    """The quoted text of a message's line (`message: "Saved"`), else ""."""
    kind, _, quoted = line.partition(": ")
    return quoted if kind in _NEWS and quoted.startswith('"') else ""


def _bare(diff: list[str], at: int, news: set[str]) -> bool:
    """Whether the element of the diff's line `at` holds nothing but a message's text."""
    depth, inside = _depth(diff[at]), []
    for line in diff[at + 1 :]:
        if _depth(line) <= depth:
            break
        inside.append(line)
    return all((text := _CAME_TEXT.match(line)) and text[1] in news for line in inside)


def _depth(line: str) -> int:
    return len(line[1:]) - len(line[1:].lstrip())


def _in_diff(line: str, diff: list[str]) -> bool:
    text = line.partition(": ")[2]
    return any(text in d for d in diff)


def _brief(found: tuple[list[str], list[str]], diff: list[str]) -> tuple[list[str], list[str]]:
    """The text that came, when it is a few lines and none is a line of the diff already."""
    appeared, more = found
    if more:
        return [], []
    unsaid = [line for line in appeared if not any(line.partition(": ")[2] in d for d in diff)]
    return unsaid, []


def _text(out: Outcome, found: tuple[list[str], list[str]]) -> None:
    appeared, more = found
    out.quoted, out.trailer = out.quoted + appeared, out.trailer + more
    out.add("text", *appeared)
