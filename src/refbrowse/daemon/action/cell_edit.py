"""`fill` of a grid's cell that is edited in place: opened the way a person opens it, typed, committed.

A data grid (Gradio's dataframe, Streamlit's data editor drawn by Glide Data
Grid, AG Grid) edits a cell in an editor it opens over the cell: a person
selects the cell and presses Enter (or double-clicks it), types, and presses
Enter. A cell drawn on a canvas is reached through the grid's fallback table
for assistive technology: focused, where a visible cell is clicked.
"""

from __future__ import annotations

import asyncio

from playwright.async_api import Locator

from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.errors import PageError

EDITOR_WAIT_MS = 1_000  # for the grid's editor to open once asked
_POLL_S = 0.05
_EDITOR_JS = script("cell_editor")


async def edit(selector: str, cell: Locator, text: str, force: bool) -> None:
    """Open `cell`'s editor (select it and press Enter, else double-click it), type `text`, commit."""
    page = cell.page
    if await cell.is_visible():
        await cell.click(force=force)
    else:  # a canvas grid's fallback cell: no box of its own, the grid follows its focus
        await cell.focus()
    await page.keyboard.press("Enter")
    if not await _opened(cell) and await cell.is_visible():
        await cell.dblclick(force=force)
    if not await _opened(cell):
        raise PageError(
            f"{selector} is a grid's cell that opened no editor on Enter or a double click",
            "its column may be read-only; look with `browse snapshot -i`",
        )
    await page.locator("*:focus").last.fill(text)
    await page.keyboard.press("Enter")


async def _opened(cell: Locator) -> bool:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + EDITOR_WAIT_MS / 1000
    while not await cell.evaluate(_EDITOR_JS):
        if loop.time() >= deadline:
            return False
        await asyncio.sleep(_POLL_S)
    return True
