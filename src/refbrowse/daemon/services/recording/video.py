"""A tab as a video: Chromium's screencast frames, encoded by ffmpeg when the recording stops.

Chromium sends a frame only when the picture changes, each with its time; the
frames are kept as JPEG files and handed to ffmpeg with their durations (its
concat format), which renders them at a steady frame rate. Nothing is encoded
while the agent works, so a recording costs the page only the screencast.
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

from refbrowse.daemon.core.runtime.background import spawn
from refbrowse.errors import PageError

FPS = 25
MAX_SIDE = 1280  # screencast frames are scaled down to this, which keeps files and encoding small
# One thread: on a busy machine libvpx's worker threads spent ten times their CPU time waiting
# (a 3-second clip took 40 s with threads, 4 s without).
_CODECS = {
    ".webm": ["-c:v", "libvpx", "-b:v", "1M", "-deadline", "realtime", "-cpu-used", "8", "-threads", "1"],
    ".mp4": ["-c:v", "libx264", "-preset", "veryfast", "-threads", "1", "-movflags", "+faststart"],
}
VIDEO_EXTENSIONS = tuple(_CODECS)


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
        path = os.path.join(self.folder, f"frame-{len(self.frames):06d}.jpg")
        with open(path, "wb") as out:
            out.write(base64.b64decode(params["data"]))
        stamp = float(params.get("metadata", {}).get("timestamp") or time.time())
        self.frames.append((path, stamp))
        spawn(self._ack(params["sessionId"]))

    async def _ack(self, session_id: int) -> None:
        with suppress(PlaywrightError):  # the tab closed: the frames so far are kept
            await self.cdp.send("Page.screencastFrameAck", {"sessionId": session_id})

    async def stop(self, out_path: str, limit_s: float) -> tuple[int, float]:
        """Encode the frames into `out_path` (its extension picks the codec); (frames, seconds)."""
        ended = time.time()
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
