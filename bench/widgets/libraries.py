"""Real widget libraries, unmodified from npm, driven as an agent would: by refs only.

Run: .venv/bin/python bench/widgets/libraries.py [--browse PATH] [--only NAME]

The libraries (pinned in `LIBRARIES`) are installed with npm into
`bench/widgets/libs/` (gitignored) on the first run; each page of `libpages/`
loads them as an app would (`nm/` is their node_modules) and says its task.
Each task is a script of `browse` calls an agent could write from what the
previous calls printed, as in `run.py`: refs taken from the output already read,
a `snapshot -i` (counted) where none names what it needs, no CSS selector, no
`js`, no coordinates; the check reads the page's own state with `browse js`
(the person looking, not counted). What each library needed is in `NEEDED`.
"""

from __future__ import annotations

import argparse
import datetime
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from run import Agent, Task, run, summary

HERE = Path(__file__).parent
LIBS = HERE / "libs"
LIBRARIES = (
    "jquery@3.8.0",  # Select2 4.0 needs jQuery 3; jQuery UI 1.14 takes it too
    "jquery-ui@1.14.2",
    "sortablejs@1.15.7",
    "flatpickr@4.6.13",
    "select2@4.0.13",
    "quill@2.0.3",
    "@xterm/xterm@6.0.0",
)


def ensure_libraries() -> None:
    if all((LIBS / "node_modules" / name.rpartition("@")[0]).is_dir() for name in LIBRARIES):
        return
    if not shutil.which("npm"):
        sys.exit("npm is needed to install the widget libraries: apt-get install -y nodejs npm")
    LIBS.mkdir(exist_ok=True)
    (LIBS / "package.json").write_text('{"name": "widget-libraries", "private": true}\n')
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", *LIBRARIES], cwd=LIBS, check=True)


def next_month(day: int) -> datetime.date:
    today = datetime.date.today()
    year, month = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
    return datetime.date(year, month, day)


def jqui_sortable(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("drag", a.ref(r'listitem "Krissie"'), a.ref(r'listitem "Alice"'))


def jqui_slider(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("fill", a.ref(r"slider handle"), "70")


def jqui_datepicker(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("click", a.ref(r'textbox "Date"'))
    a.run("click", a.ref(r'"Next"'))
    a.run("click", a.ref(r'"15"'))


def jqui_autocomplete(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("type", a.ref(r'textbox "Language"'), "Ja")
    a.run("click", a.ref(r'"Java"'))


def jqui_selectmenu(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("select", a.ref(r'combobox(?=.*"Speed")'), "Fast")


def sortablejs(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("drag", a.ref(r'listitem "Fix login"'), a.ref(r'listitem "Write docs"'))


def flatpickr(a: Agent, url: str) -> None:
    day = next_month(10)
    a.run("goto", url)
    a.run("click", a.ref(r'textbox "Arrival"'))
    a.run("click", a.ref(r'"next month"'))
    a.run("click", a.ref(f'"{day:%B} 10, {day.year}"'))
    a.run("click", a.ref(r'button "Book"'))


def select2(a: Agent, url: str) -> None:
    a.run("goto", url)
    box = a.ref(r"searchbox")
    a.run("fill", box, "python")
    a.run("fill", box, "asyncio")
    a.run("click", a.ref(r'button "Save"'))


def quill(a: Agent, url: str) -> None:
    a.run("goto", url)
    editor = a.ref(r'textbox "editor"')
    a.run("type", editor, "Hello brave world")
    a.run("selecttext", editor, "--from", "brave", "--to", "brave")
    a.run("click", a.ref(r'button "bold"'))
    a.run("click", a.ref(r'button "Save"'))


def xterm(a: Agent, url: str) -> None:
    a.run("goto", url)
    terminal = a.ref(r'textbox "Terminal input"')
    a.run("type", terminal, "seq 3")
    a.run("press", "Enter")


def _said(a: Agent, element: str) -> str:
    return str(a.look(f"document.getElementById({element!r}).textContent"))


def _value(a: Agent, element: str) -> str:
    return str(a.look(f"document.getElementById({element!r}).value"))


TASKS = (
    Task(
        "jqui-sortable",
        "jqui.html",
        "move an item to the top",
        jqui_sortable,
        lambda a: _said(a, "result").startswith("Order: Krissie,"),
    ),
    Task("jqui-slider", "jqui.html", "set the volume to 70", jqui_slider, lambda a: _said(a, "vol") == "70"),
    Task(
        "jqui-datepick",
        "jqui.html",
        "the 15th of next month",
        jqui_datepicker,
        lambda a: _value(a, "date") == f"{next_month(15):%m/%d/%Y}",
    ),
    Task(
        "jqui-autocomp",
        "jqui.html",
        "a language from the late list",
        jqui_autocomplete,
        lambda a: _value(a, "lang") == "Java",
    ),
    Task(
        "jqui-selectmenu",
        "jqui.html",
        "a speed",
        jqui_selectmenu,
        lambda a: _said(a, "result") == "Speed: Fast",
    ),
    Task(
        "sortablejs",
        "sortablejs.html",
        "move an item to the top",
        sortablejs,
        lambda a: _said(a, "result").startswith("Order: Fix login,"),
    ),
    Task(
        "flatpickr",
        "flatpickr.html",
        "the 10th of next month",
        flatpickr,
        lambda a: _said(a, "result") == f"Booked {next_month(10):%Y-%m-%d}",
    ),
    Task(
        "select2",
        "select2.html",
        "a tag offered and a new one",
        select2,
        lambda a: _said(a, "result") == "Saved: python, asyncio",
    ),
    Task(
        "quill",
        "quill.html",
        "a bold word in an editor",
        quill,
        lambda a: "Hello <strong>brave</strong> world" in _said(a, "result"),
    ),
    # the lines the shell printed are read from the Enter's report, with no call to read them
    Task("xterm", "xterm.html", "a command's output", xterm, lambda a: 'text appeared: "3"' in a.read[0]),
)

NEEDED = {
    "jqui-sortable": "drag from item to item: the items have refs from the sortable's own markers",
    "jqui-slider": "fill of the handle (no ARIA): it reads its place on the track, 0-100",
    "jqui-datepick": "the calendar's Next and days are anchors with one listener on the calendar",
    "jqui-autocomp": "type waits for the list that opens 300 ms after the last key",
    "jqui-selectmenu": "select on the drawn combobox opens it and clicks the option",
    "sortablejs": "drag: SortableJS's expando on the list marks its items",
    "flatpickr": "the month arrows are named by their class (prev month, next month); days by their label",
    "select2": "fill of the search box picks an offered tag and creates a new one (Enter)",
    "quill": "the editor is a text box named by its class; selecttext then the bold button",
    "xterm": "type into its input; the Enter's report says the lines the shell printed (DOM renderer)",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--browse", default=str(Path(sys.executable).parent / "browse"))
    parser.add_argument("--only", default="")
    parser.add_argument("--out", default="")
    options = parser.parse_args()
    ensure_libraries()
    with tempfile.TemporaryDirectory() as root:
        site = Path(root)
        for page in (HERE / "libpages").glob("*.html"):
            shutil.copy(page, site / page.name)
        (site / "nm").symlink_to(LIBS / "node_modules")
        rows = run(options.browse, options.only, TASKS, site)
    for row in rows:
        print(f"  {row['task']}: {NEEDED[str(row['task'])]}")
    print(summary(rows))
    if options.out:
        Path(options.out).write_text(json.dumps({"tasks": rows, "summary": summary(rows)}, indent=1) + "\n")
    return 0 if all(row["passed"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
