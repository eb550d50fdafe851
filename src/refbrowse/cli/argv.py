"""The CLI's reading of argv and its help text, all from the registry.

Part of the CLI's warm path: standard library only, and little of it. The
parsing itself is shared with the daemon (`refbrowse.parse`); bad usage
raises `UsageError` before anything expensive happens.
"""

from __future__ import annotations

import os

from refbrowse import parse
from refbrowse.errors import UsageError
from refbrowse.parse import args_usage, nearest
from refbrowse.registry import COMMANDS, GLOBAL_FLAGS, SECTIONS, SETTLE_FLAGS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from refbrowse.specs import Request

# Per-command permissions that may also come from the caller's environment: the
# daemon was started with another environment, so the CLI sends them along.
ENV_FLAGS = (("--allow-path", "BROWSE_ALLOWED_PATHS"), ("--allow-file", "BROWSE_ALLOW_FILE"))


def parse_argv(argv: list[str]) -> Request:
    """The request for argv (see `refbrowse.parse`), with permissions the environment grants."""
    request = parse.parse_argv(argv)
    known = COMMANDS[request["command"]]["flags"]
    for flag, variable in ENV_FLAGS:
        value = os.environ.get(variable, "")
        if flag not in known or flag in request["flags"] or value in ("", "0"):
            continue
        if known[flag][0] is None:
            request["flags"][flag] = True
        else:
            request["flags"][flag] = os.pathsep.join(os.path.abspath(p) for p in value.split(os.pathsep) if p)
    return request


def help_text(name: str | None = None) -> str:
    if name is None:
        return _overview()
    if name not in COMMANDS:
        near = nearest(name, COMMANDS)
        hint = f"did you mean `browse help {near}`?" if near else "run `browse help`"
        raise UsageError(f"unknown command: {name}", hint)
    from refbrowse.describe import help_page  # help only: not on a command's warm path

    return help_page(name)


def _overview() -> str:
    lines = ["usage: browse [--json] [--raw] [--session NAME] [--timeout MS] COMMAND [ARGS]", ""]
    for section, title in SECTIONS:
        lines.append(f"{title}:")
        for name, spec in COMMANDS.items():
            if spec.get("group", spec["cat"]) == section:
                usage = _brief_usage(name)
                if len(usage) > 34:  # a long usage gets a line of its own
                    lines.append(f"  {usage}")
                    usage = ""
                lines.append(f"  {usage:<34} {spec['help']}")
        lines.append("")
    lines.append("Global flags:")
    for flag, (metavar, text) in GLOBAL_FLAGS.items():
        lines.append(f"  {flag + (' ' + metavar if metavar else ''):<16} {text}")
    lines.append("\nActions settle before they answer (at most --settle MS, default 1500; --no-wait")
    lines.append("answers at once), then say what changed: navigation, tabs, dialogs, messages, a diff.")
    lines.append("\nSelectors: a CSS selector, or @eN / @cN from `browse snapshot`.")
    lines.append(
        'Secrets: `printf %s "$PASSWORD" | browse fill SEL -` keeps a password out of the process list.'
    )
    lines.append("`browse help CMD` or `browse CMD --help`: one command, its flags, defaults and an example.")
    return "\n".join(lines)


def _brief_usage(name: str) -> str:
    """The usage line without the settle flags every action takes (the overview says them once)."""
    spec = COMMANDS[name]
    flags = [f"[{f} {m}]" if m else f"[{f}]" for f, (m, _) in spec["flags"].items() if f not in SETTLE_FLAGS]
    return " ".join(part for part in (name, " ".join(flags), args_usage(spec)) if part)
