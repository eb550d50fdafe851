"""`initscript add FILE | list | remove FILE`: scripts run in every page before its own (see
`services/initscripts.py`)."""

from __future__ import annotations

from refbrowse.daemon.command import Call, handler
from refbrowse.daemon.services.initscripts import ENV, InitScripts, read_script
from refbrowse.daemon.services.policy import ALLOW_PATH_FLAG
from refbrowse.errors import BrowseError


@handler("initscript")
async def initscript(call: Call) -> str:
    action, settings, session = call.arg(0), call.services.settings, call.session
    scripts: list[dict[str, str]] = list(settings.value(session.name, "initscripts") or [])
    from_env = _from_env(call)
    if action == "list":
        return _listed(session.name, from_env, scripts)
    path: str = call.args[1]  # the registry's forms give add and remove their FILE
    real = call.services.policy.input_path(path, call.flag(ALLOW_PATH_FLAG))
    kept = [s for s in scripts if s["path"] != real]
    if action == "remove":
        if len(kept) == len(scripts) and any(s["path"] == real for s in from_env):
            raise BrowseError(
                f"{path} comes from {ENV}, not from `initscript add`",
                f"leave it out of {ENV}: the next command restarts the daemon without it",
            )
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


def _from_env(call: Call) -> list[dict[str, str]]:
    family = call.services.settings.families[InitScripts.key]
    return family.from_env if isinstance(family, InitScripts) else []


def _listed(session: str, from_env: list[dict[str, str]], added: list[dict[str, str]]) -> str:
    """Each script in the order pages run them, with where it came from."""
    if not from_env and not added:
        return f"No init scripts in session {session}"
    rows = [(s, f"from {ENV}") for s in from_env] + [(s, "initscript add") for s in added]
    return "\n".join(
        f"{n}. {s['path']} ({len(s['source'])} chars, {came})" for n, (s, came) in enumerate(rows, 1)
    )
