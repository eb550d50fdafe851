"""The compact diff between the interactive views before and after an action.

The views themselves are taken and kept by `views`; this module only compares
two texts: what changed, what the action asked of its own element, and how
much of it to show.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from refbrowse.daemon.action import diffplace
from refbrowse.daemon.core.sessions.refs import parse_ref

DIFF_TOKENS = 1_000  # the diff's budget, as the arrival view's: about 4,000 characters
_PAGE_KIND = "page: "  # the view's line that says what kind of page it is (`Triage.summary`)
_CAME_SHORT = 12  # added lines a big change still shows as a diff (a tab's panel, a wizard's next step)
_A_LOT = 40  # changed lines beyond which the view changed a lot
_A_LOT_SHARE = 0.6  # …or this share of the view's lines
_GONE_SHOWN = 3  # removed lines of one run shown one a line; beyond, one line counts them
_REF = re.compile(r"@[a-z]*\d+\b")
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')  # a JSON string: names and values in a view line
_ROW = re.compile(r' \(row ("(?:[^"\\]|\\.)*")\)')  # the row a control sits in, as its hint says
_HINT = re.compile(r' \((?:row|near|column) "(?:[^"\\]|\\.)*"\)')  # which of its kind a control is


@dataclass(frozen=True, slots=True)
class Asked:
    """The change an action asked of its own element: `fill @e3 "ada"` asks for `: "ada"` on @e3's line.

    When the element's new line says all of `shows`, the action's first
    line already said it all: the element's lines are left out of the diff.
    `absent` inverts the test (`uncheck`: no more `[checked]`); `fold`
    compares without case (`select @e4 express` shows "Express"). A hidden
    password is taken as what was asked: the view never shows it.
    """

    ref: str
    shows: tuple[str, ...]
    absent: bool = False
    fold: bool = False

    def done(self, line: str) -> bool:
        if "(password hidden)" in line:
            return True
        seen = line.casefold() if self.fold else line
        there = all((part.casefold() if self.fold else part) in seen for part in self.shows)
        return not there if self.absent else there


def _block(lines: list[str], ref: str) -> tuple[int, int] | None:
    """Where the element `ref` sits in a view: its line and the deeper lines under it (a select's options)."""
    mark = re.compile(re.escape(ref) + r"(?![\w])")
    for start, line in enumerate(lines):
        if mark.search(_QUOTED.sub('""', line)):  # a ref the page wrote in a name is not one
            depth = len(line) - len(line.lstrip())
            end = start + 1
            while end < len(lines) and len(lines[end]) - len(lines[end].lstrip()) > depth:
                end += 1
            return start, end
    return None


def asked_of(selector: str, *shows: str, absent: bool = False, fold: bool = False) -> Asked | None:
    """The change an action asks of the element `selector` names, when it is a ref the view shows."""
    ref = parse_ref(selector)
    return Asked(str(ref), shows, absent, fold) if ref is not None and ref.kind == "e" else None


AskedOf = Asked | tuple[Asked, ...] | None  # what one action asks of its element, or of each of several


def _without_asked(old: list[str], new: list[str], asked: AskedOf) -> tuple[list[str], list[str]]:
    """Both views without the acted elements' lines, where each one's change is just what was asked."""
    for one in asked if isinstance(asked, tuple) else (asked,) if asked else ():
        old, new = _without_one(old, new, one)
    return old, new


def _without_one(old: list[str], new: list[str], asked: Asked) -> tuple[list[str], list[str]]:
    was, now = _block(old, asked.ref), _block(new, asked.ref)
    # a list's choice shows on its option's line, under the list's own line
    if was is None or now is None or not asked.done("\n".join(new[now[0] : now[1]])):
        return old, new
    return old[: was[0]] + old[was[1] :], new[: now[0]] + new[now[1] :]


@dataclass(frozen=True, slots=True)
class Change:
    """How the view changed: lines quoting the page, our own lines, and whether most of the view is
    new (the report then prints the new view, as an arrival does, instead of a diff)."""

    quoted: list[str] = field(default_factory=list)
    trailer: list[str] = field(default_factory=list)
    most: bool = False
    came: bool = False  # elements came that were not there before (not only states that changed)
    boxes: int = 0  # boxes that were checked or unchecked besides what the action asked


def view_change(
    before: str, after: str | None, asked: AskedOf = None, budget_tokens: int = DIFF_TOKENS
) -> Change:
    """How the view changed beyond what was asked, ordered by need and cut to `budget_tokens`.

    Dialogs and what came first (the next step's refs), then the lines whose
    state changed (old and new line), then what went, folded to a count when
    many. A change of most of the view whose new lines are many is `most`.
    """
    if after is None or after == before:
        return Change()
    old, new = _without_asked(_page_lines(before), _page_lines(after), asked)
    new = _grown(old, new)
    gone, came = _reparented(old, new, *_edits(old, new))
    order = diffplace.reordered(old, new)  # items still there, in another order: one line says it
    gone = [i for i in gone if i not in order.gone]
    came = [j for j in came if j not in order.came]
    gone = [i for i in gone if not old[i].endswith(" (listed above)")]
    came = [j for j in came if not new[j].endswith(" (listed above)")]
    boxes = len(_toggled(old, new, gone, came))
    kept = {ref for i in gone if (ref := _ref(old[i]))} & {ref for j in came if (ref := _ref(new[j]))}
    found = diffplace.match(old, new, gone, came, kept)  # re-created and moved lines are no churn
    gone, came = found.gone, found.came
    again = order.said + diffplace.said(old, new, found)
    if not gone and not came and not again:
        return Change()
    share = (len(gone) + len(came)) / max(len(old), len(new), 1)
    if len(came) > _CAME_SHORT and (share > _A_LOT_SHARE or len(gone) + len(came) > _A_LOT * 4):
        return Change(most=True, boxes=boxes)
    ordered, brought = _ordered(old, new, gone, came)
    lines = diffplace.placed([(line, "") for line in again] + ordered, new)
    shown, more = _within(lines, budget_tokens * 4)
    trailer = (
        [f"… {more} more line{'s' if more != 1 else ''} of the diff, run `snapshot -i -D`"] if more else []
    )
    return Change(["changed in the interactive view:", *shown], trailer, came=brought, boxes=boxes)


# an element known by its listeners (a `clickable`, or a `generic` with a ref): its name is its text
_CLICKABLE = re.compile(r'^(\s*- (?:clickable|generic) "(?:[^"\\]|\\.)*)" (@[ec]\d+)\b')


def _grown(old: list[str], new: list[str]) -> list[str]:
    """`new` with each listener-driven element whose name (its text) only went on from where it was as
    it was: a terminal's screen, a log. Its new lines are said as text that appeared; the element's line
    said again with all its text, before and after, told nothing more."""
    was = {m[2]: (m[1], line) for line in old if (m := _CLICKABLE.match(line))}
    out = []
    for line in new:
        m = _CLICKABLE.match(line)
        before = was.get(m[2]) if m else None
        grew = m is not None and before is not None and m[1] != before[0] and m[1].startswith(before[0])
        out.append(before[1] if grew and before is not None else line)
    return out


def _page_lines(view: str) -> list[str]:
    """The view's lines without its `page:` line: the kind of page the daemon takes it for (a form,
    once a panel with a field opened) is no change of the page's own."""
    return [line for line in view.splitlines() if not line.startswith(_PAGE_KIND)]


def _edits(old: list[str], new: list[str]) -> tuple[list[int], list[int]]:
    """Indices of the lines that went from `old` and of those that came in `new`. A line whose hint
    alone changed is the same line: a second card's "more" button makes the first one's repeated,
    and hinted, with nothing changed on the page."""
    gone: list[int] = []
    came: list[int] = []
    unhinted = [_HINT.sub("", line) for line in old], [_HINT.sub("", line) for line in new]
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, *unhinted).get_opcodes():
        if tag != "equal":
            gone.extend(range(i1, i2))
            came.extend(range(j1, j2))
    return gone, came


