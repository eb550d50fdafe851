"""Emulation commands: `device`, `devices`, `geo`, `timezone`, `locale`, `colorscheme`, `media`,
`reducedmotion`, `forcedcolors`, `contrast`, `permissions`.

Each changes the session's `emulation` or `permissions` settings (see
`services/emulation.py`): applied to every tab at once through DevTools
overrides, without a new browser context, and kept across a restart. `off`
takes one setting back.
"""

from __future__ import annotations

import difflib
from typing import Any

from refbrowse.daemon.command import Call, Reply, handler
from refbrowse.daemon.services.netconditions import origin_of
from refbrowse.errors import UsageError

RELOAD_HINT = "reload a page whose scripts read it once"


async def _emulate(call: Call, key: str, value: Any) -> int:
    """Set (or with None, take back) one emulated aspect; the number of tabs it went to."""
    settings = call.services.settings
    emulated = dict(settings.value(call.session.name, "emulation") or {})
    if value is None:
        emulated.pop(key, None)
    else:
        emulated[key] = value
    await settings.set(call.session, "emulation", emulated or None)
    return len(call.session.tabs)


def _devices(call: Call) -> dict[str, dict[str, Any]]:
    return call.services.host.devices


@handler("device")
async def device(call: Call) -> str:
    name = call.args[0].strip()
    if name.lower() == "off":
        await _emulate(call, "device", None)
        return "Device emulation off: desktop size, scale, user agent and no touch again"
    known = _devices(call)
    found = known.get(name) or next((d for n, d in known.items() if n.lower() == name.lower()), None)
    if found is None:
        close = difflib.get_close_matches(name, list(known), n=5, cutoff=0.4)
        hint = f"closest: {', '.join(close)}" if close else "list them with `browse devices`"
        raise UsageError(f"unknown device: {name}", hint)
    chosen = {"name": next(n for n, d in known.items() if d is found), **found}
    tabs = await _emulate(call, "device", chosen)
    size = chosen["viewport"]
    traits = [f"{size['width']}x{size['height']}", f"scale {chosen['device_scale_factor']:g}"]
    traits += ["mobile"] if chosen.get("is_mobile") else []
    traits += ["touch"] if chosen.get("has_touch") else []
    return (
        f"Device {chosen['name']} on {tabs} tab(s): {', '.join(traits)}; user agent {chosen['user_agent']}\n"
        f"(no new browser context: cookies, tabs and history kept; {RELOAD_HINT})"
    )


@handler("devices")
async def devices(call: Call) -> str:
    wanted = (call.arg(0) or "").lower()
    rows = []
    for name, found in sorted(_devices(call).items()):
        if wanted in name.lower():
            size = found["viewport"]
            touch = " touch" if found.get("has_touch") else ""
            mobile = " mobile" if found.get("is_mobile") else ""
            rows.append(
                f"{name}  {size['width']}x{size['height']} @{found['device_scale_factor']:g}x{mobile}{touch}"
            )
    if not rows:
        raise UsageError(f"no device name contains {wanted!r}", "run `browse devices` for the whole list")
    return Reply("\n".join(rows), {"devices": [row.split("  ")[0] for row in rows]})


@handler("geo")
async def geo(call: Call) -> str:
    if call.args[0] == "off":
        await _emulate(call, "geo", None)
        return "Position emulation off (and its geolocation permission taken back)"
    url = call.page.url
    origin = origin_of(url) if url.startswith(("http://", "https://")) else ""
    accuracy = call.flag("--accuracy")
    position = {"lat": call.args[0], "lon": call.args[1], "accuracy": 10 if accuracy is None else accuracy}
    await _emulate(call, "geo", {**position, "origin": origin})
    where = f"granted to {origin}" if origin else "granted to every site (no site open yet)"
    lat, lon, accuracy = position["lat"], position["lon"], position["accuracy"]
    return f"Position {lat:g}, {lon:g} (±{accuracy:g} m); geolocation {where}"


async def _simple(call: Call, key: str, what: str) -> str:
    value = call.args[0]
    tabs = await _emulate(call, key, None if value == "off" else value)
    if value == "off":
        return f"{what} back to the browser's own"
    return f"{what} {value} on {tabs} tab(s) of session {call.session.name}"


@handler("timezone")
async def timezone(call: Call) -> str:
    return await _simple(call, "timezone", "Time zone")


@handler("locale")
async def locale(call: Call) -> str:
    said = await _simple(call, "locale", "Locale")
    return (
        said
        if call.args[0] == "off"
        else f"{said} (navigator.language, Intl, Accept-Language; {RELOAD_HINT})"
    )


@handler("colorscheme")
async def colorscheme(call: Call) -> str:
    return await _simple(call, "colorscheme", "prefers-color-scheme")


@handler("media")
async def media(call: Call) -> str:
    return await _simple(call, "media", "CSS media type")


@handler("reducedmotion")
async def reducedmotion(call: Call) -> str:
    return await _simple(call, "reducedmotion", "prefers-reduced-motion")


@handler("forcedcolors")
async def forcedcolors(call: Call) -> str:
    return await _simple(call, "forcedcolors", "forced-colors")


@handler("contrast")
async def contrast(call: Call) -> str:
    return await _simple(call, "contrast", "prefers-contrast")


@handler("permissions")
async def permissions(call: Call) -> str:
    settings, names = call.services.settings, call.args[1:]
    if call.args[0] == "clear":
        await settings.set(call.session, "permissions", None)
        kept = " (geo keeps its own geolocation grant until `geo off`)" if _has_geo(call) else ""
        return f"Permissions taken back in session {call.session.name}{kept}"
    origin = origin_of(call.flag("--origin")) if call.flag("--origin") else ""
    grants = settings.value(call.session.name, "permissions") or []
    await settings.set(call.session, "permissions", [*grants, [list(names), origin]])
    where = f"on {origin}" if origin else "to every site"
    return f"Granted {', '.join(names)} {where} in session {call.session.name}"


def _has_geo(call: Call) -> bool:
    return bool((call.services.settings.value(call.session.name, "emulation") or {}).get("geo"))
