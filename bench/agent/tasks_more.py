"""Tasks on the two more apps: run a cell in a new notebook and save it; read a signature's default.

The scripts read refs by role and name from what the tool printed, as the
first five tasks do; a ref that is not there costs a snapshot, counted as a
re-read. No script takes a screenshot to read text: the figure says so.
"""

from __future__ import annotations

import html
import json
import os
import re

from agent.apps_more import PYTHON_DOCS, JupyterLab, PythonDocs
from agent.drivers import Browse, Mcp
from agent.reading import has
from agent.tasks import Task
from agent.tasks_admin import ADMIN_TASKS

# JupyterLab: a new notebook from the launcher, one cell run, saved under a name of the run's.


BOOT_LOOKS = 8  # JupyterLab restores its workspace after load: an agent looks again until the launcher is up


def notebook_after(b: Browse, app: JupyterLab, run: str) -> str:
    b.must("goto", app.base + "/lab")
    launcher = b.find("button", "Python 3 (ipykernel)", looks=BOOT_LOOKS)  # the first card: a notebook
    if has(b.last, "button", "No", exact=True):  # the news toast, on a first visit
        b.act("click", b.find("button", "No", exact=True))
    b.act("click", launcher)
    b.act("fill", b.find_hinted("textbox", "[ ]:"), f'print(6*7, "{run}")')
    ran = b.act("press", "Shift+Enter")
    b.act("press", "Control+s")
    b.act("fill", b.find("textbox", "File name"), f"{run}.ipynb")
    b.act("click", b.find("button", "Rename and Save"))
    # the run's report says the cell's output when the build reports it (`text appeared`); else a find
    return _output_line(ran, run) or _output_line(b.must("find", f"42 {run}"), run)


def notebook_before(b: Browse, app: JupyterLab, run: str) -> str:
    b.must("goto", app.base + "/lab")
    b.snapshot("-i")
    launcher = b.find("button", "Python 3 (ipykernel)", looks=BOOT_LOOKS)
    if has(b.last, "button", "No", exact=True):
        b.act("click", b.find("button", "No", exact=True))
    b.act("click", launcher)
    b.snapshot("-i")  # the notebook the click opened
    b.act("fill", b.find_hinted("textbox", "[ ]:"), f'print(6*7, "{run}")')
    b.act("press", "Shift+Enter")
    b.act("press", "Control+s")
    b.snapshot("-i")  # the dialog the keys opened
    b.act("fill", b.find("textbox", "File name"), f"{run}.ipynb")
    b.act("click", b.find("button", "Rename and Save"))
    return _output_line(b.must("find", f"42 {run}"), run)


def _output_line(found: str, run: str) -> str:
    """The hit that shows the cell's output (not a fence line, whose nonce may hold the digits)."""
    return next(
        (line for line in found.splitlines() if f"42 {run}" in line and not line.startswith("<<<")), ""
    )


def notebook_mcp(m: Mcp, app: JupyterLab, run: str) -> str:
    m.act("browser_navigate", url=app.base + "/lab")
    # a launcher card is a button without a name around the kernel's name: the first is a notebook
    launcher = m.find_near('generic "Python 3 (ipykernel)"', "button", before=True, looks=BOOT_LOOKS)
    if has(m.last, "button", "No", exact=True):
        m.act("browser_click", target=m.find("button", "No", exact=True))
    m.act("browser_click", target=launcher)
    # the cell editor has no name: it is the textbox after the cell's prompt
    m.act("browser_type", target=m.find_near("[ ]:", "textbox"), text=f'print(6*7, "{run}")')
    m.act("browser_press_key", key="Shift+Enter")
    m.act("browser_press_key", key="Control+s")
    m.act("browser_type", target=m.find("textbox", "File name"), text=f"{run}.ipynb")
    m.act("browser_click", target=m.find("button", "Rename and Save"))
    _, text = m.call(
        "browser_evaluate",
        {"function": "() => document.querySelector('.jp-OutputArea-output').innerText"},
        action=False,
    )
    return _output_line(text.replace("\\n", "\n"), run)


def notebook_check(app: JupyterLab, run: str, answer: str) -> tuple[bool, str]:
    path = os.path.join(app.notebooks, f"{run}.ipynb")
    try:
        with open(path) as f:
            cells = json.load(f).get("cells", [])
    except (OSError, ValueError):
        return False, f"no notebook {run}.ipynb saved"
    outputs = ["".join(o.get("text", "")) for c in cells for o in c.get("outputs", [])]
    ran = any(f"42 {run}" in text for text in outputs)
    return ran and f"42 {run}" in answer, f"saved outputs {outputs!r}, answered {answer[:60]!r}"


