"""Secrets stay where they were put: a password in argv is refused untyped (or typed
with a hint to use stdin when allowed), log files keep no password or token of a URL,
and the activity feed shows no text of a chain's failed `fill` nor of typing into a
closed shadow root."""

from __future__ import annotations

import json
import re

import pytest
from test_dashboard import cookie_of, events_until

from conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

PASSWORD = "hunter2-round3"


def _held(workspace: Workspace) -> str:
    """What the page's fields hold: the user field's text and the password's length."""
    return workspace.ok("js", "u.value + '|' + p.value.length").splitlines()[1]


def test_a_password_from_argv_is_refused_untyped_unless_allowed_and_then_hinted(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.page("/pw-hint", "<input id=u aria-label=user><input id=p type=password>"))
    ref = re.findall(r"@e\d+(?= \[password\])", workspace.ok("snapshot", "-i"))[0]
    for argv in (("#p", PASSWORD), (ref, PASSWORD), ("#u", "alice", "#p", PASSWORD)):
        refused = workspace.run("fill", *argv)
        assert refused.code == 2, refused
        assert "is a password field and its text was in the command line" in refused.err
        assert "browse fill " in refused.err and " -" in refused.err and "auth login" in refused.err
        assert PASSWORD not in refused.err + refused.out
        assert _held(workspace) == "|0", argv  # nothing typed, not even the other field
    hinted = workspace.ok("fill", "#p", PASSWORD, "--allow-argv-secret")
    assert 'printf %s "$PASSWORD" | browse fill #p -' in hinted
    assert PASSWORD not in hinted and _held(workspace) == f"|{len(PASSWORD)}"
    assert "browse fill #p -" not in workspace.ok("fill", "#p", "-", input=PASSWORD + "\n")
    assert "printf" not in workspace.ok("fill", "#u", "alice")


def test_the_help_and_the_skill_teach_stdin_for_secrets(workspace: Workspace) -> None:
    assert "browse fill SEL -" in workspace.ok("--help")
    skill = workspace.ok("skill")
    assert 'printf %s "$PASSWORD" | browse fill @e4 -' in skill
    assert "TEXT `-`: stdin, for secrets" in workspace.ok("skill", "get", "commands")  # the commands page


SECRETS = ("pw-secret-1", "tok-secret-2", "acc-secret-3", "key-secret-4", "pw-secret-5", "tok-secret-6")


CLOSED_SHADOW = (
    "<div id=host tabindex=0></div><script>"
    "const root = host.attachShadow({mode: 'closed', delegatesFocus: true});"
    "root.innerHTML = '<label>Secret <input type=password></label>';</script>"
)


def test_the_feed_hides_a_chains_failed_fill_and_typing_into_a_closed_shadow_root(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.page("/closed-shadow", CLOSED_SHADOW))
    steps = json.dumps([["fill", "#no-such-field", PASSWORD, "--timeout", "500"]])
    assert workspace.run("chain", input=steps).code != 0
    workspace.ok("click", "#host")
    workspace.ok("type", PASSWORD + "-typed")
    workspace.ok("js", "'feed-marker-1'")
    port, cookie = cookie_of(workspace)
    shown = json.dumps(events_until(port, cookie, 0, "'feed-marker-1'"))
    assert "#no-such-field" in shown and "'feed-marker-1'" in shown
    assert PASSWORD not in shown, json.dumps([e for e in json.loads(shown) if PASSWORD in json.dumps(e)])


def test_log_files_keep_no_password_token_or_key_of_a_url(workspace: Workspace, site: Site) -> None:
    # The module's daemon, so the logs it scans hold the tests above too; it stops it: last here.
    site.route("/api-secret", lambda h: h.reply("{}"))
    script = (
        "fetch('/api-secret?password=pw-secret-1&token=tok-secret-2&access_token=acc-secret-3&apikey=key-secret-4');"
        "console.log('see http://bob:pw-secret-5@example.invalid/x?token=tok-secret-6')"
    )
    workspace.ok("goto", site.page("/log-secrets", f"<script>{script}</script>"))
    assert "pw-secret-5" in workspace.ok("console")  # the agent still reads its own session
    workspace.ok("stop")  # the logs are flushed on the way out
    files = "".join((workspace.state_dir / name).read_text() for name in ("network.log", "console.log"))
    assert "/api-secret?password=***" in files and "bob:***@" in files, files
    assert not [secret for secret in SECRETS if secret in files], files
