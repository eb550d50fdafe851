"""The JavaScript the daemon runs in pages: `.js` files in `refbrowse/daemon/scripts/`, loaded here.

Each file holds one expression, nearly always a function that `evaluate` calls
with its argument, after `//` comment lines that say what it is for. A file
that needs another's function says so in one of them, `// uses: dom, work`;
`script` then wraps it so that each named file's value is in scope as a
constant of that name:

    (() => { const dom = <dom.js>; const work = <work.js>; return <the file>; })()

Playwright calls the function such an expression returns, as it calls a plain
one. `make check` runs `node --check` on every file; `tests/unit` tests the
pure helpers in Node.
"""

from __future__ import annotations

import functools
import json
from importlib import resources

USES = "// uses:"


@functools.cache
def script(name: str) -> str:
    """The expression of `<name>.js`, with the files it uses in scope."""
    lines = resources.files("refbrowse.daemon").joinpath("scripts", f"{name}.js").read_text().splitlines()
    used: list[str] = []
    while lines and lines[0].startswith("//"):
        first = lines.pop(0)
        if first.startswith(USES):
            used += [word.strip() for word in first.removeprefix(USES).split(",") if word.strip()]
    body = "\n".join(lines).strip()
    if not used:
        return body
    consts = "".join(f"const {each} = {script(each)};\n" for each in used)
    return f"(() => {{\n{consts}return {body.rstrip(';')};\n}})()"


def called(name: str, *args: object) -> str:
    """A statement that calls `<name>.js` with `args` (as JSON): for init scripts, which take no arguments."""
    return f"({script(name)})({', '.join(json.dumps(arg) for arg in args)});"
