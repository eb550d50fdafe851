"""One request in full for `request N`: method, URL, status, timing, headers and bodies, bounded.

Cookie, Set-Cookie and Authorization values (and other headers named like a
secret) are masked unless the caller asks for secrets. Text bodies are shown
inline up to `INLINE_CHARS`; a longer text body and every binary body is saved
to a file under the file policy and named. A body over `MAX_FETCH_BYTES` is not
fetched from the browser at all: its size is said, with how to get it.
"""

from __future__ import annotations

import asyncio
import mimetypes
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Request, Response

from refbrowse.daemon.services.netconditions import is_secret_header
from refbrowse.daemon.services.policy import write_new

BodyPath = Callable[[str, str], str]  # ("request" or "response", extension) -> a checked path to save to

INLINE_CHARS = 4_000  # a text body shown in the output; past this it is saved to a file
MAX_FETCH_BYTES = 20 * 1024 * 1024  # a body larger than this stays in the browser
BODY_FOLDER = "responses"
_ALWAYS_MASKED = ("cookie", "set-cookie", "authorization", "proxy-authorization")
_TEXT_TYPES = ("json", "xml", "javascript", "ecmascript", "x-www-form-urlencoded", "graphql", "csv", "yaml")


@dataclass(slots=True)
class Detail:
    """The request's text, and the files its bodies went to."""

    lines: list[str] = field(default_factory=list)
    saved: list[str] = field(default_factory=list)


def masked(name: str, value: str, secrets: bool) -> str:
    if secrets or not (name.lower() in _ALWAYS_MASKED or is_secret_header(name)):
        return value
    return f"(masked, {len(value)} chars: --secrets shows it)"


def is_text(content_type: str) -> bool:
    kind = content_type.split(";")[0].strip().lower()
    return kind.startswith("text/") or any(word in kind for word in _TEXT_TYPES)


def timing_line(timing: Any) -> str:
    """Chromium's phases in ms from the request's start; -1 means the phase did not happen."""

    def span(start: str, end: str) -> str:
        a, b = timing.get(start, -1), timing.get(end, -1)
        return f"{round(b - a)} ms" if a >= 0 and b >= 0 else "-"

    total = timing.get("responseEnd", -1)
    return (
        f"timing: dns {span('domainLookupStart', 'domainLookupEnd')}, "
        f"connect {span('connectStart', 'connectEnd')}, tls {span('secureConnectionStart', 'connectEnd')}, "
        f"waiting {span('requestStart', 'responseStart')}, download {span('responseStart', 'responseEnd')}, "
        f"total {round(total)} ms"
        if total >= 0
        else "timing: not known (the request did not finish)"
    )


async def describe(n: int, request: Request, secrets: bool, body_path: BodyPath) -> Detail:
    """The request numbered `n`; `body_path(part, ext)` names the file a body may be saved to."""
    detail = Detail()
    response = await _response(request)
    status = f"{response.status} {response.status_text}".strip() if response else _failure(request)
    detail.lines += [f"#{n} {request.method} {request.url} → {status}", f"type: {request.resource_type}"]
    detail.lines.append(timing_line(request.timing))
    detail.lines += _headers("request headers", await _pairs(request), secrets)
    await _request_body(detail, request, body_path)
    if response is not None:
        detail.lines += _headers("response headers", await _pairs(response), secrets)
        await _response_body(detail, request, response, body_path)
    return detail


def _failure(request: Request) -> str:
    return f"failed ({request.failure})" if request.failure else "no response"


async def _response(request: Request) -> Response | None:
    try:
        return await request.response()
    except PlaywrightError:
        return None


async def _pairs(message: Request | Response) -> list[tuple[str, str]]:
    try:
        return [(h["name"], h["value"]) for h in await message.headers_array()]
    except PlaywrightError:
        return [(name, value) for name, value in message.headers.items()]


def _headers(title: str, pairs: list[tuple[str, str]], secrets: bool) -> list[str]:
    if not pairs:
        return [f"{title}: (none)"]
    return [f"{title}:"] + [f"  {name}: {masked(name, value, secrets)}" for name, value in pairs]


async def _request_body(detail: Detail, request: Request, body_path: BodyPath) -> None:
    data = request.post_data_buffer
    if not data:
        return
    kind = await request.header_value("content-type") or "application/octet-stream"
    await _body(detail, "request body", data, kind, body_path)


async def _response_body(detail: Detail, request: Request, response: Response, body_path: BodyPath) -> None:
    kind = await response.header_value("content-type") or ""
    size = await _size(request, response)
    if size > MAX_FETCH_BYTES:
        detail.lines.append(
            f"response body ({kind or 'no type'}, {size} bytes): over the {MAX_FETCH_BYTES // 1_048_576} MB"
            f" `request` reads, left in the browser; save it with `browse download {request.url}`"
        )
        return
    try:
        data = await response.body()
    except PlaywrightError as exc:
        reason = exc.message.splitlines()[0] if exc.message else "the browser no longer holds it"
        detail.lines.append(f"response body: not available ({reason})")
        return
    if data:
        await _body(detail, "response body", data, kind or "application/octet-stream", body_path)
    elif size > 0:
        # Chromium keeps no copy for DevTools of a body the page read as a Blob.
        detail.lines.append(
            f"response body ({kind or 'no type'}, {size} bytes): not kept by the browser;"
            f" save it with `browse download {request.url}`"
        )
    else:
        detail.lines.append("response body: (empty)")


async def _size(request: Request, response: Response) -> int:
    length = await response.header_value("content-length")
    if length and length.strip().isdigit():
        return int(length)
    try:
        return int((await request.sizes())["responseBodySize"])
    except PlaywrightError:
        return 0


async def _body(detail: Detail, title: str, data: bytes, kind: str, body_path: BodyPath) -> None:
    head = f"{title} ({kind}, {len(data)} bytes)"
    if is_text(kind):
        text = data.decode("utf-8", errors="replace")
        if len(text) <= INLINE_CHARS:
            detail.lines += [f"{head}:", *(f"  {line}" for line in text.splitlines())]
            return
        path = await _save(data, title, kind, body_path)
        detail.saved.append(path)
        detail.lines += [f"{head}, first {INLINE_CHARS} characters; all of it in {path}:"]
        detail.lines += [f"  {line}" for line in text[:INLINE_CHARS].splitlines()]
        return
    path = await _save(data, title, kind, body_path)
    detail.saved.append(path)
    detail.lines.append(f"{head}: binary, saved to {path}")


async def _save(data: bytes, title: str, kind: str, body_path: BodyPath) -> str:
    ext = (mimetypes.guess_extension(kind.split(";")[0].strip()) or ".bin").lstrip(".")
    path = body_path(title.split()[0], ext)
    await asyncio.to_thread(write_new, path, data)
    return path


def default_body_path(workspace: str, n: int, part: str, ext: str) -> str:
    """A new file in `responses/` of the workspace, where a person finds it."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return os.path.join(workspace, BODY_FOLDER, f"{n}-{part}-{stamp}.{ext}")
