"""`useragent UA`: change the user agent in place, through CDP overrides.

Recreating the browser context would drop tabs, session storage and history,
so the override is applied to each open tab (`Network.setUserAgentOverride`,
which also changes `navigator.userAgent`) and sent as a header by the context
for requests of tabs not yet overridden. New tabs get it from a tab hook.
The CDP sessions are kept: an override lasts only as long as its session.
"""

from __future__ import annotations

import logging

from refbrowse.daemon.command import Call, handler

log = logging.getLogger("refbrowse")


@handler("useragent")
async def useragent(call: Call) -> str:
    agent = call.args[0].strip()  # never empty: its kind
    await call.services.agents.apply(call.session, agent)
    return f"User agent set for {len(call.session.tabs)} tab(s) of session {call.session.name}: {agent}"
