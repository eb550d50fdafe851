"""`initscript add FILE | list | remove FILE`: scripts run in every page before its own (see
`services/initscripts.py`)."""

from __future__ import annotations

from refbrowse.daemon.command import Call, handler
from refbrowse.daemon.services.initscripts import read_script
from refbrowse.daemon.services.policy import ALLOW_PATH_FLAG
from refbrowse.errors import BrowseError


@handler("initscript")
async def initscript(call: Call) -> str:
    action, settings, session = call.arg(0), call.services.settings, call.session
    scripts: list[dict[str, str]] = list(settings.value(session.name, "initscripts") or [])
    if action == "list":
        if not scripts:
            return f"No init scripts in session {session.name}"
        return "\n".join(f"{n}. {s['path']} ({len(s['source'])} chars)" for n, s in enumerate(scripts, 1))
    path: str = call.args[1]  # the registry's forms give add and remove their FILE
    real = call.services.policy.input_path(path, call.flag(ALLOW_PATH_FLAG))
    kept = [s for s in scripts if s["path"] != real]
    if action == "remove":
        if len(kept) == len(scripts):
            raise BrowseError(
                f"{path} is not an init script of session {session.name}", "see browse initscript list"
            )
        await settings.set(session, "initscripts", kept or None)
        return f"Removed init script {real}; {len(kept)} left (pages loaded from now on)"
    await settings.set(session, "initscripts", [*kept, read_script(path, real)])
    return (
        f"Init script {real} runs in every page of session {session.name} loaded from now on, before its own"
    )
