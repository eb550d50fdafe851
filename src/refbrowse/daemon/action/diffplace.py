"""Where a diff line of the interactive view stands, and lines that went and came again.

A line's place is its nearest named container in the view (`listbox "Chosen
groups"`): when a diff spans several, each run of lines says where it is. An
element that went from one container and came in another, reading the same,
moved; one that came again in its own place reading the same (a list or a
grid's rows rebuilt on every change) was re-created: one line gives its new
ref, not a line that went and one that came. Items of one list all still there
in another order (a drag in a sortable list, a re-sorted sidebar) are one line
that says the new order of the stretch that moved, with each item's ref: a
line-by-line diff reads them as gone and come again, or "re-created as they
were", which hides that the order changed.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field

from refbrowse.daemon.page.snapshot.roles import shorten

_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_REF = re.compile(r" @[a-z]*\d+\b")  # a line's own ref, with the space before it
_FLAGS = re.compile(r" \[(?:selected|checked|focused|active|current(?:=\w+)?)\]")
_CONTAINERS = frozenset(
    (
        "listbox", "combobox", "group", "dialog", "alertdialog", "region", "navigation", "form",
        "table", "grid", "treegrid", "tabpanel", "menu", "menubar", "tree", "radiogroup", "tablist",
        "toolbar", "list", "complementary", "banner", "contentinfo", "search", "main",
    )
)  # fmt: skip


def _depth(line: str) -> int:
    return len(line) - len(line.lstrip())


def _label(line: str) -> str:
    """`listbox "Chosen groups"` when the line is a named container, else ""."""
    body = line.strip().removeprefix("- ")
    role, _, rest = body.partition(" ")
    name = _QUOTED.match(rest)
    return f"{role} {name.group()}" if role in _CONTAINERS and name and name.group() != '""' else ""


def containers(lines: list[str]) -> list[str]:
    """For each line of a view, its nearest named container above it, or ""."""
    out: list[str] = []
    stack: list[tuple[int, str]] = []
    for line in lines:
        depth = _depth(line)
        while stack and stack[-1][0] >= depth:
            stack.pop()
        out.append(next((label for _, label in reversed(stack) if label), ""))
        stack.append((depth, _label(line)))
    return out


def _unref(line: str) -> str:
    """The line without its own refs (a grid row's line has one a cell), never a ref-like text inside a
    quoted name."""
    spans = [m.span() for m in _QUOTED.finditer(line)]
    out = line
    for found in reversed(list(_REF.finditer(line))):
        if not any(a <= found.start() < b for a, b in spans):
            out = out[: found.start()] + out[found.end() :]
    return out


def _ref(line: str) -> str:
    found = _REF.search(_QUOTED.sub('""', line))
    return found.group().strip() if found else ""


@dataclass(frozen=True, slots=True)
class Matched:
    """What is left of the lines that went and came, and the pairs (went, came) found among them."""

    gone: list[int]
    came: list[int]
    moved: list[tuple[int, int]]
    remade: list[tuple[int, int]]


def match(old: list[str], new: list[str], gone: list[int], came: list[int], keep: set[str]) -> Matched:
    """Pair lines that went with lines that came reading the same: in the same place (re-created), or
    in another container (moved). Lines whose ref is in `keep` (a state that changed) stay as they are,
    unless only refs changed in them (a grid row whose cell was drawn again: the row's ref stays)."""
    where_old, where_new = containers(old), containers(new)
    same = {_unref(old[i]) for i in gone} & {_unref(new[j]) for j in came}
    free_gone = [i for i in gone if _ref(old[i]) not in keep or _unref(old[i]) in same]
    free_came = [j for j in came if _ref(new[j]) not in keep or _unref(new[j]) in same]
    remade = _pairs(free_gone, free_came, same_place=True, views=(old, new))
    remade = [(i, j) for i, j in remade if where_old[i] == where_new[j]]
    used_gone, used_came = {i for i, _ in remade}, {j for _, j in remade}
    rest_gone = [i for i in free_gone if i not in used_gone]
    rest_came = [j for j in came if j not in used_came and _ref(new[j]) not in keep]
    moved = [
        (i, j)
        for i, j in _pairs(rest_gone, rest_came, same_place=False, views=(old, new))
        if where_old[i] != where_new[j] and where_old[i] and where_new[j]
    ]
    used_gone |= {i for i, _ in moved}
    used_came |= {j for _, j in moved}
    return Matched(
        [i for i in gone if i not in used_gone], [j for j in came if j not in used_came], moved, remade
    )


def _pairs(
    gone: list[int], came: list[int], same_place: bool, views: tuple[list[str], list[str]]
) -> list[tuple[int, int]]:
    """Each came line with the first unpaired gone line that reads the same (its state aside, unless
    `same_place`)."""
    old, new = views

    def key(line: str) -> str:
        return _unref(line) if same_place else _plain(line)

    pool: dict[str, list[int]] = {}
    for i in gone:
        pool.setdefault(key(old[i]), []).append(i)
    found: list[tuple[int, int]] = []
    for j in came:
        waiting = pool.get(key(new[j]))
        if waiting:
            found.append((waiting.pop(0), j))
    return found


def said(old: list[str], new: list[str], found: Matched) -> list[str]:
    """Lines for what moved, and one line for what was re-created (with the new refs)."""
    where_old, where_new = containers(old), containers(new)
    out = [
        f"~ {_FLAGS.sub('', new[j]).strip().removeprefix('- ')}: moved from {where_old[i]} to {where_new[j]}"
        for i, j in found.moved
    ]
    again = [new[j].strip().removeprefix("- ") for _, j in found.remade if _ref(new[j])]
    if 0 < len(again) <= _REMADE_SHOWN:
        out.append(f"~ re-created as they were, with new refs: {', '.join(again)}")
    elif again:
        listed = _compact(again)
        listed = listed if len(listed) <= _REMADE_CHARS else _compact(_counted(again))
        where = listed if len(listed) <= _REMADE_CHARS else "`browse snapshot -i` lists them"
        out.append(f"~ {len(again)} lines re-created as they were, with new refs: {where}")
    return out


_REMADE_SHOWN = 3  # re-created lines named one by one; beyond, listed compactly within a bound
_REMADE_CHARS = 400  # listed while they fit in this; a grid's rebuilt rows are only counted


def _compact(lines: list[str]) -> str:
    """`link "1" @e40, "2" @e41, …`: each re-created line's name and new ref, its role said once a run
    (a datepicker's days, redrawn on Prev, whose refs the next click needs)."""
    parts: list[str] = []
    role = None
    for line in lines:
        head, rest = _role_and_rest(line)
        parts.append(rest if head == role and rest else line)
        role = head
    return ", ".join(parts)


def _role_and_rest(line: str) -> tuple[str, str]:
    """`slider handle`, `@e9: "20%"`: a line's role (one word or more) and what follows it."""
    found = re.match(r'(.+?) (?=["@(\[])', line)
    return (found[1], line[found.end() :]) if found else (line, "")


_NUMBERED = re.compile(r'([\w ]+?) "(\d+)" @([ec])(\d+)')
_RUN = 3  # numbered lines in a row that read as one


def _counted(lines: list[str]) -> list[str]:
    """Lines whose names and refs both count up by one, as a calendar's days do, joined into one
    (`link "1"…"31" @e40…@e70`): for a list too long to name each, as a month with a time picker is."""
    out: list[str] = []
    run: list[re.Match[str]] = []

    def close() -> None:
        if len(run) >= _RUN:
            first, last = run[0], run[-1]
            role, kind = first[1], first[3]
            out.append(f'{role} "{first[2]}"…"{last[2]}" @{kind}{first[4]}…@{kind}{last[4]}')
        else:
            out.extend(match[0] for match in run)
        run.clear()

    for line in lines:
        found = _NUMBERED.fullmatch(line)
        if run and not (found and _follows(run[-1], found)):
            close()
        if found:
            run.append(found)
        else:
            out.append(line)
    close()
    return out


def _follows(before: re.Match[str], match: re.Match[str]) -> bool:
    return (
        match[1] == before[1]
        and match[3] == before[3]
        and int(match[2]) == int(before[2]) + 1
        and int(match[4]) == int(before[4]) + 1
    )


_LISTS = frozenset(("listbox", "list", "table", "grid", "treegrid", "tree", "radiogroup", "menu"))


def placed(lines: list[tuple[str, str]], page: list[str] | None = None) -> list[str]:
    """Diff lines, each run in one container led by `in listbox "Chosen groups":` when they stand in
    two named containers of one role (two lists whose options read alike), or in a list the page
    (`page`: the new view's lines) has another of (a popup's new group, added to Django's "Chosen
    groups" beside "Available groups"). A line inside a container the diff shows too (a dialog that
    came with its buttons) stands where that container does."""
    own = {label: where for text, where in lines if (label := _label(text[1:]))}
    for _ in range(3):  # containers inside containers the diff shows
        lines = [(text, own.get(where, where)) for text, where in lines]
    named = {where for _, where in lines if where}
    roles = [label.split(" ", 1)[0] for label in {_label(line) for line in page or []} if label]
    twins = {role for role in _LISTS if roles.count(role) > 1}
    alike = len({where.split(" ", 1)[0] for where in named}) < len(named)
    if not alike and not any(where.split(" ", 1)[0] in twins for where in named):
        return (
            _led(lines) if named and len({where for _, where in lines}) > 1 else [text for text, _ in lines]
        )
    out: list[str] = []
    last: str | None = None
    for text, where in lines:
        if where != last:
            out.append(f"in {_short(where)}:" if where else "elsewhere:")
        last = where
        out.append(text)
    return out


def _led(lines: list[tuple[str, str]]) -> list[str]:
    """Diff lines with a run led by its place where it would read as the line before's children: a
    deeper line of another container (Wagtail's Publish, in the footer's actions, under a `link
    "History"` that came with it)."""
    out: list[str] = []
    last, depth = "", 0
    for text, where in lines:
        now = _line_depth(text)
        if where and where != last and now > depth:
            out.append(f"in {_short(where)}:")
        last, depth = where, now
        out.append(text)
    return out


def _line_depth(text: str) -> int:
    """The depth of a diff line's view line (`+  - option …`: 2); 0 for a line that says a count."""
    line = text[1:]
    return _depth(line) if line.lstrip().startswith("- ") else 0


def _short(place: str) -> str:
    """`listbox "Chosen groups Remove groups by…"`: a place's name cut to its first words."""
    role, _, quoted = place.partition(" ")
    try:
        name = json.loads(quoted)
    except ValueError:
        return place
    return f"{role} {json.dumps(shorten(name, _PLACE_CHARS), ensure_ascii=False)}"


_PLACE_CHARS = 40  # a list's name said this far in a place's header (Django's run on with their help)


_SHOWN_CHARS = 400  # a longer stretch of items in a new order is said by its count and first items


@dataclass(slots=True)
class Reordered:
    """What moved: one line a stretch, and the old and new line indices those lines explain."""

    said: list[str] = field(default_factory=list)
    gone: set[int] = field(default_factory=set)
    came: set[int] = field(default_factory=set)


def reordered(old: list[str], new: list[str]) -> Reordered:
    """The stretches of siblings (lines under one parent line) whose items, those there both before
    and after, stand in another order (lines that came or went beside them aside)."""
    found = Reordered()
    before = _siblings(old)
    for key, now in _siblings(new).items():
        was = before.get(key, [])
        common = Counter(_plain(old[i]) for i in was) & Counter(_plain(new[j]) for j in now)
        was, now = _kept(was, old, common), _kept(now, new, common)
        a, b = [_plain(old[i]) for i in was], [_plain(new[j]) for j in now]
        if len(a) < 2 or a == b:
            continue
        first = next(k for k in range(len(a)) if a[k] != b[k])
        last = max(k for k in range(len(a)) if a[k] != b[k])
        if len({_role_and_rest(text)[0] for text in b[first : last + 1]}) > 2:
            continue  # a page's mixed lines, ordered by what is in view: no list whose items moved
        found.said.append(_said([new[j] for j in now[first : last + 1]]))
        found.gone |= set(was[first : last + 1])
        found.came |= set(now[first : last + 1])
    return found


def _kept(indices: list[int], lines: list[str], common: Counter[str]) -> list[int]:
    """`indices` without the lines beyond what both views hold of their text."""
    left = Counter(common)
    kept = []
    for index in indices:
        text = _plain(lines[index])
        if left[text] > 0:
            left[text] -= 1
            kept.append(index)
    return kept


def _siblings(lines: list[str]) -> dict[tuple[str, int], list[int]]:
    """Indices of the lines under each parent line, keyed by that parent's text (without refs) and
    the depth; the view's top lines under ("", 0)."""
    groups: dict[tuple[str, int], list[int]] = {}
    stack: list[tuple[int, str]] = []  # (depth, plain text) of the open parents
    for index, line in enumerate(lines):
        depth = len(line) - len(line.lstrip())
        while stack and stack[-1][0] >= depth:
            stack.pop()
        parent = stack[-1][1] if stack else ""
        groups.setdefault((parent, depth), []).append(index)
        stack.append((depth, _plain(line)))
    return groups


def _plain(line: str) -> str:
    """The line as it reads, without its own refs and states."""
    return _FLAGS.sub("", _unref(line)).strip()


def _said(lines: list[str]) -> str:
    items = [line.strip().removeprefix("- ") for line in lines]
    listed = _compact(items)
    if len(listed) > _SHOWN_CHARS:
        shown: list[str] = []
        for item in items:
            if len(", ".join([*shown, item])) > _SHOWN_CHARS:
                break
            shown.append(item)
        listed = f"{_compact(shown)}, … ({len(items)} in all: `browse snapshot -i` lists them)"
    return f"~ in a new order: {listed}"
