"""The one place the daemon is assembled: its services, and the events that tie them to the browser.

`assemble` builds every service a command may use beyond its page and hands
them to handlers as `call.services`; `wiring` says, as ordered tuples, which
service hears which event. Nothing else appends to another object's list, so
the order below is the order things happen in.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from refbrowse.daemon.core.browser.host import BrowserHost
from refbrowse.daemon.core.devtools.cdp import CdpKeeper
from refbrowse.daemon.core.io.notices import Notices
from refbrowse.daemon.core.io.request import CheckedRequest
from refbrowse.daemon.core.sessions.events import HostEvents
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.pageprobe import DocumentStartCounting
from refbrowse.daemon.page.snapshot import prepared
from refbrowse.daemon.page.snapshot.reach import ListenerRecording
from refbrowse.daemon.page.tabguard import TabGuard
from refbrowse.daemon.services import netsetup
from refbrowse.daemon.services.activity.site import ActivitySite
from refbrowse.daemon.services.bag import Services
from refbrowse.daemon.services.browser_choice import ChosenBrowser
from refbrowse.daemon.services.clipboard import Clipboards
from refbrowse.daemon.services.confine import Confinement
from refbrowse.daemon.services.consent.gate import ConsentGate
from refbrowse.daemon.services.daemon_link import DaemonLink
from refbrowse.daemon.services.extension import ExtensionLink
from refbrowse.daemon.services.handoff import HandoffHint, Handoffs
from refbrowse.daemon.services.initscripts import InitScripts
from refbrowse.daemon.services.pagelogs import PageLogs
from refbrowse.daemon.services.pagetools import PageTools
from refbrowse.daemon.services.policy import Policy
from refbrowse.daemon.services.recording.sessions import Recordings
from refbrowse.daemon.services.remotehops import RemoteHops
from refbrowse.daemon.services.secrets import TypedSecrets
from refbrowse.daemon.services.sessionsettings import SessionSettings
from refbrowse.daemon.services.state.persister import Persister
from refbrowse.daemon.services.useragents import UserAgents
from refbrowse.specs import Result


class StatusSource(Protocol):
    def status_line(self) -> str:
        """A line for `status`, or "" to leave it out."""
        ...


class ShutdownStep(Protocol):
    def on_shutdown(self) -> Awaitable[None]: ...


# Before a command runs on a tab, with its name: what the tab keeps for commands is told (the
# prepared reading drops itself unless the registry says the command is a pure read).
CommandStarter = Callable[[Tab, str], None]


class CommandWatcher(Protocol):
    def after_command(self, command: str, session: Session | None) -> None:
        """After every command, whatever its result."""
        ...


class ResultWatcher(Protocol):
    def on_result(self, command: str, session: str, result: Result) -> None:
        """Before the result is sent; may add to its hint."""
        ...


class Recorder(Protocol):
    async def record(self, request: CheckedRequest, result: Result, started: float, parent: str) -> None:
        """After each command: its request, result, start time, and the nested command running it or ""."""
        ...


class AssembledDaemon(DaemonLink, Protocol):
    def on_browser_switched(self) -> None:
        """daemon.json names the browser's mode: it is written again after a switch."""
        ...


@dataclass(frozen=True, slots=True)
class Wiring:
    """Which service hears which of the daemon's events, in order."""

    status: tuple[StatusSource, ...]
    shutdown: tuple[ShutdownStep, ...]
    before_command: tuple[CommandStarter, ...]
    after_command: tuple[CommandWatcher, ...]
    results: tuple[ResultWatcher, ...]
    recorders: tuple[Recorder, ...]


@dataclass(frozen=True, slots=True)
class Assembly:
    services: Services
    wiring: Wiring
    notices: Notices


def _init_scripts(settings: SessionSettings) -> InitScripts:
    """The init-scripts family: it also puts BROWSE_INIT_SCRIPTS on sessions no setting reached."""
    family = settings.families[InitScripts.key]
    assert isinstance(family, InitScripts)
    return family


