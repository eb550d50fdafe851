"""What refbrowse draws over a page, and so into a video of it, never holds typed text.

A video is the tab's screencast: the page's own pixels (a password field shows
dots) and what our page scripts add to it. Only two scripts add elements (the
headed window's marker and the extension's @ref labels), and each element's
text is a constant or a ref's id, never a field's value or a typed text.
"""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "refbrowse"
PAGE_SCRIPTS = [*sorted((SRC / "daemon" / "scripts").glob("*.js")), SRC / "extension" / "overlay.js"]
DRAWS = re.compile(r"createElement|attachShadow|insertAdjacent|document\.write")
TEXT = re.compile(
    r"\.(?:textContent|innerText|innerHTML|outerHTML|value)\s*=(?!=)\s*([^;]+);|createTextNode\(([^)]*)\)"
)
ALLOWED = {"marker.js": {'"refbrowse"'}, "overlay.js": {"ref.ref"}}


def test_only_the_marker_and_the_ref_labels_draw_over_a_page() -> None:
    drawing = sorted(path.name for path in PAGE_SCRIPTS if DRAWS.search(path.read_text()))
    assert drawing == sorted(ALLOWED), drawing


def test_what_they_draw_is_a_constant_or_a_refs_id() -> None:
    for name, allowed in ALLOWED.items():
        path = next(p for p in PAGE_SCRIPTS if p.name == name)
        written = {(a or b).strip() for a, b in TEXT.findall(path.read_text())}
        assert written == allowed, (name, written)


def test_the_ref_labels_are_given_ids_and_boxes_not_values() -> None:
    panel = (SRC / "daemon" / "services" / "activity" / "panel.py").read_text()
    given = re.search(r'\{"ref": str\(t\.ref\),[^}]*\}', panel)
    assert given is not None and "value" not in given.group(0), "refs_of gives the overlay no field values"
