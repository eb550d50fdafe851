"""`browse doctor`: the whole set-up on one screen, each problem with what to do.

It only looks: it starts no daemon, browser or display, and writes nothing.
It exits 3 when refbrowse cannot run here (no browser, or a state directory it
cannot use), else 0, warnings included.
"""

from __future__ import annotations

import json
import os
import pwd
import re
import shutil
import stat
import sys
from dataclasses import dataclass, field

from refbrowse import __version__
from refbrowse.cli.workspace import find_state_dir, locate_state_dir
from refbrowse.daemon.core.browser.chromium import WEBMCP_ENV, ChromiumNotFound, find_chromium
from refbrowse.errors import BrowseError
from refbrowse.exitcodes import ExitCode
from refbrowse.protocol import DAEMON_FILE, DAEMON_LOG, read_daemon_file, state_path
from refbrowse.setup.install import browser_version, install_command
from refbrowse.specs import Request


@dataclass
class Line:
    label: str
    text: str
    fix: str = ""  # set when this line is a problem: what to do about it
    fatal: bool = False  # refbrowse cannot run here until it is fixed


@dataclass
class Report:
    lines: list[Line] = field(default_factory=list)

    def add(self, label: str, text: str, fix: str = "", fatal: bool = False) -> None:
        self.lines.append(Line(label, text, fix, fatal))

    def render(self) -> str:
        out = [
            f"{line.label:<10} {line.text}" + (f"\n{'':<10} ! {line.fix}" if line.fix else "")
            for line in self.lines
        ]
        problems = sum(1 for line in self.lines if line.fix)
        out.append("")
        out.append(
            "all good" if not problems else f"{problems} problem{'s' * (problems > 1)}: see the ! lines"
        )
        return "\n".join(out) + "\n"