# Python's docs (Sphinx): the default of a parameter, read where the signature stands.

ASYNCIO = "/library/asyncio-task.html"


def gather_after(b: Browse, app: PythonDocs, run: str) -> str:
    b.must("goto", app.base + ASYNCIO)
    found = b.must("find", "gather(*aws")
    if answer := _default_of(found):  # the hit's line holds the whole signature
        return answer
    passage = b.must("read", "@" + found.split("@", 1)[1].split()[0]) if "@" in found else b.must("text")
    return _default_of(passage)


def gather_before(b: Browse, app: PythonDocs, run: str) -> str:
    b.must("goto", app.base + ASYNCIO)
    b.snapshot("-i")
    return _default_of(b.must("text"))


def _default_of(text: str) -> str:
    flat = " ".join(text.split())
    found = re.search(r"gather ?\(\*aws, return_exceptions=(\w+)\)", flat)
    return found.group(1) if found else ""


def gather_mcp(m: Mcp, app: PythonDocs, run: str) -> str:
    read = m.act("browser_navigate", url=app.base + ASYNCIO)  # its snapshot holds the signature's text
    if answer := _default_of(read):
        return answer
    _, text = m.call("browser_evaluate", {"function": "() => document.body.innerText"}, action=False)
    return _default_of(text)


def gather_check(app: PythonDocs, run: str, answer: str) -> tuple[bool, str]:
    with open(PYTHON_DOCS + ASYNCIO, encoding="utf-8") as f:
        page = " ".join(html.unescape(re.sub(r"<[^>]+>", "", f.read())).split())
    found = re.search(r"gather\(\*aws, return_exceptions=(\w+)\)", page)
    truth = found.group(1) if found else "?"
    return answer == truth, f"answered {answer!r}, the page says {truth!r}"


# The same site: a callable with two signatures (two <dt>, one <dd>): the second one's default.

FUNCTOOLS = "/library/functools.html"


def lru_after(b: Browse, app: PythonDocs, run: str) -> str:
    arrived = b.must("goto", app.base + FUNCTOOLS + "#functools.lru_cache")  # its report prints the passage
    if answer := _maxsize_of(arrived):
        return answer
    passage = b.must("read", "#functools.lru_cache")
    return _maxsize_of(passage) or _maxsize_of(b.must("text"))


def lru_before(b: Browse, app: PythonDocs, run: str) -> str:
    b.must("goto", app.base + FUNCTOOLS + "#functools.lru_cache")
    b.snapshot("-i")
    return _maxsize_of(b.must("text"))


def lru_mcp(m: Mcp, app: PythonDocs, run: str) -> str:
    read = m.act("browser_navigate", url=app.base + FUNCTOOLS + "#functools.lru_cache")
    if answer := _maxsize_of(read):
        return answer
    _, text = m.call("browser_evaluate", {"function": "() => document.body.innerText"}, action=False)
    return _maxsize_of(text)


def _maxsize_of(text: str) -> str:
    found = re.search(r"functools\.lru_cache ?\(maxsize=(\w+), typed=False\)", " ".join(text.split()))
    return found.group(1) if found else ""


def lru_check(app: PythonDocs, run: str, answer: str) -> tuple[bool, str]:
    with open(PYTHON_DOCS + FUNCTOOLS, encoding="utf-8") as f:
        page = " ".join(html.unescape(re.sub(r"<[^>]+>", "", f.read())).split())
    found = re.search(r"functools\.lru_cache\(maxsize=(\w+), typed=False\)", page)
    truth = found.group(1) if found else "?"
    return answer == truth, f"answered {answer!r}, the page says {truth!r}"


MORE_TASKS = [
    Task(
        "jupyterlab: run a cell, save the notebook",
        "jupyterlab",
        "a saved notebook whose cell printed 42",
        notebook_before,
        notebook_after,
        notebook_mcp,
        notebook_check,
    ),
    Task(
        "python-docs: a parameter's default",
        "python-docs",
        "return_exceptions' default in asyncio.gather",
        gather_before,
        gather_after,
        gather_mcp,
        gather_check,
    ),
    Task(
        "python-docs: a second signature's default",
        "python-docs",
        "maxsize's default in functools.lru_cache",
        lru_before,
        lru_after,
        lru_mcp,
        lru_check,
    ),
    *ADMIN_TASKS,
]
