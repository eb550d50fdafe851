"""`download SEL|URL [PATH]`: save what clicking an element, or fetching a URL, downloads.

A URL is streamed to disk with the session's cookies and user agent, chunk by
chunk, and stopped past `--max-bytes` (default `DEFAULT_MAX_BYTES`): a 1 GB
file never sits in memory. An element is clicked and the download it starts
is watched on disk against the same cap. Without a PATH the file lands in
`.refbrowse/downloads/` under the name the site gave. Downloads a page starts
on its own, when no `download` command asked for one, are cancelled at once; so
is any download after the first while a command waits.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
from contextlib import ExitStack
from urllib.parse import unquote, urljoin, urlparse

import aiohttp
from playwright.async_api import Download
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.command import Call, handler
from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.page.resolver import resolve
from refbrowse.daemon.services.policy import ALLOW_FILE_FLAG, ALLOW_PATH_FLAG, open_new
from refbrowse.errors import PageError

log = logging.getLogger("refbrowse")

DEFAULT_MAX_BYTES = 500_000_000
CHUNK = 256 * 1024
MAX_REDIRECTS = 10
_URL = re.compile(r"^(https?|file|data):", re.IGNORECASE)
_FILENAME = re.compile(r"""filename\*?=(?:UTF-8'')?["']?([^"';]+)""", re.IGNORECASE)


class TooLarge(PageError):
    def __init__(self, source: str, limit: int) -> None:
        super().__init__(
            f"stopped downloading {source}: it is larger than {limit} bytes (nothing was kept)",
            f"allow more with --max-bytes N (now {limit})",
        )


def max_bytes(call: Call) -> int:
    limit = call.flag("--max-bytes")
    return DEFAULT_MAX_BYTES if limit is None else int(limit)


def target_path(call: Call, suggested: str) -> str:
    given = call.arg(1)
    if given:
        return call.services.policy.output_path(given, call.flag(ALLOW_PATH_FLAG))
    folder = os.path.join(os.path.realpath(call.daemon.state_dir), "downloads")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    name = os.path.basename(suggested.replace("\\", "/")) or "download"
    return os.path.join(folder, name)


def name_from(url: str, disposition: str) -> str:
    match = _FILENAME.search(disposition)
    if match:
        return unquote(match.group(1).strip())
    return os.path.basename(unquote(urlparse(url).path)) or "download"


# by URL


async def fetch(call: Call, url: str) -> str:
    limit = max_bytes(call)
    if not url.lower().startswith(("http:", "https:")):
        return await _fetch_small(call, url, limit)
    if call.arg(1):
        target_path(call, "")  # refuse a bad PATH before any byte is fetched
    headers = {"User-Agent": await _user_agent(call)}
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=call.nav_timeout_ms / 1000, sock_read=60)
    async with aiohttp.ClientSession(timeout=timeout, cookie_jar=aiohttp.DummyCookieJar()) as client:
        response = await _follow(call, client, url, headers)
        async with response:
            path = target_path(
                call, name_from(str(response.url), response.headers.get("Content-Disposition", ""))
            )
            size = await _stream(response, path, limit, url)
    return f"Downloaded {url} ({size} bytes) to {path}"


async def _follow(
    call: Call, client: aiohttp.ClientSession, url: str, headers: dict[str, str]
) -> aiohttp.ClientResponse:
    """GET `url`, following redirects by hand so each hop passes the URL policy and gets its cookies."""
    proxy = os.environ.get("BROWSE_PROXY") or None
    for _ in range(MAX_REDIRECTS):
        cookies = await call.session.context.cookies(url)
        hop_headers = {**headers, "Cookie": "; ".join(f"{c['name']}={c['value']}" for c in cookies)}
        try:
            response = await client.get(url, headers=hop_headers, allow_redirects=False, proxy=proxy)
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise PageError(
                f"could not download {url}: {exc or type(exc).__name__}", "check the URL"
            ) from exc
        if response.status in (301, 302, 303, 307, 308) and "Location" in response.headers:
            response.release()
            url = call.services.policy.checked_url(
                urljoin(url, response.headers["Location"]), bool(call.flag(ALLOW_FILE_FLAG))
            )
            continue
        if response.status >= 400:
            response.release()
            raise PageError(f"{url} answered {response.status} {response.reason}", "check the URL")
        return response
    raise PageError(f"{url} redirected more than {MAX_REDIRECTS} times", "check the URL")


