"""Emulation and permissions: what pages see of the device, the place, the time and the user.

Everything is put on each page through Chromium's DevTools protocol (the page's
kept session, see `cdp`), so no new browser context is needed and tabs, history
and storage stay as they are: device metrics and touch
(`Emulation.setDeviceMetricsOverride`, `setTouchEmulationEnabled`), user agent
and Accept-Language (`Network.setUserAgentOverride`), time zone and locale
(`Emulation.setTimezoneOverride`, `setLocaleOverride`), colour scheme, media
type and reduced motion (`Emulation.setEmulatedMedia`). Position and
permissions are the context's own (`set_geolocation`, `grant_permissions`).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from playwright.async_api import CDPSession, Geolocation, Page, ViewportSize

from refbrowse.daemon.core.devtools.cdp import CdpKeeper
from refbrowse.daemon.core.sessions.session import Session
from refbrowse.daemon.services.sessionsettings import Family, SessionSettings, Value
from refbrowse.registry import COMMANDS

Emulated = dict[str, Any]  # {device: descriptor, timezone, locale, colorscheme, media, reducedmotion, geo}
# Emulation command -> the CSS media feature it sets (the registry's `media_feature`).
_FEATURES = {name: spec["media_feature"] for name, spec in COMMANDS.items() if "media_feature" in spec}
_MEDIA_KEYS = ("media", *_FEATURES)
DEFAULT_VIEWPORT: ViewportSize = {
    "width": 1280,
    "height": 720,
}  # Playwright's, for a context opened without one


async def override_metrics(
    cdp: CDPSession, width: int, height: int, scale: float, *, mobile: bool = False, anew: bool = False
) -> None:
    """The one writer of Chromium's device-metrics override: a device's metrics, `viewport --scale`,
    and the scale set again after a screenshot reset it (`anew`: the same override sent again
    is a no-op, so it is cleared first)."""
    if anew:
        await cdp.send("Emulation.clearDeviceMetricsOverride")
    metrics = {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile}
    await cdp.send("Emulation.setDeviceMetricsOverride", metrics)


class Emulation(Family):
    key = "emulation"

    def __init__(
        self, cdp: CdpKeeper, settings: SessionSettings, chosen_agent: Callable[[str], str | None]
    ) -> None:
        self._cdp = cdp
        self._settings = settings
        self._chosen_agent = chosen_agent
        self._browser_agent: dict[str, str] = {}  # per session: the user agent before any override
        self._applied: weakref.WeakKeyDictionary[Page, set[str]] = weakref.WeakKeyDictionary()
        self._desktop: weakref.WeakKeyDictionary[Page, ViewportSize] = weakref.WeakKeyDictionary()

    async def on_context(self, session: Session, value: Value) -> None:
        geo = (value or {}).get("geo")
        position: Geolocation | None = (
            {"latitude": geo["lat"], "longitude": geo["lon"], "accuracy": geo["accuracy"]} if geo else None
        )
        await session.context.set_geolocation(position)
        await apply_grants(session, self._settings)

    async def on_page(self, session: Session, page: Page, value: Value) -> None:
        """Each aspect that is set, or was set on this page before (then it goes back to the default)."""
        if page.is_closed():
            return
        wanted: Emulated = value or {}
        now = _aspects(wanted)
        touched = now | self._applied.get(page, set())
        cdp = await self._cdp.session(page)
        if "timezone" in touched:
            await cdp.send("Emulation.setTimezoneOverride", {"timezoneId": wanted.get("timezone", "")})
        if "agent" in touched:
            locale = wanted.get("locale")
            await cdp.send("Emulation.setLocaleOverride", {"locale": locale} if locale else {})
            agent = await self._agent(session, page, wanted)
            await cdp.send("Network.setUserAgentOverride", {"userAgent": agent, **_accept_language(locale)})
        if "device" in touched:
            await self._device(cdp, page, wanted.get("device"))
        if "media" in touched:
            await cdp.send("Emulation.setEmulatedMedia", _media(wanted))
        self._applied[page] = now

    async def _device(self, cdp: CDPSession, page: Page, device: dict[str, Any] | None) -> None:
        """The device's metrics and touch, or back to the desktop size the tab had before one."""
        if device and page not in self._desktop:
            self._desktop[page] = page.viewport_size or DEFAULT_VIEWPORT
        size = device["viewport"] if device else self._desktop.pop(page, None) or page.viewport_size
        await page.set_viewport_size(size or DEFAULT_VIEWPORT)
        shown = size or DEFAULT_VIEWPORT
        scale = device["device_scale_factor"] if device else 1
        mobile = bool(device and device.get("is_mobile"))
        await override_metrics(cdp, shown["width"], shown["height"], scale, mobile=mobile)
        touch = bool(device and device.get("has_touch"))
        await cdp.send(
            "Emulation.setTouchEmulationEnabled",
            {"enabled": True, "maxTouchPoints": 5} if touch else {"enabled": False},
        )

    async def _agent(self, session: Session, page: Page, wanted: Emulated) -> str:
        if session.name not in self._browser_agent:
            self._browser_agent[session.name] = str(await page.evaluate("navigator.userAgent"))
        device = wanted.get("device")
        if device:
            return str(device["user_agent"])
        return self._chosen_agent(session.name) or self._browser_agent[session.name]

    def describe(self, value: Value) -> str:
        parts = []
        for key, shown in value.items():
            if key == "device":
                parts.append(f"device {shown['name']} ({_metrics(shown)})")
            elif key == "geo":
                parts.append(f"geo {shown['lat']:g},{shown['lon']:g} ±{shown['accuracy']:g} m")
            else:
                parts.append(f"{key} {shown}")
        return ", ".join(parts)


