"""Builds the per-session settings service with its families; `assemble` wires it to the browser.

The one place that knows which families exist: a new family is built and added here.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from refbrowse.daemon.core.devtools.cdp import CdpKeeper
from refbrowse.daemon.core.io.notices import Notices
from refbrowse.daemon.services.emulation import Emulation, Permissions
from refbrowse.daemon.services.harrecord import HarRecordings
from refbrowse.daemon.services.initscripts import InitScripts, from_env
from refbrowse.daemon.services.netconditions import Headers, Offline, Throttle
from refbrowse.daemon.services.policy import Policy
from refbrowse.daemon.services.routes import Routes
from refbrowse.daemon.services.sessionsettings import SessionSettings


def build(
    state_dir: str, notices: Notices, cdp: CdpKeeper, chosen_agent: Callable[[str], str | None]
) -> tuple[SessionSettings, Routes, HarRecordings]:
    """The settings service with every family, its routes family (for `routes`), and HAR recordings."""
    persist = os.environ.get("BROWSE_PERSIST", "1") != "0"
    settings = SessionSettings(state_dir, notices, persist)
    policy = Policy.from_env(state_dir)
    routes = Routes(policy.url_refused)
    throttle = Throttle(cdp, settings)
    for family in (
        routes,
        Headers(cdp),
        Offline(throttle),
        throttle,
        Emulation(cdp, settings, chosen_agent),
        Permissions(settings),
        InitScripts(from_env(policy, notices)),
    ):
        settings.add(family)
    return settings, routes, HarRecordings(notices, os.path.join(state_dir, "recordings"))
