"""Tabs, headed and remote browsers, the server, and setting up.

A part of the one registry (see `refbrowse.registry`), in the order help lists them."""

from __future__ import annotations

from refbrowse.kinds.bounds import MAX_COUNT, MAX_PORT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from refbrowse.specs import CommandSpec

COMMANDS: dict[str, CommandSpec] = {
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
        "kinds": {"N": ("int", 1, MAX_COUNT)},
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
        "kinds": {"N": ("int", 1, MAX_COUNT)},
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
        "kinds": {"--port": ("int", 0, MAX_PORT)},
        # checked with the arguments, before the MCP library (~0.8 s of CPU) is loaded
        "rules": (("with", "--port", "--http"),),
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
