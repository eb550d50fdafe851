"""Page scripts: every `.js` file parses, composes into one expression, and its helpers are pure.

The files are checked with the Node that Playwright ships (`make check` runs
`node --check` too); the pure helpers of `dom.js` run here against a tiny
DOM stand-in, so a change to them fails in seconds rather than in a browser.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import playwright
import pytest

from refbrowse.daemon.core.devtools.scripts import USES, called, script

SCRIPTS = Path(__file__).parent.parent.parent / "src" / "refbrowse" / "daemon" / "scripts"
NODE = os.path.join(os.path.dirname(playwright.__file__), "driver", "node")
NAMES = sorted(p.stem for p in SCRIPTS.glob("*.js"))


def _node(code: str) -> str:
    done = subprocess.run([NODE, "-e", code], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _uses(name: str) -> list[str]:
    lines = (SCRIPTS / f"{name}.js").read_text().splitlines()
    return [w.strip() for line in lines if line.startswith(USES) for w in line.removeprefix(USES).split(",")]


@pytest.mark.parametrize("name", NAMES)
def test_each_script_is_one_expression_once_composed(name: str) -> None:
    kind = _node(f"console.log(typeof eval({json.dumps('(' + script(name) + ')')}))")
    assert kind == ("object" if name == "dom" else "function")


@pytest.mark.parametrize("name", [n for n in NAMES if _uses(n)])
def test_a_script_never_declares_a_name_it_uses(name: str) -> None:
    """`const work = work(...)` inside a file that uses `work` throws at run time, not at parse time."""
    body = (SCRIPTS / f"{name}.js").read_text()
    for used in _uses(name):
        assert (SCRIPTS / f"{used}.js").exists(), f"{name}.js uses {used}, which is no file"
        assert not re.search(rf"\b(const|let|var|function)\s+{used}\b", body), f"{name}.js redeclares {used}"


def test_called_passes_its_arguments_as_json() -> None:
    statement = called("restore_session_storage", "http://a.test", [["k", "v'\""]])
    assert statement.endswith('("http://a.test", [["k", "v\'\\""]]);')


def test_dom_finds_shadow_roots_breadth_first_and_the_innermost_focus() -> None:
    code = (
        f"const dom = eval({json.dumps('(' + script('dom') + ')')});\n"
        + """
    const el = (name, shadow, kids = []) => ({name, shadowRoot: shadow, querySelectorAll: () => kids});
    const inner = {querySelectorAll: () => [], activeElement: null, name: 'inner'};
    const host2 = el('host2', inner);
    const root1 = {querySelectorAll: () => [host2], activeElement: host2, name: 'root1'};
    const host1 = el('host1', root1);
    globalThis.document = {getElementsByTagName: () => [host1], activeElement: host1};
    console.log(JSON.stringify({
      roots: dom.shadowRoots().map(r => r === document ? 'document' : r.name),
      active: dom.activeElement().name,
    }));
    """
    )
    assert json.loads(_node(code)) == {"roots": ["document", "root1", "inner"], "active": "host2"}
