"""Acting on elements: click, fill, type, select, scroll, wait, upload.

A part of the one registry (see `refbrowse.registry`), in the order help lists them."""

from __future__ import annotations

from refbrowse.registry.common import ALLOW_PATH, FORCE_FLAGS, SETTLE_FLAGS, WAIT_FORMS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from refbrowse.specs import CommandSpec

COMMANDS: dict[str, CommandSpec] = {
    # interact
    "click": {
        "cat": "write",
        "consent": "target",
        "mcp_tool": True,
        "args": ("SEL",),
        "flags": FORCE_FLAGS,
        "help": (
            "click an element; waits for the page to settle, then says what changed (on a new page: its refs)"
        ),
    },
    "fill": {
        "cat": "write",
        "mcp_tool": True,
        "args": ("SEL", "TEXT", "[SEL TEXT]..."),
        "flags": {
            **FORCE_FLAGS,
            "--allow-argv-secret": (
                None,
                "type a password field's text given in the command line (refused without)",
            ),
            "--secret-file": (
                "FILE",
                "read each TEXT given as `-` from FILE, not stdin (one a line, or NUL-separated)",
            ),
        },
        "stdin_arg": "TEXT",
        "help": (
            "set a field, or several in one call: text into an input, textarea or editable element,"
            " yes/no into a checkbox, an option's name into a select or custom dropdown, a number into a"
            " slider, text into a data grid's cell (its editor opened and committed) (TEXT `-`: stdin)"
        ),
        "about": (
            "Several SEL TEXT pairs fill a form in one call: each element is found and its value checked"
            " before anything is set, the page settles once, and one report says what changed."
            " A text's last key is released after it, so a page that searches as one types sees it."
            " A slider drawn by a component library is moved with its arrow keys, as a person would;"
            " a handle that says no value (`slider handle`, jQuery UI's) takes its place on the track, 0-100."
            " Each TEXT given as `-` is read from stdin, which keeps a password out of the process list:"
            " one `-` takes all of stdin (one trailing newline dropped), several take one value each,"
            " NUL-separated if stdin holds a NUL, else one a line; a `-` stdin cannot answer is refused."
            " --secret-file FILE reads them from FILE instead (a file only its owner reads), the same way."
            " A password field's text in the command line (which every local user can read) is refused,"
            " exit 2, before anything is typed, unless --allow-argv-secret is given."
        ),
        "example": 'fill @e3 "Ada Lovelace" @e5 Suite @e7 yes',
    },
    "dblclick": {
        "cat": "write",
        "consent": "target",
        "args": ("SEL",),
        "flags": FORCE_FLAGS,
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
        "flags": FORCE_FLAGS,
        "help": (
            "choose options of a <select> by value or label; a custom dropdown (combobox,"
            " listbox or menu button) is opened and its option named VALUE clicked (each VALUE in a box"
            " that takes several, its list closed after); any other"
            " menu button (it expands, or its click shows buttons or links): clicks the item of that name"
        ),
    },
    "check": {
        "cat": "write",
        "args": ("SEL",),
        "flags": FORCE_FLAGS,
        "help": "check a checkbox or radio",
    },
    "uncheck": {
        "cat": "write",
        "args": ("SEL",),
        "flags": FORCE_FLAGS,
        "help": "uncheck a checkbox",
    },
    "hover": {
        "cat": "write",
        "args": ("SEL",),
        "flags": FORCE_FLAGS,
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
        "rules": (("check", "device_pixels"),),
        "help": "resize the viewport, e.g. 1280x800",
    },
    "upload": {
        "cat": "write",
        "consent": "upload",
        "args": ("SEL", "FILE..."),
        "flags": {
            "--allow-path": ALLOW_PATH,
            **SETTLE_FLAGS,
        },
        "example": "upload @e3 photo.jpg",
        "help": "set files on a file input, or the drop zone or button that opens one",
    },
}
