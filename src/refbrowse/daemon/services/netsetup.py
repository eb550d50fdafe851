"""Builds the per-session settings service with its families, and installs its hooks on the daemon.

The one place that knows which families exist: a new family is built and added here.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from refbrowse.daemon.cdp import CdpKeeper
from refbrowse.daemon.services.emulation import Emulation, Permissions
from refbrowse.daemon.services.harrecord import HarRecordings
from refbrowse.daemon.services.netconditions import Headers, Offline, Throttle
from refbrowse.daemon.services.routes import Routes
from refbrowse.daemon.services.sessionsettings import SessionSettings

if TYPE_CHECKING:
    from refbrowse.daemon.handlers import DaemonView


def build(daemon: DaemonView, cdp: CdpKeeper, chosen_agent: Callable[[str], str | None]) -> dict[str, Any]:
    """The services `Services` holds for settings: the settings, its routes family, HAR recordings."""
    persist = os.environ.get("BROWSE_PERSIST", "1") != "0"
    settings = SessionSettings(daemon.state_dir, persist)
    routes = Routes()
    throttle = Throttle(cdp, settings)
    for family in (
        routes,
        Headers(),
        Offline(throttle),
        throttle,
        Emulation(cdp, settings, chosen_agent),
        Permissions(settings),
    ):
        settings.add(family)
    return {"settings": settings, "routes": routes, "hars": HarRecordings()}


def install(daemon: DaemonView, settings: SessionSettings, hars: HarRecordings) -> None:
    """Settings go on each session's context when it opens (or is replaced) and on each new tab."""
    daemon.host.session_hooks.append(settings.on_session)
    daemon.host.session_hooks.append(hars.on_session)
    daemon.host.tab_hooks.append(settings.on_new_tab)
    daemon.status_lines.append(settings.status_line)
    daemon.status_lines.append(hars.status_line)
    daemon.notices.extend(settings.notices)
    settings.notices = hars.notices = daemon.notices
