"""Renderer processes of the local browser that spin: found by their CPU time, stopped by pid.

A cross-site frame runs in a renderer of its own; when its script never yields,
CDP cannot reach it (its session waits on the same busy thread, `Page.crash`
and `Runtime.terminateExecution` included), yet every read and action of its
page waits on it. The browser names its renderers (`SystemInfo.getProcessInfo`);
one that is always found running (never asleep) is spinning. Which renderer
holds the page itself is not said either: a candidate is paused first
(SIGSTOP), and killed only if the page still answers without it, once its
frames have been moved out of it (a renderer killed with a frame in it is at
times taken by Playwright for its page's, which it then never reads again).
Only a browser this daemon launched is touched, and only processes that are
renderers of it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from typing import Any

from playwright.async_api import Browser
from playwright.async_api import Error as PlaywrightError

log = logging.getLogger("refbrowse")

SAMPLES = 10
SAMPLE_EVERY_S = 0.05
BUSY_SHARE = 0.9  # of the samples, found running or waiting for a CPU (state R)


async def busy_renderers(browser: Browser) -> list[int]:
    """Pids of the browser's renderers found running (state R) in at least `BUSY_SHARE` of
    `SAMPLES` looks: a spinning script never sleeps, however loaded the machine; an idle or
    answering renderer mostly does."""
    info = await _ask(browser, "SystemInfo.getProcessInfo")
    pids = [int(p["id"]) for p in info.get("processInfo", []) if p.get("type") == "renderer"]
    running = dict.fromkeys(pids, 0)
    for _ in range(SAMPLES):
        for pid in pids:
            running[pid] += _state(pid) == "R"
        await asyncio.sleep(SAMPLE_EVERY_S)
    return [pid for pid, seen in running.items() if seen >= BUSY_SHARE * SAMPLES]


async def frame_targets(browser: Browser, urls: list[str]) -> set[str]:
    """The ids of the browser's out-of-process frames (targets of type iframe) showing one of `urls`."""
    return {
        t["targetId"] for t in await _targets(browser) if t.get("type") == "iframe" and t.get("url") in urls
    }


async def until_gone(browser: Browser, targets: set[str], patience_s: float) -> bool:
    """Wait until the browser lists none of `targets`; False if one is still there after `patience_s`.
    A frame moved out of a renderer stops being a target of its own a moment after its page sees it
    navigate; the browser says so to Playwright on the same connection before it answers here."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + patience_s
    while targets & {t["targetId"] for t in await _targets(browser)}:
        if loop.time() > deadline:
            return False
        await asyncio.sleep(SAMPLE_EVERY_S)
    return True


async def _targets(browser: Browser) -> list[dict[str, Any]]:
    return list((await _ask(browser, "Target.getTargets")).get("targetInfos", []))


async def _ask(browser: Browser, method: str) -> dict[str, Any]:
    """The browser's answer to the CDP `method`; empty if it could not be asked."""
    try:
        cdp = await browser.new_browser_cdp_session()
        answer = await cdp.send(method)
        await cdp.detach()
    except PlaywrightError:
        return {}
    return answer


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return ""


def ours(pid: int, browser_pid: int) -> bool:
    """True when `pid` is a renderer under `browser_pid` (pids the browser named are its own)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            renderer = b"--type=renderer" in f.read()
        parent = _parent(pid)
    except OSError:
        return False
    return renderer and _under(parent, browser_pid)


def signal_to(pid: int, signum: signal.Signals) -> bool:
    """Send `signum` to `pid`; False if it is gone."""
    try:
        os.kill(pid, signum)
    except OSError:
        return False
    return True


def _parent(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])


def _under(pid: int, ancestor: int) -> bool:
    """True when `ancestor` is `pid` or one of its parents (a renderer sits under the zygote)."""
    for _ in range(8):
        if pid == ancestor:
            return True
        if pid <= 1:
            return False
        try:
            pid = _parent(pid)
        except OSError:
            return False
    return False
