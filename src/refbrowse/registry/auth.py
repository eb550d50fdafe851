"""Logins from the vault, and the consent gate's answers.

A part of the one registry (see `refbrowse.registry`), in the order help lists them."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from refbrowse.specs import CommandSpec

COMMANDS: dict[str, CommandSpec] = {
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
}
