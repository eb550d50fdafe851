"""`auth`: saved logins (the vault) and `auth login NAME`.

The passwords come in the request's stdin (`secretasks`), never in its
arguments, and no answer prints one. The store and its key live outside the
workspace (`services.vault`); opening, saving and deleting run off the event
loop, as the key may come from the OS keyring.
"""

from __future__ import annotations

import asyncio

from refbrowse.daemon.command import Call, Reply, handler
from refbrowse.daemon.services.vault.login import log_in
from refbrowse.daemon.services.vault.store import Login, Vault
from refbrowse.daemon.services.vault.totp import secret_bytes
from refbrowse.errors import UsageError
from refbrowse.registry import COMMANDS
from refbrowse.secretasks import secrets_asked, split_secrets


@handler("auth")
async def auth(call: Call) -> str:
    action = call.args[0]
    vault = Vault()
    if action == "list":
        logins = await asyncio.to_thread(vault.logins)
        lines = [
            f"{name}: {login.username or '(no user name)'} at {login.url}"
            for name, login in sorted(logins.items())
        ]
        return Reply(
            "\n".join(lines) or "No saved logins (save one with `browse auth save NAME --url URL`)",
            {"logins": sorted(logins)},
        )
    name = str(call.args[1])
    if action == "login":
        login = await asyncio.to_thread(vault.get, name)
        return await log_in(call, login, call.services.secrets)
    if action == "show":
        return (await asyncio.to_thread(vault.get, name)).shown()
    if action == "delete":
        await asyncio.to_thread(vault.delete, name)
        return f"Deleted the login {name}"
    return await _save(call, vault, name, action == "update")


async def _save(call: Call, vault: Vault, name: str, update: bool) -> str:
    given = _given_secrets(call)
    url = call.flag("--url")
    if update:
        old = await asyncio.to_thread(vault.get, name)
        login = Login(
            name,
            url or old.url,
            call.flag("--username", old.username),
            given.get("password", old.password),
            given.get("totp", old.totp),
            old.created,
        )
    else:
        if not url:
            raise UsageError("auth save needs --url: the login page", f"browse auth save {name} --url URL")
        login = Login(
            name, url, call.flag("--username", ""), given.get("password", ""), given.get("totp", "")
        )
    if not login.password:
        raise UsageError(
            "the password was empty", 'pipe it: printf %s "$PASSWORD" | browse auth save NAME --url URL'
        )
    _check_totp(login.totp)
    await asyncio.to_thread(vault.put, login)
    where = f"encrypted in {vault.path}, key in {vault.key.where}"
    verb = "Updated" if update else "Saved"
    return f"{verb} the login {name} for {login.origin} ({where})"


def _given_secrets(call: Call) -> dict[str, str]:
    """The secrets the CLI read from its stdin for this call, by what they are."""
    asked = secrets_asked(COMMANDS["auth"], [str(a) for a in call.args], call.flags)
    values = split_secrets(call.stdin, len(asked))
    if asked and not values:
        raise UsageError(
            f"auth {call.args[0]} reads {' and '.join(asked)} from the CLI's stdin, and none came",
            'run it from a shell: printf %s "$PASSWORD" | browse auth save NAME --url URL',
        )
    return {
        ("totp" if "code" in what else "password"): value.strip("\r\n")
        for what, value in zip(asked, values, strict=True)
    }


def _check_totp(secret: str) -> None:
    if not secret:
        return
    try:
        secret_bytes(secret)
    except ValueError as exc:
        raise UsageError(
            "the one-time code secret is not base32",
            "give the secret the site showed (letters A-Z, digits 2-7)",
        ) from exc