async def _stream(response: aiohttp.ClientResponse, path: str, limit: int, source: str) -> int:
    declared = response.content_length
    if declared is not None and declared > limit:
        raise TooLarge(source, limit)
    fd = open_new(path)
    size = 0
    with ExitStack() as unless_whole:  # a download cut short, cancelled too, leaves no file
        unless_whole.callback(os.remove, path)
        with os.fdopen(fd, "wb") as out:
            async for chunk in response.content.iter_chunked(CHUNK):
                size += len(chunk)
                if size > limit:
                    raise TooLarge(source, limit)
                out.write(chunk)
        unless_whole.pop_all()
    return size


async def _user_agent(call: Call) -> str:
    try:
        return str(await asyncio.wait_for(call.page.evaluate("navigator.userAgent"), 2))
    except (PlaywrightError, TimeoutError):
        return "Mozilla/5.0"


async def _fetch_small(call: Call, url: str, limit: int) -> str:
    """data: and (allowed) file: URLs, through the browser's request context."""
    if url.lower().startswith("file:") and os.path.getsize(unquote(urlparse(url).path)) > limit:
        raise TooLarge(url, limit)
    try:
        response = await call.session.context.request.get(url, timeout=call.nav_timeout_ms)
        body = await response.body()
    except PlaywrightError as exc:
        raise translate(exc, f"downloading {url}") from exc
    if len(body) > limit:
        raise TooLarge(url, limit)
    path = target_path(call, name_from(url, response.headers.get("content-disposition", "")))
    with os.fdopen(open_new(path), "wb") as out:
        out.write(body)
    return f"Downloaded {url} ({len(body)} bytes) to {path}"


# by clicking


async def click_and_save(call: Call, selector: str) -> str:
    limit = max_bytes(call)
    if call.arg(1):
        target_path(call, "")
    element = await resolve(call.tab, selector)
    call.services.wanted_downloads.add(call.page)
    try:
        async with call.page.expect_download(timeout=call.action_timeout_ms) as started:
            await element.click()
        download = await started.value
    except PlaywrightError as exc:
        raise translate(exc, f"waiting for a download after clicking {selector!r}") from exc
    finally:
        call.services.wanted_downloads.discard(call.page)
    await _watch_size(download, limit)
    path = target_path(call, download.suggested_filename)
    await download.save_as(path)
    await download.delete()  # the driver's own copy would stay in the temp folder until the session ends
    return f"Downloaded {download.suggested_filename} ({os.path.getsize(path)} bytes) to {path}"


async def _watch_size(download: Download, limit: int) -> None:
    """Wait for the download to finish, cancelling it once the file on disk passes `limit`."""
    finished = asyncio.ensure_future(download.failure())
    partial = _artifact_path(download)
    try:
        while not finished.done():
            if partial and _size(partial) > limit:
                await download.cancel()
                await download.delete()
                raise TooLarge(download.url, limit)
            await asyncio.wait({finished}, timeout=0.1)
    finally:
        finished.cancel()
    failure = finished.result()
    if not failure and partial and _size(partial) > limit:  # it finished between two looks
        await download.delete()
        raise TooLarge(download.url, limit)
    if failure:
        raise PageError(f"the download from {download.url} failed: {failure}", "try again, or fetch its URL")


def _artifact_path(download: Download) -> str:
    """Where Playwright's driver writes the download while it runs (not public API: '' if absent)."""
    artifact = getattr(getattr(download, "_impl_obj", None), "_artifact", None)
    initializer = getattr(artifact, "_initializer", {})
    return str(initializer.get("absolutePath", "")) if isinstance(initializer, dict) else ""


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


@handler("download")
async def download(call: Call) -> str:
    source = call.args[0]
    if _URL.match(source):
        return await fetch(call, call.services.policy.checked_url(source, bool(call.flag(ALLOW_FILE_FLAG))))
    return await click_and_save(call, source)
