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

# What `permissions grant` takes: the browser permissions Playwright can grant in Chromium.
PERMISSION_NAMES = (
    "geolocation",
    "notifications",
    "camera",
    "microphone",
    "clipboard-read",
    "clipboard-write",
    "midi",
    "midi-sysex",
    "background-sync",
    "accelerometer",
    "gyroscope",
    "magnetometer",
    "ambient-light-sensor",
    "payment-handler",
    "storage-access",
    "local-fonts",
    "local-network-access",
)

# What `wait` waits for: exactly one of them.
WAIT_FORMS = (
    "SEL|MS",
    "--text",
    "--gone",
    "--url",
    "--idle",
    "--load",
    "--networkidle",
    "--fn",
    "--download",
    "--response",
)

# Defaults the daemon uses and help states, in milliseconds.
DEFAULTS = {
    "action_ms": 5_000,  # each action (click, fill, wait...), or BROWSE_TIMEOUT
    "nav_ms": 30_000,  # each page load
    "idle_ms": 30 * 60 * 1000,  # the daemon stops after this long without a command
}

# Flags an agent rarely needs over MCP, left out of the tools' schemas to keep the tool list
# small; the generic `browse` tool still takes them (`click @e3 --no-wait`).
MCP_LEFT_OUT_FLAGS = (  # rarely wanted by a model: the `browse` tool's command line still takes them
    "--no-wait", "--settle", "--all", "-a", "-o", "--download", "--response",
    "--max-chars", "--networkidle", "--load", "-d", "-c", "-D", "-C",
    "--clip", "--update", "--mask", "--threshold",
)  # fmt: skip

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
        "mcp_tool": True,
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
    "url": {"cat": "read", "pure_read": True, "args": (), "flags": {}, "help": "print the current URL"},
    # read
    "text": {
        "cat": "read",
        "mcp_tool": True,
        "heavy": True,
        "pure_read": True,
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
        "heavy": True,
        "pure_read": True,
        "args": ("TEXT",),
        "flags": {
            "--regex": (None, "TEXT is a regular expression (case-insensitive)"),
            "--limit": ("N", "show at most N matches (default 20)"),
        },
        "kinds": {"TEXT": "words", "--limit": ("int", 1, 500)},
        "help": "where TEXT occurs on the page (frames, shadow DOM): one line a match, with its nearest ref",
        "example": "find timeout",
    },
    "html": {
        "cat": "read",
        "heavy": True,
        "pure_read": True,
        "args": ("[SEL]",),
        "flags": {"--max-chars": ("N", "print at most N characters (default 100000; 0: everything)")},
        "help": "outer HTML of the element, or the whole document",
    },
    "links": {
        "cat": "read",
        "heavy": True,
        "pure_read": True,
        "args": (),
        "flags": {"--max-chars": ("N", "print at most N characters (default 100000; 0: everything)")},
        "help": "every link as 'text → absolute URL'",
    },
    "forms": {
        "cat": "read",
        "heavy": True,
        "pure_read": True,
        "args": (),
        "flags": {},
        "help": "each form with its action, method and fields (passwords redacted)",
    },
    # reading a passage where it stands
    "read": {
        "cat": "read",
        "pure_read": True,
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
        "mcp_tool": True,
        "saves_images": True,
        "heavy": True,
        "pure_read": True,
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
            "{url, title, triage: {page_type, login_form, captcha, forms, fields, overlays},"
            " refs: [{ref, role, name, states}], text}"
        ),
    },
    # interact
    "click": {
        "cat": "write",
        "consent": "target",
        "mcp_tool": True,
        "args": ("SEL",),
        "flags": _FORCE,
        "help": (
            "click an element; waits for the page to settle, then says what changed (on a new page: its refs)"
        ),
    },
    "fill": {
        "cat": "write",
        "mcp_tool": True,
        "args": ("SEL", "TEXT", "[SEL TEXT]..."),
        "flags": _FORCE,
        "stdin_arg": "TEXT",
        "help": (
            "set a field, or several in one call: text into an input, textarea or editable element,"
            " yes/no into a checkbox, an option's name into a select or custom dropdown, a number into a"
            " slider (TEXT `-`: stdin)"
        ),
        "about": (
            "Several SEL TEXT pairs fill a form in one call: each element is found and its value checked"
            " before anything is set, the page settles once, and one report says what changed."
            " A text's last key is released after it, so a page that searches as one types sees it."
            " A slider drawn by a component library is moved with its arrow keys, as a person would."
            " Each TEXT given as `-` is read from stdin, which keeps a password out of the process list:"
            " one `-` takes all of stdin (one trailing newline dropped), several take one value each,"
            " NUL-separated if stdin holds a NUL, else one a line; a `-` stdin cannot answer is refused."
        ),
        "example": 'fill @e3 "Ada Lovelace" @e5 Suite @e7 yes',
    },
    "dblclick": {
        "cat": "write",
        "consent": "target",
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
        "help": "type text key by key into SEL, or the focused element (TEXT `-`: stdin, for secrets)",
        "about": (
            "TEXT `-` reads the text from stdin (one trailing newline dropped), which keeps"
            " a secret out of the process list."
        ),
    },
    "press": {
        "cat": "write",
        "consent": "target",
        "mcp_tool": True,
        "args": ("KEY",),
        "flags": SETTLE_FLAGS,
        "help": "press a key or chord (Enter, Tab, Control+A)",
    },
    "select": {
        "cat": "write",
        "mcp_tool": True,
        "args": ("SEL", "VALUE..."),
        "flags": _FORCE,
        "help": (
            "choose options of a <select> by value or label; a custom dropdown (combobox,"
            " listbox or menu button) is opened and its option named VALUE clicked; any other"
            " menu button (it expands, or its click shows buttons or links): clicks the item of that name"
        ),
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
        "runs_page_code": True,
        "waits": True,
        "mcp_tool": True,
        "args": ("[SEL|MS]",),
        "flags": {
            "--text": ("T", "wait until the text T is visible (shadow DOM included)"),
            "--gone": ("SEL", "wait until SEL is hidden or removed (a CSS selector or @ref)"),
            "--url": ("PAT", "wait until the URL contains PAT (a glob when it has *)"),
            "--idle": (None, "wait until the DOM is quiet and no fetch/XHR is in flight"),
            "--load": (None, "wait for the load event"),
            "--networkidle": (None, "wait until the network has been quiet for 500 ms"),
            "--fn": ("EXPR", "wait until the JavaScript expression EXPR is truthy (polled)"),
            "--download": (None, "wait for a download to start, and save it as `download` would"),
            "--response": ("PAT", "wait for a response whose URL contains PAT (a glob when it has *)"),
        },
        "kinds": {
            "SEL|MS": ("alt", ("int", 0, 30_000), "sel"),
            "--text": "words",
            "--url": "text",
            "--fn": "words",
            "--response": "words",
        },
        "rules": (("one", *WAIT_FORMS), ("any", *WAIT_FORMS)),
        "example": "wait --load",
        "help": (
            "wait for an element, text, gone element, URL, JS condition, response, download,"
            " idle page, load, or MS"
        ),
    },
    "viewport": {
        "group": "emulation",
        "cat": "write",
        "args": ("WxH",),
        "flags": {"--scale": ("N", "device pixel ratio, e.g. 2 for a retina screen")},
        "kinds": {"--scale": ("number", 0.25, 5)},
        "help": "resize the viewport, e.g. 1280x800",
    },
    "upload": {
        "cat": "write",
        "consent": "upload",
        "args": ("SEL", "FILE..."),
        "flags": {
            "--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)"),
            **SETTLE_FLAGS,
        },
        "example": "upload @e3 photo.jpg",
        "help": "set files on a file input, or the drop zone or button that opens one",
    },
    # inspect
    "js": {
        "cat": "read",
        "consent": "js",
        "runs_page_code": True,
        "args": ("EXPR",),
        "flags": {},
        "kinds": {"EXPR": "rest"},
        "help": "value of a JavaScript expression in the page; `await` works",
        "data": "{value}",
    },
    "eval": {
        "cat": "read",
        "consent": "js",
        "runs_page_code": True,
        "args": ("FILE",),
        "flags": {"--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)")},
        "example": "eval script.js",
        "help": "value of a JavaScript file run in the page (`await` works; multi-line needs `return`)",
        "data": "{value}",
    },
    "css": {
        "cat": "read",
        "pure_read": True,
        "args": ("SEL", "PROP"),
        "flags": {},
        "help": "computed style value of an element",
    },
    "attrs": {
        "cat": "read",
        "pure_read": True,
        "args": ("SEL",),
        "flags": {},
        "help": "attributes of an element as JSON",
    },
    "is": {
        "cat": "read",
        "pure_read": True,
        "args": ("STATE", "SEL"),
        "flags": {},
        "kinds": {
            "STATE": ("enum", "visible", "hidden", "enabled", "disabled", "checked", "editable", "focused")
        },
        "help": "true/false: visible, hidden, enabled, disabled, checked, editable, focused",
    },
    "cookies": {
        "cat": "write",
        "unrecorded": True,
        "args": ("[ACTION]", "[ARG...]"),
        "forms": {"set": ("NAME", "VALUE"), "clear": ()},
        "rules": (
            ("with", "--path", "set"),
            ("with", "--expires", "set"),
            ("with", "--httponly", "set"),
            ("with", "--secure", "set"),
            ("with", "--samesite", "set"),
            ("with", "--domain", "set", "clear"),
        ),
        "flags": {
            "--domain": (
                "D",
                "set: the cookie's domain (default: the current page's host); clear: only this domain's",
            ),
            "--path": ("P", "set: the cookie's path (default /)"),
            "--expires": ("N", "set: when it expires, in seconds since 1970 (default: a session cookie)"),
            "--httponly": (None, "set: hidden from the page's scripts"),
            "--secure": (None, "set: sent over https only"),
            "--samesite": ("S", "set: Strict, Lax or None"),
        },
        "kinds": {
            "ACTION": ("enum", "set", "clear"),
            "VALUE": "text",
            "--expires": ("int", 0, None),
            "--samesite": ("enum", "strict", "lax", "none"),
        },
        "example": "cookies set theme dark",
        "help": "cookies of the current page (values shortened); `cookies set NAME VALUE`, `cookies clear`",
    },
    "storage": {
        "cat": "read",
        "args": ("[set]", "[KEY]", "[VALUE]"),
        "rules": (("with", "set", "VALUE"),),
        "flags": {},
        "kinds": {"set": ("enum", "set"), "KEY": "text"},
        "example": "storage set theme dark",
        "help": "local and session storage; `storage set KEY VALUE` sets a localStorage item",
    },
    "perf": {
        "cat": "read",
        "pure_read": True,
        "args": (),
        "flags": {},
        "help": "navigation timings: dns, tcp, tls, ttfb, download, dom parsed, dom ready, load, total",
    },
    "accessibility": {
        "cat": "read",
        "heavy": True,
        "pure_read": True,
        "args": (),
        "flags": {},
        "help": "the raw accessibility tree",
    },
    "tables": {
        "cat": "read",
        "heavy": True,
        "pure_read": True,
        "args": ("[SEL]",),
        "flags": {},
        "help": "each table as CSV, header row first (JSON with --json)",
        "about": "ARIA grids and tables count as tables; half-rows sharing a row index are one row.",
    },
    # visual
    "screenshot": {
        "cat": "read",
        "mcp_tool": True,
        "saves_images": True,
        "heavy": True,
        "pure_read": True,
        "args": ("[SEL|PATH]", "[PATH]"),
        "flags": {
            "--viewport": (None, "only what the viewport shows (default: the full page)"),
            "--clip": ("X,Y,W,H", "only this region of the page, in CSS pixels"),
            "--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)"),
            "--baseline": ("FILE", "compare with FILE (saved there the first time); a diff image beside it"),
            "--update": (None, "with --baseline: take this screenshot as the new baseline"),
            "--mask": ("SEL", "with --baseline: paint these elements over in both (repeat for more)"),
            "--threshold": ("N", "with --baseline: colour distance that still matches, 0-1 (default 0.1)"),
        },
        "kinds": {"--baseline": "path", "--threshold": ("number", 0, 1)},
        "repeat": ("--mask",),
        "example": "screenshot --viewport page.png",
        "help": "save a PNG: full page, an element (a ref or selector as for click: h1, #id), or a region",
    },
    "pdf": {
        "cat": "read",
        "heavy": True,
        "pure_read": True,
        "args": ("[PATH]",),
        "flags": {"--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)")},
        "example": "pdf page.pdf",
        "help": "print the page to a PDF file",
    },
    "responsive": {
        "cat": "read",
        "saves_images": True,
        "heavy": True,
        "args": ("[PREFIX]",),
        "flags": {"--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)")},
        "example": "responsive shots/home",
        "help": "screenshots at mobile (375x812), tablet (768x1024) and desktop (1280x800) sizes",
    },
    "diff": {
        "cat": "read",
        "pure_read": True,
        "args": ("URL1", "URL2"),
        "flags": {"--allow-file": (None, "allow a file:// URL (or BROWSE_ALLOW_FILE=1)")},
        "help": "unified diff of two pages' text",
    },
    "download": {
        "cat": "write",
        "consent": "download",
        "waits": True,
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
        "group": "emulation",
        "cat": "write",
        "args": ("UA",),
        "flags": {},
        "kinds": {"UA": "words"},
        "help": "change the user agent (keeps cookies, tabs, storage and history)",
    },
    # logs and dialogs
    "console": {
        "cat": "read",
        "pure_read": True,
        "args": (),
        "flags": {
            "--errors": (None, "only errors and uncaught exceptions"),
            "--clear": (None, "forget the messages so far"),
        },
        "help": "console messages of this session's tabs, '[time] [level] text' a line",
    },
    "network": {
        "cat": "read",
        "pure_read": True,
        "args": (),
        "flags": {"--clear": (None, "forget the requests so far")},
        "help": "responses of this session's tabs, '#N METHOD URL → STATUS (ms, bytes)' a line",
    },
    "request": {
        "cat": "read",
        "pure_read": True,
        "args": ("N",),
        "flags": {
            "--secrets": (None, "show cookie, Set-Cookie and Authorization values (masked by default)")
        },
        "kinds": {"N": ("int", 1, None)},
        "example": "request 3",
        "data": '{"n": N, "saved": [paths of bodies saved to files]}',
        "help": "one request of `network` in full: method, URL, status, timing, headers, bodies",
        "about": "Text bodies up to 4,000 characters are shown inline; a longer or binary body is saved"
        " under responses/ in the workspace and its path printed. A body over 20 MB stays in the browser."
        " The newest 500 requests of a session are held.",
    },
    "audit": {
        "cat": "read",
        "mcp_tool": True,
        "heavy": True,
        "args": ("[SEL]",),
        "flags": {"--tags": ("T", "only rules with these tags: wcag2a,wcag2aa,…")},
        "kinds": {"--tags": "words"},
        "example": "audit --tags wcag2a,wcag2aa",
        "data": '{"counts": {impact: n}, "passed": n, "rules": [{id, impact, help, url, count, elements:'
        " [{ref, exact, html, why}]}]}",
        "help": "accessibility audit (axe-core): violations by rule, worst first, with refs",
        "about": "Runs axe-core (the build axe-playwright-python ships) on the page or inside SEL. Each rule"
        " line gives its impact, its id, what must hold (the fix) and a link; under it up to 5 elements,"
        " each with its ref (`in @eN` when only an element around it has one) and why it fails."
        " A clean page prints one line with the count of rules passed. Frames are not audited.",
    },
    "vitals": {
        "cat": "read",
        "mcp_tool": True,
        "args": ("[URL]",),
        "flags": {},
        "example": "vitals http://localhost:3000/",
        "data": '{"lcp": {value, rating, ref}, "cls": {value, rating}, "inp": …, "fcp": …, "ttfb": …}',
        "help": "web vitals (LCP, CLS, INP, FCP, TTFB) of the page, or of a fresh load of URL, rated",
        "about": "Measured in the page from the entries Chromium buffered since the load, as the web-vitals"
        " library measures them; rated good / needs improvement / poor by web.dev's thresholds. LCP names"
        " its element by ref; INP is the slowest interaction since the load (Chromium keeps only those"
        " of 104 ms or more, so faster ones say 'under 104 ms').",
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
        "saves_state_itself": True,
        "args": ("ACTION", "[NAME]"),
        "forms": {"save": ("NAME",), "load": ("NAME",), "list": (), "delete": ("NAME",), "clear": ()},
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
    # network: per-session settings, kept across a restart (see daemon/services/sessionsettings.py)
    "route": {
        "group": "network",
        "cat": "write",
        "args": ("[PATTERN]",),
        "flags": {
            "--status": ("N", "answer with this HTTP status (default 200)"),
            "--body": ("TEXT", "answer with this body"),
            "--body-file": ("PATH", "answer with this file's content"),
            "--content-type": (
                "TYPE",
                "the answer's Content-Type (default: text/plain, or by the file name)",
            ),
            "--header": ("K:V", "a header of the answer; repeat the flag for more"),
            "--abort": (None, "block matching requests (the page sees a network error)"),
            "--delay": ("MS", "hold matching requests MS, then let them through (or answer them)"),
            "--times": ("N", "only the next N matching requests"),
            "--har": ("FILE", "answer from the responses recorded in a HAR file (`har start`)"),
            "--url": ("PAT", "with --har: only requests whose URL matches PAT"),
            "--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)"),
        },
        "repeat": ("--header",),
        "rules": (
            ("any", "PATTERN", "--har"),
            ("with", "--url", "--har"),
            ("apart", "--url", "PATTERN"),
            ("apart", "--har", "--status", "--body", "--body-file", "--abort", "--header", "--content-type"),
            ("one", "--body", "--body-file"),
            ("apart", "--abort", "--status", "--body", "--body-file", "--content-type", "--header"),
            (
                "any",
                "--body",
                "--body-file",
                "--status",
                "--content-type",
                "--header",
                "--abort",
                "--delay",
                "--har",
            ),
        ),
        "kinds": {
            "PATTERN": "text",
            "--status": ("int", 100, 599),
            "--header": "header",
            "--delay": ("int", 0, 60_000),
            "--times": ("int", 1, None),
            "--url": "text",
        },
        "about": (
            "PATTERN is a URL glob as Playwright takes it (`**/api/*`, `*://*.example.com/**`), or a"
            " regular expression between slashes (`/\\/api\\/items\\?page=\\d+/i`). A request that"
            " matches is answered (--status/--body/--body-file), blocked (--abort), or held and let"
            " through (--delay alone); the newest route is asked first. Routes stay with the session"
            " across a restart; an action's report names the requests they answered."
        ),
        "example": "route '**/api/items' --body '[]' --content-type application/json",
        "help": "answer, block or delay the requests whose URL matches PATTERN (mock an API, block images)",
    },
    "unroute": {
        "group": "network",
        "cat": "write",
        "args": ("[PATTERN]",),
        "flags": {},
        "kinds": {"PATTERN": "text"},
        "help": "remove the route of PATTERN, or every route",
    },
    "routes": {
        "group": "network",
        "cat": "read",
        "args": (),
        "flags": {},
        "pure_read": True,
        "help": "the active routes, each with what it does and how many requests it answered",
        "data": "{routes: [{pattern, action, hits, times}]}",
    },
    "headers": {
        "group": "network",
        "cat": "write",
        "args": ("ACTION", "[NAME]", "[VALUE]"),
        "forms": {"set": ("NAME", "VALUE"), "clear": ("[NAME]",)},
        "flags": {"--origin": ("URL", "only on requests to this origin")},
        "kinds": {"ACTION": ("enum", "set", "clear"), "NAME": "header_name", "VALUE": "text"},
        "stdin_arg": "VALUE",
        "about": (
            "Extra headers go on every request of the session (or of one origin with --origin)."
            " Values of Authorization, Cookie and other secret-looking headers are never printed:"
            " VALUE `-` reads the value from stdin."
        ),
        "example": "headers set X-Debug 1",
        "help": "headers set NAME VALUE: send an extra request header; headers clear [NAME]",
    },
    "offline": {
        "group": "network",
        "cat": "write",
        "args": ("STATE",),
        "flags": {},
        "kinds": {"STATE": ("enum", "on", "off")},
        "help": "cut the session off the network (on), or reconnect it (off)",
    },
    "throttle": {
        "group": "network",
        "cat": "write",
        "args": ("PRESET",),
        "flags": {},
        "kinds": {"PRESET": ("enum", "slow-3g", "fast-3g", "off")},
        "help": "slow the network of every tab to a mobile preset: slow-3g, fast-3g, or off",
    },
    "har": {
        "group": "network",
        "cat": "write",
        "args": ("ACTION", "[PATH]"),
        "forms": {"start": ("[PATH]",), "stop": ()},
        "flags": {
            "--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)"),
            "--secrets": (None, "with start: keep cookies and Authorization headers in the file"),
        },
        "kinds": {"ACTION": ("enum", "start", "stop")},
        "about": (
            "Without PATH the file goes to .refbrowse/recordings/. It is written mode 0600, with every"
            " text typed as a secret (`fill SEL -`, a password field, `auth login`) replaced, and cookies"
            " and Authorization headers replaced unless `--secrets`."
        ),
        "example": "har start session.har",
        "help": "har start [PATH]: record the session's requests; har stop: write them as a HAR 1.2 file",
    },
    # emulation: per-session settings, kept across a restart
    "device": {
        "group": "emulation",
        "cat": "write",
        "args": ("NAME",),
        "flags": {},
        "kinds": {"NAME": "rest"},
        "example": "device iPhone 13",
        "help": "emulate a phone or tablet from Playwright's list (size, scale, agent, touch); off to stop",
    },
    "devices": {
        "group": "emulation",
        "cat": "read",
        "args": ("[FILTER]",),
        "flags": {},
        "kinds": {"FILTER": "rest"},
        "pure_read": True,
        "help": "the device names `device` takes, with their viewport and scale",
    },
    "geo": {
        "group": "emulation",
        "cat": "write",
        "args": ("LAT", "[LON]"),
        "flags": {"--accuracy": ("M", "accuracy in metres (default 10)")},
        "kinds": {
            "LAT": ("alt", ("enum", "off"), ("number", -90, 90)),
            "LON": ("number", -180, 180),
            "--accuracy": ("number", 0, 1_000_000),
        },
        "rules": (("any", "LON", "off"), ("apart", "off", "LON")),
        "example": "geo 48.8584 2.2945",
        "help": "set the position navigator.geolocation gives, and allow it to the current site; geo off",
    },
    "timezone": {
        "group": "emulation",
        "cat": "write",
        "args": ("TZ",),
        "flags": {},
        "kinds": {"TZ": "timezone"},
        "example": "timezone Asia/Tokyo",
        "help": "the time zone pages see (Date, Intl), e.g. Europe/Paris; off for the system's",
    },
    "locale": {
        "group": "emulation",
        "cat": "write",
        "args": ("LANG",),
        "flags": {},
        "kinds": {"LANG": "locale"},
        "example": "locale de-DE",
        "help": "the language pages see (navigator.language, Intl, Accept-Language); off for the default",
    },
    "colorscheme": {
        "group": "emulation",
        "media_feature": "prefers-color-scheme",
        "cat": "write",
        "args": ("SCHEME",),
        "flags": {},
        "kinds": {"SCHEME": ("enum", "dark", "light", "no-preference", "off")},
        "help": "the prefers-color-scheme pages see: dark, light, no-preference, or off",
    },
    "media": {
        "group": "emulation",
        "cat": "write",
        "args": ("TYPE",),
        "flags": {},
        "kinds": {"TYPE": ("enum", "print", "screen", "off")},
        "help": "the CSS media type pages see: print, screen, or off",
    },
    "reducedmotion": {
        "group": "emulation",
        "media_feature": "prefers-reduced-motion",
        "cat": "write",
        "args": ("MOTION",),
        "flags": {},
        "kinds": {"MOTION": ("enum", "reduce", "no-preference", "off")},
        "help": "the prefers-reduced-motion pages see: reduce, no-preference, or off",
    },
    "forcedcolors": {
        "group": "emulation",
        "media_feature": "forced-colors",
        "cat": "write",
        "args": ("MODE",),
        "flags": {},
        "kinds": {"MODE": ("enum", "active", "none", "off")},
        "help": "the forced-colors pages see (Windows high contrast): active, none, or off",
    },
    "contrast": {
        "group": "emulation",
        "media_feature": "prefers-contrast",
        "cat": "write",
        "args": ("LEVEL",),
        "flags": {},
        "kinds": {"LEVEL": ("enum", "more", "less", "no-preference", "off")},
        "help": "the prefers-contrast pages see: more, less, no-preference, or off",
    },
    "permissions": {
        "group": "emulation",
        "cat": "write",
        "args": ("ACTION", "[NAME...]"),
        "forms": {"grant": ("NAME...",), "clear": ()},
        "flags": {"--origin": ("URL", "only for this origin (default: every origin)")},
        "kinds": {"ACTION": ("enum", "grant", "clear"), "NAME": ("enum", *PERMISSION_NAMES)},
        "example": "permissions grant notifications camera",
        "help": "permissions grant NAME...: allow without asking; permissions clear takes them back",
    },
    "initscript": {
        "group": "network",
        "cat": "write",
        "args": ("ACTION", "[FILE]"),
        "forms": {"add": ("FILE",), "list": (), "remove": ("FILE",)},
        "flags": {"--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)")},
        "kinds": {"ACTION": ("enum", "add", "list", "remove")},
        "example": "initscript add mock-clock.js",
        "help": "scripts run in every page of the session before its own: add FILE, list, remove FILE",
    },
    # multi-step
    "chain": {
        "cat": "write",
        "waits": True,
        "unrecorded": True,
        "args": (),
        "flags": {},
        "help": 'run a JSON array of commands from stdin, e.g. [["goto","URL"],["click","@e3"]]',
        "data": "{steps: [{step, output, data}]}",
        "stdin": True,
        "nested": True,
    },
    # input: drag, keys held, the raw mouse, the clipboard
    "drag": {
        "cat": "write",
        "args": ("SRC", "DST"),
        "flags": _FORCE,
        "kinds": {"SRC": "sel", "DST": "place"},
        "about": (
            "DST is an element to drop onto, a point X,Y in the viewport (CSS pixels), or an offset from"
            " where the drag starts: +DX,+DY, with - for left or up (a slider's handle, a resize corner,"
            " a canvas). The mouse presses at SRC's centre and moves there in small steps a frame apart,"
            " so sortable lists that follow the mouse see the move."
        ),
        "example": "drag @e3 +120,+0",
        "help": "drag an element onto another, to a point X,Y, or by an offset +DX,+DY",
    },
    "keydown": {
        "cat": "write",
        "args": ("KEY",),
        "flags": SETTLE_FLAGS,
        "kinds": {"KEY": "onekey"},
        "example": "keydown Shift",
        "help": "hold a key down (until `keyup KEY`), e.g. Shift for a range selection",
    },
    "keyup": {
        "cat": "write",
        "args": ("KEY",),
        "flags": SETTLE_FLAGS,
        "kinds": {"KEY": "onekey"},
        "example": "keyup Shift",
        "help": "release a key held by `keydown`",
    },
    "mouse": {
        "cat": "write",
        "args": ("ACTION", "[ARG...]"),
        "forms": {"move": ("X", "Y"), "down": ("[BUTTON]",), "up": ("[BUTTON]",), "wheel": ("DX", "DY")},
        "flags": SETTLE_FLAGS,
        "kinds": {
            "ACTION": ("enum", "move", "down", "up", "wheel"),
            "X": ("number", 0, None),
            "Y": ("number", 0, None),
            "DX": ("number", None, None),
            "DY": ("number", None, None),
            "BUTTON": ("enum", "left", "right", "middle"),
        },
        "about": (
            "X and Y are CSS pixels from the viewport's top left; `down` and `up` press and release"
            " BUTTON (left by default) where the mouse is; `wheel` scrolls by DX, DY pixels."
        ),
        "example": "mouse move 100 200",
        "help": "the raw mouse: move X Y, down [BUTTON], up [BUTTON], wheel DX DY",
    },
    "selecttext": {
        "cat": "write",
        "args": ("SEL",),
        "flags": {
            "--from": ("TEXT", "start at the first place the element's text says TEXT"),
            "--to": ("TEXT", "end after the first TEXT from there on"),
            **SETTLE_FLAGS,
        },
        "about": (
            "Selects a paragraph's, a cell's or a field's text, or the part from --from to --to (across"
            " the element's text nodes; white space and case need not match exactly). Where it is safe the"
            " mouse drags over the part, as a person's would; the report quotes what is selected."
            " `clipboard copy` copies it."
        ),
        "example": 'selecttext @e4 --from "quick" --to "fox"',
        "help": "select an element's text, or part of it (--from TEXT --to TEXT)",
    },
    "clipboard": {
        "cat": "write",
        "unrecorded": True,
        "args": ("ACTION", "[ARG...]"),
        "forms": {"read": (), "write": ("TEXT",), "copy": (), "paste": ()},
        "flags": {},
        "kinds": {"ACTION": ("enum", "read", "write", "copy", "paste")},
        "stdin_arg": "TEXT",
        "about": (
            "`copy` copies the selected text (`selecttext` selects it) and `paste` pastes into the focused"
            " field, as the platform's shortcuts do, firing the page's copy and paste handlers. TEXT `-`"
            " reads it from stdin. The clipboard is granted to the page's origin."
        ),
        "example": 'clipboard write "hello"',
        "help": (
            "the page's clipboard: copy the selection, paste into the focused field,"
            " read it, or write TEXT to it"
        ),
        "uncounted": True,
    },
    # logins: the vault
    "auth": {
        "cat": "write",
        "unrecorded": True,
        "uncounted": True,
        "args": ("ACTION", "[NAME]"),
        "forms": {
            "save": ("NAME",),
            "login": ("NAME",),
            "list": (),
            "show": ("NAME",),
            "update": ("NAME",),
            "delete": ("NAME",),
        },
        "flags": {
            "--url": ("URL", "with save or update: the login page (its origin is the only one filled)"),
            "--username": ("USER", "with save or update: the user name or email"),
            "--password": (None, "with update: read a new password from stdin"),
            "--totp-secret": (
                None,
                "with save or update: read the one-time code secret (base32) from stdin too",
            ),
        },
        "kinds": {
            "ACTION": ("enum", "save", "login", "list", "show", "update", "delete"),
            "NAME": "text",
            "--username": "text",
        },
        "secrets_asked": (
            ("save", "the password"),
            ("save --totp-secret", "the one-time code secret"),
            ("update --password", "the new password"),
            ("update --totp-secret", "the one-time code secret"),
        ),
        "about": (
            "The password never goes through argv or the model: `auth save` reads it from stdin (or asks"
            " on a terminal) and keeps it encrypted outside the workspace, under a key in the OS keyring"
            " or a 0600 file in the user's config folder. `auth login NAME` opens the saved URL (or uses the"
            " current page of the same origin), fills the login form (one step, or the password after"
            " Next; a one-time code when asked), submits and reports like any action. It never fills a"
            " page of another origin, redirects included."
        ),
        "example": "auth login github",
        "help": (
            "saved logins: auth save NAME --url URL [--username U] (password on stdin),"
            " auth login NAME, list, show, update, delete"
        ),
    },
    "confirm": {
        "cat": "meta",
        "nested": True,
        "unrecorded": True,
        "uncounted": True,
        "args": ("[ID]",),
        "flags": {},
        "kinds": {"ID": "text"},
        "about": (
            "With BROWSE_CONFIRM set (destructive, payment, send, upload, download, cross-origin, tools, js,"
            " or all; BROWSE_CONFIRM_RULES for patterns), a consequential action does not run: it exits 5"
            " with one line naming its id and what would happen. `confirm ID` runs it as it was, refused if"
            " the page changed so that its target moved; held actions expire after BROWSE_CONFIRM_TTL"
            " seconds (300). A person can answer on the activity page too."
        ),
        "example": "confirm 3fa9c1",
        "help": "run an action held for consent (exit 5 gave its id); without ID, list what is held",
    },
    "deny": {
        "cat": "meta",
        "uncounted": True,
        "unrecorded": True,
        "args": ("ID",),
        "flags": {},
        "kinds": {"ID": "text"},
        "help": "drop an action held for consent: it never runs",
    },
    # recording: traces, performance profiles, videos, and the session as a test
    "trace": {
        "group": "recording",
        "cat": "write",
        "unrecorded": True,
        "args": ("ACTION", "[ARG...]"),
        "forms": {"start": (), "stop": ("[PATH]",)},
        "flags": {
            "--screenshots": (None, "with start: a screenshot of each step in the trace"),
            "--snapshots": (
                None,
                "with start: a DOM snapshot of each step (the trace viewer's before/after)",
            ),
            "--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)"),
        },
        "kinds": {"ACTION": ("enum", "start", "stop")},
        "about": "`stop` writes a Playwright trace zip; open it with `playwright show-trace PATH`.",
        "example": "trace stop bug.zip",
        "help": "record a Playwright trace of this session: trace start, then trace stop [PATH]",
        "uncounted": True,
    },
    "profile": {
        "group": "recording",
        "cat": "write",
        "unrecorded": True,
        "args": ("ACTION", "[ARG...]"),
        "forms": {"start": (), "stop": ("[PATH]",)},
        "flags": {"--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)")},
        "kinds": {"ACTION": ("enum", "start", "stop")},
        "about": "`stop` writes Chrome trace-event JSON: open it in DevTools' Performance panel or Perfetto.",
        "example": "profile stop load.json",
        "help": "record a Chrome performance profile of the current tab: profile start, then stop [PATH]",
        "uncounted": True,
    },
    "video": {
        "group": "recording",
        "cat": "write",
        "unrecorded": True,
        "args": ("ACTION", "[ARG...]"),
        "forms": {"start": (), "stop": ("[PATH]",)},
        "flags": {"--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)")},
        "kinds": {"ACTION": ("enum", "start", "stop")},
        "about": "Chromium's screencast frames, encoded by ffmpeg (`apt-get install ffmpeg`).",
        "example": "video stop run.webm",
        "help": "record the current tab as a video: video start, then video stop [PATH] (.webm or .mp4)",
        "uncounted": True,
    },
    "record": {
        "group": "recording",
        "cat": "write",
        "unrecorded": True,
        "args": ("ACTION", "[ARG...]"),
        "forms": {"start": (), "stop": ("[PATH]",)},
        "flags": {"--allow-path": ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)")},
        "kinds": {"ACTION": ("enum", "start", "stop")},
        "about": (
            "`stop` writes the actions since `start` as a pytest file using Playwright's sync API, with"
            " role and label locators (never refs) and an assertion for what each report showed."
        ),
        "example": "record stop test_checkout.py",
        "help": "turn this session's actions into a Playwright test: record start, then record stop [PATH]",
        "uncounted": True,
    },
    "locator": {
        "group": "recording",
        "cat": "read",
        "args": ("SEL",),
        "flags": {},
        "example": "locator @e3",
        "help": "a robust Playwright locator for an element (get_by_role, get_by_label…), for tests",
        "pure_read": True,
    },
    # the page's own tools for agents (WebMCP)
    "tools": {
        "cat": "read",
        "pure_read": True,
        "lockless": True,
        "args": (),
        "flags": {},
        "about": (
            "Pages offer tools with `document.modelContext.registerTool` or a `<form toolname=...>`."
            " Each line: the tool, its description and hints (read-only, consequential, form), then its"
            " parameters with their types and which are required; tools of other frames under their URL."
            " `--json` gives the input schemas."
        ),
        "help": "the current page's own tools for agents (WebMCP), in every frame",
        "data": "{tools: [{name, description, input_schema, annotations, declarative, frame?}], url}",
    },
    "tool": {
        "cat": "write",
        "consent": "tools",
        "waits": True,
        "args": ("NAME", "[INPUT...]"),
        "flags": {
            "--detach": (None, "leave a call that outlives the timeout running; `tool-result ID` fetches it"),
            **SETTLE_FLAGS,
        },
        "about": (
            'INPUT is one JSON object (\'{"q": "dune"}\') or key=value pairs (values read as JSON'
            " unless the field is a string). It is checked against the tool's schema first. The call"
            " runs within the action timeout (`--timeout MS` for more); its result is page content."
            " A form tool's form is filled and submitted, and the report shows where it went."
        ),
        "example": "tool search_books q=dune",
        "help": "call one of the page's own tools (`browse tools`) and report its result and what changed",
        "data": "{tool, result, text, running?, ...the action's report}",
    },
    "tools-wait": {
        "cat": "meta",
        "no_start": True,
        "no_mcp": True,
        "waits": True,
        "unrecorded": True,
        "uncounted": True,
        "args": ("[MARK]",),
        "flags": {},
        "about": (
            "MARK is what the last answer printed (`TAB:VERSION`); without it, the answer is at once."
            " Waits up to 25 s. `browse mcp` uses it to tell its clients that their tool list changed."
        ),
        "help": "wait until the current tab's page tools may have changed (a navigation, a registration)",
        "data": "{mark, changed}",
    },
    "tool-result": {
        "cat": "read",
        "waits": True,
        "unrecorded": True,
        "args": ("ID",),
        "flags": {},
        "kinds": {"ID": ("int", 1, None)},
        "example": "tool-result 1",
        "help": "the result of a page tool call left running (`tool --detach`), waiting up to the timeout",
    },
    "tool-cancel": {
        "cat": "write",
        "unrecorded": True,
        "args": ("ID",),
        "flags": {},
        "kinds": {"ID": ("int", 1, None)},
        "example": "tool-cancel 1",
        "help": "cancel a page tool call left running (`tool --detach`)",
    },
    # tabs
    "tabs": {
        "cat": "read",
        "mcp_tool": True,
        "pure_read": True,
        "args": (),
        "flags": {},
        "help": "list tabs, the current one marked",
    },
    "tab": {
        "cat": "write",
        "pure_read": True,
        "args": ("N",),
        "flags": {},
        "kinds": {"N": ("int", 1, None)},
        "help": "switch to tab N; prints its interactive view, as `newtab` does",
    },
    "newtab": {
        "cat": "write",
        "pure_read": True,
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
        "uncounted": True,
        "args": (),
        "flags": {
            "--channel": ("NAME", "chrome or msedge: that system browser (default: Chrome if installed)"),
            "--cdp": ("URL", "a remote browser's DevTools endpoint instead (http://host:9222 or ws://…)"),
        },
        "kinds": {"--channel": ("enum", "chrome", "msedge"), "--cdp": "endpoint"},
        "rules": (("one", "--channel", "--cdp"),),
        "help": "switch to a visible browser (or a remote one) with the same cookies, storage and tabs",
        "nested": True,
    },
    "disconnect": {
        "cat": "meta",
        "uncounted": True,  # it must work when a remote browser chosen by `connect --cdp` is gone
        "args": (),
        "flags": {},
        "help": "back to a headless browser, with the same cookies, storage and tabs",
    },
    "focus": {
        "cat": "write",
        "uncounted": True,
        "args": ("[SEL]",),
        "flags": {},
        "example": "focus @e3",
        "help": "bring the browser window to the front, and scroll SEL into view",
    },
    "handoff": {
        "cat": "write",
        "waits": True,
        "uncounted": True,
        "args": ("[REASON]",),
        "flags": {},
        "example": 'handoff "solve the captcha, then run browse resume"',
        "help": "give the page to a person in a visible window (captcha, MFA); `resume` takes it back",
        "nested": True,
    },
    "resume": {
        "cat": "write",
        "uncounted": True,
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
        "no_mcp": True,
        "args": (),
        "flags": {
            "--http": (None, "serve Streamable HTTP on 127.0.0.1 with a bearer token instead of stdio"),
            "--port": ("N", "the HTTP port (default: any free one, written to .refbrowse/mcp.json)"),
        },
        "help": "serve the commands as MCP tools, sharing this workspace's browser with the CLI",
        "local": "refbrowse.mcp.server",
    },
    "skill": {
        "cat": "meta",
        "no_mcp": True,
        "args": ("[ACTION]", "[TOPIC]"),
        "flags": {
            "--project": (None, "install into .claude/skills at the workspace's root (the default)"),
            "--user": (None, "install into ~/.claude/skills"),
        },
        "help": "print the agent skill file SKILL.md (the core loop), `skill get TOPIC` a page of it, "
        "`skill all` every page, or `skill install` it where Claude Code finds skills",
        "local": "refbrowse.skill",
    },
    # setting up: a browser, a check of the set-up, the built-in demo (no daemon needed for the first two)
    "install": {
        "cat": "meta",
        "no_mcp": True,
        "args": (),
        "flags": {
            "--system": (None, "as root on Debian/Ubuntu, install the system's chromium with apt-get"),
            "--no-download": (None, "never run Playwright's installer: find a browser or say how to get one"),
        },
        "about": (
            "Looks for a browser in this order: BROWSE_CHROMIUM_PATH, Playwright's own Chromium, a system "
            "Chromium or Chrome. When none is there it runs Playwright's installer (a download of about "
            "170 MB, when the network allows), else prints the command that installs one on this system "
            "(apt-get, dnf or brew). With --system, as root where apt-get is, it runs apt-get itself first."
        ),
        "help": "make sure a browser is there: find one, or install it, or print the command that does",
        "local": "refbrowse.setup.install",
    },
    "doctor": {
        "cat": "meta",
        "no_mcp": True,
        "args": (),
        "flags": {},
        "about": (
            "One screen: version, Python, the browser and its version, the display, the workspace and "
            "its state directory (owner, mode), the daemon (pid, mode, socket), the MCP token file and "
            "where the skill is installed. Each problem comes with what to do; exits 3 when refbrowse "
            "cannot run here (no browser, a state directory it cannot use)."
        ),
        "help": "check the set-up (browser, display, workspace, daemon, MCP, skill): each problem with a fix",
        "local": "refbrowse.setup.doctor",
    },
    "demo": {
        "cat": "meta",
        "no_mcp": True,
        "args": (),
        "flags": {},
        "about": (
            "Loads the demo page that ships with refbrowse, reads it, then signs up as an agent does: "
            "fills and clicks by @ref and reads what the click did. Each step is printed as a command "
            "line you can paste. It uses this workspace's daemon, which stays up afterwards."
        ),
        "help": "drive the built-in demo page step by step, printing each command and what it answered",
        "local": "refbrowse.demo.run",
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
# something to say (see `daemon/action/perform.py`).
EFFECTS_DATA = (
    "{url, navigation: {kind, url}, tabs: [{event, kind, tab, url}], dialogs: [{type, message, answer}],"
    " downloads: [{filename, url}], messages: [{event, kind, label, text}], view: [diff line], notes, busy,"
    " page: the new page's `snapshot -i` data after a navigation}"
)
for _spec in COMMANDS.values():
    if "--no-wait" in _spec["flags"]:
        _spec.setdefault("data", EFFECTS_DATA)
