"""Which `press` keys are the clipboard's: a paste, or a copy or cut, served by the session's clipboard."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from refbrowse.daemon.services.clipboard import Clipboards, shortcut


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


class _Page:
    """A page as far as the held keys go: something a weak reference can point to."""


@pytest.mark.parametrize(
    ("downs", "ups", "key", "kind"),
    [
        (["Control"], [], "v", "paste"),
        (["Meta"], [], "c", "copy"),
        (["ControlOrMeta"], [], "x", "copy"),
        (["Shift"], [], "Insert", "paste"),
        (["Control", "Shift"], [], "v", "paste"),
        (["Control"], ["Control"], "v", ""),
        (["Control", "Shift"], ["Control"], "v", ""),
        (["Control", "a"], [], "v", "paste"),  # a letter held is no modifier
        (["Alt"], [], "v", ""),
        (["Control"], [], "Control+v", "paste"),
        ([], [], "v", ""),
    ],
)
def test_keys_held_by_keydown_make_the_shortcut_a_later_key_completes(
    downs: list[str], ups: list[str], key: str, kind: str
) -> None:
    clipboards, page = Clipboards(None, None), _Page()  # type: ignore[arg-type] # the held keys need neither
    for held in downs:
        clipboards.pressed(page, held, down=True)  # type: ignore[arg-type]
    for held in ups:
        clipboards.pressed(page, held, down=False)  # type: ignore[arg-type]
    assert shortcut(clipboards.chord(page, key)) == kind  # type: ignore[arg-type]
    assert clipboards.chord(_Page(), key) == key  # type: ignore[arg-type] # another page holds nothing


@pytest.mark.parametrize(
    ("downs", "text", "typed"),
    [
        ([], "cv", [("cv", "")]),  # nothing held: one call, no clipboard
        (["Shift"], "cv", [("cv", "")]),
        (["Control"], "acv", [("a", ""), ("c", "copy"), ("v", "paste")]),  # each key alone, as `press`
        (["Meta"], "x", [("x", "copy")]),
        (["Alt"], "v", [("v", "")]),
    ],
)
def test_keys_typed_while_keydown_holds_a_modifier_use_the_session_s_clipboard(
    downs: list[str], text: str, typed: list[tuple[str, str]]
) -> None:
    clipboards, page, done = Clipboards(None, None), _Page(), []  # type: ignore[arg-type]
    for held in downs:
        clipboards.pressed(page, held, down=True)  # type: ignore[arg-type]

    async def around(key: str, session: object, page: object, action: Callable[[], Awaitable[None]]) -> None:
        kinds.append(shortcut(key))
        await action()

    async def type_text(keys: str) -> None:
        done.append((keys, kinds[-1] if kinds else ""))

    kinds: list[str] = []
    clipboards.around = around  # type: ignore[method-assign,assignment]
    asyncio.run(clipboards.typing(None, page, text, type_text))  # type: ignore[arg-type]
    assert done == typed
