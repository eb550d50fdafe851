"""`initscript`: the caller's script runs in every page before its own, is listed, and survives a restart."""

from __future__ import annotations

import pytest

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser

READER = """<title>reader</title><script>document.title = 'flag=' + (window.__testFlag || 'none');</script>"""


def title(ws: Workspace) -> str:
    return strip_fence(ws.ok("js", "document.title")).strip()


def test_an_init_script_runs_before_the_page_and_survives_a_restart(workspace: Workspace, site: Site) -> None:
    ws = workspace  # the module's daemon, the next test's too: this one removes its script as it ends
    url = site.page("/init/reader", READER)
    script = ws.root / "flag.js"
    script.write_text("window.__testFlag = 'set-early';")
    ws.ok("goto", url)
    assert title(ws) == "flag=none"
    assert "runs in every page of session default" in ws.ok("initscript", "add", str(script))
    ws.ok("goto", url)
    assert title(ws) == "flag=set-early"
    assert str(script.resolve()) in ws.ok("initscript", "list")
    assert "initscripts: " in ws.ok("status")
    ws.ok("restart")
    ws.ok("goto", url)
    assert title(ws) == "flag=set-early"
    assert "0 left" in ws.ok("initscript", "remove", str(script))
    ws.ok("goto", url)
    assert title(ws) == "flag=none"


def test_a_script_that_throws_leaves_the_page_working_and_says_so(workspace: Workspace, site: Site) -> None:
    ws = workspace
    url = site.page("/init/reader2", READER)
    bad = ws.root / "bad.js"
    bad.write_text("throw new Error('init script broke');")
    ws.ok("initscript", "add", str(bad))
    ws.ok("goto", url)
    assert title(ws) == "flag=none"
    assert "init script broke" in ws.ok("console", "--errors")
    missing = ws.run("initscript", "remove", str(ws.root / "other.js"))
    assert missing.code == 1 and "is not an init script" in missing.err
    outside = ws.run("initscript", "add", "/etc/hostname")
    assert outside.code != 0 and "refusing to read" in outside.err


def test_browse_init_scripts_runs_in_every_session(fresh_workspace: Workspace, site: Site) -> None:
    ws = fresh_workspace
    url = site.page("/init/reader3", READER)
    script = ws.root / "env-flag.js"
    script.write_text("window.__testFlag = 'from-env';")
    env = {"BROWSE_INIT_SCRIPTS": f"{script},{ws.root / 'missing.js'}"}
    first = ws.run("goto", url, **env)
    assert first.code == 0 and "BROWSE_INIT_SCRIPTS: no such file: " in first.err + first.out
    assert strip_fence(ws.ok("js", "document.title", **env)).strip() == "flag=from-env"
    ws.ok("--session", "other", "goto", url, **env)
    assert strip_fence(ws.ok("--session", "other", "js", "document.title", **env)).strip() == "flag=from-env"
    # Listed with where each came from: the environment's in status and in every session's list.
    added = ws.root / "added.js"
    added.write_text("window.__added = 1;")
    ws.ok("--session", "other", "initscript", "add", str(added), **env)
    status = ws.ok("status", **env)
    assert f"init scripts from BROWSE_INIT_SCRIPTS (every session): {script.resolve()}" in status
    assert f"initscripts: {added.resolve()} (added with `initscript add`)" in status
    listed = ws.ok("--session", "other", "initscript", "list", **env)
    assert f"1. {script.resolve()} (31 chars, from BROWSE_INIT_SCRIPTS)" in listed
    assert f"2. {added.resolve()} (19 chars, initscript add)" in listed
    refused = ws.run("initscript", "remove", str(script), **env)
    assert refused.code == 1 and "comes from BROWSE_INIT_SCRIPTS" in refused.err


def test_another_browse_init_scripts_restarts_the_daemon_with_it(
    fresh_workspace: Workspace, site: Site
) -> None:
    ws = fresh_workspace
    url = site.page("/init/reader4", READER)
    one, two = ws.root / "one.js", ws.root / "two.js"
    one.write_text("window.__testFlag = 'one';")
    two.write_text("window.__testFlag = 'two';")
    ws.ok("goto", url, BROWSE_INIT_SCRIPTS=str(one))
    assert title_with(ws, BROWSE_INIT_SCRIPTS=str(one)) == "flag=one"
    pid = ws.ok("status", BROWSE_INIT_SCRIPTS=str(one)).split("pid: ")[1].split()[0]
    changed = ws.run("goto", url, BROWSE_INIT_SCRIPTS=str(two))
    assert changed.code == 0
    assert f"restarting the daemon: BROWSE_INIT_SCRIPTS={two} here, {one} there" in changed.err
    assert title_with(ws, BROWSE_INIT_SCRIPTS=str(two)) == "flag=two"
    assert f"pid: {pid} " not in ws.ok("status", BROWSE_INIT_SCRIPTS=str(two))
    # Unset is a change too: the page goes back to running no script.
    unset = ws.run("goto", url)
    assert "BROWSE_INIT_SCRIPTS=(unset) here" in unset.err
    assert title(ws) == "flag=none"


def title_with(ws: Workspace, **env: str) -> str:
    return strip_fence(ws.ok("js", "document.title", **env)).strip()
