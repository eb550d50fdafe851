"""The tasks: for each app, the scripts an agent runs (before, after, @playwright/mcp) and the check.

"before" is what an agent needs with a tool whose actions say little and
return before the page settles: a snapshot to see the menu a click opened, a
full snapshot to tell unnamed boxes apart, a bare wait and a confirm-snapshot
after a save. "after" is the same errand once actions report their effects and
settle: refs come from the action's own report when it shows them (else a
snapshot is taken, and counted), and no confirm-snapshot or bare wait. The MCP
script does the errand with @playwright/mcp's tools, reading refs from its
snapshots. A task passes when the application's own state (database, file,
built site) says the errand was done.
"""

from __future__ import annotations

import html
import json
import os
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agent.apps import ADMIN, Datasette, Docs, NiceGui, Panel, Wagtail
from agent.drivers import Browse, Mcp, TaskFailed
from agent.reading import NotFound, line_with

Script = Callable[[Any, Any, str], str]
MENU_BUTTONS = "clicks the item of that name"  # what `select --help` says once it opens any menu button


@dataclass
class Task:
    name: str
    app: str
    goal: str
    before: Script
    after: Script
    mcp: Script
    check: Callable[[Any, str, str], tuple[bool, str]]


def fill_form(b: Browse, *pairs: tuple[str, str]) -> None:
    """The fields in one `fill` when this build's fill sets several (its help says so), else one by one."""
    if len(pairs) > 1 and b.documented("fill", "several in one call"):
        # a login's throwaway password in the command line, as a script would give it: a build that
        # refuses a password in argv is told it is meant
        meant = ("--allow-argv-secret",) if b.documented("fill", "--allow-argv-secret") else ()
        b.act("fill", *(word.removeprefix("select:") for pair in pairs for word in pair), *meant)
        return
    for selector, value in pairs:
        verb = "check" if value == "yes" else "select" if value.startswith("select:") else "fill"
        b.act(verb, selector, *([] if verb == "check" else [value.removeprefix("select:")]))


# Datasette: filter a table, sort it from a column's menu, read the top row.


def cities_before(b: Browse, app: Datasette, run: str) -> str:
    b.must("goto", app.base + "/places/cities")
    b.snapshot("-i")
    b.act("select", b.find_near('option "- column -"', "combobox", before=True), "country")
    b.act("fill", b.find_near(': "="', "textbox"), "Norway")
    b.act("click", b.find("button", "Apply"))
    b.snapshot("-i")
    b.act("click", b.find_near('link "population"', "img"))
    b.snapshot("-i")  # the click said nothing of the menu it opened
    b.act("click", b.find("link", "Sort descending"))
    return first_cell(b.must("tables"))


def cities_after(b: Browse, app: Datasette, run: str) -> str:
    b.must("goto", app.base + "/places/cities")
    column = b.find_near('option "- column -"', "combobox", before=True)
    fill_form(b, (column, "select:country"), (b.find_near(': "="', "textbox"), "Norway"))
    b.act("click", b.find("button", "Apply"))
    if b.documented("select", MENU_BUTTONS):  # a build whose select opens the column's menu itself
        b.act("select", b.find_near('link "population"', "img"), "Sort descending")
    else:
        b.act("click", b.find_near('link "population"', "img"))
        b.act("click", b.find("link", "Sort descending"))
    return first_cell(b.must("tables"))


def cities_mcp(m: Mcp, app: Datasette, run: str) -> str:
    m.act("browser_navigate", url=app.base + "/places/cities")
    # its comboboxes have no name: each is known by the options listed under it
    m.act(
        "browser_select_option",
        target=m.find_near('"- column -"', "combobox", before=True),
        values=["country"],
    )
    m.act("browser_type", target=m.find_near('"is not blank"', "textbox"), text="Norway")
    m.act("browser_click", target=m.find("button", "Apply"))
    m.act("browser_click", target=m.find_near('link "population"', "img"))
    m.act("browser_click", target=m.find("link", "Sort descending"))
    _, text = m.call(
        "browser_evaluate",
        {"function": "() => document.querySelector('td.col-name').innerText"},
        action=False,
    )
    return text_value(text)


