"""`download SEL|URL [PATH]`: save what clicking an element, or fetching a URL, downloads.

A URL is fetched with the session's own request context, so its cookies go
along; an element is clicked and the download it starts is saved. Without a
PATH the file lands in `.refbrowse/downloads/` under the name the site gave.
"""

from __future__ import annotations

import asyncio
import os
import re
from urllib.parse import unquote, urlparse

from playwright.async_api import Error as PlaywrightError

from refbrowse.errors import PageError
from refbrowse.handlers import Call, handler
from refbrowse.pwerrors import translate
from refbrowse.resolver import resolve

_URL = re.compile(r"^(https?|file|data):", re.IGNORECASE)
_FILENAME = re.compile(r"""filename\*?=(?:UTF-8'')?["']?([^"';]+)""", re.IGNORECASE)


def target_path(call: Call, suggested: str) -> str:
    given = call.arg(1)
    if given:
        return given
    folder = os.path.join(call.daemon.state_dir, "downloads")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    name = os.path.basename(suggested.replace("\\", "/")) or "download"
    return os.path.join(folder, name)


def name_from(url: str, disposition: str) -> str:
    match = _FILENAME.search(disposition)
    if match:
        return unquote(match.group(1).strip())
    return os.path.basename(unquote(urlparse(url).path)) or "download"


async def fetch(call: Call, url: str) -> str:
    try:
        response = await call.session.context.request.get(url, timeout=call.nav_timeout_ms)
        body = await response.body()
    except PlaywrightError as exc:
        raise translate(exc, f"downloading {url}") from exc
    if not response.ok:
        raise PageError(f"{url} answered {response.status} {response.status_text}", "check the URL")
    path = target_path(call, name_from(url, response.headers.get("content-disposition", "")))
    await asyncio.to_thread(_write, path, body)
    return f"Downloaded {url} ({len(body)} bytes) to {path}"


def _write(path: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


async def click_and_save(call: Call, selector: str) -> str:
    element = await resolve(call.tab, selector)
    try:
        async with call.page.expect_download(timeout=call.action_timeout_ms) as started:
            await element.click()
        download = await started.value
    except PlaywrightError as exc:
        raise translate(exc, f"waiting for a download after clicking {selector!r}") from exc
    path = target_path(call, download.suggested_filename)
    await download.save_as(path)
    failure = await download.failure()
    if failure:
        raise PageError(f"the download from {download.url} failed: {failure}", "try again, or fetch its URL")
    return f"Downloaded {download.suggested_filename} ({os.path.getsize(path)} bytes) to {path}"


@handler("download")
async def download(call: Call) -> str:
    source = call.args[0]
    if _URL.match(source):
        return await fetch(call, source)
    return await click_and_save(call, source)
