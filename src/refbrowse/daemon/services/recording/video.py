"""A tab as a video: Chromium's screencast frames, encoded by ffmpeg when the recording stops.

Chromium sends a frame only when the picture changes, each with its time; the
frames are kept as JPEG files and handed to ffmpeg with their durations (its
concat format), which renders them at a steady frame rate. Nothing is encoded
while the agent works, so a recording costs the page only the screencast.
The frames kept on disk stop at the recording limits (`recording.limits`:
their bytes, and the time since the first): the video then ends there, and
`video stop` says so.
"""

from __future__ import annotations

import asyncio
import base64
import os
import shutil
import tempfile
import time
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from refbrowse.checks import VIDEO_EXTENSIONS
from refbrowse.daemon.core.runtime.background import spawn
from refbrowse.daemon.services.recording.limits import Limits
from refbrowse.errors import PageError

FPS = 25
MAX_SIDE = 1280  # screencast frames are scaled down to this, which keeps files and encoding small
# One thread: on a busy machine libvpx's worker threads spent ten times their CPU time waiting
# (a 3-second clip took 40 s with threads, 4 s without).
_CODECS = dict(
    zip(
        VIDEO_EXTENSIONS,  # .webm, .mp4: the registry's check holds `video stop PATH` to them
        (
            ["-c:v", "libvpx", "-b:v", "1M", "-deadline", "realtime", "-cpu-used", "8", "-threads", "1"],
            ["-c:v", "libx264", "-preset", "veryfast", "-threads", "1", "-movflags", "+faststart"],
        ),
        strict=True,
    )
)


def find_ffmpeg() -> str:
    """The ffmpeg to encode with (`BROWSE_FFMPEG`, else on PATH), or a `PageError` saying what to install."""
    found = os.environ.get("BROWSE_FFMPEG") or shutil.which("ffmpeg")
    if not found or not os.access(found, os.X_OK):
        raise PageError(
            "recording a video needs ffmpeg, which is not installed",
            "install it (`apt-get install ffmpeg`, `brew install ffmpeg`) or point BROWSE_FFMPEG at one",
        )
    return found


@dataclass
class VideoRun:
    """One tab's screencast in progress: its frames on disk, with their times."""

    page: Page
    cdp: CDPSession
    folder: str
    ffmpeg: str
    started: float = field(default_factory=time.time)
    frames: list[tuple[str, float]] = field(default_factory=list)  # (file, timestamp in seconds)
    limits: Limits = field(default_factory=Limits.from_env)
    kept_bytes: int = 0
    cut: str = ""  # the limit the frames reached: "bytes" or "seconds"

    @classmethod
    async def start(cls, page: Page, scratch: str) -> VideoRun:
        ffmpeg = find_ffmpeg()
        folder = tempfile.mkdtemp(prefix="video-", dir=scratch)
        cdp = await page.context.new_cdp_session(page)
        run = cls(page, cdp, folder, ffmpeg)
        cdp.on("Page.screencastFrame", run._frame)
        params = {"format": "jpeg", "quality": 80, "maxWidth": MAX_SIDE, "maxHeight": MAX_SIDE}
        await cdp.send("Page.startScreencast", params)
        return run

    def _frame(self, params: dict[str, Any]) -> None:
        if self.cut:
            return
        data = base64.b64decode(params["data"])
        stamp = float(params.get("metadata", {}).get("timestamp") or time.time())
        if self.frames and stamp - self.frames[0][1] > self.limits.seconds:
            self._stop_at("seconds")
            return
        if self.kept_bytes + len(data) > self.limits.bytes:
            self._stop_at("bytes")
            return
        path = os.path.join(self.folder, f"frame-{len(self.frames):06d}.jpg")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        self.kept_bytes += len(data)
        self.frames.append((path, stamp))
        spawn(self._ack(params["sessionId"]))

    def _stop_at(self, limit: str) -> None:
        """No more frames: the screencast stops and the video ends with the last frame kept."""
        self.cut = limit
        spawn(self._quiet("Page.stopScreencast"))

    async def _quiet(self, method: str) -> None:
        with suppress(PlaywrightError):  # the tab closed meanwhile
            await self.cdp.send(method)

    def left_out(self) -> str:
        if not self.cut:
            return ""
        return f"recording stopped at its limit of {self.limits.said(self.cut)}: the video ends there"

    async def _ack(self, session_id: int) -> None:
        with suppress(PlaywrightError):  # the tab closed: the frames so far are kept
            await self.cdp.send("Page.screencastFrameAck", {"sessionId": session_id})

    async def stop(self, out_path: str, limit_s: float) -> tuple[int, float]:
        """Encode the frames into `out_path` (its extension picks the codec); (frames, seconds)."""
        ended = self.frames[-1][1] + 1 / FPS if self.cut and self.frames else time.time()
        with suppress(PlaywrightError):  # the tab is gone; its frames are still here
            await self.cdp.send("Page.stopScreencast")
            await self.cdp.detach()
        if not self.frames:
            raise PageError("the screencast sent no frames", "keep the tab open while recording, then stop")
        await self._encode(self._playlist(ended), out_path, limit_s)
        return len(self.frames), ended - self.frames[0][1]

    def _playlist(self, ended: float) -> str:
        """ffmpeg's concat list: each frame shown until the next one came (the last until the stop)."""
        lines = ["ffconcat version 1.0"]
        for (path, stamp), (_, following) in zip(self.frames, [*self.frames[1:], ("", ended)], strict=True):
            lines += [f"file '{os.path.basename(path)}'", f"duration {max(following - stamp, 1 / FPS):.3f}"]
        lines.append(f"file '{os.path.basename(self.frames[-1][0])}'")  # the concat format's last entry
        playlist = os.path.join(self.folder, "frames.txt")
        with open(playlist, "w") as out:
            out.write("\n".join(lines) + "\n")
        return playlist

    async def _encode(self, playlist: str, out_path: str, limit_s: float) -> None:
        codec = _CODECS[os.path.splitext(out_path)[1].lower()]
        even = f"fps={FPS},scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p"
        argv = [
            self.ffmpeg,
            "-y",
            "-nostdin",
            "-loglevel",
            "error",
            "-f",
            "concat",
            "-safe",
            "0",
            "-i",
            playlist,
        ]
        process = await asyncio.create_subprocess_exec(
            *argv,
            *("-vf", even, *codec, out_path),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            _, err = await asyncio.wait_for(process.communicate(), limit_s)
        except TimeoutError:
            raise PageError(
                f"ffmpeg did not finish encoding within {limit_s:.0f} s",
                "record a shorter video, or give `video stop` a larger --timeout",
            ) from None
        finally:
            if process.returncode is None:  # timed out, or the command was cancelled: no encoder left behind
                process.kill()
                await process.wait()
        if process.returncode != 0:
            reason = err.decode(errors="replace").strip()[-300:]
            raise PageError(f"ffmpeg failed: {reason}", "check that this ffmpeg build has libvpx and libx264")

    def discard(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
