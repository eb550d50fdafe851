"""Every command refbrowse knows: the single source of truth.

The CLI checks arguments and prints help from this table, the daemon dispatches
on it, and docs are generated from it. It is plain literals on purpose: the CLI
imports it on every call, and literals cost ~5 ms where dataclasses cost ~25 ms.
Importing this module has no side effects.

Each command maps to a dict:
  cat    "read" (looks at the page), "write" (changes it) or "meta" (the daemon)
  args   positional argument names: "URL" is required, "[SEL]" optional,
         "FILE..." one or more; a name of PATH or FILE is made absolute by the CLI
  flags  flag -> (metavar or None for a switch, help)
  help   one line
  local  True when the CLI handles the command without asking the daemon
  no_start  True when the command must not start a daemon that is not running
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from refbrowse.specs import CommandSpec

GLOBAL_FLAGS: dict[str, tuple[str | None, str]] = {
    "--json": (None, "machine output: {ok, output, error, hint, exit_code}"),
    "--raw": (None, "no untrusted-content fence around page text"),
    "--session": ("NAME", "separate browser context in the same daemon (or BROWSE_SESSION)"),
    "--timeout": ("MS", "action timeout for this command, in milliseconds"),
}

PATH_METAVARS = ("PATH", "FILE", "PREFIX")

COMMANDS: dict[str, CommandSpec] = {
    # navigate
    "goto": {
        "cat": "write",
        "args": ("URL",),
        "flags": {},
        "help": "load a page (http, https, file, about, data; a bare host gets https)",
    },
    "back": {"cat": "write", "args": (), "flags": {}, "help": "go back in history"},
    "forward": {"cat": "write", "args": (), "flags": {}, "help": "go forward in history"},
    "reload": {"cat": "write", "args": (), "flags": {}, "help": "reload the page"},
    "url": {"cat": "read", "args": (), "flags": {}, "help": "print the current URL"},
    # read
    "text": {
        "cat": "read",
        "args": ("[SEL]",),
        "flags": {},
        "help": "visible text of the page or element, without script/style",
    },
    "html": {
        "cat": "read",
        "args": ("[SEL]",),
        "flags": {},
        "help": "outer HTML of the element, or the whole document",
    },
    "links": {"cat": "read", "args": (), "flags": {}, "help": "every link as 'text → absolute URL'"},
    "forms": {
        "cat": "read",
        "args": (),
        "flags": {},
        "help": "each form with its action, method and fields (passwords redacted)",
    },
    # snapshot
    # interact
    # inspect
    # visual
    # logs and dialogs
    # cookies and state
    # multi-step
    # tabs
    "tabs": {"cat": "read", "args": (), "flags": {}, "help": "list tabs, the current one marked"},
    "tab": {"cat": "write", "args": ("N",), "flags": {}, "help": "switch to tab N"},
    "newtab": {"cat": "write", "args": ("[URL]",), "flags": {}, "help": "open a new tab"},
    "closetab": {
        "cat": "write",
        "args": ("[N]",),
        "flags": {},
        "help": "close tab N, or the current one",
    },
    # server
    "status": {
        "cat": "meta",
        "args": (),
        "flags": {},
        "help": "daemon health, mode, URL, tabs, pid, uptime",
        "no_start": True,
    },
    "stop": {
        "cat": "meta",
        "args": (),
        "flags": {},
        "help": "stop the daemon and its browser",
        "no_start": True,
    },
    "restart": {
        "cat": "meta",
        "args": (),
        "flags": {},
        "help": "stop the daemon and start a fresh one",
        "local": True,
    },
    "help": {
        "cat": "meta",
        "args": ("[CMD]",),
        "flags": {},
        "help": "list commands, or describe one",
        "local": True,
    },
}
