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
            "--max-tokens": ("N", "stay under N estimated tokens, keeping what is in view and actionable"),
            "-a": (None, "also save a screenshot with a labelled box on each ref in view"),
            "-o": ("PATH", "where to save the -a screenshot (implies -a)"),
        },
        "help": "the page as text, one element a line, with @refs to act on",
    },
    # interact
    "click": {
        "cat": "write",
        "args": ("SEL",),
        "flags": {"--force": (None, "skip actionability checks (visible, enabled, not covered)")},
        "help": "click an element; prints where the page is afterwards",
    },
    "fill": {
        "cat": "write",
        "args": ("SEL", "TEXT"),
        "flags": {"--force": (None, "skip actionability checks (visible, enabled, not covered)")},
        "help": "replace the value of an input, textarea or editable element",
    },
    "type": {
        "cat": "write",
        "args": ("TEXT",),
        "flags": {},
        "help": "type text into the focused element, key by key",
    },
    "press": {
        "cat": "write",
        "args": ("KEY",),
        "flags": {},
        "help": "press a key or chord (Enter, Tab, Control+A)",
    },
    "select": {
        "cat": "write",
        "args": ("SEL", "VALUE..."),
        "flags": {"--force": (None, "skip actionability checks (visible, enabled, not covered)")},
        "help": "choose options of a <select> by value or label",
    },
    "check": {
        "cat": "write",
        "args": ("SEL",),
        "flags": {"--force": (None, "skip actionability checks (visible, enabled, not covered)")},
        "help": "check a checkbox or radio",
    },
    "uncheck": {
        "cat": "write",
        "args": ("SEL",),
        "flags": {"--force": (None, "skip actionability checks (visible, enabled, not covered)")},
        "help": "uncheck a checkbox",
    },
    "hover": {
        "cat": "write",
        "args": ("SEL",),
        "flags": {"--force": (None, "skip actionability checks (visible, enabled, not covered)")},
        "help": "move the mouse over an element",
    },
    "scroll": {
        "cat": "write",
        "args": ("[SEL]",),
        "flags": {},
        "help": "scroll an element into view, or the page to the bottom",
    },
    "wait": {
        "cat": "read",
        "args": ("[SEL|MS]",),
        "flags": {
            "--load": (None, "wait for the load event"),
            "--networkidle": (None, "wait until the network has been quiet for 500 ms"),
        },
        "help": "wait for an element to be visible, a load state, or MS milliseconds",
    },
    "viewport": {
        "cat": "write",
        "args": ("WxH",),
        "flags": {"--scale": ("N", "device pixel ratio, e.g. 2 for a retina screen")},
        "help": "resize the viewport, e.g. 1280x800",
    },
    "upload": {
        "cat": "write",
        "args": ("SEL", "FILE..."),
        "flags": {},
        "help": "set files on a file input",
    },
    # inspect
    "js": {
        "cat": "read",
        "args": ("EXPR",),
        "flags": {},
        "help": "value of a JavaScript expression in the page; `await` works",
    },
    "eval": {
        "cat": "read",
        "args": ("FILE",),
        "flags": {},
        "help": "value of a JavaScript file run in the page (`await` works; multi-line needs `return`)",
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
        },
        "help": "save a PNG: full page, an element (@ref, .class, #id, [attr]), or a region",
    },
    "pdf": {"cat": "read", "args": ("[PATH]",), "flags": {}, "help": "print the page to a PDF file"},
    "responsive": {
        "cat": "read",
        "args": ("[PREFIX]",),
        "flags": {},
        "help": "screenshots at mobile (375x812), tablet (768x1024) and desktop (1280x800) sizes",
    },
    "diff": {"cat": "read", "args": ("URL1", "URL2"), "flags": {}, "help": "unified diff of two pages' text"},
    "download": {
        "cat": "write",
        "args": ("SEL|URL", "[PATH]"),
        "flags": {},
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
        "flags": {},
        "help": "accept dialogs from now on, typing TEXT into prompts (the default)",
    },
    "dialog-dismiss": {"cat": "write", "args": (), "flags": {}, "help": "dismiss dialogs from now on"},
    # cookies and state
    "state": {
        "cat": "write",
        "args": ("ACTION", "[NAME]"),
        "flags": {},
        "help": "named login states: save NAME, load NAME, list, delete NAME; clear forgets the saved login",
    },
    "cookie-import": {
        "cat": "write",
        "args": ("FILE",),
        "flags": {},
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
        "help": "decrypt and import cookies from chrome, chromium, brave, edge or firefox",
    },
    # multi-step
    "chain": {
        "cat": "write",
        "args": (),
        "flags": {},
        "help": 'run a JSON array of commands from stdin, e.g. [["goto","URL"],["click","@e3"]]',
        "stdin": True,
        "nested": True,
    },
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
