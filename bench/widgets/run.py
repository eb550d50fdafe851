"""The widget suite: classic widgets built the old way (plain elements and listeners), each driven as an
agent would, by refs only, and checked as a person would check it.

Run: .venv/bin/python bench/widgets/run.py [--browse PATH] [--only NAME]

Each task starts on a fresh page of `pages/` served from 127.0.0.1 and is a
script of `browse` calls an agent could write from what the previous calls
printed: a ref is taken from the output already read since the page loaded,
and where none names what the script needs, it takes `browse snapshot -i` (a
call, counted) before giving up. No CSS selector, no `js`, no coordinates. The
check reads the page's state with `browse js` (not counted: it is the person
looking, not the agent). Prints calls and characters a task, and their means.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

PAGES = Path(__file__).parent / "pages"
REF = re.compile(r"@[ec]\d+")


class Stuck(Exception):
    """The script found nothing it could act on: the task fails here."""


@dataclass
class Agent:
    """`browse` as an agent runs it: each call's output read back, refs taken only from what it read."""

    browse: str
    env: dict[str, str]
    calls: int = 0
    chars: int = 0
    read: list[str] = field(default_factory=list)  # outputs since the page loaded, newest first

    def run(self, *args: str, stdin: str | None = None) -> str:
        done = subprocess.run(
            [self.browse, *args], env=self.env, capture_output=True, text=True, input=stdin, timeout=60
        )
        said = done.stdout + done.stderr
        self.calls += 1
        self.chars += len(said)
        self.read = [said] if args[0] == "goto" else [said, *self.read]
        if done.returncode != 0:
            raise Stuck(f"browse {' '.join(args)}: {said.strip()[-300:]}")
        return said

    def ref(self, line: str) -> str:
        """The ref on a line read so far that matches the regex `line`; a `snapshot -i` when none does."""
        for text in [*self.read, None]:
            if text is None:
                text = self.run("snapshot", "-i")
            for each in _ranges_read(text).splitlines():
                match = re.search(line, each)
                found = REF.search(each, match.end()) if match else None
                if found is not None:  # the ref after the words: a line may list several
                    return found.group(0)
        raise Stuck(f"no line matching {line!r} has a ref")

    def look(self, expression: str) -> object:
        """The page's state, for the check: not a call of the agent's."""
        done = subprocess.run(
            [self.browse, "--json", "--raw", "js", expression], env=self.env, capture_output=True, text=True
        )
        return json.loads(done.stdout)["data"]["value"]


_RANGE = re.compile(r'"(\d+)"…"(\d+)" @([ec])(\d+)…@[ec](\d+)')


def _ranges_read(text: str) -> str:
    """`"1"…"30" @e107…@e136` read as a person reads it: "1" @e107, "2" @e108, … "30" @e136."""

    def spelled(m: re.Match[str]) -> str:
        first, ref = int(m[1]), int(m[4])
        return ", ".join(f'"{n}" @{m[3]}{ref + n - first}' for n in range(first, int(m[2]) + 1))

    return _RANGE.sub(spelled, text)


Script = Callable[[Agent, str], None]
Check = Callable[[Agent], bool]


@dataclass(frozen=True)
class Task:
    name: str
    page: str
    goal: str
    script: Script
    check: Check


