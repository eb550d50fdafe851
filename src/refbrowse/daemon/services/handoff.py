"""What a handoff to a person remembers, and when to suggest one.

`Handoffs` is one per daemon: the browser to go back to on `resume` (headless,
or the remote one), the reason given, and each session's run of failed commands
on one page. After `STREAK` failures in a row on the same page, the failing
command's hint suggests `browse handoff`; a success, or a command on another
page, starts the count again. Failures with no page to resist (Chromium's error
page after a failed load, a blank tab) never count: a person could not help.
Usage errors and an unavailable browser neither count nor reset: they are not
the page resisting the agent.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from refbrowse.daemon.core.browser.host import BrowserHost
from refbrowse.daemon.core.browser.target import BrowserTarget
from refbrowse.daemon.core.sessions.refs import CURRENT_REFS
from refbrowse.errors import BrowseError, Unavailable
from refbrowse.exitcodes import ExitCode
from refbrowse.registry import COMMANDS
from refbrowse.specs import Result

STREAK = 3
NO_PAGE = ("chrome-error:", "about:blank")  # what a tab shows when nothing loaded in it
PERSON_FREE = ("resume", "handoff")  # what the agent may still run while a person has control
PERSON_HINT = "run `browse resume` when they are done"
HANDOFF_HINT = (
    "{count} commands in a row failed on this page: if a person must do this step "
    '(captcha, MFA, an odd login), run `browse handoff "what they should do"`, then `browse resume`'
)


@dataclass
class Handoffs:
    before: BrowserTarget | None = None  # the browser to return to on `resume`
    reason: str = ""
    since: float = 0.0
    by_page: bool = False  # a person took over on the activity page: the agent's commands wait for them
    given_back: float = 0.0  # when a person unticked "Take over", until the agent's `resume` hears it
    _streaks: dict[str, tuple[str, int]] = field(default_factory=dict)  # session -> (url, failures)

    @property
    def active(self) -> bool:
        return self.before is not None

    def begin(self, before: BrowserTarget, reason: str, by_page: bool = False) -> None:
        if self.before is None:  # a second handoff keeps the first one's way back
            self.before = before
            self.since = time.time()
        self.reason = reason
        self.by_page = by_page
        self.given_back = 0.0

    def end(self, given_back: bool = False) -> BrowserTarget | None:
        """The handoff is over; `given_back`: the person ended it on the activity page, and the
        agent's `resume` still takes the page back rather than finding no handoff."""
        if given_back and self.before is not None:
            self.given_back = time.time()
        before, self.before, self.reason, self.by_page = self.before, None, "", False
        return before

    def take_given_back(self) -> float:
        """When a person gave control back on the page since the last `resume` (0: they did not)."""
        when, self.given_back = self.given_back, 0.0
        return when

    def refusal(self, command: str) -> BrowseError | None:
        """The error for an agent's command while a person has control on the activity page."""
        if not self.by_page or command in PERSON_FREE or COMMANDS[command]["cat"] == "meta":
            return None
        return Unavailable(f"a person has control ({self.reason})", PERSON_HINT)

    def note(self, session: str, url: str, result: Result) -> int:
        """Count `result` in the session's streak on `url`; the streak's length after it."""
        code = int(result["exit_code"])
        if code == ExitCode.OK:
            self._streaks.pop(session, None)
            return 0
        if code not in (ExitCode.PAGE_ERROR, ExitCode.TIMEOUT) or CURRENT_REFS in result["hint"]:
            return 0
        last_url, count = self._streaks.get(session, (url, 0))
        count = count + 1 if last_url == url else 1
        self._streaks[session] = (url, count)
        return count

    def forget(self, session: str) -> None:
        self._streaks.pop(session, None)

    def status_line(self) -> str:
        if not self.active:
            return ""
        since = time.strftime("%H:%M:%S", time.localtime(self.since))
        return f"handoff: a person has the browser since {since} ({self.reason}); run `browse resume`"


class HandoffHint:
    """Counts each session's failures on one page and adds the handoff suggestion to the third's hint."""

    def __init__(self, host: BrowserHost, handoffs: Handoffs) -> None:
        self.host = host
        self.handoffs = handoffs

    def on_result(self, command: str, session: str, result: Result) -> None:
        spec = COMMANDS.get(command)
        if spec is None or spec["cat"] == "meta" or spec.get("nested") or spec.get("uncounted"):
            return
        found = self.host.sessions.get(session)
        if found is None or found.current is None:
            return
        url = found.current.page.url
        if url.startswith(NO_PAGE):  # loads that failed: no page resists, a person could not help there
            self.handoffs.forget(session)
            return
        count = self.handoffs.note(session, url, result)
        if self.host.mode != "headed":
            suggest(result, count)


def suggest(result: Result, count: int) -> None:
    """Add the handoff suggestion to a failed result's hint."""
    if count >= STREAK:
        extra = HANDOFF_HINT.format(count=count)
        result["hint"] = f"{result['hint']}; {extra}" if result["hint"] else extra