def _aspects(wanted: Emulated) -> set[str]:
    """What a page must be told for `wanted`: the user agent carries the locale's languages too."""
    aspects = {"timezone"} if "timezone" in wanted else set()
    if "device" in wanted or "locale" in wanted:
        aspects.add("agent")
    if "device" in wanted:
        aspects.add("device")
    if any(key in wanted for key in _MEDIA_KEYS):
        aspects.add("media")
    return aspects


def _media(wanted: Emulated) -> dict[str, Any]:
    """On the kept DevTools session, not Playwright's `emulate_media`: Chromium keeps the media of the
    session attached last across a reload, so two sessions setting it would undo each other."""
    # Every feature, "" for those not set: Chromium kept forced-colors active after a call
    # that left it out of the list.
    features = [{"name": name, "value": wanted.get(key, "")} for key, name in _FEATURES.items()]
    return {"media": wanted.get("media", ""), "features": features}


def _accept_language(locale: str | None) -> dict[str, str]:
    if not locale:
        return {}
    return {"acceptLanguage": locale}


def _metrics(device: dict[str, Any]) -> str:
    size = device["viewport"]
    touch = ", touch" if device.get("has_touch") else ""
    mobile = ", mobile" if device.get("is_mobile") else ""
    return f"{size['width']}x{size['height']} at {device['device_scale_factor']:g}x{mobile}{touch}"


class Permissions(Family):
    """Grants as `[[names…], origin or ""], …`, newest last."""

    key = "permissions"

    def __init__(self, settings: SessionSettings) -> None:
        self._settings = settings

    async def on_context(self, session: Session, value: Value) -> None:
        await apply_grants(session, self._settings)

    def describe(self, value: Value) -> str:
        return "; ".join(
            ", ".join(names) + (f" on {origin}" if origin else " everywhere") for names, origin in value
        )


async def apply_grants(session: Session, settings: SessionSettings) -> None:
    """The context's grants, from scratch: `permissions grant`s, and geolocation where `geo` set it."""
    await session.context.clear_permissions()
    for names, origin in settings.value(session.name, "permissions") or []:
        await session.context.grant_permissions(names, origin=origin or None)
    geo = (settings.value(session.name, "emulation") or {}).get("geo")
    if geo:
        await session.context.grant_permissions(["geolocation"], origin=geo.get("origin") or None)