def _reparented(
    old: list[str], new: list[str], gone: list[int], came: list[int]
) -> tuple[list[int], list[int]]:
    """Without the lines that read the same, ref included, at another depth: an element now under
    another parent (a drawing's shapes once a dialog covers its group) changed nothing an agent uses."""
    went = {_HINT.sub("", old[i]).strip(): i for i in gone if _ref(old[i])}
    moved = {j: went[bare] for j in came if _ref(new[j]) and (bare := _HINT.sub("", new[j]).strip()) in went}
    return [i for i in gone if i not in set(moved.values())], [j for j in came if j not in moved]


def _ref(line: str) -> str | None:
    """The line's own ref (`@e12`), never one a page wrote inside a quoted name."""
    found = _REF.search(_QUOTED.sub('""', line))
    return found.group() if found else None


def _depth(line: str) -> int:
    return len(line) - len(line.lstrip())


Placed = list[tuple[str, str]]  # diff lines, each with its nearest named container (see `diffplace`)


def _ordered(old: list[str], new: list[str], gone: list[int], came: list[int]) -> tuple[Placed, bool]:
    """Diff lines by need: dialogs, what came, states that changed (was, now), what went; and
    whether elements came."""
    gone_refs = {ref: i for i in gone if (ref := _ref(old[i]))}
    came_refs = {ref for j in came if (ref := _ref(new[j]))}
    where_old, where_new = diffplace.containers(old), diffplace.containers(new)
    dialogs = _in_dialogs(new)
    first = [("+" + new[j], where_new[j]) for j in came if j in dialogs]
    added = [("+" + new[j], where_new[j]) for j in came if j not in dialogs and _ref(new[j]) not in gone_refs]
    states = [
        ("-" + old[gone_refs[ref]], "+" + new[j], where_new[j])
        for j in came
        if j not in dialogs and (ref := _ref(new[j])) in gone_refs
    ]
    went = [i for i in gone if _ref(old[i]) not in came_refs]
    return first + added + _fold_boxes(states) + _removed(old, went, where_old), bool(first or added)


