"""Web vitals for `vitals`: measured in the page the way the `web-vitals` library measures them.

`scripts/vitals.js` reads the entries Chromium buffered since the load
(PerformanceObserver with `buffered: true`), so nothing needs to be installed
before the page loads; the LCP element is given a ref from a whole-page
snapshot (`page/elementrefs.py`). Each value is rated by the published
thresholds (web.dev): good up to the first, poor past the second.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.core.sessions.tab import Tab
from refbrowse.daemon.page.elementrefs import NO_REF, ElementRef, by_box, ref_of
from refbrowse.daemon.page.snapshot.service import take_snapshot

_VITALS_JS = script("vitals")
# name -> (good up to, poor past, unit)
THRESHOLDS: dict[str, tuple[float, float, str]] = {
    "LCP": (2500, 4000, "ms"),
    "CLS": (0.1, 0.25, ""),
    "INP": (200, 500, "ms"),
    "FCP": (1800, 3000, "ms"),
    "TTFB": (800, 1800, "ms"),
}


def rating(name: str, value: float) -> str:
    good, poor, _ = THRESHOLDS[name]
    return "good" if value <= good else "poor" if value > poor else "needs improvement"


@dataclass(frozen=True, slots=True)
class Vitals:
    values: dict[str, float | None]
    lcp_element: ElementRef
    lcp_tag: str
    interactions: int


async def measure(tab: Tab, snapshot_ms: float) -> Vitals:
    handle = await tab.page.evaluate_handle(_VITALS_JS)
    try:
        raw: dict[str, Any] = await handle.evaluate(
            "r => ({...r, lcpElement: undefined, tag: r.lcpElement ? r.lcpElement.localName : ''})"
        )
        element = (await handle.get_property("lcpElement")).as_element()
        ref = NO_REF
        if element is not None:
            ref = await ref_of(tab, by_box(await take_snapshot(tab, timeout_ms=snapshot_ms)), element)
    finally:
        await handle.dispose()
    values = {name: raw[name.lower()] for name in THRESHOLDS}
    return Vitals(values, ref, raw["tag"], int(raw["interactions"]))


def lines(vitals: Vitals) -> list[str]:
    out = []
    for name, (_, _, unit) in THRESHOLDS.items():
        value = vitals.values[name]
        out.append(f"{name} {_value(name, value, unit, vitals)}")
    return out


def _value(name: str, value: float | None, unit: str, vitals: Vitals) -> str:
    if value is None:
        return _missing(name, vitals)
    shown = f"{value:.3f}" if not unit else f"{round(value)} {unit}"
    said = f"{shown} {rating(name, value)}"
    if name == "LCP":
        who = vitals.lcp_element.describe() or (f"a {vitals.lcp_tag} with no ref" if vitals.lcp_tag else "")
        said += f" ({who})" if who else ""
    if name == "INP":
        said += f" (the slowest of {vitals.interactions} interactions since the load)"
    return said


def _missing(name: str, vitals: Vitals) -> str:
    if name == "INP":
        if vitals.interactions:
            return f"under 104 ms good ({vitals.interactions} interactions since the load, none slower)"
        return "not measured: no interaction since the load (click, type or press, then ask again)"
    return "not measured on this page"
