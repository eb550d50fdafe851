"""What a command or a page may touch: output and upload paths, file:// and other URLs, hosts, downloads.

The daemon's temp directory is moved inside the workspace (TMPDIR), so a
sibling directory of the workspace is "elsewhere" for these tests.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from conftest import FixtureHandler, Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


@pytest.fixture(scope="module")
def confined(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    ws = Workspace(tmp_path_factory.mktemp("confined"))
    (ws.root / "tmp").mkdir()
    ws.env["TMPDIR"] = str(ws.root / "tmp")
    yield ws  # type: ignore[misc]
    ws.stop()


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("elsewhere")


@pytest.fixture(scope="module")
def page(confined: Workspace, site: Site) -> str:
    html = "<h1>Policy</h1><input type=file id=f multiple>"
    url = site.page("/policy", html)
    confined.ok("goto", url)
    return url


def _big(size: int) -> object:
    def serve(h: FixtureHandler) -> None:
        h.send_response(200)  # no Content-Length: the size is known only by reading
        h.send_header("Content-Type", "application/octet-stream")
        h.send_header("Content-Disposition", 'attachment; filename="big.bin"')
        h.end_headers()
        chunk = b"x" * 65536
        for _ in range(size // len(chunk)):
            h.wfile.write(chunk)

    return serve


def test_a_screenshot_outside_the_workspace_is_refused_and_says_how_to_allow_it(
    confined: Workspace, page: str, elsewhere: Path
) -> None:
    target = elsewhere / "shot.png"
    refused = confined.run("screenshot", str(target))
    assert refused.code == 2 and not target.exists()
    assert "refusing to write" in refused.err and f"--allow-path {elsewhere}" in refused.err
    assert "saved" in confined.ok("screenshot", str(target), "--allow-path", str(elsewhere)).lower()
    assert target.exists()


def test_the_environment_widens_the_allowed_paths(confined: Workspace, page: str, elsewhere: Path) -> None:
    target = elsewhere / "env.pdf"
    confined.ok("pdf", str(target), BROWSE_ALLOWED_PATHS=str(elsewhere))
    assert target.read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize(
    "argv",
    [
        ("pdf", "{out}/x.pdf"),
        ("snapshot", "-o", "{out}/x.png"),
        ("responsive", "{out}/r"),
        ("download", "{url}", "{out}/x.bin"),
    ],
)
def test_every_output_path_goes_through_the_policy(
    confined: Workspace, page: str, elsewhere: Path, argv: tuple[str, ...]
) -> None:
    out = elsewhere / "every"
    result = confined.run(*(a.format(out=out, url=page) for a in argv))
    assert result.code == 2, result.err
    assert "refusing to write" in result.err and "--allow-path" in result.err
    assert not out.exists()


def test_the_state_directory_is_refused_even_when_allowed(confined: Workspace, page: str) -> None:
    state = confined.state_dir
    result = confined.run("screenshot", str(state / "x.png"), "--allow-path", str(state))
    assert result.code == 2 and "state directory" in result.err
    assert not (state / "x.png").exists()


def test_a_symlink_that_leaves_the_workspace_is_not_followed(
    confined: Workspace, page: str, elsewhere: Path
) -> None:
    victim = elsewhere / "victim.txt"
    victim.write_text("keep me")
    link = confined.root / "link.png"
    link.symlink_to(victim)
    result = confined.run("screenshot", str(link))
    assert result.code == 2 and "symlink" in result.err
    assert victim.read_text() == "keep me"


def test_upload_refuses_the_state_directory_and_files_elsewhere(
    confined: Workspace, page: str, elsewhere: Path
) -> None:
    secret = elsewhere / "secret.txt"
    secret.write_text("secret")
    daemon_json = confined.state_dir / "daemon.json"
    for path in (daemon_json, secret):
        result = confined.run("upload", "#f", str(path))
        assert result.code == 2 and "refusing to read" in result.err, result.err
    names = strip_fence(confined.ok("js", "document.getElementById('f').files.length"))
    assert names.strip() == "0"
    confined.ok("upload", "#f", str(secret), "--allow-path", str(elsewhere))
    assert (
        strip_fence(confined.ok("js", "document.getElementById('f').files[0].name")).strip() == "secret.txt"
    )


@pytest.mark.parametrize(("command", "content"), [("eval", "document.title"), ("cookie-import", "[]")])
def test_eval_and_cookie_import_read_only_files_the_policy_allows(
    confined: Workspace, page: str, elsewhere: Path, command: str, content: str
) -> None:
    outside = elsewhere / f"{command}.txt"
    outside.write_text(content)
    link = confined.root / f"{command}-link.txt"
    link.symlink_to(outside)
    for path in (outside, link, confined.state_dir / "daemon.json"):
        result = confined.run(command, str(path))
        assert result.code == 2 and "refusing to read" in result.err, result.err
    assert f"--allow-path {elsewhere}" in confined.run(command, str(outside)).err
    confined.ok(command, str(outside), "--allow-path", str(elsewhere))
    confined.ok(command, str(outside), BROWSE_ALLOWED_PATHS=str(elsewhere))
    inside = confined.root / f"{command}.txt"
    inside.write_text(content)
    confined.ok(command, str(inside))


def test_file_urls_are_refused_by_default_and_the_state_directory_always(
    confined: Workspace, page: str
) -> None:
    local = confined.root / "local.html"
    local.write_text("<p>local page</p>")
    for command in ("goto", "newtab"):
        result = confined.run(command, local.as_uri())
        assert result.code == 2 and "--allow-file" in result.err and "BROWSE_ALLOW_FILE=1" in result.err
    assert confined.run("diff", page, local.as_uri()).code == 2
    assert confined.run("download", local.as_uri()).code == 2
    confined.ok("goto", local.as_uri(), "--allow-file")
    assert "local page" in confined.ok("text")
    token_file = (confined.state_dir / "daemon.json").as_uri()
    for env in ({}, {"BROWSE_ALLOW_FILE": "1"}):
        result = confined.run("goto", token_file, "--allow-file", **env)
        assert result.code == 2 and "state directory" in result.err


def test_a_local_page_cannot_frame_the_state_directory(confined: Workspace) -> None:
    token = str(confined.daemon_info()["token"])
    trap = confined.root / "trap.html"
    trap.write_text(f"<iframe src='{(confined.state_dir / 'daemon.json').as_uri()}'></iframe>")
    confined.ok("goto", trap.as_uri(), "--allow-file")
    time.sleep(1)
    frames = confined.ok("js", "[...document.querySelectorAll('iframe')].map(f => f.src).join()")
    snapshot = confined.ok("snapshot")
    assert token not in snapshot and token not in frames + confined.ok("text")


INTERNAL = ["chrome://version", "devtools://devtools", "view-source:http://x", "javascript:1"]


@pytest.mark.parametrize("url", INTERNAL)
def test_browser_internal_urls_are_refused(confined: Workspace, url: str) -> None:
    result = confined.run("goto", url)
    assert result.code == 2 and "cannot load" in result.err


def test_allowed_hosts_block_navigations_and_subresources(fresh_workspace: Workspace, site: Site) -> None:
    hits: list[str] = []
    site.route("/elsewhere.js", lambda h: (hits.append(h.path), h.reply("1")))
    port = site.server.server_address[1]
    html = f"<p>hosts</p><script src='http://localhost:{port}/elsewhere.js'></script>"
    url = site.page("/hosts", html)
    env = {"BROWSE_ALLOWED_HOSTS": "127.0.0.*"}
    fresh_workspace.ok("goto", url, **env)
    refused = fresh_workspace.run("goto", f"http://localhost:{port}/hosts", **env)
    assert refused.code == 2 and "BROWSE_ALLOWED_HOSTS" in refused.err
    assert hits == []
    fresh_workspace.ok("goto", url)  # without the variable, a new daemon allows every host
    assert hits


def test_a_page_cannot_start_a_download_on_its_own(confined: Workspace, site: Site) -> None:
    site.route("/auto.bin", _big(40 * 1024 * 1024))
    url = site.page("/auto", "<a id=a href='/auto.bin' download>x</a><script>a.click()</script>")
    confined.ok("goto", url)
    time.sleep(3)
    written = sum(f.stat().st_size for f in (confined.root / "tmp").rglob("*") if f.is_file())
    assert written < 10 * 1024 * 1024, f"{written} bytes reached the disk"
    assert "cancelled a download" in (confined.state_dir / "daemon.log").read_text()


def test_a_download_past_max_bytes_stops_and_keeps_nothing(confined: Workspace, site: Site) -> None:
    url = site.route("/three.bin", _big(3 * 1024 * 1024))
    target = confined.root / "three.bin"
    result = confined.run("download", url, str(target), "--max-bytes", "1000000")
    assert result.code == 1 and "--max-bytes" in result.err and not target.exists()
    assert "3145728 bytes" in confined.ok("download", url, str(target))
    assert target.stat().st_size == 3 * 1024 * 1024


def test_a_clicked_download_past_max_bytes_is_cancelled(confined: Workspace, site: Site) -> None:
    site.route("/click.bin", _big(8 * 1024 * 1024))
    confined.ok("goto", site.page("/clickdl", "<a id=get href='/click.bin' download>get</a>"))
    result = confined.run("download", "#get", str(confined.root / "c.bin"), "--max-bytes", "100000")
    assert result.code == 1 and "--max-bytes" in result.err
    assert not (confined.root / "c.bin").exists()
    assert "8388608 bytes" in confined.ok("download", "#get", str(confined.root / "c.bin"))


def test_max_bytes_must_be_positive(confined: Workspace, page: str) -> None:
    result = confined.run("download", page, "--max-bytes", "lots")
    assert result.code == 2 and "--max-bytes" in result.err
    assert "lots" in result.err


def test_a_url_that_cannot_be_parsed_is_a_usage_error(confined: Workspace) -> None:
    result = confined.run("goto", "http://[z]/")
    assert result.code == 2 and "not a valid URL" in result.err
    assert "Traceback" not in (confined.state_dir / "daemon.log").read_text()
