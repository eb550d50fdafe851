"""A refbrowse wheel, installed in a fresh venv outside any clone, used as a new user uses it.

Run by `scripts/wheel-smoke.sh` with that venv's python, in an empty project
folder: every step calls the installed `browse` (never the clone's), and the
MCP session uses the `mcp` SDK the wheel pulled in. Prints each step; exits 1
at the first that fails, saying what it saw.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import os
import subprocess
import sys
import threading
import urllib.request
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

VENV_BIN = Path(sys.executable).parent
BROWSE = str(VENV_BIN / "browse")
PAGE = """<!doctype html><title>Smoke</title>
<form><label>Name <input name="name"></label><button type="button" onclick="
document.querySelector('output').textContent = 'Hi ' + this.form.name.value">Greet</button></form>
<output></output>"""


def check(ok: bool, what: str, seen: str = "") -> None:
    if not ok:
        print(f"FAILED: {what}\n{seen}", file=sys.stderr)
        raise SystemExit(1)
    print(f"ok: {what}", flush=True)


def browse(*args: str, code: int = 0, cwd: Path | None = None, timeout: float = 180) -> str:
    print(f"\n$ browse {' '.join(args)}", flush=True)
    done = subprocess.run([BROWSE, *args], capture_output=True, text=True, cwd=cwd, timeout=timeout)  # noqa: S603
    print(done.stdout + done.stderr, end="", flush=True)
    if done.returncode != code:
        check(False, f"browse {args[0]} exited {done.returncode} (wanted {code})", done.stderr)
    return done.stdout


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def serve(root: Path) -> str:
    (root / "index.html").write_text(PAGE)
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(QuietHandler, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/index.html"


def the_package_is_the_wheels() -> None:
    import refbrowse

    where = Path(refbrowse.__file__).resolve()
    check(Path(sys.prefix).resolve() in where.parents, f"refbrowse is imported from the venv ({where})")
    static = where.parent / "daemon" / "services" / "activity" / "static"
    names = sorted(p.name for p in static.iterdir())
    check({"index.html", "app.js", "app.css"} <= set(names), f"the activity page's files are there: {names}")
    check((where.parent / "demo" / "signup.html").is_file(), "the demo page is there")
    check(any((where.parent / "extension").glob("manifest.json")), "the extension is there")


def the_dashboard_serves_its_page() -> None:
    link = next(word for word in browse("dashboard").split() if word.startswith("http://127.0.0.1:"))
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    page = opener.open(link, timeout=30).read().decode()
    check("<html" in page.lower(), f"the activity page loads from {link.split('?')[0]}")
    origin = link.split("/auth")[0]
    for name in ("app.js", "app.css"):
        body = opener.open(f"{origin}/static/{name}", timeout=30).read()
        check(len(body) > 100, f"/static/{name} is served ({len(body)} bytes)")


async def mcp_session(project: Path, page: str) -> None:
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=BROWSE, args=["mcp"], cwd=str(project), env=dict(os.environ))
    async with Client(params) as client:  # initialize
        names = [tool.name for tool in (await client.list_tools()).tools]
        check("goto" in names and "browse" in names, f"MCP initialize + tools/list: {len(names)} tools")
        went = await client.call_tool("goto", {"url": page})
        text = " ".join(getattr(block, "text", "") for block in went.content)
        check(not went.is_error and 'button "Greet"' in text, "MCP goto answers with the page's refs", text)


def main() -> int:
    project = Path.cwd()
    (project / ".git").mkdir(exist_ok=True)
    the_package_is_the_wheels()
    check(browse("--version").startswith("refbrowse "), "browse --version")
    installed = browse("install")
    check(installed.startswith("browser: "), "browse install finds a browser", installed)
    browse("doctor")
    check("Enterprise plan" in browse("demo"), "browse demo signs up on the demo page")
    (project / "site").mkdir(exist_ok=True)
    page = serve(project / "site")
    browse("goto", page)
    snapshot = browse("snapshot", "-i")
    check(
        'textbox "Name"' in snapshot and 'button "Greet"' in snapshot, "snapshot -i lists the form", snapshot
    )
    the_dashboard_serves_its_page()
    asyncio.run(mcp_session(project, page))
    check("allowed-tools: Bash(browse:*)" in browse("skill"), "browse skill prints SKILL.md")
    (project / "src").mkdir(exist_ok=True)
    browse("skill", "install", cwd=project / "src")
    check(
        (project / ".claude/skills/refbrowse/SKILL.md").is_file(),
        "skill install goes to the workspace's root",
    )
    browse("doctor")
    browse("stop")
    print("\nwheel smoke test: every step passed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
