"""Which `press` keys are the clipboard's: a paste, or a copy or cut, served by the session's clipboard."""

from __future__ import annotations

import pytest

from refbrowse.daemon.services.clipboard import shortcut


@pytest.mark.parametrize(
    ("key", "kind"),
    [
        ("Control+V", "paste"),
        ("Meta+v", "paste"),
        ("ControlOrMeta+V", "paste"),
        ("Control+Shift+V", "paste"),
        ("Shift+Insert", "paste"),
        ("Control+C", "copy"),
        ("Control+X", "copy"),
        ("Meta+C", "copy"),
        ("Control+Insert", "copy"),
        ("Shift+Delete", "copy"),
        ("V", ""),
        ("Shift+V", ""),
        ("Alt+V", ""),
        ("Enter", ""),
        ("Control+A", ""),
        ("+", ""),
        ("Control++", ""),
    ],
)
def test_shortcut_kinds(key: str, kind: str) -> None:
    assert shortcut(key) == kind