def assemble(daemon: AssembledDaemon, host: BrowserHost) -> Assembly:
    """Build the daemon's services, hand the host its events, and say who hears the daemon's."""
    notices = Notices()
    services = _services(daemon, host, notices)
    extension = ExtensionLink(host, services.activity)
    host.wire(_host_events(daemon, host, services, extension, notices))
    return Assembly(services, _wiring(host, services, extension), notices)


def _services(daemon: AssembledDaemon, host: BrowserHost, notices: Notices) -> Services:
    """Every service a command may use beyond its page: `call.services`."""
    cdp = CdpKeeper()
    handoffs = Handoffs()
    policy = Policy.from_env(daemon.state_dir)
    persist = os.environ.get("BROWSE_PERSIST", "1") != "0"
    persister = Persister(daemon.state_dir, host, notices, enabled=persist)
    consent = ConsentGate(notices)
    activity = ActivitySite(daemon, handoffs, consent)
    agents = UserAgents(cdp)
    settings, routes, hars = netsetup.build(daemon.state_dir, notices, cdp, agents.chosen.get)
    services = Services(
        host=host,
        remote_hops=RemoteHops(policy, lambda: host.target, notices),
        page_logs=PageLogs(daemon.state_dir),
        persister=persister,
        cdp=cdp,
        agents=agents,
        handoffs=handoffs,
        activity=activity,
        policy=policy,
        tab_guard=TabGuard(host),
        recordings=Recordings(host),
        settings=settings,
        routes=routes,
        hars=hars,
        secrets=TypedSecrets(host.sessions.get),
        consent=consent,
        page_tools=PageTools(cdp, lambda: host.target.remote),
        clipboards=Clipboards(settings, cdp),
    )
    services.page_tools.gate = consent  # a tool its page marks consequential asks the consent gate
    return services


def _restoring(services: Services) -> tuple[Persister, ...]:
    """The login-state persister where it is on: it opens contexts with the saved state and saves it."""
    return (services.persister,) if services.persister.enabled else ()


def _host_events(
    daemon: AssembledDaemon, host: BrowserHost, services: Services, extension: ExtensionLink, notices: Notices
) -> HostEvents:
    """Who hears the browser's events (a session starts, a tab opens, the browser switches), in order."""
    confinement = Confinement(services.policy, services.file_grants)
    hops = services.remote_hops
    restoring = _restoring(services)
    settings = services.settings
    return HostEvents(
        context_options=restoring,
        # The host gate is in place before the session's first request; the session's own
        # settings (routes, headers, emulation) before its first page loads.
        session_starters=(
            confinement,
            hops,
            extension,
            DocumentStartCounting(),
            ListenerRecording(),
            settings,
            _init_scripts(settings),
            services.hars,
            services.clipboards,
        ),
        # The tab guard first: a tab it closes in a popup storm gets no listeners.
        tab_watchers=(
            services.tab_guard,
            confinement,
            services.wanted_downloads,
            services.page_logs,
            services.agents,
            settings,
            services.page_tools,
        ),
        state_refused=restoring,
        tab_carriers=(services.file_grants,),
        switch_followers=(daemon, extension),
        saved_states=restoring,
    )


def _wiring(host: BrowserHost, services: Services, extension: ExtensionLink) -> Wiring:
    """Who hears the daemon's own events: status, shutdown, each command and its result."""
    return Wiring(
        status=(
            services.remote_hops,
            services.handoffs,
            extension,
            services.page_logs,
            services.persister,
            services.recordings,
            services.settings,
            _init_scripts(services.settings),
            services.hars,
            services.page_tools,
            services.consent,
        ),
        # The activity page closes before the logs' last flush and the last state save.
        # What was recorded but not stopped is dropped before the browser closes.
        shutdown=(services.activity, services.recordings, services.page_logs, *_restoring(services)),
        before_command=(prepared.command_started,),
        after_command=(ChosenBrowser(host.state_dir), services.persister),
        results=(HandoffHint(host, services.handoffs),),
        recorders=(services.secrets, services.activity, services.recordings),
    )
