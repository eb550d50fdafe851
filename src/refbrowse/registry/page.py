"""Reaching and reading pages: navigation, text, passages, the snapshot.

A part of the one registry (see `refbrowse.registry`), in the order help lists them."""

from __future__ import annotations

from refbrowse.kinds.bounds import MAX_COUNT
from refbrowse.registry.common import ALLOW_PATH, SETTLE_FLAGS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from refbrowse.specs import CommandSpec

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
        "kinds": {"--max-tokens": ("int", 1, MAX_COUNT)},
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
        "rules": (("check", "find_regex"),),
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
        "kinds": {"--max-tokens": ("int", 1, MAX_COUNT)},
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
            "--allow-path": ALLOW_PATH,
        },
        "kinds": {"-d": ("int", 1, MAX_COUNT), "--max-tokens": ("int", 1, MAX_COUNT)},
        "example": "snapshot -i",
        "help": "the page as text, one element a line, with @refs to act on",
        "data": (
            "{url, title, triage: {page_type, login_form, captcha, forms, fields, overlays},"
            " refs: [{ref, role, name, states}], text}"
        ),
    },
}
