"""Tasks on admin-like pages of the shapes agents met on Django admin and MLflow, served as files.

The pages are the tests' own (tests/fixtures/reports and reports3, served as one
folder: the tests hold them to what the reports must say): an "add
another" link that opens a popup which saves and closes itself, adding the new
choice to its opener's list (Django's related-object popup); two lists a
choice moves between, both rebuilt on each move (filter_horizontal); a change
list whose header box selects every row; a contact form whose status comes on
a timer after submit; a runs grid rebuilt on each search with a "N matching
runs" count (MLflow). Each script trusts what an action printed and looks
again (a counted call) only when that lacks what it needs.
"""

from __future__ import annotations

import re

from agent.apps import App
from agent.drivers import Browse, Mcp
from agent.reading import has
from agent.tasks import Task


def _last(pattern: str, text: str) -> str:
    """The last match's group: a diff says what a line was before what it is now."""
    found = re.findall(pattern, text)
    return str(found[-1]) if found else ""


def _value(text: str, name: str) -> str:
    return _last(rf'combobox "{name}" @e\d+: "([^"]*)"', text)


# The popup: add a group named after the run, read the opener's choice.


def popup_after(b: Browse, app: App, run: str) -> str:
    b.must("goto", app.base + "/reports/related.html")
    opened = b.act("click", b.find("link", "Add another group"))
    if not has(opened, "textbox", "Name"):
        b.must("tab", "2")  # the build that does not hand a popup over
    b.act("fill", b.find("textbox", "Name"), f"grp-{run}")
    saved = b.act("click", b.find("button", "Save"))
    return _value(saved, "Group") or _value(b.reread("-i"), "Group")


def popup_before(b: Browse, app: App, run: str) -> str:
    b.must("goto", app.base + "/reports/related.html")
    b.act("click", b.find("link", "Add another group"))
    b.must("tab", "2")
    b.act("fill", b.find("textbox", "Name"), f"grp-{run}")
    b.act("click", b.find("button", "Save"))
    return _value(b.snapshot("-i"), "Group")


def popup_mcp(m: Mcp, app: App, run: str) -> str:
    m.act("browser_navigate", url=app.base + "/reports/related.html")
    m.act("browser_click", target=m.find("link", "Add another group"))
    m.act("browser_tabs", action="select", index=1)
    m.act("browser_type", target=m.find("textbox", "Name"), text=f"grp-{run}")
    m.act("browser_click", target=m.find("button", "Save"))
    m.act("browser_tabs", action="select", index=0)
    found = re.search(r'option "([^"]*)" \[selected\]', m.snapshot())
    return found.group(1) if found else ""


def popup_check(app: App, run: str, answer: str) -> tuple[bool, str]:
    return answer == f"grp-{run}", f"answered {answer!r}"


# Two lists: move "editors" to the chosen ones, say which list holds it.


def move_after(b: Browse, app: App, run: str) -> str:
    b.must("goto", app.base + "/reports3/horizontal.html")
    b.act("select", b.find("listbox", "Available groups"), "editors")
    moved = b.act("click", b.find("button", "Choose"))
    found = re.search(r'option "editors" @e\d+: moved from listbox "[^"]+" to listbox "([^"]+)"', moved)
    return found.group(1) if found else _holder(b.reread("-i"), "editors")


def move_before(b: Browse, app: App, run: str) -> str:
    b.must("goto", app.base + "/reports3/horizontal.html")
    b.act("select", b.find("listbox", "Available groups"), "editors")
    b.act("click", b.find("button", "Choose"))
    return _holder(b.snapshot("-i"), "editors")


def move_mcp(m: Mcp, app: App, run: str) -> str:
    m.act("browser_navigate", url=app.base + "/reports3/horizontal.html")
    m.act("browser_select_option", target=m.find("listbox", "Available groups"), values=["editors"])
    return _holder(m.act("browser_click", target=m.find("button", "Choose")), "editors")


def _holder(view: str, option: str) -> str:
    """The listbox whose options include `option`, in a view's lines."""
    holder = ""
    for line in view.splitlines():
        if found := re.search(r'listbox "([^"]+)"', line):
            holder = found.group(1)
        elif re.search(rf'option "{option}"', line):
            return holder
    return ""


def move_check(app: App, run: str, answer: str) -> tuple[bool, str]:
    return answer == "Chosen groups", f"answered {answer!r}"


