"""The daemon's services, one of each, built by `assemble` and reached by handlers as `call.services`.

No module keeps a service of its own: what lives as long as the daemon lives
here, and what belongs to one tab lives in its `TabMemory`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from refbrowse.daemon.core.browser.host import BrowserHost
from refbrowse.daemon.core.devtools.cdp import CdpKeeper
from refbrowse.daemon.page.popups import PopupCounters
from refbrowse.daemon.page.tabguard import TabGuard
from refbrowse.daemon.services.activity.site import ActivitySite
from refbrowse.daemon.services.clipboard import Clipboards
from refbrowse.daemon.services.confine import FileGrants
from refbrowse.daemon.services.consent.gate import ConsentGate
from refbrowse.daemon.services.downloads import WantedDownloads
from refbrowse.daemon.services.handoff import Handoffs
from refbrowse.daemon.services.harrecord import HarRecordings
from refbrowse.daemon.services.pagelogs import PageLogs
from refbrowse.daemon.services.pagetools import PageTools
from refbrowse.daemon.services.policy import Policy
from refbrowse.daemon.services.recording.sessions import Recordings
from refbrowse.daemon.services.remotehops import RemoteHops
from refbrowse.daemon.services.routes import Routes
from refbrowse.daemon.services.secrets import TypedSecrets
from refbrowse.daemon.services.sessionsettings import SessionSettings
from refbrowse.daemon.services.state.persister import Persister
from refbrowse.daemon.services.useragents import UserAgents


@dataclass(frozen=True, slots=True)
class Services:
    host: BrowserHost
    remote_hops: RemoteHops  # the host policy in a remote browser; refuses to browse when it cannot hold
    page_logs: PageLogs  # console, network and dialog logs of every tab
    persister: Persister  # each session's login state, saved as it changes
    cdp: CdpKeeper  # one kept DevTools session per page (user agent, device scale)
    agents: UserAgents  # each session's chosen user agent
    handoffs: Handoffs  # pages handed to a person, and failures that suggest one
    activity: ActivitySite  # the activity page: its feed of commands, live view and cookie picker
    policy: Policy  # which files commands may touch and which URLs tabs may load
    tab_guard: TabGuard  # stuck tabs replaced, popup and dialog storms broken
    recordings: Recordings  # each session's traces, profiles, videos and recorded tests
    settings: SessionSettings  # routes, headers, emulation...: set per session, kept across restarts
    routes: Routes  # the settings family of `route`, with its hit counts
    hars: HarRecordings  # HAR recordings in progress
    secrets: TypedSecrets  # text typed as a secret: recordings leave it out
    consent: ConsentGate  # consequential actions held for a person's answer
    page_tools: PageTools  # each tab's WebMCP tools, and calls to them left running
    clipboards: Clipboards  # each session's clipboard, and Chromium's one clipboard while a command uses it
    file_grants: FileGrants = field(default_factory=FileGrants)  # file:// pages allowed
    wanted_downloads: WantedDownloads = field(default_factory=WantedDownloads)
    popups: PopupCounters = field(default_factory=PopupCounters)  # new pages as soon as Chromium makes them
