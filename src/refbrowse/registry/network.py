"""Login state and the network: cookies, routes, headers, throttling, HAR.

A part of the one registry (see `refbrowse.registry`), in the order help lists them."""

from __future__ import annotations

from refbrowse.kinds.bounds import MAX_COUNT
from refbrowse.registry.common import ALLOW_PATH

TYPE_CHECKING = False
if TYPE_CHECKING:
    from refbrowse.specs import CommandSpec

# What a route may do with a request besides holding it (`--delay`) or replaying a HAR.
_ANSWERS = ("--body", "--body-file", "--status", "--content-type", "--header", "--abort")

COMMANDS: dict[str, CommandSpec] = {
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
        "flags": {"--allow-path": ALLOW_PATH},
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
            "--allow-path": ALLOW_PATH,
        },
        "repeat": ("--header",),
        "rules": (
            ("any", "PATTERN", "--har"),
            ("with", "--url", "--har"),
            ("apart", "--url", "PATTERN"),
            ("apart", "--har", "--status", "--body", "--body-file", "--abort", "--header", "--content-type"),
            ("one", "--body", "--body-file"),
            ("apart", "--abort", "--status", "--body", "--body-file", "--content-type", "--header"),
            ("any", *_ANSWERS, "--delay", "--har"),
            ("with", "--delay=0", *_ANSWERS, "--har"),  # held 0 ms and let through is no route at all
            ("check", "route_pattern"),
        ),
        "kinds": {
            "PATTERN": "text",
            "--status": ("int", 100, 599),
            "--header": "header",
            "--delay": ("int", 0, 60_000),
            "--times": ("int", 1, MAX_COUNT),
            "--url": "text",
        },
        "about": (
            "PATTERN is a URL glob as Playwright takes it (`**/api/*`, `*://*.example.com/**`; it"
            " names the URL's path, not an address in its query, unless it holds a `?`), or a"
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
            "Extra headers go on every request of the session (or of one origin with --origin:"
            " a redirect to another host carries none of them)."
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
        "lockless": True,  # the context records, not the tab: a page that floods it holds no stop
        "args": ("ACTION", "[PATH]"),
        "forms": {"start": ("[PATH]",), "stop": ()},
        "flags": {
            "--allow-path": ALLOW_PATH,
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
}
