"""The one place the daemon is assembled: its services, built once and handed to handlers.

`assemble` builds every service a command may use beyond its page (the
browser host, log capture, the login-state persister, the kept DevTools
sessions, user-agent overrides, handoffs, the activity page, the path and URL
policy and the per-tab memories) and installs their hooks on the
daemon and its browser host. Handlers reach them as `call.services`; no
module keeps a service of its own.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

from playwright.async_api import Page

from refbrowse.daemon import extension, pageprobe
from refbrowse.daemon.activity.site import ActivitySite
from refbrowse.daemon.cdp import CdpKeeper
from refbrowse.daemon.handlers import DaemonView, confine, download, headed, logs, state, useragent
from refbrowse.daemon.handoff import Handoffs
from refbrowse.daemon.policy import Policy
from refbrowse.daemon.services import netsetup
from refbrowse.daemon.services.harrecord import HarRecordings
from refbrowse.daemon.services.routes import Routes
from refbrowse.daemon.services.sessionsettings import SessionSettings
from refbrowse.daemon.session import BrowserHost
from refbrowse.daemon.snapshot.service import SnapshotHistories
from refbrowse.daemon.state.persister import Persister


@dataclass(frozen=True, slots=True)
class Services:
    host: BrowserHost
    capture: logs.Capture  # console, network and dialog logs of every tab
    persister: Persister  # each session's login state, saved as it changes
    cdp: CdpKeeper  # one kept DevTools session per page (user agent, device scale)
    agents: useragent.UserAgents  # each session's chosen user agent
    handoffs: Handoffs  # pages handed to a person, and failures that suggest one
    activity: ActivitySite  # the activity page: its feed of commands, live view and cookie picker
    policy: Policy  # which files commands may touch and which URLs tabs may load
    settings: SessionSettings  # routes, headers, emulation...: set per session, kept across restarts
    routes: Routes  # the settings family of `route`, with its hit counts
    hars: HarRecordings  # HAR recordings in progress
    file_grants: confine.FileGrants = field(default_factory=confine.FileGrants)  # file:// pages allowed
    wanted_downloads: download.WantedDownloads = field(default_factory=weakref.WeakSet[Page])
    snapshot_history: SnapshotHistories = field(default_factory=SnapshotHistories)  # for `snapshot -D`


def assemble(daemon: DaemonView) -> Services:
    """Build the daemon's services and install their hooks, in the order they must run."""
    cdp = CdpKeeper()
    handoffs = Handoffs()
    agents = useragent.UserAgents(cdp)
    services = Services(
        host=daemon.host,
        capture=logs.Capture(daemon.state_dir),
        persister=state.make_persister(daemon),
        cdp=cdp,
        agents=agents,
        handoffs=handoffs,
        activity=ActivitySite(daemon, handoffs),
        policy=Policy.from_env(daemon.state_dir),
        **netsetup.build(daemon, cdp, agents.chosen.get),
    )
    daemon.record_hooks.append(services.activity.record)
    daemon.on_shutdown.append(services.activity.close)
    confine.install(daemon, services.policy, services.file_grants)
    download.install(daemon, services.wanted_downloads)
    headed.install(daemon, services.handoffs)
    extension.install(daemon, services.activity)
    logs.install(daemon, services.capture)
    state.install(daemon, services.persister)
    useragent.install(daemon, services.agents)
    daemon.host.session_hooks.append(pageprobe.count_from_document_start)
    netsetup.install(daemon, services.settings, services.hars)
    return services