def _owner(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def check_program(report: Report) -> None:
    report.add("refbrowse", f"{__version__} ({os.path.dirname(os.path.dirname(__file__))})")
    report.add("python", f"{sys.version.split()[0]} ({sys.executable})")
    on_path = shutil.which("browse")
    if on_path:
        report.add("browse", f"{on_path} (on PATH)")
    else:
        here = os.path.join(os.path.dirname(sys.executable), "browse")
        report.add(
            "browse",
            f"not on PATH (it is {here})",
            f'put it there: `pipx ensurepath` after pipx, else export PATH="{os.path.dirname(here)}:$PATH"',
        )


def check_browser(report: Report) -> None:
    try:
        path = find_chromium()
    except ChromiumNotFound as exc:
        named = os.environ.get("BROWSE_CHROMIUM_PATH")
        hint = exc.hint if named else f"run `browse install` (or `{install_command()}`)"
        report.add("browser", str(exc), hint, fatal=True)
        return
    version = browser_version(path)
    if version:
        report.add("browser", f"{path} ({version})")
    else:
        report.add(
            "browser", f"{path} does not answer --version", "run it by hand to see why, or `browse install`"
        )
    report.add("webmcp", page_tools_text(version))


WEBMCP_SINCE = 146  # the first Chromium with WebMCP behind its feature switch


def page_tools_text(version: str) -> str:
    """Whether pages' own tools (WebMCP) will be there, as far as the version and settings say."""
    if os.environ.get("BROWSE_CDP_URL") or os.environ.get("BROWSE_WS_ENDPOINT"):
        return "a remote browser: `browse status` says whether it has WebMCP"
    if os.environ.get(WEBMCP_ENV) == "0":
        return f"page tools off ({WEBMCP_ENV}=0)"
    found = re.search(r"(\d+)\.\d", version)
    if found and int(found.group(1)) < WEBMCP_SINCE:
        return f"probably not in this browser: WebMCP came with Chromium {WEBMCP_SINCE}"
    return (
        f"page tools on: the browser starts with --enable-features=WebMCP ({WEBMCP_ENV}=0 turns it off;"
        " `browse status` confirms)"
    )


def check_display(report: Report) -> None:
    if not sys.platform.startswith("linux"):
        report.add("display", "the system's (visible windows need no set-up)")
    elif os.environ.get("DISPLAY"):
        report.add("display", f"DISPLAY={os.environ['DISPLAY']} (headed commands open windows there)")
    elif shutil.which("Xvfb"):
        report.add("display", f"none: headed commands start a private Xvfb ({shutil.which('Xvfb')})")
    else:
        report.add(
            "display",
            "none and no Xvfb: headless works; connect gets no window (handoff uses the activity page)",
            "for windows: `apt-get install -y xvfb` (Debian/Ubuntu), or set DISPLAY",
        )


def _workspace_reason(state_dir: str) -> str:
    root = os.path.dirname(state_dir)
    if os.environ.get("BROWSE_STATE_DIR"):
        return "from BROWSE_STATE_DIR"
    if os.path.exists(os.path.join(root, ".git")):
        return "the .git root"
    if os.path.isdir(state_dir):
        return "holds .refbrowse/"
    return "the current directory: no .git or .refbrowse/ above"


def check_workspace(report: Report, state_dir: str) -> None:
    root = os.path.dirname(state_dir)
    report.add("workspace", f"{root} ({_workspace_reason(state_dir)})")
    try:
        info = os.stat(state_dir)
    except FileNotFoundError:
        if os.access(root, os.W_OK):
            report.add("state dir", f"{state_dir}: not created yet (the first command makes it, mode 0700)")
        else:
            report.add("state dir", f"{state_dir}: cannot be created", _elsewhere(root), fatal=True)
        return
    mode, owner = stat.S_IMODE(info.st_mode), _owner(info.st_uid)
    text = f"{state_dir} (owner {owner}, mode {mode:04o})"
    if info.st_uid != os.geteuid():
        report.add("state dir", text, f"it belongs to {owner}: {_elsewhere(root)}", fatal=True)
    elif mode & 0o077:
        report.add("state dir", text, f"make it private: chmod 700 {state_dir}")
    else:
        report.add("state dir", text)


def _elsewhere(root: str) -> str:
    return f"work in a folder you own, or set BROWSE_STATE_DIR to one ({root} is not yours to write)"


def check_daemon(report: Report, state_dir: str) -> None:
    from refbrowse.cli import launcher  # subprocess and fcntl: only here

    if not os.path.isdir(state_dir) or not launcher.daemon_alive(state_dir):
        report.add("daemon", "not running (any command starts it)")
        return
    info = read_daemon_file(state_dir)
    if info is None:
        report.add(
            "daemon",
            f"running, but {DAEMON_FILE} is unreadable",
            "the next command asks it to write it again",
        )
        return
    where = info.get("socket") or f"127.0.0.1:{info.get('port')}"
    text = f"pid {info['pid']}, {info['mode']}, {where}, version {info['version']}"
    if info.get("version") != __version__:
        report.add("daemon", text, "another version: the next command replaces it")
    else:
        report.add("daemon", text + f" (log: {state_path(state_dir, DAEMON_LOG)})")


def check_mcp(report: Report, state_dir: str) -> None:
    path = state_path(state_dir, "mcp.json")
    try:
        info = os.stat(path)
        with open(path) as f:
            pid = json.load(f).get("pid")
    except FileNotFoundError:
        report.add("mcp", "no token file (only `browse mcp --http` writes one; stdio clients need none)")
        return
    except (OSError, ValueError, AttributeError):
        report.add("mcp", f"{path} is unreadable", "restart `browse mcp --http`: it writes the file again")
        return
    mode = stat.S_IMODE(info.st_mode)
    alive = isinstance(pid, int) and _alive(pid)
    text = f"{path} (mode {mode:04o}, server pid {pid} {'running' if alive else 'gone'})"
    report.add("mcp", text, f"make it private: chmod 600 {path}" if mode & 0o077 else "")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def check_skill(report: Report, state_dir: str) -> None:
    from refbrowse.skill import render, skill_path

    current = render()
    places = {"project": skill_path(False, os.path.dirname(state_dir)), "user": skill_path(True)}
    found = []
    for where, path in places.items():
        try:
            with open(path) as f:
                text = f.read()
        except OSError:
            continue
        found.append(f"{where} {path}" + ("" if text == current else " (outdated)"))
    if not found:
        report.add(
            "skill", "not installed (for Claude Code: `browse skill install`, or `--user` for every project)"
        )
    elif any("(outdated)" in place for place in found):
        report.add(
            "skill", "; ".join(found), "refresh it: `browse skill install` (add --user for the user's)"
        )
    else:
        report.add("skill", "; ".join(found))


def run(req: Request) -> int:
    report = Report()
    try:
        state_dir = find_state_dir()
    except BrowseError:  # refused for this user: the workspace line says why
        state_dir = locate_state_dir()[0]
    check_program(report)
    check_browser(report)
    check_display(report)
    check_workspace(report, state_dir)
    if report.lines[-1].fatal:
        report.add("daemon", "not checked (the state directory is not this user's)")
        report.add("mcp", "not checked (the state directory is not this user's)")
    else:
        check_daemon(report, state_dir)
        check_mcp(report, state_dir)
    check_skill(report, state_dir)
    sys.stdout.write(report.render())
    return ExitCode.UNAVAILABLE if any(line.fatal for line in report.lines) else ExitCode.OK
