"""`vitals [URL]`: LCP, CLS, INP, FCP and TTFB of the page (see `services/vitals.py`)."""

from __future__ import annotations

from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.command import Call, Reply, handler
from refbrowse.daemon.core.browser.pwerrors import translate
from refbrowse.daemon.services.vitals import lines, measure, rating


@handler("vitals")
async def vitals(call: Call) -> Reply:
    url = call.arg(0)
    if url is not None:
        call.services.policy.check_url(url)
        await call.services.settings.ready(call.page)
        try:
            await call.page.goto(url, wait_until="load", timeout=call.nav_timeout_ms)
        except PlaywrightError as exc:
            raise translate(exc, f"loading {url}") from exc
    found = await measure(call.tab, call.nav_timeout_ms)
    head = f"Web vitals of {call.page.url} (thresholds of web.dev; measured as the web-vitals library does):"
    data = {
        name.lower(): {"value": value, "rating": rating(name, value) if value is not None else None}
        for name, value in found.values.items()
    }
    data["lcp"]["ref"] = found.lcp_element.ref
    return Reply("\n".join([head, *lines(found)]), data)
