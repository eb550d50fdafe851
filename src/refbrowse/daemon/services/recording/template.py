"""The file `record stop` writes, around the steps: a pytest test with its own Chromium.

Every value put in it is escaped by `script.ScriptRun` (`str.format` fields: session, when, count,
system_names, launch_args, viewport, start, body).
"""

from __future__ import annotations

TEST_FILE = '''"""Recorded by refbrowse from session {session} on {when}: {count} steps.

Run it with `pytest`; it starts its own Chromium, the one `browse` finds: BROWSE_CHROMIUM_PATH,
else Playwright's own (`playwright install chromium`), else a system Chromium or Chrome.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import BrowserType, Dialog, Page, expect, sync_playwright

# refbrowse accepts dialogs unless told otherwise (`dialog-dismiss`); so does this test
DIALOGS: dict[str, Any] = {{"accept": True, "prompt": None}}


def answer(dialog: Dialog) -> None:
    if DIALOGS["accept"]:
        dialog.accept(DIALOGS["prompt"])
    else:
        dialog.dismiss()


def chromium(playwright_chromium: BrowserType) -> str | None:
    """The browser `browse` drives, in the order it looks (None: Playwright's own)."""
    if os.environ.get("BROWSE_CHROMIUM_PATH"):
        return os.environ["BROWSE_CHROMIUM_PATH"]
    if os.path.exists(playwright_chromium.executable_path):
        return None
    system = (shutil.which(name) for name in {system_names!r})
    return next((path for path in system if path), None)  # None: Playwright says how to install one


@pytest.fixture
def page() -> Iterator[Page]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium(playwright.chromium),
            args={launch_args}["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else [],
        )
        page = browser.new_page({viewport})
        page.on("dialog", answer)
        yield page
        browser.close()


def test_recorded_session(page: Page) -> None:
{start}{body}'''
