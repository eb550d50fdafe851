"""Pieces more than one part of the registry uses: shared flags, the permission names, wait's forms."""

from __future__ import annotations

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


# The flag of every command that reads or writes a file (see `services.policy`).
ALLOW_PATH: tuple[str | None, str] = ("DIR", "also allow files under DIR (or BROWSE_ALLOWED_PATHS)")

# Every action settles before it reports its effects; these change how long.
SETTLE_FLAGS: dict[str, tuple[str | None, str]] = {
    "--no-wait": (None, "answer at once, without waiting for the page to settle"),
    "--settle": ("MS", "wait at most MS for the page to settle (default 1500)"),
}
FORCE_FLAGS: dict[str, tuple[str | None, str]] = {
    "--force": (None, "skip actionability checks (visible, enabled, not covered)"),
    **SETTLE_FLAGS,
}
