"""`upload`'s files put where the page takes them: a file input, or whatever opens one.

Component libraries hide the file input behind a button or a drop zone ("Click
to upload or drop files"), so the element an agent sees is seldom the input.
The files go to the element itself when it is a file input, else to the one
file input inside it, else to the file chooser that a click on it opens, as a
person's click would (Playwright takes the chooser, so no dialog shows).
"""

from __future__ import annotations

from playwright.async_api import Locator, Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

from refbrowse.errors import PageError

CHOOSER_MS = 2_000  # a click that opens a file chooser opens it at once
_IS_FILE_INPUT = "e => e instanceof HTMLInputElement && e.type === 'file'"


async def put_files(page: Page, selector: str, target: Locator, files: list[str]) -> None:
    """Give `files` to the file input `target` is, holds, or opens when clicked."""
    if await target.evaluate(_IS_FILE_INPUT):
        await target.set_input_files(files)
        return
    inner = target.locator("input[type=file]")
    if await inner.count() == 1:
        await inner.set_input_files(files)
        return
    try:
        async with page.expect_file_chooser(timeout=CHOOSER_MS) as chosen:
            await target.click()
    except PlaywrightTimeout:
        raise PageError(
            f"{selector} is not a file input, and a click on it opened no file chooser",
            "upload takes an <input type=file>, or the button or drop zone that opens one",
        ) from None
    chooser = await chosen.value
    if len(files) > 1 and not chooser.is_multiple():
        raise PageError(f"{selector} takes one file, not {len(files)}", "upload one file at a time")
    await chooser.set_files(files)
