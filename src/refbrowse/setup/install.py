"""`browse install`: make sure there is a browser to drive, and say which.

In order: one already here (`BROWSE_CHROMIUM_PATH`, Playwright's, a system
Chromium or Chrome); with `--system`, as root where apt-get is, Debian's
chromium; Playwright's installer when its download host answers; else the
exact command that installs one on this system, and exit 3.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys

from refbrowse.daemon.core.browser.chromium import OVERRIDE_HINT, ChromiumNotFound, find_chromium
from refbrowse.exitcodes import ExitCode
from refbrowse.specs import Request

PLAYWRIGHT_HOST = ("cdn.playwright.dev", 443)
APT_PACKAGES = ("chromium", "fonts-liberation")
APT_TIMEOUT_S = 600
DOWNLOAD_TIMEOUT_S = 900


def browser_version(path: str) -> str:
    """What the browser says of itself (`Chromium 131.0.6778.85 built on Debian`), or ""."""
    try:
        done = subprocess.run(  # noqa: S603 - the browser found, a fixed argument
            [path, "--version"], capture_output=True, text=True, timeout=20, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip().splitlines()[0] if done.stdout.strip() else ""


def os_release() -> dict[str, str]:
    """/etc/os-release as a dict (empty where there is none, e.g. macOS)."""
    try:
        with open("/etc/os-release") as f:
            lines = f.read().splitlines()
    except OSError:
        return {}
    pairs = (line.split("=", 1) for line in lines if "=" in line)
    return {key: value.strip().strip('"') for key, value in pairs}


def install_command() -> str:
    """The command that installs a Chromium on this system, as its user would type it."""
    sudo = "" if os.geteuid() == 0 else "sudo "
    family = " ".join((os_release().get("ID", ""), os_release().get("ID_LIKE", "")))
    if sys.platform == "darwin" or shutil.which("brew"):
        return "brew install --cask google-chrome"
    if shutil.which("apt-get") or "debian" in family or "ubuntu" in family:
        return f"{sudo}apt-get install -y --no-install-recommends {' '.join(APT_PACKAGES)}"
    if shutil.which("dnf") or "fedora" in family or "rhel" in family:
        return f"{sudo}dnf install -y chromium"
    return f"{sys.executable} -m playwright install chromium"


def _found() -> str | None:
    try:
        return find_chromium()
    except ChromiumNotFound:
        return None


def _report(path: str) -> int:
    version = browser_version(path)
    print(f"browser: {path}" + (f" ({version})" if version else ""))
    print("ready: try `browse demo`, or `browse doctor` for the whole set-up")
    return ExitCode.OK


def _apt() -> bool:
    """Install Debian's chromium with apt-get, as root; True when it went through."""
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        why = "not root" if shutil.which("apt-get") else "no apt-get here"
        print(f"--system: skipped ({why})")
        return False
    print(f"installing {' '.join(APT_PACKAGES)} with apt-get (usually 30-60 s)…", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    steps = (
        ["apt-get", "update", "-qq"],
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *APT_PACKAGES],
    )
    for step in steps:
        try:
            done = subprocess.run(step, env=env, timeout=APT_TIMEOUT_S, check=False)  # noqa: S603 - fixed argv
        except subprocess.TimeoutExpired:
            print(f"`{' '.join(step)}` did not finish in {APT_TIMEOUT_S} s")
            return False
        if done.returncode != 0:
            print(f"`{' '.join(step)}` failed (exit {done.returncode})")
            return False
    return True


def _network_reaches(host: tuple[str, int]) -> bool:
    """True when a connection to `host` opens, or a proxy is set (the installer goes through it)."""
    if any(os.environ.get(name) for name in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy")):
        return True
    try:
        socket.create_connection(host, timeout=5).close()
    except OSError:
        return False
    return True


def _playwright_download() -> bool:
    """Run Playwright's own installer when its download host answers; True when it went through."""
    if not _network_reaches(PLAYWRIGHT_HOST):
        print(f"Playwright's installer: skipped ({PLAYWRIGHT_HOST[0]} cannot be reached from here)")
        return False
    command = [sys.executable, "-m", "playwright", "install", "chromium"]
    print(f"running `{' '.join(command)}` (about 170 MB, usually 1-2 minutes)…", flush=True)
    try:
        done = subprocess.run(command, timeout=DOWNLOAD_TIMEOUT_S, check=False)  # noqa: S603 - fixed argv
    except subprocess.TimeoutExpired:
        print(f"Playwright's installer did not finish in {DOWNLOAD_TIMEOUT_S} s")
        return False
    return done.returncode == 0


def _fail(message: str, hint: str) -> int:
    sys.stdout.flush()
    sys.stderr.write(f"error: {message}\nhint: {hint}\n")
    return ExitCode.UNAVAILABLE


def _nothing_found() -> int:
    also = " (or `browse install --system`)" if os.geteuid() == 0 and shutil.which("apt-get") else ""
    return _fail(
        "no Chromium or Chrome found, and none could be installed from here",
        f"run `{install_command()}`{also}, then `browse install` again"
        " (or point BROWSE_CHROMIUM_PATH at a Chromium or Chrome binary)",
    )


def run(req: Request) -> int:
    override = os.environ.get("BROWSE_CHROMIUM_PATH")
    if override and not os.access(override, os.X_OK):
        # The daemon launches exactly this path: installing another browser would not help.
        return _fail(f"BROWSE_CHROMIUM_PATH={override} is not an executable file", OVERRIDE_HINT)
    found = _found()
    if found:
        return _report(found)
    print("no Chromium or Chrome found on this computer")
    if req["flags"].get("--system") and _apt() and (found := _found()):
        return _report(found)
    if not req["flags"].get("--no-download") and _playwright_download() and (found := _found()):
        return _report(found)
    return _nothing_found()
