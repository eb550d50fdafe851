"""Every command refbrowse knows: the single source of truth.

The CLI checks arguments and prints help from this table, the daemon dispatches
on it and parses values by it, and docs are generated from it. It is plain
literals on purpose: the CLI imports it on every call, and literals cost ~5 ms
where dataclasses cost ~25 ms. Importing this module has no side effects.

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
  local    True when the CLI handles the command without asking the daemon
  no_start True when the command must not start a daemon that is not running
  stdin    True when the CLI sends what it reads on stdin
  stdin_arg  optional: the argument that, given as `-`, the CLI reads from its
           stdin (so a password never shows in the process list)
  nested   True when the command runs other commands (the daemon holds no tab lock for it)
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from refbrowse.specs import CommandSpec

GLOBAL_FLAGS: dict[str, tuple[str | None, str]] = {
    "--json": (None, "machine output: {ok, output, error, hint, exit_code} and the command's data"),
    "--raw": (None, "no untrusted-content fence around page text"),
    "--session": ("NAME", "separate browser context in the same daemon (or BROWSE_SESSION)"),
    "--timeout": ("MS", "action timeout for this command, in milliseconds"),
}

# Defaults the daemon uses and help states, in milliseconds.
DEFAULTS = {
    "action_ms": 5_000,  # each action (click, fill, wait...), or BROWSE_TIMEOUT
    "nav_ms": 30_000,  # each page load
    "idle_ms": 30 * 60 * 1000,  # the daemon stops after this long without a command
}

# Every action settles before it reports its effects; these change how long.
SETTLE_FLAGS: dict[str, tuple[str | None, str]] = {
    "--no-wait": (None, "answer at once, without waiting for the page to settle"),
    "--settle": ("MS", "wait at most MS for the page to settle (default 1500)"),
}
_FORCE: dict[str, tuple[str | None, str]] = {
    "--force": (None, "skip actionability checks (visible, enabled, not covered)"),
    **SETTLE_FLAGS,
}

COMMANDS: dict[str, CommandSpec] = {
    # navigate
    "goto": {
        "cat": "write",
        "args": ("URL",),
        "flags": {"--allow-file": (None, "allow a file:// URL (or BROWSE_ALLOW_FILE=1)"), **SETTLE_FLAGS},
        "help": (
            "load a page (http, https, about, data; file with --allow-file;"
            " a bare host gets https, a local one http) and print its refs"
        ),
    },
    "back": {"cat": "write", "args": (), "flags": SETTLE_FLAGS, "help": "go back in history"},
    "forward": {"cat": "write", "args": (), "flags": SETTLE_FLAGS, "help": "go forward in history"},
    "reload": {"cat": "write", "args": (), "flags": SETTLE_FLAGS, "help": "reload the page"},
    "url": {"cat": "read", "args": (), "flags": {}, "help": "print the current URL"},
    # read
    "text": {
        "cat": "read",
        "args": ("[SEL]",),
        "flags": {
            "--max-tokens": ("N", "stay under N estimated tokens (the start of the text is kept)"),
            "--max-chars": ("N", "print at most N characters (default 100000; 0: everything)"),
        },
        "kinds": {"--max-tokens": ("int", 1, None)},
        "example": "text main",
        "help": "visible text of the page (shadow DOM and frames too), an element, or an iframe's document",
    },
    "find": {
        "cat": "read",
        "args": ("TEXT",),
        "flags": {
            "--regex": (None, "TEXT is a regular expression (case-insensitive)"),
            "--limit": ("N", "show at most N matches (default 20)"),
        },
        "kinds": {"--limit": ("int", 1, 500)},
        "help": "where TEXT occurs on the page (frames, shadow DOM): one line a match, with its nearest ref",
        "example": "find timeout",
    },
    "html": {
        "cat": "read",
        "args": ("[SEL]",),
        "flags": {"--max-chars": ("N", "print at most N characters (default 100000; 0: everything)")},
        "help": "outer HTML of the element, or the whole document",
    },
    "links": {
        "cat": "read",
        "args": (),
        "flags": {"--max-chars": ("N", "print at most N characters (default 100000; 0: everything)")},
        "help": "every link as 'text → absolute URL'",
    },
    "forms": {
        "cat": "read",
        "args": (),
        "flags": {},
        "help": "each form with its action, method and fields (passwords redacted)",
    },
    # reading a passage where it stands
    "read": {
        "cat": "read",
        "args": ("[TARGET]",),
        "flags": {"--max-tokens": ("N", "stay under N estimated tokens (default 1500)")},
        "kinds": {"--max-tokens": ("int", 1, None)},
        "example": "read @e12",
        "help": (
            "the passage around a ref, selector or #id (default: the URL's #fragment):"
            " a definition (dt + dd), a section, or a paragraph"
        ),
    },
    # snapshot
    "snapshot": {
        "cat": "read",
        "args": (),
        "flags": {
            "-i": (None, "interactive elements only, with the headings and landmarks around them"),
            "-c": (None, "compact: leave out unnamed structure"),
            "-d": ("N", "at most N levels deep"),
            "-s": ("SEL", "only the part of the page inside SEL (CSS or @eN)"),
            "-D": (None, "a unified diff against this tab's previous snapshot"),
            "-C": (None, "also clickable elements outside the accessibility tree, as @cN"),
            "--all": (None, "with -C: also the clickables that have no text and no name"),
            "--max-tokens": ("N", "stay under N estimated tokens, keeping what is in view and actionable"),
            "-a": (None, "also save a screenshot with a labelled box on each ref in view"),
            "-o": ("PATH", "where to save the -a screenshot (implies -a)"),
            "--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)"),
        },
        "kinds": {"-d": ("int", 1, None), "--max-tokens": ("int", 1, None)},
        "example": "snapshot -i",
        "help": "the page as text, one element a line, with @refs to act on",
        "data": (
            "{url, title, triage: {page_type, login_form, captcha, forms, overlays},"
            " refs: [{ref, role, name, states}], text}"
        ),
    },
    # interact
    "click": {
        "cat": "write",
        "args": ("SEL",),
        "flags": _FORCE,
        "help": (
            "click an element; waits for the page to settle, then says what changed (on a new page: its refs)"
        ),
    },
    "fill": {
        "cat": "write",
        "args": ("SEL", "TEXT"),
        "flags": _FORCE,
        "stdin_arg": "TEXT",
        "help": "replace the value of an input, textarea or editable element",
        "about": (
            "TEXT `-` reads the text from stdin (one trailing newline dropped), which keeps"
            " a password out of the process list."
        ),
    },
    "dblclick": {
        "cat": "write",
        "args": ("SEL",),
        "flags": _FORCE,
        "help": "double-click an element (opens items in file browsers and editors)",
    },
    "type": {
        "cat": "write",
        "args": ("[SEL]", "TEXT"),
        "flags": SETTLE_FLAGS,
        "kinds": {"SEL": "text"},  # one argument is the text; the handler resolves SEL when there are two
        "stdin_arg": "TEXT",
        "help": "type text key by key into SEL, or into the focused element",
        "about": (
            "TEXT `-` reads the text from stdin (one trailing newline dropped), which keeps"
            " a secret out of the process list."
        ),
    },
    "press": {
        "cat": "write",
        "args": ("KEY",),
        "flags": SETTLE_FLAGS,
        "help": "press a key or chord (Enter, Tab, Control+A)",
    },
    "select": {
        "cat": "write",
        "args": ("SEL", "VALUE..."),
        "flags": _FORCE,
        "help": "choose options of a <select> by value or label",
    },
    "check": {
        "cat": "write",
        "args": ("SEL",),
        "flags": _FORCE,
        "help": "check a checkbox or radio",
    },
    "uncheck": {
        "cat": "write",
        "args": ("SEL",),
        "flags": _FORCE,
        "help": "uncheck a checkbox",
    },
    "hover": {
        "cat": "write",
        "args": ("SEL",),
        "flags": _FORCE,
        "help": "move the mouse over an element",
    },
    "scroll": {
        "cat": "write",
        "args": ("[SEL]",),
        "flags": {},
        "example": "scroll @e3",
        "help": "scroll an element into view, or the page to the bottom",
    },
    "wait": {
        "cat": "read",
        "args": ("[SEL|MS]",),
        "flags": {
            "--text": ("T", "wait until the text T is visible (shadow DOM included)"),
            "--gone": ("SEL", "wait until SEL is hidden or removed (a CSS selector or @ref)"),
            "--url": ("PAT", "wait until the URL contains PAT (a glob when it has *)"),
            "--idle": (None, "wait until the DOM is quiet and no fetch/XHR is in flight"),
            "--load": (None, "wait for the load event"),
            "--networkidle": (None, "wait until the network has been quiet for 500 ms"),
        },
        "kinds": {"SEL|MS": ("alt", ("int", 0, 30_000), "sel"), "--text": "text", "--url": "text"},
        "example": "wait --load",
        "help": "wait for an element, a text, an element to go, a URL, an idle page, a load state, or MS",
    },
    "viewport": {
        "cat": "write",
        "args": ("WxH",),
        "flags": {"--scale": ("N", "device pixel ratio, e.g. 2 for a retina screen")},
        "kinds": {"--scale": ("number", 0.25, 5)},
        "help": "resize the viewport, e.g. 1280x800",
    },
    "upload": {
        "cat": "write",
        "args": ("SEL", "FILE..."),
        "flags": {
            "--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)"),
            **SETTLE_FLAGS,
        },
        "example": "upload @e3 photo.jpg",
        "help": "set files on a file input",
    },
    # inspect
    "js": {
        "cat": "read",
        "args": ("EXPR",),
        "flags": {},
        "kinds": {"EXPR": "rest"},
        "help": "value of a JavaScript expression in the page; `await` works",
        "data": "{value}",
    },
    "eval": {
        "cat": "read",
        "args": ("FILE",),
        "flags": {"--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)")},
        "example": "eval script.js",
        "help": "value of a JavaScript file run in the page (`await` works; multi-line needs `return`)",
        "data": "{value}",
    },
    "css": {
        "cat": "read",
        "args": ("SEL", "PROP"),
        "flags": {},
        "help": "computed style value of an element",
    },
    "attrs": {"cat": "read", "args": ("SEL",), "flags": {}, "help": "attributes of an element as JSON"},
    "is": {
        "cat": "read",
        "args": ("STATE", "SEL"),
        "flags": {},
        "kinds": {
            "STATE": ("enum", "visible", "hidden", "enabled", "disabled", "checked", "editable", "focused")
        },
        "help": "true/false: visible, hidden, enabled, disabled, checked, editable, focused",
    },
    "cookies": {
        "cat": "read",
        "args": (),
        "flags": {},
        "help": "cookies of the current page (values shortened)",
    },
    "storage": {
        "cat": "read",
        "args": ("[set]", "[KEY]", "[VALUE]"),
        "flags": {},
        "kinds": {"set": ("enum", "set"), "KEY": "text"},
        "example": "storage set theme dark",
        "help": "local and session storage; `storage set KEY VALUE` sets a localStorage item",
    },
    "perf": {
        "cat": "read",
        "args": (),
        "flags": {},
        "help": "navigation timings: dns, tcp, tls, ttfb, download, dom parsed, dom ready, load, total",
    },
    "accessibility": {"cat": "read", "args": (), "flags": {}, "help": "the raw accessibility tree"},
    "tables": {
        "cat": "read",
        "args": ("[SEL]",),
        "flags": {},
        "help": "each table as CSV, header row first (JSON with --json)",
    },
    # visual
    "screenshot": {
        "cat": "read",
        "args": ("[SEL|PATH]", "[PATH]"),
        "flags": {
            "--viewport": (None, "only what the viewport shows (default: the full page)"),
            "--clip": ("X,Y,W,H", "only this region of the page, in CSS pixels"),
            "--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)"),
        },
        "example": "screenshot --viewport page.png",
        "help": "save a PNG: full page, an element (@ref, .class, #id, [attr]), or a region",
    },
    "pdf": {
        "cat": "read",
        "args": ("[PATH]",),
        "flags": {"--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)")},
        "example": "pdf page.pdf",
        "help": "print the page to a PDF file",
    },
    "responsive": {
        "cat": "read",
        "args": ("[PREFIX]",),
        "flags": {"--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)")},
        "example": "responsive shots/home",
        "help": "screenshots at mobile (375x812), tablet (768x1024) and desktop (1280x800) sizes",
    },
    "diff": {
        "cat": "read",
        "args": ("URL1", "URL2"),
        "flags": {"--allow-file": (None, "allow a file:// URL (or BROWSE_ALLOW_FILE=1)")},
        "help": "unified diff of two pages' text",
    },
    "download": {
        "cat": "write",
        "args": ("SEL|URL", "[PATH]"),
        "flags": {
            "--max-bytes": ("N", "stop a download past N bytes (default 500000000)"),
            "--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)"),
            "--allow-file": (None, "allow a file:// URL (or BROWSE_ALLOW_FILE=1)"),
        },
        "kinds": {"--max-bytes": ("int", 1, None)},
        "example": "download https://example.com/report.csv report.csv",
        "help": "save what clicking an element, or fetching a URL, downloads",
    },
    "useragent": {
        "cat": "write",
        "args": ("UA",),
        "flags": {},
        "help": "change the user agent (keeps cookies, tabs, storage and history)",
    },
    # logs and dialogs
    "console": {
        "cat": "read",
        "args": (),
        "flags": {
            "--errors": (None, "only errors and uncaught exceptions"),
            "--clear": (None, "forget the messages so far"),
        },
        "help": "console messages of this session's tabs, '[time] [level] text' a line",
    },
    "network": {
        "cat": "read",
        "args": (),
        "flags": {"--clear": (None, "forget the requests so far")},
        "help": "responses of this session's tabs, 'METHOD URL → STATUS (ms, bytes)' a line",
    },
    "dialog": {
        "cat": "read",
        "args": (),
        "flags": {"--clear": (None, "forget the dialogs so far")},
        "help": "alerts, confirms and prompts seen, and what was done with them",
    },
    "dialog-accept": {
        "cat": "write",
        "args": ("[TEXT]",),
        "flags": SETTLE_FLAGS,
        "help": "accept dialogs from now on, typing TEXT into prompts (the default)",
    },
    "dialog-dismiss": {
        "cat": "write",
        "args": (),
        "flags": SETTLE_FLAGS,
        "help": "dismiss dialogs from now on",
    },
    # cookies and state
    "state": {
        "cat": "write",
        "args": ("ACTION", "[NAME]"),
        "flags": {},
        "kinds": {"ACTION": ("enum", "save", "load", "list", "delete", "clear")},
        "example": "state save alice",
        "help": "named login states: save NAME, load NAME, list, delete NAME; clear forgets the saved login",
    },
    "cookie-import": {
        "cat": "write",
        "args": ("FILE",),
        "flags": {"--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)")},
        "help": "add cookies from a JSON array (Playwright or cookie-export format); all or nothing",
    },
    "cookie-import-browser": {
        "cat": "write",
        "args": ("[BROWSER]",),
        "flags": {
            "--domain": ("D", "only cookies sent to this domain (parent-domain cookies included)"),
            "--profile": ("P", "profile directory name, e.g. Default or 'Profile 1'"),
            "--list": (None, "list the browsers and profiles found on this computer"),
        },
        "kinds": {"BROWSER": ("enum", "chrome", "chromium", "brave", "edge", "firefox")},
        "example": "cookie-import-browser chrome --domain example.com",
        "help": "decrypt and import cookies from chrome, chromium, brave, edge or firefox",
    },
    # multi-step
    "chain": {
        "cat": "write",
        "args": (),
        "flags": {},
        "help": 'run a JSON array of commands from stdin, e.g. [["goto","URL"],["click","@e3"]]',
        "data": "{steps: [{step, output, data}]}",
        "stdin": True,
        "nested": True,
    },
    # tabs
    "tabs": {"cat": "read", "args": (), "flags": {}, "help": "list tabs, the current one marked"},
    "tab": {
        "cat": "write",
        "args": ("N",),
        "flags": {},
        "kinds": {"N": ("int", 1, None)},
        "help": "switch to tab N; prints its interactive view, as `newtab` does",
    },
    "newtab": {
        "cat": "write",
        "args": ("[URL]",),
        "flags": {"--allow-file": (None, "allow a file:// URL (or BROWSE_ALLOW_FILE=1)")},
        "help": "open a new tab",
    },
    "closetab": {
        "cat": "write",
        "args": ("[N]",),
        "flags": {},
        "kinds": {"N": ("int", 1, None)},
        "help": "close tab N, or the current one",
    },
    # headed, handoff and remote browsers
    "connect": {
        "cat": "write",
        "args": (),
        "flags": {
            "--channel": ("NAME", "chrome or msedge: that system browser (default: Chrome if installed)"),
            "--cdp": ("URL", "a remote browser's DevTools endpoint instead (http://host:9222 or ws://…)"),
        },
        "kinds": {"--channel": ("enum", "chrome", "msedge"), "--cdp": "endpoint"},
        "help": "switch to a visible browser (or a remote one) with the same cookies, storage and tabs",
        "nested": True,
    },
    "disconnect": {
        "cat": "meta",  # it must work when a remote browser chosen by `connect --cdp` is gone
        "args": (),
        "flags": {},
        "help": "back to a headless browser, with the same cookies, storage and tabs",
    },
    "focus": {
        "cat": "write",
        "args": ("[SEL]",),
        "flags": {},
        "example": "focus @e3",
        "help": "bring the browser window to the front, and scroll SEL into view",
    },
    "handoff": {
        "cat": "write",
        "args": ("[REASON]",),
        "flags": {},
        "example": 'handoff "solve the captcha, then run browse resume"',
        "help": "give the page to a person in a visible window (captcha, MFA); `resume` takes it back",
        "nested": True,
    },
    "resume": {
        "cat": "write",
        "args": (),
        "flags": {},
        "help": "take the page back after a handoff, with what the person did; prints `snapshot -i`",
        "nested": True,
    },
    # server
    "dashboard": {
        "cat": "meta",
        "args": (),
        "flags": {"--open": (None, "open it in this computer's web browser too")},
        "about": (
            "The activity page shows every command of every client as it runs (secrets redacted), "
            "the refs of the latest snapshot, a live view of the current tab with a Take over switch, "
            "and a cookie picker. It is served on 127.0.0.1; the link holds a code that works once, "
            "within 60 seconds: run `browse dashboard` again for a fresh one."
        ),
        "help": "print a one-time link to this session's activity page (live feed, refs, view, takeover)",
    },
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
    "mcp": {
        "cat": "meta",
        "args": (),
        "flags": {
            "--http": (None, "serve Streamable HTTP on 127.0.0.1 with a bearer token instead of stdio"),
            "--port": ("N", "the HTTP port (default: any free one, written to .refbrowse/mcp.json)"),
        },
        "help": "serve the commands as MCP tools, sharing this workspace's browser with the CLI",
        "local": True,
    },
    "skill": {
        "cat": "meta",
        "args": ("[ACTION]",),
        "flags": {
            "--project": (None, "install into ./.claude/skills (the default)"),
            "--user": (None, "install into ~/.claude/skills"),
        },
        "help": "print the agent skill file SKILL.md, or `skill install` it where Claude Code finds skills",
        "local": True,
    },
    "version": {
        "cat": "meta",
        "args": (),
        "flags": {},
        "help": "print refbrowse's version (also --version)",
        "local": True,
    },
    "help": {
        "cat": "meta",
        "args": ("[CMD]",),
        "flags": {},
        "example": "help snapshot",
        "help": "list commands, or describe one",
        "local": True,
    },
}

# What an action's `--json` data holds: its effects as fields, each present only when there is
# something to say (see `daemon/effects.py`).
EFFECTS_DATA = (
    "{url, navigation: {kind, url}, tabs: [{event, kind, tab, url}], dialogs: [{type, message, answer}],"
    " downloads: [{filename, url}], messages: [{event, kind, label, text}], view: [diff line], notes, busy,"
    " page: the new page's `snapshot -i` data after a navigation}"
)
for _spec in COMMANDS.values():
    if "--no-wait" in _spec["flags"]:
        _spec.setdefault("data", EFFECTS_DATA)
