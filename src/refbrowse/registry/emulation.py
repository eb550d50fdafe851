"""Emulation: devices, places, time zones, media features, permissions.

A part of the one registry (see `refbrowse.registry`), in the order help lists them."""

from __future__ import annotations

from refbrowse.registry.common import ALLOW_PATH, PERMISSION_NAMES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from refbrowse.specs import CommandSpec

COMMANDS: dict[str, CommandSpec] = {
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
        "flags": {"--allow-path": ALLOW_PATH},
        "kinds": {"ACTION": ("enum", "add", "list", "remove")},
        "example": "initscript add mock-clock.js",
        "help": "scripts run in every page of the session before its own: add FILE, list, remove FILE",
    },
}
