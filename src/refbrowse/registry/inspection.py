"""Looking into the page: scripts, styles, storage, images, logs and dialogs.

A part of the one registry (see `refbrowse.registry`), in the order help lists them."""

from __future__ import annotations

from refbrowse.kinds.bounds import LAST_SECOND, MAX_BYTES, MAX_COUNT
from refbrowse.registry.common import ALLOW_PATH, SETTLE_FLAGS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from refbrowse.specs import CommandSpec

COMMANDS: dict[str, CommandSpec] = {
    # inspect
    "js": {
        "cat": "read",
        "consent": "js",
        "runs_page_code": True,
        "args": ("EXPR",),
        "flags": {},
        "kinds": {"EXPR": "rest"},
        "rules": (("check", "some_code"),),
        "help": "value of a JavaScript expression in the page; `await` works",
        "data": "{value}",
    },
    "eval": {
        "cat": "read",
        "consent": "js",
        "runs_page_code": True,
        "args": ("FILE",),
        "flags": {"--allow-path": ALLOW_PATH},
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
            ("with", "--samesite=none", "--secure"),  # browsers drop a SameSite=None cookie not secure
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
            "--expires": ("int", 0, LAST_SECOND),
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
            "--allow-path": ALLOW_PATH,
            "--baseline": ("FILE", "compare with FILE (saved there the first time); a diff image beside it"),
            "--update": (None, "with --baseline: take this screenshot as the new baseline"),
            "--mask": ("SEL", "with --baseline: paint these elements over in both (repeat for more)"),
            "--threshold": ("N", "with --baseline: colour distance that still matches, 0-1 (default 0.1)"),
        },
        "kinds": {"--baseline": "path", "--threshold": ("number", 0, 1)},
        "rules": (("check", "screenshot_target"),),
        "repeat": ("--mask",),
        "example": "screenshot --viewport page.png",
        "help": "save a PNG: full page, an element (a ref or selector as for click: h1, #id), or a region",
    },
    "pdf": {
        "cat": "read",
        "heavy": True,
        "pure_read": True,
        "args": ("[PATH]",),
        "flags": {"--allow-path": ALLOW_PATH},
        "example": "pdf page.pdf",
        "help": "print the page to a PDF file",
    },
    "responsive": {
        "cat": "read",
        "saves_images": True,
        "heavy": True,
        "args": ("[PREFIX]",),
        "flags": {"--allow-path": ALLOW_PATH},
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
            "--allow-path": ALLOW_PATH,
            "--allow-file": (None, "allow a file:// URL (or BROWSE_ALLOW_FILE=1)"),
        },
        "kinds": {"--max-bytes": ("int", 1, MAX_BYTES)},
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
        "kinds": {"N": ("int", 1, MAX_COUNT)},
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
        "data": '{"counts": {impact: n}, "passed": n, "frames": n, "frames_not_audited": [text],'
        ' "rules": [{id, impact, help, url, count, elements: [{ref, exact, html, why, frame}]}]}',
        "help": "accessibility audit (axe-core): violations by rule, worst first, with refs",
        "about": "Runs axe-core (the build axe-playwright-python ships) on the page or inside SEL. Each rule"
        " line gives its impact, its id, what must hold (the fix) and a link; under it up to 5 elements,"
        " each with its ref (`in @eN` when only an element around it has one) and why it fails."
        " A clean page prints one line with the count of rules passed. Each frame (inside SEL, up to 20,"
        " cross-origin ones too) is audited on its own, its elements named by the snapshot's refs"
        " into it; rules that judge the whole page (one main, one h1, the title) are the top page's.",
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
}
