"""A site's big offline storage never bricks a workspace: saved state has a budget.

A site may keep tens of MB in IndexedDB; saved with the login and restored at
the next start, 60 MB made every command of every session time out. What is over
the budget is left out with a note (at once and in `status`); the login itself
and the small storage beside it survive.
"""

from __future__ import annotations

import json

import pytest
from test_state import app, log_in, state_line, visit_account

from conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

__all__ = ["app"]

# 60 records of 1 MB of random text: as little compressible as a real offline cache
FILL_INDEXEDDB = """const megabyte = () => {
  let text = '';
  for (let i = 0; i < 12; i++) {
    text += btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(65536))));
  }
  return text;
};
await new Promise((ok, fail) => {
  const open = indexedDB.open('offline', 1);
  open.onupgradeneeded = () => open.result.createObjectStore('s');
  open.onsuccess = () => {
    const tx = open.result.transaction('s', 'readwrite');
    for (let i = 0; i < 60; i++) tx.objectStore('s').put(megabyte(), 'k' + i);
    tx.oncomplete = ok; tx.onerror = fail;
  };
});"""


def _plant_offline_cache(ws: Workspace, origin: str, megabytes: int) -> None:
    """Add `megabytes` of IndexedDB for `origin` to the saved state, as a save could have written it."""
    path = ws.state_dir / "state" / "session-default.json"
    state = json.loads(path.read_text())
    records = [{"key": f"k{i}", "value": str(i % 10) * (1 << 20)} for i in range(megabytes)]
    store = {"name": "s", "autoIncrement": False, "indexes": [], "records": records}
    database = {"name": "offline", "version": 1, "stores": [store]}
    state["origins"] = [
        {"origin": origin, "localStorage": [{"name": "theme", "value": "dark"}], "indexedDB": [database]}
    ]
    path.write_text(json.dumps(state))


def test_a_60_mb_indexeddb_in_saved_state_does_not_stop_the_next_start(
    fresh_workspace: Workspace, app: Site
) -> None:
    log_in(fresh_workspace, app, "ida")
    fresh_workspace.ok("stop")
    _plant_offline_cache(fresh_workspace, app.origin, 60)
    first = fresh_workspace.run("goto", app.url("/st/account"), timeout=60)
    assert first.code == 0, first.err
    assert "restored without IndexedDB of " + app.origin in first.err
    assert "over the 5.0 MB per-site budget" in first.err
    assert fresh_workspace.run("--session", "other", "url", timeout=60).code == 0
    assert visit_account(fresh_workspace, app) == "Welcome ida"
    assert "dark" in fresh_workspace.ok("js", "localStorage.getItem('theme')")
    assert "left out IndexedDB of " + app.origin in state_line(fresh_workspace)


def test_a_site_filling_60_mb_of_indexeddb_is_saved_without_it(fresh_workspace: Workspace, app: Site) -> None:
    log_in(fresh_workspace, app, "ivan")
    fresh_workspace.ok("js", "localStorage.setItem('theme', 'dark')")
    fresh_workspace.ok("js", FILL_INDEXEDDB, timeout=120)
    fresh_workspace.ok("stop", timeout=120)
    saved = fresh_workspace.state_dir / "state" / "session-default.json"
    assert saved.stat().st_size < 5 << 20
    assert visit_account(fresh_workspace, app) == "Welcome ivan"
    assert "dark" in fresh_workspace.ok("js", "localStorage.getItem('theme')")


def test_a_saved_state_slower_to_restore_than_the_limit_is_set_aside_and_the_session_starts_clean(
    fresh_workspace: Workspace, app: Site
) -> None:
    log_in(fresh_workspace, app, "iris")
    fresh_workspace.ok("stop")
    _plant_offline_cache(fresh_workspace, app.origin, 4)  # within the budgets: restored, slowly
    first = fresh_workspace.run("goto", app.url("/st/account"), timeout=60, BROWSE_RESTORE_TIMEOUT="200")
    assert first.code == 0, first.err
    said = "session default: saved state not restored (restoring it took over 0.2 s); started clean"
    assert said in first.err
    kept = [f.name for f in (fresh_workspace.state_dir / "state").iterdir() if f.name.endswith(".corrupt")]
    assert len(kept) == 1 and kept[0] in first.err
    assert visit_account(fresh_workspace, app) == "Please log in"
    assert fresh_workspace.run("--session", "other", "url", timeout=60).code == 0
