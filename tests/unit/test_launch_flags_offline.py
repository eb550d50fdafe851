"""The flags Chromium is launched with: our `--disable-features` keeps Playwright's own list.

Chromium reads only the last `--disable-features` switch and Playwright puts ours after its
own, so a list of ours that left out one of Playwright's would turn that feature back on.
"""

from __future__ import annotations

import os
import re

import playwright
import pytest

from refbrowse.daemon.core.browser.chromium import (
    HEADLESS_DISABLED_FEATURES,
    PLAYWRIGHT_DISABLED_FEATURES,
    PLAYWRIGHT_ENABLED_FEATURES,
    launch_flags,
)

BUNDLE = os.path.join(os.path.dirname(playwright.__file__), "driver", "package", "lib", "coreBundle.js")


def _playwright_list() -> list[str]:
    """The names in the installed driver's `disabledFeatures = [...]` (comments left out)."""
    with open(BUNDLE, encoding="utf-8") as bundle:
        source = bundle.read()
    found = re.search(r"disabledFeatures = \[(.*?)\]\.filter\(Boolean\)", source, re.DOTALL)
    assert found, "Playwright's disabled features list was not found in its driver"
    lines = [line.split("//")[0] for line in found.group(1).splitlines()]
    return re.findall(r'"([^"]+)"', "\n".join(lines))


def test_our_copy_of_playwrights_disabled_features_matches_the_installed_driver() -> None:
    assert list(PLAYWRIGHT_DISABLED_FEATURES) == _playwright_list()


def test_a_headless_browsers_one_disable_features_switch_names_playwrights_features_and_ours() -> None:
    switches = [flag for flag in launch_flags() if flag.startswith("--disable-features=")]
    assert len(switches) == 1
    named = switches[0].removeprefix("--disable-features=").split(",")
    assert set(_playwright_list()) <= set(named)
    assert (
        {"WebUIOmniboxPopup", "WebUIOmniboxAimPopup"}
        <= set(named)
        == set(PLAYWRIGHT_DISABLED_FEATURES + HEADLESS_DISABLED_FEATURES)
    )


def test_a_headed_browser_keeps_playwrights_own_switch() -> None:
    assert not [flag for flag in launch_flags(headed=True) if flag.startswith("--disable-features=")]


def _playwright_enabled() -> list[str]:
    """The names in the installed driver's `enabledFeatures = () => [...]` (comments left out)."""
    with open(BUNDLE, encoding="utf-8") as bundle:
        source = bundle.read()
    found = re.search(r"enabledFeatures = \(\) => \[(.*?)\]\.filter\(Boolean\)", source, re.DOTALL)
    assert found, "Playwright's enabled features list was not found in its driver"
    lines = [line.split("//")[0] for line in found.group(1).splitlines()]
    return re.findall(r'"(\w+)"', "\n".join(lines))


def test_our_copy_of_playwrights_enabled_features_matches_the_installed_driver() -> None:
    assert list(PLAYWRIGHT_ENABLED_FEATURES) == _playwright_enabled()


def test_the_browser_gets_webmcp_beside_playwrights_features_unless_turned_off(monkeypatch) -> None:
    for headed in (False, True):
        switches = [flag for flag in launch_flags(headed) if flag.startswith("--enable-features=")]
        assert len(switches) == 1
        assert set(switches[0].removeprefix("--enable-features=").split(",")) == {
            *_playwright_enabled(),
            "WebMCP",
        }
    monkeypatch.setenv("BROWSE_WEBMCP", "0")
    assert not [flag for flag in launch_flags() if flag.startswith("--enable-features=")]


def test_a_host_policy_holds_webrtc_to_tcp_through_the_resolver(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BROWSE_ALLOWED_HOSTS", "127.0.0.1")
    held = launch_flags()
    assert "--webrtc-ip-handling-policy=disable_non_proxied_udp" in held  # 156 ignores --force-…
    assert any(flag.startswith("--host-resolver-rules=MAP * ~NOTFOUND") for flag in held)
    monkeypatch.delenv("BROWSE_ALLOWED_HOSTS")
    assert not any("webrtc" in flag for flag in launch_flags())
