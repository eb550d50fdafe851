"""Secrets stay secret: after a scripted session that types a password, imports
cookies and runs behind a proxy with credentials, no password, cookie value,
proxy password or token appears in any log, in an error message, or in the
command line or environment of the daemon, Playwright's driver or Chromium."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import Site, Workspace, _descendants

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

PASSWORD = "pw-Zq81-hunter2"
COOKIE_VALUE = "cv-Kx52-session"
PROXY_PASSWORD = "px-Wy33-secret"
LOGIN = """<title>login</title><form><input name=user aria-label=User>
<input type=password name=pass aria-label=Password><button>Sign in</button></form>"""


def _process_texts(daemon_pid: int) -> dict[str, bytes]:
    """The command line and environment of the daemon and every process under it."""
    found = {}
    for pid in [daemon_pid, *_descendants(daemon_pid)]:
        for part in ("cmdline", "environ"):
            try:
                found[f"{pid}/{part}"] = Path(f"/proc/{pid}/{part}").read_bytes()
            except OSError:
                continue
    return found


def _leaks(text: bytes, secrets: list[str]) -> list[str]:
    return [secret for secret in secrets if secret.encode() in text]


def test_no_secret_in_logs_errors_or_process_listings(
    fresh_workspace: Workspace, site: Site, tmp_path: Path
) -> None:
    ws = fresh_workspace
    # The test site doubles as the proxy: a proxied request names the whole URL as its path.
    url = site.page("/secrets/login", LOGIN)
    site.page(url, LOGIN)
    proxy = f"http://agent:{PROXY_PASSWORD}@127.0.0.1:{site.server.server_address[1]}"
    ws.env = {**ws.env, "BROWSE_PROXY": proxy}
    errors = []
    ws.ok("goto", url)
    ws.ok("snapshot", "-i")
    ws.ok("fill", "input[type=password]", PASSWORD, "--allow-argv-secret")
    assert PASSWORD not in ws.ok("snapshot") + ws.ok("snapshot", "-i")
    errors.append(ws.run("fill", "#no-such-field", PASSWORD, "--timeout", "1000"))
    errors.append(ws.run("fill", "title", PASSWORD))
    cookies = [{"name": "sid", "value": COOKIE_VALUE, "domain": "127.0.0.1", "path": "/"}]
    (tmp_path / "cookies.json").write_text(json.dumps(cookies))
    ws.ok("cookie-import", str(tmp_path / "cookies.json"))
    bad = [{"name": "bad", "value": COOKIE_VALUE + "-bad", "domain": "", "path": "/"}]
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    errors.append(ws.run("cookie-import", str(tmp_path / "bad.json")))
    errors.append(ws.run("js", "document.cookie"))  # page content may show it; only our own text is checked
    ws.ok("wait", "500")  # the logs flush in the background
    info = ws.daemon_info()
    token = str(info["token"])
    secrets = [PASSWORD, COOKIE_VALUE, PROXY_PASSWORD, token]

    assert any(r.code != 0 for r in errors[:3]), "the bad inputs should have failed"
    for result in errors[:3]:
        assert not _leaks(result.err.encode(), secrets), result.err
    for name, text in _process_texts(int(str(info["pid"]))).items():
        assert not _leaks(text, secrets), f"secret in /proc/{name}"
    private = {"daemon.json"}  # holds the token, mode 0600: its job
    for path in ws.state_dir.rglob("*"):
        if path.is_file() and path.name not in private and path.parent.name != "state":
            assert not _leaks(path.read_bytes(), secrets), f"secret in {path}"
    ws.ok("stop")
    assert not _leaks((ws.state_dir / "daemon.log").read_bytes(), secrets)
    assert os.environ.get("BROWSE_PROXY") is None  # the test set it for the workspace only