def first_cell(csv_text: str) -> str:
    """The name in the first data row of `browse tables` (header first, fenced)."""
    rows = [line for line in csv_text.splitlines() if line and not line.startswith("<<<")]
    return rows[1].split(",")[1] if len(rows) > 1 else ""


def text_value(mcp_text: str) -> str:
    """The value in @playwright/mcp's `### Result` block."""
    match = re.search(r"### Result\s*\n(.*)", mcp_text)
    return match.group(1).strip().strip('"') if match else ""


def cities_check(app: Datasette, run: str, answer: str) -> tuple[bool, str]:
    with sqlite3.connect(app.db) as db:
        (top,) = db.execute(
            "select name from cities where country = 'Norway' order by population desc limit 1"
        ).fetchone()
    return answer == top, f"answered {answer!r}, the database says {top!r}"


# Wagtail: create a page under Home from the admin and publish it.


def wagtail_login(b: Any, app: Wagtail, mcp: bool) -> None:
    if mcp:
        b.act("browser_navigate", url=app.base + "/admin/login/")
        b.act("browser_type", target=b.find("textbox", "Username"), text=ADMIN[0])
        b.act("browser_type", target=b.find("textbox", "Password"), text=ADMIN[1])
        # its button has no name: the text "Sign in" is written in an element inside it
        b.act("browser_click", target=b.find_near("]: Sign in", "button", before=True))
        return
    b.must("goto", app.base + "/admin/login/")
    fill_form(b, (b.find("textbox", "Username"), ADMIN[0]), (b.find("textbox", "Password"), ADMIN[1]))
    b.act("click", b.find("button", "Sign in"))


def page_before(b: Browse, app: Wagtail, run: str) -> str:
    wagtail_login(b, app, mcp=False)
    b.snapshot("-i")
    b.act("click", b.find("button", "Pages", exact=True))
    b.snapshot("-i")  # the flyout the click opened
    b.act("click", b.find("link", "Home", exact=True))
    b.snapshot("-i")
    b.act("click", b.find("link", "Add child page"))
    b.snapshot("-i")
    b.act("fill", b.find("textbox", "Title"), f"Opening hours {run}")
    b.act("click", b.find("button", "More actions"))
    b.snapshot("-i")  # the dropdown the click opened
    b.act("click", b.find("button", "Publish", exact=True))
    b.snapshot()  # did it publish?
    return ""


def page_after(b: Browse, app: Wagtail, run: str) -> str:
    wagtail_login(b, app, mcp=False)
    menus = b.documented("select", MENU_BUTTONS)  # a build whose select opens the sidebar and footer menus
    if menus:
        b.act("select", b.find("button", "Pages", exact=True), "Home")
    else:
        b.act("click", b.find("button", "Pages", exact=True))
        b.act("click", b.find("link", "Home", exact=True))
    b.act("click", b.find("link", "Add child page"))
    b.act("fill", b.find("textbox", "Title"), f"Opening hours {run}")
    if menus:
        b.act("select", b.find("button", "More actions"), "Publish")
    else:
        b.act("click", b.find("button", "More actions"))
        b.act("click", b.find("button", "Publish", exact=True))
    return ""


def page_mcp(m: Mcp, app: Wagtail, run: str) -> str:
    wagtail_login(m, app, mcp=True)
    m.act("browser_click", target=m.find("button", "Pages", exact=True))
    m.snapshot()  # the flyout the click opened; its "Home" link has no name, a heading inside it has
    m.act("browser_click", target=m.find_near('heading "Home"', "link", before=True))
    m.act("browser_click", target=m.find("link", "Add child page"))
    m.act("browser_type", target=m.find("textbox", "Title"), text=f"Opening hours {run}")
    m.act("browser_click", target=m.find("button", "More actions"))
    m.snapshot()  # the dropdown the click opened
    m.act("browser_click", target=m.find_near("]: Publish", "button", before=True))
    return ""


def page_check(app: Wagtail, run: str, answer: str) -> tuple[bool, str]:
    title = f"Opening hours {run}"
    with sqlite3.connect(app.db) as db:
        rows = db.execute("select live, depth from wagtailcore_page where title = ?", (title,)).fetchall()
    return rows == [(1, 3)], f"pages titled {title!r} (live, depth): {rows}"


