"""A page's text as a person sees it: open shadow roots (slotted content where the slot puts it),
and the documents of iframes, each frame after the page.

`text`, `diff` and the reports read pages through here, so they read web
components the same way.
"""

from __future__ import annotations

import re

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page

from refbrowse.daemon.core.devtools.scripts import script

# Text of an element as innerText gives it, but through open shadow roots: a subtree with no
# shadow host inside is read with innerText at once; only the path to a host is walked.
ELEMENTS_TEXT_JS = script("elements_text")
_PAGE_TEXT_JS = script("page_text")


def clean_text(text: str) -> str:
    """Trimmed lines, runs of blank lines collapsed to one."""
    lines = [line.strip() for line in text.replace("\xa0", " ").splitlines()]
    joined = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", joined).strip()


async def frame_text(frame: Frame) -> str:
    try:
        return str(await frame.evaluate(_PAGE_TEXT_JS) or "")
    except PlaywrightError:
        return ""  # a frame that went away while it was read


async def page_text(page: Page) -> str:
    """The page's text, then each frame's (a frame with no text is left out)."""
    parts = [clean_text(await frame_text(page.main_frame))]
    for frame in page.frames[1:]:
        text = clean_text(await frame_text(frame))
        if text:
            parts.append(f"--- frame {frame.name or frame.url}\n{text}")
    return "\n\n".join(parts)
