"""Login state: `state save/load/list/delete/clear`.

The `Persister` (see `services.state`) restores each session's saved state
when its context is created, saves after commands and at shutdown, and
reports in `status`; `BROWSE_PERSIST=0` leaves all of that out. Named states
are whole storage states (cookies, local storage, IndexedDB) under
`.refbrowse/states/`, shared by every session of the workspace.
"""

from __future__ import annotations

import asyncio
import os
import time

from refbrowse.daemon.command import Call, handler
from refbrowse.daemon.services.state.files import (
    StateFileError,
    check_state,
    named_file,
    named_states,
    read_state,
    remove,
    write_state,
)
from refbrowse.daemon.services.state.persister import Persister
from refbrowse.errors import BrowseError


def persister_of(call: Call) -> Persister | None:
    """The daemon's persister, or None when it is not persisting."""
    persister = call.services.persister
    return persister if persister.enabled else None


@handler("state")
async def state(call: Call) -> str:
    action, name = call.args[0], call.arg(1)
    if action in ("list", "clear"):
        return await (_list(call) if action == "list" else _clear(call))
    assert name is not None  # the registry's forms: save, load and delete take a NAME
    path = named_file(call.daemon.state_dir, name)
    actions = {"save": _save, "load": _load, "delete": _delete}
    return await actions[action](call, name, path)


async def _save(call: Call, name: str, path: str) -> str:
    snapshot = check_state(await call.session.context.storage_state(indexed_db=True))
    await asyncio.to_thread(write_state, path, snapshot)
    cookies, origins = len(snapshot["cookies"]), len(snapshot["origins"])
    return f"Saved state {name}: {cookies} cookies, {origins} origins with storage ({path})"


async def _load(call: Call, name: str, path: str) -> str:
    if not os.path.exists(path):
        raise BrowseError(f"no saved state named {name}", _known_hint(call))
    try:
        snapshot = await asyncio.to_thread(read_state, path)
    except StateFileError as exc:
        hint = f"delete it: browse state delete {name}"
        raise BrowseError(f"state {name} cannot be read: {exc}", hint) from exc
    await call.session.context.set_storage_state(snapshot)  # type: ignore[arg-type] # checked JSON, not typed
    persister = persister_of(call)
    if persister is not None:
        persister.loaded(call.session, snapshot)
    cookies, origins = len(snapshot["cookies"]), len(snapshot["origins"])
    return (
        f"Loaded state {name}: {cookies} cookies, {origins} origins, replacing this session's own; "
        "tabs kept (run `browse reload` to use it on the current page)"
    )


async def _delete(call: Call, name: str, path: str) -> str:
    if not await asyncio.to_thread(remove, path):
        raise BrowseError(f"no saved state named {name}", _known_hint(call))
    return f"Deleted state {name}"


async def _list(call: Call) -> str:
    names = named_states(call.daemon.state_dir)
    if not names:
        return "No saved states (save one with `browse state save NAME`)"
    return "\n".join([_describe(call.daemon.state_dir, name) for name in names])


def _describe(state_dir: str, name: str) -> str:
    path = named_file(state_dir, name)
    try:
        snapshot = read_state(path)
    except StateFileError:
        return f"{name}  (unreadable)"
    saved = time.strftime("%Y-%m-%d %H:%M", time.localtime(os.path.getmtime(path)))
    domains = sorted({c["domain"].lstrip(".") for c in snapshot["cookies"]})
    shown = ", ".join(domains[:5]) + (f", +{len(domains) - 5} more" if len(domains) > 5 else "")
    counts = f"{len(snapshot['cookies'])} cookies, {len(snapshot['origins'])} origins"
    return f"{name}  {counts}  saved {saved}" + (f"  ({shown})" if shown else "")


async def _clear(call: Call) -> str:
    session = call.session
    await session.context.set_storage_state({"cookies": [], "origins": []})
    had_file = await call.services.persister.forget(session)
    where = "and its saved file deleted" if had_file else "(nothing was saved on disk)"
    return f"Cleared the login state of session {session.name}: cookies and storage {where}"


def _known_hint(call: Call) -> str:
    names = named_states(call.daemon.state_dir)
    return f"saved states: {', '.join(names)}" if names else "save one first: browse state save NAME"
