"""Recording: `trace`, `profile`, `video`, `record` (each start, then stop [PATH]) and `locator`.

Every file goes through the path policy like a screenshot: a PATH outside the
workspace and the temp directory is refused before anything stops, and without
a PATH the file lands in `.refbrowse/recordings/`. Files are written mode 0600
without following a symlink planted at the last moment; a trace is written
without the text typed as a secret (`recording.redaction`).
"""

from __future__ import annotations

import asyncio
import os
import time
from contextlib import suppress

from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.command import Call, Reply, handler
from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.core.io.envelope import fence
from refbrowse.daemon.core.sessions.refs import parse_ref
from refbrowse.daemon.page.resolver import resolve_one
from refbrowse.daemon.services.policy import ALLOW_PATH_FLAG, open_private, write_private
from refbrowse.daemon.services.recording import redaction
from refbrowse.daemon.services.recording.limits import Limits
from refbrowse.daemon.services.recording.locators import css_source, live_source
from refbrowse.daemon.services.recording.profile import ProfileRun
from refbrowse.daemon.services.recording.script import ScriptRun
from refbrowse.daemon.services.recording.sessions import SessionRecordings, since
from refbrowse.daemon.services.recording.tracerun import TraceRun
from refbrowse.daemon.services.recording.video import VideoRun
from refbrowse.errors import PageError

ENCODE_MARGIN_S = 3.0


def _recordings(call: Call) -> SessionRecordings:
    return call.services.recordings.of(call.session.name)


def _folder(call: Call) -> str:
    folder = os.path.join(call.daemon.state_dir, "recordings")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    return folder


def _out_path(call: Call, stem: str, ext: str) -> str:
    """The caller's PATH if the policy lets it be written, else a new name in `.refbrowse/recordings/`."""
    given = call.arg(1)
    if given:
        return call.services.policy.output_path(str(given), call.flag(ALLOW_PATH_FLAG))
    return os.path.join(_folder(call), f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}{ext}")


def _not_running(kind: str, what: str) -> PageError:
    return PageError(f"no {what} is recording in this session", f"start one with `browse {kind} start`")


def _already(kind: str, started: float) -> PageError:
    return PageError(
        f"a {kind} is already recording in this session (since {since(started)})",
        f"stop it first with `browse {kind} stop [PATH]`",
    )


def _size(path: str) -> str:
    return f"{os.path.getsize(path) / 1024:.0f} KB"


# trace


@handler("trace")
async def trace(call: Call) -> str:
    rec = _recordings(call)
    if call.args[0] == "start":
        if rec.trace is not None:
            raise _already("trace", rec.trace.started)
        shots, snaps = bool(call.flag("--screenshots")), bool(call.flag("--snapshots"))
        scratch = os.path.join(_folder(call), f".trace-{os.getpid()}-{time.monotonic_ns()}.zip")
        run, notices = TraceRun(call.session.context, scratch), call.daemon.notices

        def cut(why: str) -> None:
            notices.add(
                f"the trace reached its limit of {run.limits.said(why)} and stopped recording;"
                " `browse trace stop [PATH]` saves what it holds"
            )

        try:
            await run.start(shots, snaps, call.session.name, cut)
        except PlaywrightError as exc:
            raise translate(exc, "starting a trace") from exc
        rec.trace = run
        extras = " with " + " and ".join(w for w, on in (("screenshots", shots), ("snapshots", snaps)) if on)
        return f"Tracing this session{extras if shots or snaps else ''}; `browse trace stop [PATH]` saves it"
    if rec.trace is None:
        raise _not_running("trace", "trace")
    path = _out_path(call, "trace", ".zip")
    run, rec.trace = rec.trace, None
    try:
        await run.stop()
    except PlaywrightError as exc:
        raise translate(exc, "saving the trace") from exc
    if not os.path.exists(run.scratch):
        raise PageError(
            "the trace was lost: its browser context closed", "start a new one with `browse trace start`"
        )
    await asyncio.to_thread(_move, run.scratch, path, call.services.secrets.known())
    left = run.left_out()
    return f"Saved the trace ({_size(path)}) to {path}\nOpen it with: playwright show-trace {path}" + (
        f"\n{left}" if left else ""
    )