# NiceGUI: a Quasar select, a confirmation dialog, a notification.


def task_before(b: Browse, app: NiceGui, run: str) -> str:
    b.must("goto", app.base + "/")
    b.snapshot("-i")
    b.act("fill", b.find("textbox", "Title"), f"Renew passport {run}")
    b.act("click", b.find("combobox", "Priority"))
    b.snapshot("-i")  # the options the click opened
    b.act("click", b.find("option", "High", exact=True))
    b.act("click", b.find("button", "Save"))
    b.snapshot("-i")  # the dialog the click opened
    b.act("click", b.find("button", "Confirm"))
    b.wait("500")  # the save is a round trip to the server
    b.snapshot()  # did it save?
    return ""


def task_after(b: Browse, app: NiceGui, run: str) -> str:
    b.must("goto", app.base + "/")
    title = (b.find("textbox", "Title"), f"Renew passport {run}")
    if b.documented("fill", "custom dropdown"):  # a build whose fill sets a Quasar select too
        fill_form(b, title, (b.find("combobox", "Priority"), "select:High"))
    elif b.documented("select", "custom dropdown"):  # a build whose select opens a Quasar select itself
        b.act("fill", *title)
        b.act("select", b.find("combobox", "Priority"), "High")
    else:
        b.act("fill", *title)
        b.act("click", b.find("combobox", "Priority"))
        b.act("click", b.find("option", "High", exact=True))
    b.act("click", b.find("button", "Save"))
    b.act("click", b.find("button", "Confirm"))
    return ""


def task_mcp(m: Mcp, app: NiceGui, run: str) -> str:
    m.act("browser_navigate", url=app.base + "/")
    m.act("browser_type", target=m.find("textbox", "Title"), text=f"Renew passport {run}")
    m.act("browser_click", target=m.find("combobox", "Priority"))
    m.snapshot()
    m.act("browser_click", target=m.find("option", "High", exact=True))
    m.act("browser_click", target=m.find("button", "Save"))
    m.snapshot()
    m.act("browser_click", target=m.find("button", "Confirm"))
    return ""


def task_check(app: NiceGui, run: str, answer: str) -> tuple[bool, str]:
    saved = read_json(app.store)
    wanted = {"title": f"Renew passport {run}", "priority": "High"}
    return wanted in saved, f"wanted {wanted} among {len(saved)} saved"


# Panel: Bokeh widgets in shadow roots, one checkbox with no accessible name.


def booking_before(b: Browse, app: Panel, run: str) -> str:
    b.must("goto", app.base + "/panel_bookings")
    b.snapshot("-i")
    b.act("fill", b.find("textbox", "Guest name"), f"Grace Hopper {run}")
    b.act("select", b.find("combobox", "Room"), "Suite")
    b.act("fill", b.find("textbox", "Nights"), "3")
    b.snapshot()  # the checkbox has no name: the full snapshot shows its label next to it
    b.act("check", b.find_near('- "Breakfast included"', "checkbox", before=True))
    b.act("click", b.find("button", "Book"))
    b.wait("500")  # the booking is a round trip over the websocket
    b.snapshot()  # did it book?
    return ""


def booking_after(b: Browse, app: Panel, run: str) -> str:
    b.must("goto", app.base + "/panel_bookings")
    guest = (b.find("textbox", "Guest name"), f"Grace Hopper {run}")
    room = (b.find("combobox", "Room"), "select:Suite")
    fill_form(b, guest, room, (b.find("textbox", "Nights"), "3"), (breakfast(b), "yes"))
    b.act("click", b.find("button", "Book"))
    return ""


def breakfast(b: Browse) -> str:
    """The breakfast checkbox: by name, or by the hint of the text next to it, else from a full snapshot."""
    for find in (
        lambda: b.find("checkbox", "Breakfast", looks=0),
        lambda: b.find_hinted("checkbox", "Breakfast"),
    ):
        try:
            return find()
        except TaskFailed:
            continue
    b.snapshot()
    return b.find_near('- "Breakfast included"', "checkbox", before=True)


