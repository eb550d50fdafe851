"""Every command refbrowse knows: the single source of truth.

The CLI checks arguments and prints help from this table, the daemon dispatches
on it and parses values by it, and docs are generated from it. It is plain
literals on purpose: the CLI imports it on every call, and literals cost ~5 ms
where dataclasses cost ~25 ms. Importing this module has no side effects.

The table is in this package's modules, one a group of commands (page, interact,
inspection, network, emulation, rawinput, auth, recording, pagetools, server), joined
below in the order help and the docs list them; `common` holds what several groups share.

Each command maps to a dict:
  cat      "read" (looks at the page), "write" (changes it) or "meta" (the daemon)
  args     positional argument names: "URL" is required, "[SEL]" optional,
           "FILE..." one or more
  flags    flag -> (metavar or None for a switch, help)
  help     one line
  kinds    optional: argument name or flag -> kind of value, only where the
           name does not say it. Names imply kinds (see `refbrowse.kinds`):
           URL -> url, SEL -> selector or ref, PATH/FILE/PREFIX/DIR -> path made
           absolute, KEY -> key chord, N/MS -> whole number >= 0, WxH -> size,
           X,Y,W,H -> region, JSON -> json, A|B -> whichever fits; else text.
           Explicit kinds: ("int", LO, HI), ("number", LO, HI),
           ("enum", WORD, ...), "rest" (every remaining word), "text"...
  about    optional: a paragraph for `browse help CMD`
  example  optional: one command line that works, without `browse`
  data     optional: the shape of the result's `data` field under `--json`
  local    the CLI answers the command without asking the daemon: True when it answers it
           itself (help, version, restart), else the module whose `run(request)` runs it
  no_start True when the command must not start a daemon that is not running
  stdin    True when the CLI sends what it reads on stdin
  stdin_arg  optional: the argument that, given as `-`, the CLI reads from its
           stdin (so a password never shows in the process list)
  nested   True when the command runs other commands (the daemon holds no tab lock for it)
  repeat   optional: flags that may be given more than once (`--header A:1 --header B:2`);
           the handler receives a list of their values
  rules    optional: which flags and arguments go together, checked by the CLI before any
           daemon starts (and by the daemon for callers that are not the CLI). A word is a
           flag, an argument's name, or a form's lower-case first word (`off`). Each rule:
             ("one", A, B, ...)    at most one of them
             ("any", A, B, ...)    at least one of them
             ("apart", A, B, ...)  A with none of the others
             ("with", A, B, ...)   A only with one of the others
             ("check", NAME)       a rule on values taken together, `refbrowse.checks.CHECKS[NAME]`
           A flag word may name one value, `--samesite=none`: the flag given with that value.

Facts about a command that parts of the daemon and the MCP server act on (absent means False):
  pure_read  only looks at the page: the tab's prepared snapshot survives it
  lockless   reads what the daemon holds of the tab (its page tools): never waits for a command on it
  heavy      may run a long script in the page (a big page's snapshot): the tab guard waits longer
  uncounted  not counted toward the "N failures in a row: hand off" hint (the handoff commands)
  saves_state_itself  tells the login-state persister itself what it changed
  saves_images  may save PNGs; their paths are in the result's `data["saved"]`
  mcp_tool   an MCP tool of its own (the others go through the generic `browse` tool)
  no_mcp     makes no sense from inside an MCP server (`mcp`, `skill`)
  unrecorded  changes no page a recorded test would replay (`record stop` writes no step for it)
  waits      may wait long for the page or a person: the MCP server runs it apart from short calls
  runs_page_code  a read that runs the agent's own code in the page: a page it wedges may be reset
  media_feature  the CSS media feature an emulation command sets (`prefers-contrast`), through
           Emulation.setEmulatedMedia with the others
  consent    what the consent gate sees in it: "target" (what its element would do: a form it
             submits, a link it follows) or the kind of consequence it always is ("upload",
             "download", "js", "tools"); see `services.consent`
"""

from __future__ import annotations

from refbrowse.registry import (
    auth,
    emulation,
    inspection,
    interact,
    network,
    page,
    pagetools,
    rawinput,
    recording,
    server,
)
from refbrowse.registry.common import DEFAULTS, PERMISSION_NAMES, SETTLE_FLAGS, WAIT_FORMS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from refbrowse.specs import CommandSpec

GLOBAL_FLAGS: dict[str, tuple[str | None, str]] = {
    "--json": (None, "machine output: {ok, output, error, hint, exit_code} and the command's data"),
    "--raw": (None, "no untrusted-content fence around page text"),
    "--session": ("NAME", "separate browser context in the same daemon (or BROWSE_SESSION)"),
    "--timeout": ("MS", "action timeout for this command, in milliseconds"),
}

# The commands' categories (each entry's `cat`) and their titles in help, docs and the skill.
CATEGORIES = (
    ("write", "Act on the page"),
    ("read", "Read and inspect"),
    ("meta", "Server and workflow"),
)
# The sections of `browse help` and docs/COMMANDS.md: a command's `group` if it has one, else its
# category; the groups are the README's (network, emulation, recording).
SECTIONS = (
    ("write", "Act on the page"),
    ("network", "Network"),
    ("emulation", "Emulation"),
    ("recording", "Recording"),
    ("read", "Read and inspect"),
    ("meta", "Server and workflow"),
)
# Flags an agent rarely needs over MCP, left out of the tools' schemas to keep the tool list
# small; the generic `browse` tool still takes them (`click @e3 --no-wait`).
MCP_LEFT_OUT_FLAGS = (  # rarely wanted by a model: the `browse` tool's command line still takes them
    "--no-wait", "--settle", "--all", "-a", "-o", "--download", "--response",
    "--max-chars", "--networkidle", "--load", "-d", "-c", "-D", "-C",
    "--clip", "--update", "--mask", "--threshold",
    "--allow-argv-secret", "--secret-file",  # over MCP no text is in a command line
)  # fmt: skip

# The table, part by part in the order help and the docs list the commands: each part is a
# module of this package, so no module holds every command.
COMMANDS: dict[str, CommandSpec] = {
    **page.COMMANDS,
    **interact.COMMANDS,
    **inspection.COMMANDS,
    **network.COMMANDS,
    **emulation.COMMANDS,
    **rawinput.COMMANDS,
    **auth.COMMANDS,
    **recording.COMMANDS,
    **pagetools.COMMANDS,
    **server.COMMANDS,
}

# What an action's `--json` data holds: its effects as fields, each present only when there is
# something to say (see `daemon/action/perform.py`).
EFFECTS_DATA = (
    "{url, navigation: {kind, url}, tabs: [{event, kind, tab, url}], dialogs: [{type, message, answer}],"
    " downloads: [{filename, url}], messages: [{event, kind, label, text}], view: [diff line], notes, busy,"
    " page: the new page's `snapshot -i` data after a navigation}"
)
for _spec in COMMANDS.values():
    if "--no-wait" in _spec["flags"]:
        _spec.setdefault("data", EFFECTS_DATA)

__all__ = [
    "CATEGORIES",
    "COMMANDS",
    "DEFAULTS",
    "EFFECTS_DATA",
    "GLOBAL_FLAGS",
    "MCP_LEFT_OUT_FLAGS",
    "PERMISSION_NAMES",
    "SECTIONS",
    "SETTLE_FLAGS",
    "WAIT_FORMS",
]