_CHECKED = " [checked]"
_FOLDED_BOXES = 3  # boxes that flipped the same way beyond which one line lists them (a "select all")


def _flipped(was: str, now: str) -> str:
    """ "checked" or "unchecked" when the line's only change is its box's state, else ""."""
    if was.replace(_CHECKED, "") != now.replace(_CHECKED, "") or (_CHECKED in was) == (_CHECKED in now):
        return ""
    return "checked" if _CHECKED in now else "unchecked"


def _toggled(old: list[str], new: list[str], gone: list[int], came: list[int]) -> list[str]:
    """The refs of the boxes that were checked or unchecked and did not change otherwise."""
    was = {ref: old[i] for i in gone if (ref := _ref(old[i]))}
    return [ref for j in came if (ref := _ref(new[j])) in was and _flipped(was[ref], new[j])]


def _fold_boxes(states: list[tuple[str, str, str]]) -> Placed:
    """Lines that changed (was, now, where); the boxes that flipped the same way on one line when many."""
    flips: dict[str, list[str]] = {}
    for was, now, _ in states:
        if (way := _flipped(was[1:], now[1:])) and (ref := _ref(now)):
            flips.setdefault(way, []).append(ref)
    out: Placed = []
    for way, refs in flips.items():
        if len(refs) > _FOLDED_BOXES:
            out.append((f"~ {len(refs)} boxes now {way}: {' '.join(refs)}", ""))
    folded = {ref for refs in flips.values() if len(refs) > _FOLDED_BOXES for ref in refs}
    return out + [
        (line, where) for was, now, where in states if _ref(now) not in folded for line in (was, now)
    ]


def _in_dialogs(lines: list[str]) -> set[int]:
    """Indices of blocking-overlay lines and of dialog lines with what is inside them."""
    inside: set[int] = set()
    depth: int | None = None
    for index, line in enumerate(lines):
        if depth is not None and _depth(line) > depth:
            inside.add(index)
            continue
        depth = None
        body = line.lstrip()
        if body.startswith(("⚠", "- dialog", "- alertdialog")):
            inside.add(index)
            depth = _depth(line)
    return inside


def _removed(old: list[str], went: list[int], where: list[str]) -> Placed:
    """What went, a run of neighbouring lines at a time: an element with a count of what was
    inside it (a closed list's options), or, when a run holds many elements, one line counting it."""
    out: Placed = []
    for run in _runs(went):
        top = min(_depth(old[i]) for i in run)
        roots = [k for k, i in enumerate(run) if _depth(old[i]) == top or k == 0]
        if len(roots) > _GONE_SHOWN:
            out.append((_gone_count(old, run, top), where[run[0]]))
            continue
        for start, end in zip(roots, [*roots[1:], len(run)], strict=True):
            inside = end - start - 1
            line = "-" + old[run[start]]
            name = _QUOTED.search(old[run[start]])
            if inside > _GONE_SHOWN and name:
                out.append((f"- {inside + 1} lines of {name.group()} are gone", where[run[start]]))
                continue
            more = f" (and the {inside} line{'s' if inside != 1 else ''} inside it)" if inside else ""
            out.append((line + more, where[run[start]]))
    return out


def _runs(indices: list[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    for index in indices:
        if runs and runs[-1][-1] == index - 1:
            runs[-1].append(index)
        else:
            runs.append([index])
    return runs


def _gone_count(old: list[str], run: list[int], top: int) -> str:
    """`- 14 lines of "Launcher" are gone`: named by the nearest named line that held them."""
    for index in range(run[0] - 1, -1, -1):
        if _depth(old[index]) < top and (name := _QUOTED.search(old[index])):
            return f"- {len(run)} lines of {name.group()} are gone"
    rows = list(dict.fromkeys(m.group(1) for i in run if (m := _ROW.search(old[i]))))
    if rows:  # a grid's rows, named by the hint their controls carry
        named = ", ".join(rows[:3]) + (f" and {len(rows) - 3} more" if len(rows) > 3 else "")
        return f"- {len(run)} lines are gone, of row{'s' if len(rows) != 1 else ''} {named}"
    first = next((old[i].strip() for i in run if _QUOTED.search(old[i])), "")
    return f"- {len(run)} lines are gone" + (
        f", from {first[2:] if first.startswith('- ') else first}" if first else ""
    )


def _within(lines: list[str], budget_chars: int) -> tuple[list[str], int]:
    """The first lines that fit in `budget_chars`, and how many did not."""
    used = 0
    for index, line in enumerate(lines):
        used += len(line) + 1
        if used > budget_chars:
            return lines[:index], len(lines) - index
    return lines, 0