def _move(scratch: str, path: str, secrets: tuple[str, ...] = ()) -> None:
    """The scratch file (a trace's without `secrets`) streamed to `path`, then the scratch file gone.

    `path` is opened by the policy's private writer at this moment: no symlink
    on the way is followed, whatever changed since the path was checked.
    """
    try:
        with open(scratch, "rb") as source, os.fdopen(open_private(path), "wb") as out:
            redaction.trace_zip(source, out, secrets)
    finally:
        os.unlink(scratch)


# profile


@handler("profile")
async def profile(call: Call) -> str:
    rec = _recordings(call)
    if call.args[0] == "start":
        if rec.profile is not None:
            raise _already("profile", rec.profile.started)
        rec.profile = await ProfileRun.start(call.page)
        return "Profiling the current tab; `browse profile stop [PATH]` saves it"
    if rec.profile is None:
        raise _not_running("profile", "profile")
    path = _out_path(call, "profile", ".json")
    run, rec.profile = rec.profile, None
    scratch = os.path.join(_folder(call), f".profile-{os.getpid()}-{time.monotonic_ns()}.json")
    try:
        done = await run.stop(scratch)
        await asyncio.to_thread(_move, scratch, path)
    finally:
        with suppress(FileNotFoundError):  # moved, or never written whole
            os.unlink(scratch)
    lost = (
        f"\nChromium's trace buffer filled ({Limits.from_env().said('bytes')}): what came after was left out"
        if done.lost
        else ""
    )
    return (
        f"Saved the profile ({done.events} trace events, {_size(path)}) to {path}{lost}\n"
        "Open it in Chrome DevTools (Performance, Load profile) or at https://ui.perfetto.dev"
    )


# video


@handler("video")
async def video(call: Call) -> str:
    rec = _recordings(call)
    if call.args[0] == "start":
        if rec.video is not None:
            raise _already("video", rec.video.started)
        rec.video = await VideoRun.start(call.page, _folder(call))
        return "Recording the current tab; `browse video stop [PATH]` saves the video"
    if rec.video is None:
        raise _not_running("video", "video")
    given = call.arg(1)
    ext = os.path.splitext(str(given))[1].lower() if given else ".webm"  # one of them: the registry's check
    path = _out_path(call, "video", ext)
    run, rec.video = rec.video, None
    try:
        encoded = os.path.join(run.folder, f"video{ext}")
        # within the command's own limit, so that ffmpeg's failure to finish is said as such
        limit_s = max(call.action_timeout_ms, call.nav_timeout_ms) / 1000 - ENCODE_MARGIN_S
        frames, seconds = await run.stop(encoded, max(limit_s, ENCODE_MARGIN_S))
        await asyncio.to_thread(_move, encoded, path)
    finally:
        run.discard()
    cut = run.left_out()
    return f"Saved the video ({frames} frames, {seconds:.1f} s, {_size(path)}) to {path}" + (
        f"\n{cut}" if cut else ""
    )


# record


@handler("record")
async def record(call: Call) -> str:
    rec = _recordings(call)
    if call.args[0] == "start":
        if rec.script is not None:
            raise _already("record", rec.script.started)
        page = call.page
        rec.script = ScriptRun(call.tab, page.url, page.viewport_size)
        return "Recording this session's actions as a test; `browse record stop [PATH]` writes it"
    if rec.script is None:
        raise _not_running("record", "recording")
    path = _out_path(call, "test_recorded", ".py")
    script, rec.script = rec.script, None
    text = script.render(call.session.name)
    await asyncio.to_thread(write_private, path, text.encode())
    steps = len(script.steps)
    plural = "s" if steps != 1 else ""
    text = f"Wrote {steps} step{plural} as a Playwright test to {path}\nRun it with: pytest {path}"
    if script.secrets:
        text += f"\nPasswords were left out: set {', '.join(script.secrets)} in the environment first"
    return Reply(text, {"path": path, "steps": steps})


# locator


@handler("locator")
async def locator(call: Call) -> str:
    selector = call.args[0]
    element = await resolve_one(call.tab, selector)
    ref = parse_ref(selector)
    if ref is None:
        source = css_source(selector)
    else:
        source = await live_source(call.page, call.tab.refs.target(ref), element)
    return Reply(fence(source, call.page.url, call.raw), {"locator": source})