def datepicker(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("click", a.ref(r'textbox "Date"'))
    a.run("click", a.ref(r'link "Prev"'))
    a.run("click", a.ref(r'"12"'))


def autocomplete(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("type", a.ref(r'textbox "City"'), "New")
    a.run("click", a.ref(r'"New York"'))


def sortable(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("drag", a.ref(r'listitem "Krissie"'), a.ref(r'listitem "Alpha"'))


def slider(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("drag", a.ref(r"slider handle"), "+150,0")


def spinner(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("fill", a.ref(r'textbox "Guests"'), "3")


def colours(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("click", a.ref(r'"green swatch"'))


def tabs(a: Agent, url: str) -> None:
    a.run("goto", url)
    said = a.run("click", a.ref(r'"Billing"'))
    if "renews on 3 May" not in said:
        raise Stuck("the click's report did not show the Billing panel")


def collapsible(a: Agent, url: str) -> None:
    a.run("goto", url)
    said = a.run("click", a.ref(r'"Shipping"'))
    if "2 days" not in said:
        raise Stuck("the click's report did not show the answer")


def tree(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("click", a.ref(r'"▸ src"'))
    a.run("dblclick", a.ref(r'"main\.py"'))


def menu(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("hover", a.ref(r'"File"'))
    a.run("hover", a.ref(r'"Export"'))
    a.run("click", a.ref(r'"PDF"'))


def inbox(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("click", a.ref(r'"Reply"(?=.*Bob)'))
    a.run("fill", a.ref(r'textbox "Message"'), "On it.")
    a.run("click", a.ref(r'"send forward"'))


def editor(a: Agent, url: str) -> None:
    a.run("goto", url)
    box = a.ref(r'textbox "Write a note"')
    a.run("fill", box, "Hello")
    a.run("selecttext", box)
    a.run("click", a.ref(r'button "bold"'))


def terminal(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("type", a.ref(r'"Terminal"'), "ls")
    said = a.run("press", "Enter")
    if "report.pdf" not in said:
        raise Stuck("the key's report did not show the command's output")


def shapes(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("click", a.ref(r'"yellow circle"'))


def highlight(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("selecttext", "text=The committee met", "--from", "It decided", "--to", "June.")
    a.run("click", a.ref(r'button "Highlight"'))


def copypaste(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("selecttext", "text=SPRING-4821-XQ")
    a.run("clipboard", "copy")
    a.run("click", a.ref(r'textbox "Enter the voucher code"'))
    a.run("clipboard", "paste")


def resize(a: Agent, url: str) -> None:
    a.run("goto", url)
    a.run("drag", a.ref(r'"resize handle"'), "+100,0")


def _said(a: Agent, element: str) -> str:
    return str(a.look(f"document.getElementById('{element}').textContent"))


TASKS = (
    Task(
        "datepicker",
        "datepicker.html",
        "the 12th of the month before",
        datepicker,
        lambda a: a.look("document.getElementById('date').value") == "2026-02-12",
    ),
    Task(
        "autocomplete",
        "autocomplete.html",
        "a city the list offers late",
        autocomplete,
        lambda a: a.look("document.getElementById('city').value") == "New York",
    ),
    Task(
        "sortable",
        "sortable.html",
        "Krissie to the top",
        sortable,
        lambda a: a.look("document.querySelector('#list li').textContent") == "Krissie",
    ),
    Task("slider", "slider.html", "volume to about 75", slider, lambda a: 65 <= int(_said(a, "value")) <= 85),
    Task(
        "spinner",
        "spinner.html",
        "3 guests",
        spinner,
        lambda a: a.look("document.getElementById('n').value") == "3",
    ),
    Task(
        "colours", "colours.html", "the green swatch", colours, lambda a: "17, 170, 17" in _said(a, "chosen")
    ),
    Task(
        "tabs",
        "tabs.html",
        "read the Billing tab",
        tabs,
        lambda a: a.look("getComputedStyle(document.getElementById('billing')).display") == "block",
    ),
    Task(
        "collapsible",
        "collapsible.html",
        "read the Shipping answer",
        collapsible,
        lambda a: a.look("document.querySelectorAll('.a.open').length") == 1,
    ),
    Task("tree", "tree.html", "open src/main.py", tree, lambda a: _said(a, "open") == "main.py"),
    Task("menu", "menu.html", "File > Export > PDF", menu, lambda a: _said(a, "said") == "Ran PDF"),
    Task(
        "inbox",
        "inbox.html",
        "reply to Bob",
        inbox,
        lambda a: _said(a, "said") == "Sent: Reply to Bob: On it.",
    ),
    Task(
        "editor",
        "editor.html",
        "a bold Hello",
        editor,
        lambda a: "<b>Hello</b>" in str(a.look("document.querySelector('.ql-editor').innerHTML")),
    ),
    Task(
        "terminal",
        "terminal.html",
        "ls and read its output",
        terminal,
        lambda a: "report.pdf" in _said(a, "term"),
    ),
    Task(
        "shapes",
        "shapes.html",
        "the yellow circle",
        shapes,
        lambda a: _said(a, "said") == "You picked circle #fc0",
    ),
    Task(
        "highlight",
        "highlight.html",
        "highlight one sentence",
        highlight,
        lambda a: (
            a.look("document.querySelector('mark') && document.querySelector('mark').textContent")
            == "It decided to move the launch to June."
        ),
    ),
    Task(
        "copypaste",
        "copypaste.html",
        "copy the voucher code into its field",
        copypaste,
        lambda a: a.look("document.getElementById('voucher').value") == "SPRING-4821-XQ",
    ),
    Task("resize", "resize.html", "100 pixels wider", resize, lambda a: 240 <= int(_said(a, "w")) <= 260),
)


def serve(root: Path = PAGES) -> tuple[ThreadingHTTPServer, str]:
    handler = functools.partial(_Quiet, directory=str(root))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def run(
    browse: str, only: str, tasks: tuple[Task, ...] | None = None, root: Path = PAGES
) -> list[dict[str, object]]:
    server, base = serve(root)
    rows = []
    with tempfile.TemporaryDirectory() as state:
        env = {**os.environ, "BROWSE_STATE_DIR": state}
        try:
            for task in (t for t in (TASKS if tasks is None else tasks) if only in t.name):
                agent = Agent(browse, env)
                error = ""
                try:
                    task.script(agent, f"{base}/{task.page}")
                    passed = task.check(agent)
                except Stuck as exc:
                    passed, error = False, str(exc)
                rows.append(
                    {
                        "task": task.name,
                        "goal": task.goal,
                        "passed": passed,
                        "calls": agent.calls,
                        "chars": agent.chars,
                        "error": error,
                    }
                )
                print(
                    f"{task.name:13} {'pass' if passed else 'FAIL'} {agent.calls} calls {agent.chars:6} chars"
                    + (f"  {error[:160]}" if error else ""),
                    flush=True,
                )
        finally:
            subprocess.run([browse, "stop"], env=env, capture_output=True)
            server.shutdown()
    return rows


def summary(rows: list[dict[str, object]]) -> str:
    passed = sum(1 for row in rows if row["passed"])
    calls = [int(str(row["calls"])) for row in rows]
    chars = [int(str(row["chars"])) for row in rows]
    return (
        f"{passed} of {len(rows)} tasks passed; calls a task: mean {statistics.mean(calls):.2f}, "
        f"median {statistics.median(calls)}; characters a task: mean {statistics.mean(chars):.0f}, "
        f"median {statistics.median(chars)}; 0 CSS selectors, 0 js, 0 coordinates"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--browse", default=str(Path(sys.executable).parent / "browse"))
    parser.add_argument("--only", default="")
    parser.add_argument("--out", default="")
    options = parser.parse_args()
    rows = run(options.browse, options.only)
    print(summary(rows))
    if options.out:
        Path(options.out).write_text(json.dumps({"tasks": rows, "summary": summary(rows)}, indent=1) + "\n")
    return 0 if all(row["passed"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
