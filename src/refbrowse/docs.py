"""Generate docs/COMMANDS.md from the registry: `python -m refbrowse.docs`.

The command reference is never written by hand; a test fails when the
committed file and the registry drift apart.
"""

from __future__ import annotations

from refbrowse.cliparse import usage_line
from refbrowse.registry import COMMANDS, GLOBAL_FLAGS

CATEGORIES = (
    ("write", "Act on the page"),
    ("read", "Read and inspect"),
    ("meta", "Server and workflow"),
)


def _flag_rows(flags: dict[str, tuple[str | None, str]]) -> list[str]:
    rows = []
    for flag, (metavar, text) in flags.items():
        rows.append(f"| `{flag}{' ' + metavar if metavar else ''}` | {text} |")
    return rows


def render() -> str:
    lines = [
        "# refbrowse commands",
        "",
        "Generated from `src/refbrowse/registry.py` by `python -m refbrowse.docs`; do not edit.",
        "",
        "Every selector argument (SEL) takes a CSS selector, an `@eN` ref from `browse snapshot`,",
        "or an `@cN` ref from `browse snapshot -C`. Exit codes: 0 ok, 1 failed on the page,",
        "2 bad usage, 3 daemon or browser unavailable, 4 timed out, 130 interrupted.",
        "",
        "## Global flags",
        "",
        "| flag | meaning |",
        "| --- | --- |",
        *_flag_rows(GLOBAL_FLAGS),
    ]
    for cat, title in CATEGORIES:
        lines += ["", f"## {title}", ""]
        for name, spec in COMMANDS.items():
            if spec["cat"] != cat:
                continue
            lines += [f"### `browse {usage_line(name)}`", "", spec["help"].capitalize() + "."]
            if spec["flags"]:
                lines += ["", "| flag | meaning |", "| --- | --- |", *_flag_rows(spec["flags"])]
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":
    print(render(), end="")
