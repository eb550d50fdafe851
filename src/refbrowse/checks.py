"""Rules on a command's values taken together, which a plain rule cannot say.

A command's `rules` in the registry name one as ("check", NAME); `parse.check_rules`
runs it in the CLI before any daemon starts, and in the daemon for every other
caller, after each value has passed its kind. Standard library only: a check that
needs `re` imports it when it runs, so the CLI's start-up does not pay for it.
Each check takes the command's name, its words as typed, and its flags.
"""

from __future__ import annotations

import os

from refbrowse.errors import UsageError
from refbrowse.kinds.bounds import MAX_DEVICE_SIDE
from refbrowse.kinds.selectors import looks_like_path, looks_like_selector

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Mapping

    Check = Callable[[str, list[str], Mapping[str, object]], None]


def device_pixels(name: str, args: list[str], flags: Mapping[str, object]) -> None:
    """A viewport at a scale is one surface: Chromium's largest texture bounds its side."""
    if not args:
        return
    sides = [int(side) for side in args[0].replace("×", "x").split("x")]
    scale = float(str(flags.get("--scale") or 1))
    if max(sides) * scale > MAX_DEVICE_SIDE:
        raise UsageError(
            f"{name} {sides[0]}x{sides[1]} at scale {scale:g} is {max(sides) * scale:.0f} device pixels"
            f" a side, more than {MAX_DEVICE_SIDE}",
            "use a smaller size or --scale",
        )


def find_regex(name: str, args: list[str], flags: Mapping[str, object]) -> None:
    """`find --regex TEXT`: TEXT compiles as a regular expression."""
    if not flags.get("--regex") or not args:
        return
    import re

    try:
        re.compile(args[0], re.IGNORECASE)
    except re.error as exc:
        raise UsageError(
            f"--regex {args[0]!r} is not a valid pattern: {exc}",
            r"escape ( ) [ and the like with \\, or leave out --regex",
        ) from exc


def url_regex(pattern: str) -> re.Pattern[str] | None:
    """A route's `/…/flags` pattern as a regular expression; None for a glob."""
    end = pattern.rfind("/")
    flagged = set(pattern[end + 1 :]) <= set("ims")
    if not (len(pattern) > 2 and pattern.startswith("/") and end > 0 and flagged):
        return None
    import re

    flags = 0
    for letter in pattern[end + 1 :]:
        flags |= {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL}[letter]
    try:
        return re.compile(pattern[1:end], flags)
    except re.error as exc:
        raise UsageError(
            f"route {pattern}: not a regular expression: {exc}", "for example: /\\/api\\//"
        ) from exc


def route_pattern(name: str, args: list[str], flags: Mapping[str, object]) -> None:
    """A route's PATTERN (or --url with --har) between slashes compiles as a regular expression."""
    for pattern in (*args[:1], flags.get("--url")):
        if isinstance(pattern, str):
            url_regex(pattern)


def split_target(args: list[str]) -> tuple[str | None, str | None]:
    """(selector, path) from screenshot's `[SEL] [PATH]`: of two, the first is the selector, any that
    `click` takes; of one, a selector if it reads as one (`kinds.looks_like_selector`), else the path."""
    if len(args) == 2:
        return args[0], args[1]
    if len(args) == 1:
        return (args[0], None) if looks_like_selector(args[0]) else (None, args[0])
    return None, None


def screenshot_target(name: str, args: list[str], flags: Mapping[str, object]) -> None:
    """What a screenshot shows is one thing: the whole page, the viewport, a region or an element."""
    if len(args) == 2 and looks_like_path(args[0]) and not looks_like_selector(args[0]):
        raise UsageError(
            f"{name} takes one path, got two: {args[0]} {args[1]}",
            "give the element first, then the path (e.g. screenshot h1 title.png, screenshot @e3 x.png)",
        )
    selector, path = split_target(args)
    on = (("--viewport", flags.get("--viewport")), ("--clip", flags.get("--clip")), ("an element", selector))
    modes = [mode for mode, given in on if given]
    if len(modes) > 1:
        raise UsageError(
            f"{name} takes one of --viewport, --clip or an element, got {' and '.join(modes)}", "pick one"
        )
    if flags.get("--baseline") and path:
        raise UsageError("--baseline FILE names the file: screenshot takes no PATH with it", "leave out PATH")


def some_code(name: str, args: list[str], flags: Mapping[str, object]) -> None:
    """`js EXPR`: there is code to run (its words joined, as the daemon runs them)."""
    if not " ".join(args).strip():
        raise UsageError("there is no code to run", "for example: browse js document.title")


# What `video stop PATH` writes: a file type an encoder is set up for (`services.recording.video`).
VIDEO_EXTENSIONS = (".webm", ".mp4")


def video_path(name: str, args: list[str], flags: Mapping[str, object]) -> None:
    """`video stop PATH`: the file's type says how the video is encoded, so it is one of them."""
    if len(args) < 2 or args[0].lower() != "stop":
        return
    ext = os.path.splitext(args[1])[1].lower()
    if ext not in VIDEO_EXTENSIONS:
        raise UsageError(
            f"a video is saved as {' or '.join(VIDEO_EXTENSIONS)}, not {ext or 'no extension'}",
            "for example: video stop run.webm",
        )


CHECKS: dict[str, Check] = {
    "device_pixels": device_pixels,
    "find_regex": find_regex,
    "route_pattern": route_pattern,
    "screenshot_target": screenshot_target,
    "some_code": some_code,
    "video_path": video_path,
}
