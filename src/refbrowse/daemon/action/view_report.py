"""How an action's report shows a change of the same document's view.

The diff of the interactive view, ordered by need (see `viewdiff`); or, when most
of the view is new (a single-page app's route, a panel replaced), the new view as
an arrival's. Then the text the action brought (see `new_text`): all of it when no
control came, else only the results that came with the new controls or view (code
blocks, table rows).
"""

from __future__ import annotations

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
    quoted = change.quoted
    if quoted:
        out.quoted = [line for line in out.quoted if not in_diff(line, quoted)]
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