# A change list: select every row, say how many are selected.


def all_after(b: Browse, app: App, run: str) -> str:
    b.must("goto", app.base + "/reports3/changelist.html")
    checked = b.act("check", b.find("checkbox", "Select all objects"))
    return _last(r"(\d+) of \d+ selected", checked) or _count_of(b.must("text"))


def all_before(b: Browse, app: App, run: str) -> str:
    b.must("goto", app.base + "/reports3/changelist.html")
    b.act("check", b.find("checkbox", "Select all objects"))
    return _count_of(b.must("text"))


def all_mcp(m: Mcp, app: App, run: str) -> str:
    m.act("browser_navigate", url=app.base + "/reports3/changelist.html")
    return _count_of(m.act("browser_click", target=m.find("checkbox", "Select all")))


def _count_of(text: str) -> str:
    return _last(r"(\d+) of \d+ selected", text)


def all_check(app: App, run: str, answer: str) -> tuple[bool, str]:
    return answer == "5", f"answered {answer!r}"


# A contact form whose status comes 600 ms after submit, on a timer.


def contact_after(b: Browse, app: App, run: str) -> str:
    b.must("goto", app.base + "/reports3/contact.html?delay=600")
    b.act("fill", b.find("textbox", "Your name"), f"Ann {run}")
    sent = b.act("click", b.find("button", "Send"))
    if "Thanks" in sent:
        return sent
    read = b.must("text")
    if "Thanks" in read:
        return read
    b.wait("1000")  # the status is not there yet: an agent looks again a little later
    return b.must("text")


def contact_before(b: Browse, app: App, run: str) -> str:
    b.must("goto", app.base + "/reports3/contact.html?delay=600")
    b.act("fill", b.find("textbox", "Your name"), f"Ann {run}")
    b.act("click", b.find("button", "Send"))
    return b.must("text")


def contact_mcp(m: Mcp, app: App, run: str) -> str:
    m.act("browser_navigate", url=app.base + "/reports3/contact.html?delay=600")
    m.act("browser_type", target=m.find("textbox", "Your name"), text=f"Ann {run}")
    return m.act("browser_click", target=m.find("button", "Send"))


def contact_check(app: App, run: str, answer: str) -> tuple[bool, str]:
    return "Thanks, your message was sent." in answer, f"answered {answer[-80:]!r}"


# A runs grid: search, say how many runs match.


def runs_after(b: Browse, app: App, run: str) -> str:
    b.must("goto", app.base + "/reports3/runs.html")
    b.act("fill", b.find("searchbox", "Search runs"), "tree")
    pressed = b.act("press", "Enter")
    found = re.search(r'→ "(\d+) matching runs"', pressed)
    return found.group(1) if found else _count(b.must("find", "matching runs"))


def runs_before(b: Browse, app: App, run: str) -> str:
    b.must("goto", app.base + "/reports3/runs.html")
    b.act("fill", b.find("searchbox", "Search runs"), "tree")
    b.act("press", "Enter")
    return _count(b.must("text"))


def runs_mcp(m: Mcp, app: App, run: str) -> str:
    m.act("browser_navigate", url=app.base + "/reports3/runs.html")
    m.act("browser_type", target=m.find("searchbox", "Search runs"), text="tree", submit=True)
    return _count(m.snapshot())


def _count(text: str) -> str:
    found = re.search(r"(\d+) matching runs", text)
    return found.group(1) if found else ""


def runs_check(app: App, run: str, answer: str) -> tuple[bool, str]:
    return answer == "5", f"answered {answer!r}"


ADMIN_TASKS = [
    Task("admin-like: add a related group in a popup", "adminlike", "the new group chosen", popup_before,
         popup_after, popup_mcp, popup_check),
    Task("admin-like: move a choice between lists", "adminlike", "the list editors is in", move_before,
         move_after, move_mcp, move_check),
    Task("admin-like: select every row", "adminlike", "how many rows are selected", all_before, all_after,
         all_mcp, all_check),
    Task("admin-like: a status on a timer", "adminlike", "the status after submit", contact_before,
         contact_after, contact_mcp, contact_check),
    Task("admin-like: search a runs grid", "adminlike", "how many runs match", runs_before, runs_after,
         runs_mcp, runs_check),
]  # fmt: skip
