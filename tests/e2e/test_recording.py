"""Recording on real Chromium: a trace zip, a performance profile, a video, a session written as a test."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.conftest import CHROMIUM, Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def test_trace_stop_writes_a_zip_the_trace_viewer_opens(workspace: Workspace, site: Site) -> None:
    assert workspace.run("trace", "stop").code == 1  # nothing recording
    workspace.ok("trace", "start", "--screenshots", "--snapshots")
    assert "recording: default: trace" in workspace.ok("status")
    workspace.ok("goto", site.url("/record/signup.html"))
    workspace.ok("fill", "input[name=email]", "a@b.c")
    refused = workspace.run("trace", "stop", "/etc/refbrowse-trace.zip")
    assert refused.code == 2 and "--allow-path" in refused.err  # the path policy, and the trace goes on
    out = workspace.ok("trace", "stop", "bug.zip")
    path = workspace.root / "bug.zip"
    assert str(path) in out and "show-trace" in out
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        assert "trace.trace" in names and "trace.network" in names
        assert any(name.startswith("resources/") for name in names)
        events = [json.loads(line) for line in archive.read("trace.trace").decode().splitlines() if line]
    assert events[0]["type"] == "context-options"
    assert any(e.get("type") == "screencast-frame" for e in events)
    assert any(e.get("type") == "frame-snapshot" for e in events)
    assert any("signup.html" in json.dumps(e) for e in events)


def test_profile_stop_writes_chrome_trace_events(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/record/signup.html"))
    workspace.ok("profile", "start")
    assert workspace.run("profile", "start").code == 1  # one at a time
    workspace.ok("reload")
    workspace.ok("click", "text=Save")
    out = workspace.ok("profile", "stop", "load.json")
    assert "trace events" in out
    events = json.loads((workspace.root / "load.json").read_text())["traceEvents"]
    names = {e.get("name") for e in events}
    assert "TracingStartedInBrowser" in names  # what DevTools' Performance panel looks for first
    assert any(e.get("cat", "").startswith("devtools.timeline") for e in events)


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs ffmpeg (apt-get install ffmpeg)")
def test_video_stop_encodes_the_tab_with_ffmpeg(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/record/signup.html"))
    workspace.ok("video", "start")
    workspace.ok("fill", "input[name=email]", "someone@example.com")
    workspace.ok("click", "text=Continue")
    assert workspace.run("video", "stop", "run.avi").code == 2
    out = workspace.ok("video", "stop", "run.webm")
    path = workspace.root / "run.webm"
    assert "frames" in out and str(path) in out
    assert path.read_bytes()[:4] == b"\x1a\x45\xdf\xa3"  # a Matroska/WebM file
    probe = subprocess.run(
        [
            "ffprobe",
            "-v",
            "error",
            "-show_entries",
            "stream=codec_name,width,height",
            "-of",
            "json",
            str(path),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    stream = json.loads(probe.stdout)["streams"][0]
    assert stream["codec_name"] == "vp8" and stream["width"] > 0


def test_video_without_ffmpeg_names_what_to_install(fresh_workspace: Workspace, site: Site) -> None:
    fresh_workspace.ok("goto", site.url("/record/signup.html"), BROWSE_FFMPEG="/nonexistent/ffmpeg")
    result = fresh_workspace.run("video", "start")
    assert result.code == 1 and "ffmpeg" in result.err and "apt-get install ffmpeg" in result.err


def _ref_finder(snapshot: str) -> Callable[[str, int], str]:
    lines = strip_fence(snapshot).splitlines()

    def ref_of(text: str, nth: int = 0) -> str:
        """The ref of the nth line of `snapshot -i` that shows `text`."""
        return [m.group(0) for line in lines if text in line and (m := re.search(r"@e\d+", line))][nth]

    return ref_of


def test_locator_prints_a_role_or_label_locator_for_a_ref(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/record/signup.html"))
    ref_of = _ref_finder(workspace.ok("snapshot", "-i"))
    assert 'page.get_by_label("Email", exact=True)' in workspace.ok("locator", ref_of('"Email"'))
    assert 'page.get_by_role("button", name="Save", exact=True)' in workspace.ok("locator", ref_of('"Save"'))
    second = workspace.ok("locator", ref_of('"Remove"', 1))
    assert 'page.get_by_role("button", name="Remove", exact=True).nth(1)' in second
    assert 'page.locator("h1")' in workspace.ok("locator", "h1")


def test_record_writes_a_test_that_passes_with_plain_playwright(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", "about:blank")
    workspace.ok("record", "start")
    workspace.ok("goto", site.url("/record/signup.html").removeprefix("http://"))  # a local host gets http
    ref_of = _ref_finder(workspace.ok("snapshot", "-i"))
    workspace.ok("fill", ref_of('"Email"'), "a@b.c")
    workspace.ok("fill", ref_of('"Password"'), "-", input="hunter2-secret\n")
    workspace.ok("type", ref_of('"Password"'), "hunter2-more")
    workspace.ok("check", ref_of('"Send me news"'))
    workspace.ok("select", ref_of('"Plan"'), "pro")
    assert "Saved a@b.c" in workspace.ok("click", ref_of('"Save"'))
    workspace.ok("text")  # a read: not a step
    workspace.ok("chain", input=json.dumps([["click", ref_of('"Continue"')]]))  # a chain's steps count
    out = workspace.ok("record", "stop", "test_signup.py")
    assert "Wrote 8 steps" in out and "set RECORDED_PASSWORD_1, RECORDED_PASSWORD_2" in out
    written = (workspace.root / "test_signup.py").read_text()
    assert "@e" not in written  # refs never reach the file
    assert f"page.goto({json.dumps(site.url('/record/signup.html'))})" in written
    assert "hunter2" not in written and 'os.environ["RECORDED_PASSWORD_2"]' in written
    assert 'page.get_by_label("Email", exact=True).fill("a@b.c")' in written
    assert 'expect(page.get_by_text("Saved a@b.c").first).to_be_visible()' in written
    assert 'expect(page).to_have_url("' + site.url("/record/done.html") + '")' in written
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            str(workspace.root / "test_signup.py"),
        ],
        cwd=workspace.root,
        env={
            **os.environ,
            "BROWSE_CHROMIUM_PATH": CHROMIUM,
            "RECORDED_PASSWORD_1": "a",
            "RECORDED_PASSWORD_2": "b",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout


_CONTACT = """<!doctype html><title>Contact</title>
<form id="f">
  <label>Your name <input name="name"></label>
  <label>Email <input name="email" type="email" required></label>
  <label><input type="checkbox" name="copy"> Send me a copy</label>
  <label>Topic <select name="topic">
    <option value="q">Question</option><option value="b">Bug</option>
  </select></label>
  <button>Send</button>
