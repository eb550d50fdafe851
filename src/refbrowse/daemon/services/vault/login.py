"""`auth login NAME`: a saved login filled into its site's login form, as one action.

The action opens the saved URL unless the current page is of the saved origin,
then walks the form's steps as the page shows them (`login_fields.js`): the
user name and password together, or the user name, Next, then the password;
then a one-time code when the site asks for one and one is saved. Before each
field is filled the page's origin is checked again: a page of another origin
(a redirect, an identity provider after Next) is never filled. The report is
any action's (`perform`); the password and the code are given to the typed
secrets first, so no recording keeps them, and no error quotes them.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Protocol

from playwright.async_api import ElementHandle, JSHandle, Page
from playwright.async_api import Error as PlaywrightError

from refbrowse.daemon.action.acting import ActingCall
from refbrowse.daemon.action.navigation import load
from refbrowse.daemon.action.perform import perform
from refbrowse.daemon.core.devtools.scripts import script
from refbrowse.daemon.services.secrets import TypedSecrets, scrub_text
from refbrowse.daemon.services.vault.store import Login, origin_of
from refbrowse.daemon.services.vault.totp import totp
from refbrowse.errors import PageError

FIELDS = script("login_fields")
STEPS = 5  # user, password, code, and a little slack
POLL_S = 0.2
GRACE_S = 1.0  # a page with no form after a step: how long a code field may take to show


class LoginCall(ActingCall, Protocol):
    """What a login needs of the command that runs it (a handler's `Call` is one)."""

    @property
    def page(self) -> Page: ...

    @property
    def action_timeout_ms(self) -> int: ...


@dataclass
class _Walk:
    login: Login
    page: Page
    step_ms: int
    done: list[str] = field(default_factory=list)  # what was filled, for the first line

    def secrets(self) -> list[str]:
        return [self.login.password, *([self.login.totp] if self.login.totp else [])]


async def log_in(call: LoginCall, login: Login, secrets: TypedSecrets) -> str:
    secrets.add(login.password)
    page = call.page
    walk = _Walk(login, page, call.action_timeout_ms)

    async def act() -> None:
        if origin_of(page.url) != login.origin:
            await load(page, login.url, call.nav_timeout_ms)
        await _walk_steps(walk, secrets)

    outcome = await perform(call, f"logging in with {login.name}", act)
    filled = ", then ".join(walk.done) or "nothing"
    if "password" not in walk.done:
        report = outcome.report(f"Filled {filled} of the login {login.name} on {login.origin}")
        raise PageError(
            f"the password of {login.name} was not filled: no password field showed after the user name",
            "see what the page says above; `browse snapshot -i` shows its fields",
            output=str(report),
        )
    return outcome.report(f"Logged in with {login.name} on {login.origin}: filled {filled}")


async def _walk_steps(walk: _Walk, secrets: TypedSecrets) -> None:
    previous = ""
    for _ in range(STEPS):
        found = await _next_step(walk, previous)
        step = await _step_of(found)
        if step == "password" and "password" not in walk.done:
            await _password_step(walk, found)
        elif step == "user" and not walk.done:
            await _fill(walk, found, "user", walk.login.username, "user name")
            await _submit(walk, found, "user")
        elif step == "otp" and "password" in walk.done and "one-time code" not in walk.done:
            if not walk.login.totp:
                raise PageError(
                    f"{walk.login.origin} asks for a one-time code, and the login {walk.login.name} has none",
                    f"save its secret: browse auth update {walk.login.name} --totp-secret (secret on stdin)",
                )
            code = totp(walk.login.totp)
            secrets.add(code)
            await _fill(walk, found, "otp", code, "one-time code")
            await _submit(walk, found, "otp")
        else:
            _finished(walk, step)
            return
        previous = step


def _finished(walk: _Walk, step: str) -> None:
    if not walk.done:
        raise PageError(
            f"no login form on {walk.page.url}"
            + (" (more than one password field)" if step == "unclear" else ""),
            f"open the login page, or save its address: browse auth update {walk.login.name} --url URL",
        )


async def _password_step(walk: _Walk, found: JSHandle) -> None:
    user = await _element(found, "user")
    if user is not None and walk.login.username and "user name" not in walk.done:
        if await user.input_value() != walk.login.username:
            await _fill(walk, found, "user", walk.login.username, "user name")
        else:
            walk.done.append("user name")
    await _fill(walk, found, "password", walk.login.password, "password")
    await _submit(walk, found, "password")


async def _next_step(walk: _Walk, previous: str) -> JSHandle:
    """The form's fields once the page has moved on from `previous` ("" at the start): to a field to
    fill, or to no form at all (then a little longer, for a code asked for after the password);
    as they are when the time is up."""
    ends = time.monotonic() + walk.step_ms / 1000
    settled: float | None = None  # when the page first showed no form
    while True:
        try:
            found = await walk.page.evaluate_handle(FIELDS)
            step = await _step_of(found)
        except PlaywrightError:  # the document was replaced while it was read
            if time.monotonic() >= ends:
                raise
            await asyncio.sleep(POLL_S)
            continue
        now = time.monotonic()
        if step == "none" and previous:
            settled = settled or now
        if step not in (previous, "none") or now >= ends or (settled and now - settled >= GRACE_S):
            return found
        await asyncio.sleep(POLL_S)


async def _step_of(found: JSHandle) -> str:
    return str(await (await found.get_property("step")).json_value())


async def _element(found: JSHandle, key: str) -> ElementHandle | None:
    return (await found.get_property(key)).as_element()


async def _fill(walk: _Walk, found: JSHandle, key: str, value: str, what: str) -> None:
    element = await _element(found, key)
    if element is None:
        raise PageError(
            f"the login form on {walk.page.url} has no {what} field", "fill it with `browse fill`"
        )
    _same_origin(walk)
    try:
        await element.fill(value)
    except PlaywrightError as exc:
        said = scrub_text(str(exc).splitlines()[0], walk.secrets())
        raise PageError(
            f"could not fill the {what}: {said}", "look at the page with `browse snapshot -i`"
        ) from exc
    walk.done.append(what)


async def _submit(walk: _Walk, found: JSHandle, key: str) -> None:
    _same_origin(walk)
    button = await _element(found, "submit")
    try:
        if button is not None:
            await button.click()
        else:
            field_of = await _element(found, key)
            if field_of is not None:
                await field_of.press("Enter")
    except PlaywrightError as exc:
        said = scrub_text(str(exc).splitlines()[0], walk.secrets())
        raise PageError(
            f"could not submit the login form: {said}", "look at the page with `browse snapshot -i`"
        ) from exc


def _same_origin(walk: _Walk) -> None:
    now = origin_of(walk.page.url)
    if now != walk.login.origin:
        raise PageError(
            f"not filled: the page is on {now}, and the login {walk.login.name} is for {walk.login.origin}",
            "log in there yourself, or save a login for that origin with `browse auth save`",
        )
