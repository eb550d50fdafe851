"""What a visible browser needs beyond a headless one: a display, a marker, a window to raise.

- `VirtualDisplay`: on Linux without `DISPLAY`, a private Xvfb for the daemon,
  started with the headed browser and stopped with it (Debian: `apt-get install
  xvfb`).
- `MARKER_SCRIPT`: the thin coloured line at the top edge and the small
  "refbrowse" pill that tell a person which window the agent drives. It lives in
  a closed shadow root on a fixed, zero-height, `aria-hidden`, click-through
  host: no layout change, nothing in snapshots, no effect on hit tests. Its
  styles go through the CSSOM, which a page's CSP does not block.
  The host also notes when a person last pressed a key or the pointer in the
  tab (`data-touched`), so `resume` continues on the tab they ended on.
- `raise_window`: the platform's window tool (xdotool, wmctrl) where one exists.
- The extension's @ref labels (`REFS_TAG`) are built the same way as the marker.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import select
import shutil
import struct
import subprocess
import sys
import tempfile

from refbrowse.daemon.core.devtools.scripts import called, script
from refbrowse.errors import Unavailable

log = logging.getLogger("refbrowse")

SCREEN = "1920x1080x24"
XVFB_INSTALL_HINT = (
    "install it: `apt-get install -y xvfb` (Debian/Ubuntu), or set DISPLAY to a running X server"
)

MARKER_TAG = "refbrowse-marker"
REFS_TAG = "refbrowse-refs"  # the extension's @ref labels (refbrowse/extension/overlay.js)
WINDOW_TAGS = (MARKER_TAG, REFS_TAG)  # drawn for the person at the window, hidden from `screenshot`
MARKER_COLOUR = "#e8590c"
MARKER_SCRIPT = called("marker", MARKER_TAG, MARKER_COLOUR)


def needs_virtual_display() -> bool:
    return sys.platform.startswith("linux") and not os.environ.get("DISPLAY")


def can_show_a_window() -> bool:
    """False on a machine with no display and no Xvfb to make one: no visible browser is possible."""
    return not needs_virtual_display() or shutil.which("Xvfb") is not None


class VirtualDisplay:
    """A private Xvfb on a display number the X server picks itself (`-displayfd`).

    Private in earnest: no TCP, and an authority file (`-auth`, a fresh cookie,
    mode 0600) without which the X server refuses a client, so that no other
    local user can watch the page or type into it. `authority` names the file
    for the clients this daemon starts (`XAUTHORITY`).
    """

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.display = ""
        self.authority = ""

    async def start(self) -> str:
        if self.process is None or self.process.poll() is not None:
            await asyncio.to_thread(self._start)
        return self.display

    def _start(self) -> None:
        xvfb = shutil.which("Xvfb")
        if xvfb is None:
            raise Unavailable("there is no display and no Xvfb to make one", XVFB_INSTALL_HINT)
        cookie = secrets.token_bytes(16)
        self.authority = _write_authority(cookie, "")
        read_end, write_end = os.pipe()
        try:
            self.process = subprocess.Popen(  # noqa: S603 - the Xvfb found on PATH, fixed arguments
                [
                    xvfb,
                    "-displayfd",
                    str(write_end),
                    "-screen",
                    "0",
                    SCREEN,
                    "-nolisten",
                    "tcp",
                    "-auth",
                    self.authority,
                ],
                pass_fds=(write_end,),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            os.close(write_end)
            self.display = ":" + _read_display(read_end, self.process)
        finally:
            os.close(read_end)
        # Clients look the cookie up by display number, known only now.
        _write_authority(cookie, self.display[1:], self.authority)
        log.info("started Xvfb on display %s (pid %d)", self.display, self.process.pid)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
            log.info("stopped Xvfb on display %s", self.display)
        self.process = None
        self.display = ""
        if self.authority:
            with contextlib.suppress(FileNotFoundError):
                os.remove(self.authority)
        self.authority = ""

    def client_env(self) -> dict[str, str]:
        """What a program needs in its environment to use this display."""
        return {"DISPLAY": self.display, "XAUTHORITY": self.authority} if self.display else {}


_FAMILY_WILD = 0xFFFF
_COOKIE_NAME = b"MIT-MAGIC-COOKIE-1"


def _write_authority(cookie: bytes, number: str, path: str = "") -> str:
    """An X authority file (mode 0600) holding `cookie` for display `number` on any address; its path."""
    fields = (b"", number.encode(), _COOKIE_NAME, cookie)
    record = struct.pack(">H", _FAMILY_WILD) + b"".join(struct.pack(">H", len(f)) + f for f in fields)
    fd, tmp = tempfile.mkstemp(prefix="refbrowse-xauth-")  # mode 0600, never through a symlink
    with os.fdopen(fd, "wb") as f:
        f.write(record)
    if path:
        os.replace(tmp, path)
        return path
    return tmp


def _read_display(fd: int, process: subprocess.Popen[bytes]) -> str:
    """The display number Xvfb writes to `-displayfd` once it accepts connections."""
    text = b""
    while not text.endswith(b"\n"):
        ready, _, _ = select.select([fd], [], [], 10)
        chunk = os.read(fd, 16) if ready else b""
        if not chunk:
            process.kill()
            raise Unavailable("Xvfb did not start", "run `Xvfb -displayfd 1` by hand to see why")
        text += chunk
    return text.decode().strip()


async def raise_window(browser_pid: int, display: dict[str, str]) -> str:
    """Raise the browser's windows with the platform's tool; which tool did it, or "".

    `display`: the private display's `client_env()`, empty for the user's own.
    """
    if not browser_pid:
        return ""
    env = {**os.environ, **display}
    search = ["xdotool", "search", "--onlyvisible", "--pid", str(browser_pid)]
    if shutil.which("xdotool") and await _run([*search, "windowraise"], env):
        await _run([*search, "windowactivate"], env)  # needs a window manager; raising is enough without
        return "xdotool"
    pick = f"wmctrl -lp | awk '$3=={browser_pid}{{print $1}}' | xargs -rn1 wmctrl -ia"
    if shutil.which("wmctrl") and await _run(["sh", "-c", pick], env):
        return "wmctrl"
    return ""


async def _run(argv: list[str], env: dict[str, str]) -> bool:
    try:
        process = await asyncio.create_subprocess_exec(
            *argv, env=env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
        )
        return await asyncio.wait_for(process.wait(), 5) == 0
    except (OSError, TimeoutError):
        return False


TOUCHED_SCRIPT = script("touched")  # called with MARKER_TAG