def booking_mcp(m: Mcp, app: Panel, run: str) -> str:
    m.act("browser_navigate", url=app.base + "/panel_bookings")
    m.act("browser_type", target=m.find("textbox", "Guest name"), text=f"Grace Hopper {run}")
    m.act("browser_select_option", target=m.find("combobox", "Room"), values=["Suite"])
    m.act("browser_type", target=m.find("textbox", "Nights"), text="3")
    m.act("browser_click", target=m.find_near("Breakfast included", "checkbox", before=True))
    m.act("browser_click", target=m.find("button", "Book"))
    return ""


def booking_check(app: Panel, run: str, answer: str) -> tuple[bool, str]:
    saved = read_json(app.store)
    wanted = {"guest": f"Grace Hopper {run}", "room": "Suite", "nights": 3, "breakfast": True}
    return wanted in saved, f"wanted {wanted} among {len(saved)} saved"


# MkDocs-Material: the site's search dialog, then a long page read for one option.


def docs_before(b: Browse, app: Docs, run: str) -> str:
    b.must("goto", app.base + "/")
    b.snapshot("-i")
    b.act("click", b.find("textbox", "Search"))
    b.act("type", "footnote")
    b.wait("500")  # results are computed in a worker after typing
    b.snapshot("-i")
    b.act("click", b.find_near('heading "Footnotes"', "link", before=True))  # the result, not the menu's link
    return backlink_line(b.must("text"))


def docs_after(b: Browse, app: Docs, run: str) -> str:
    b.must("goto", app.base + "/")
    if b.documented("fill", "searches as one types"):  # a build whose fill ends as a keystroke does
        b.act("fill", b.find("textbox", "Search"), "footnote")
    else:
        b.act("click", b.find("textbox", "Search"))
        b.act("type", "footnote")
    b.act("click", b.find_near('heading "Footnotes"', "link", before=True))
    return backlink_line(b.must("text"))


def docs_mcp(m: Mcp, app: Docs, run: str) -> str:
    m.act("browser_navigate", url=app.base + "/")
    m.act("browser_type", target=m.find("textbox", "Search"), text="footnote")
    m.act("browser_wait_for", text="matching documents")  # results come from a worker, later
    # its result links and their headings have no name: the first result follows the count
    m.act("browser_click", target=m.find_near("matching documents", "link"))
    _, text = m.call("browser_evaluate", {"function": "() => document.body.innerText"}, action=False)
    return backlink_line(text.replace("\\n", "\n"))


def backlink_line(text: str) -> str:
    try:
        return line_with(text, "BACKLINK_TEXT")
    except NotFound:
        return ""


def docs_check(app: Docs, run: str, answer: str) -> tuple[bool, str]:
    path = os.path.join(app.site, "extensions", "footnotes", "index.html")
    with open(path, encoding="utf-8") as f:
        page = " ".join(html.unescape(re.sub(r"<[^>]+>", "", f.read())).split())
    said = " ".join(answer.split())
    return bool(said) and "BACKLINK_TEXT" in said and said in page, f"read {said[:80]!r}"


def read_json(path: str) -> list[dict[str, Any]]:
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return []
    return data if isinstance(data, list) else []


TASKS = [
    Task(
        "datasette: filter, sort, read",
        "datasette",
        "Norway's most populous city",
        cities_before,
        cities_after,
        cities_mcp,
        cities_check,
    ),
    Task(
        "wagtail: create and publish a page",
        "wagtail",
        "a live child page of Home",
        page_before,
        page_after,
        page_mcp,
        page_check,
    ),
    Task(
        "nicegui: select, dialog, toast",
        "nicegui",
        "a task saved with priority High",
        task_before,
        task_after,
        task_mcp,
        task_check,
    ),
    Task(
        "panel: shadow-DOM booking form",
        "panel",
        "a booking saved with every field",
        booking_before,
        booking_after,
        booking_mcp,
        booking_check,
    ),
    Task(
        "mkdocs-material: search, read an option",
        "mkdocs-material",
        "BACKLINK_TEXT's line",
        docs_before,
        docs_after,
        docs_mcp,
        docs_check,
    ),
]
