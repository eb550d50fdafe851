"""Several steps at once, and input below the element level: drag, keys, mouse, clipboard.

A part of the one registry (see `refbrowse.registry`), in the order help lists them."""

from __future__ import annotations

from refbrowse.kinds.bounds import MAX_PIXELS
from refbrowse.registry.common import FORCE_FLAGS, SETTLE_FLAGS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from refbrowse.specs import CommandSpec

COMMANDS: dict[str, CommandSpec] = {
    # multi-step
    "chain": {
        "cat": "write",
        "waits": True,
        "unrecorded": True,
        "args": (),
        "flags": {},
        "help": 'run a JSON array of commands from stdin, e.g. [["goto","URL"],["click","@e3"]]',
        "data": "{steps: [{step, output, data}]}",
        "stdin": True,
        "nested": True,
    },
    # input: drag, keys held, the raw mouse, the clipboard
    "drag": {
        "cat": "write",
        "args": ("SRC", "DST"),
        "flags": FORCE_FLAGS,
        "kinds": {"SRC": "sel", "DST": "place"},
        "about": (
            "DST is an element to drop onto, a point X,Y in the viewport (CSS pixels), or an offset from"
            " where the drag starts: +DX,+DY, with - for left or up (a slider's handle, a resize corner,"
            " a canvas). The mouse presses at SRC's centre and moves there in small steps a frame apart,"
            " so sortable lists that follow the mouse see the move."
        ),
        "example": "drag @e3 +120,+0",
        "help": "drag an element onto another, to a point X,Y, or by an offset +DX,+DY",
    },
    "keydown": {
        "cat": "write",
        "args": ("KEY",),
        "flags": SETTLE_FLAGS,
        "kinds": {"KEY": "onekey"},
        "example": "keydown Shift",
        "help": "hold a key down (until `keyup KEY`), e.g. Shift for a range selection",
    },
    "keyup": {
        "cat": "write",
        "args": ("KEY",),
        "flags": SETTLE_FLAGS,
        "kinds": {"KEY": "onekey"},
        "example": "keyup Shift",
        "help": "release a key held by `keydown`",
    },
    "mouse": {
        "cat": "write",
        "args": ("ACTION", "[ARG...]"),
        "forms": {"move": ("X", "Y"), "down": ("[BUTTON]",), "up": ("[BUTTON]",), "wheel": ("DX", "DY")},
        "flags": SETTLE_FLAGS,
        "kinds": {
            "ACTION": ("enum", "move", "down", "up", "wheel"),
            "X": ("number", 0, MAX_PIXELS),
            "Y": ("number", 0, MAX_PIXELS),
            "DX": ("number", -MAX_PIXELS, MAX_PIXELS),
            "DY": ("number", -MAX_PIXELS, MAX_PIXELS),
            "BUTTON": ("enum", "left", "right", "middle"),
        },
        "about": (
            "X and Y are CSS pixels from the viewport's top left; `down` and `up` press and release"
            " BUTTON (left by default) where the mouse is; `wheel` scrolls by DX, DY pixels."
        ),
        "example": "mouse move 100 200",
        "help": "the raw mouse: move X Y, down [BUTTON], up [BUTTON], wheel DX DY",
    },
    "selecttext": {
        "cat": "write",
        "args": ("SEL",),
        "flags": {
            "--from": ("TEXT", "start at the first place the element's text says TEXT"),
            "--to": ("TEXT", "end after the first TEXT from there on"),
            **SETTLE_FLAGS,
        },
        "about": (
            "Selects a paragraph's, a cell's or a field's text, or the part from --from to --to (across"
            " the element's text nodes; white space and case need not match exactly). Where it is safe the"
            " mouse drags over the part, as a person's would; the report quotes what is selected."
            " `clipboard copy` copies it."
        ),
        "example": 'selecttext @e4 --from "quick" --to "fox"',
        "help": "select an element's text, or part of it (--from TEXT --to TEXT)",
    },
    "clipboard": {
        "cat": "write",
        "unrecorded": True,
        "args": ("ACTION", "[ARG...]"),
        "forms": {"read": (), "write": ("TEXT",), "copy": (), "paste": ()},
        "flags": {},
        "kinds": {"ACTION": ("enum", "read", "write", "copy", "paste")},
        "stdin_arg": "TEXT",
        "about": (
            "`copy` copies the selected text (`selecttext` selects it) and `paste` pastes into the focused"
            " field, as the platform's shortcuts do, firing the page's copy and paste handlers. TEXT `-`"
            " reads it from stdin. Each session has a clipboard of its own, which its pages write to and"
            " read only where `permissions grant clipboard-read` allows; `press Control+V` and `Control+C`"
            " use it too."
        ),
        "example": 'clipboard write "hello"',
        "help": (
            "the page's clipboard: copy the selection, paste into the focused field,"
            " read it, or write TEXT to it"
        ),
        "uncounted": True,
    },
}