</form>
<p role="status" id="status"></p>
<script>
  document.getElementById('f').addEventListener('submit', e => {
    e.preventDefault();
    const f = e.target;
    document.getElementById('status').textContent =
      `Sent by ${f.name.value} <${f.email.value}> about ${f.topic.value}, copy ${f.copy.checked}`;
  });
</script>"""


def test_a_recorded_form_fill_runs_green_with_plain_pytest_and_the_browser_browse_found(
    workspace: Workspace, site: Site, tmp_path: Path
) -> None:
    url = site.page("/record/contact.html", _CONTACT)
    workspace.ok("goto", url)
    workspace.ok("record", "start")
    ref_of = _ref_finder(workspace.ok("snapshot", "-i"))
    fields = [ref_of('"Your name"'), "Ada", ref_of('"Email"'), "ada@example.com"]
    workspace.ok("fill", *fields, ref_of('"Send me a copy"'), "yes", ref_of('"Topic"'), "Bug")
    assert "Sent by Ada <ada@example.com> about b, copy true" in workspace.ok("click", ref_of('"Send"'))
    workspace.ok("record", "stop", "test_contact.py")
    written = (workspace.root / "test_contact.py").read_text()
    assert 'page.get_by_label("Email", exact=True).fill("ada@example.com")' in written
    # Plain pytest, as a person runs it: no BROWSE_CHROMIUM_PATH and no browser of Playwright's own,
    # so the file finds the system Chromium `browse` drives, on PATH.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BROWSE_", "PLAYWRIGHT_"))}
    env.update(PLAYWRIGHT_BROWSERS_PATH=str(tmp_path), PATH=f"{Path(CHROMIUM).parent}:{env.get('PATH', '')}")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_contact.py"],
        cwd=workspace.root, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, written + run.stdout + run.stderr
    assert "1 passed" in run.stdout
