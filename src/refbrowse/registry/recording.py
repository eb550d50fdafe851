"""Recording: traces, profiles, videos, the session as a test.

A part of the one registry (see `refbrowse.registry`), in the order help lists them."""

from __future__ import annotations

from refbrowse.registry.common import ALLOW_PATH

TYPE_CHECKING = False
if TYPE_CHECKING:
    from refbrowse.specs import CommandSpec

COMMANDS: dict[str, CommandSpec] = {
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
            "--allow-path": ALLOW_PATH,
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
        "flags": {"--allow-path": ALLOW_PATH},
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
        "flags": {"--allow-path": ALLOW_PATH},
        "kinds": {"ACTION": ("enum", "start", "stop")},
        "rules": (("check", "video_path"),),
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
        "flags": {"--allow-path": ALLOW_PATH},
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
}
