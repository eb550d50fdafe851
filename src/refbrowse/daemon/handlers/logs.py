"""Logs and dialogs: `console`, `network`, `dialog`, `dialog-accept|dismiss`.

What they read is captured by `services.page_logs` from every tab's first moment.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from refbrowse.daemon.action.perform import perform
from refbrowse.daemon.command import Call, handler
from refbrowse.daemon.core.io.envelope import fence
from refbrowse.daemon.core.runtime.logbuffer import (
    RingBuffer,
)
from refbrowse.daemon.services.pagelogs import DialogPolicy

log = logging.getLogger("refbrowse")

SHOW_AT_MOST = 1_000  # lines a listing prints; the full log is on disk
ERROR_LEVELS = ("error", "pageerror")


def listing(lines: list[str], log_name: str, empty: str) -> str:
    """The newest `SHOW_AT_MOST` lines, saying where the rest is."""
    if not lines:
        return empty
    if len(lines) <= SHOW_AT_MOST:
        return "\n".join(lines)
    left_out = len(lines) - SHOW_AT_MOST
    return "\n".join([f"({left_out} earlier entries: see .refbrowse/{log_name})", *lines[-SHOW_AT_MOST:]])


def _show_log(
    call: Call,
    buffer: RingBuffer[Any],
    log_name: str,
    what: str,
    empty: str,
    keep: Callable[[Any], bool] | None = None,
) -> str:
    """A log command: this session's `what` (those `keep` accepts), or `--clear` them."""
    session = call.session.name
    if call.flag("--clear"):
        return f"Cleared {buffer.clear(session)} {what}."
    lines = [e.line() for e in buffer.entries(session) if keep is None or keep(e)]
    text = listing(lines, log_name, empty)
    return fence(text, f"the {what} of session {session}", call.raw)


@handler("console")
async def console(call: Call) -> str:
    errors_only = bool(call.flag("--errors"))
    keep = (lambda e: e.level in ERROR_LEVELS) if errors_only else None
    return _show_log(
        call,
        call.services.page_logs.console,
        "console.log",
        "console messages",
        "(no console messages)",
        keep,
    )


@handler("network")
async def network(call: Call) -> str:
    return _show_log(call, call.services.page_logs.network, "network.log", "network entries", "(no requests)")


@handler("dialog")
async def dialog(call: Call) -> str:
    return _show_log(call, call.services.page_logs.dialogs, "dialog.log", "dialog entries", "(no dialogs)")


@handler("dialog-accept")
async def dialog_accept(call: Call) -> str:
    policy = DialogPolicy(accept=True, text=call.arg(0))
    outcome = await perform(call, "setting the dialog policy", lambda: _set_policy(call, policy))
    return outcome.report(f"Dialogs will be {policy.describe()} from now on.")


@handler("dialog-dismiss")
async def dialog_dismiss(call: Call) -> str:
    policy = DialogPolicy(accept=False)
    outcome = await perform(call, "setting the dialog policy", lambda: _set_policy(call, policy))
    return outcome.report(
        "Dialogs will be dismissed from now on (`browse dialog-accept` to accept them again)."
    )


async def _set_policy(call: Call, policy: DialogPolicy) -> None:
    call.services.page_logs.policies[call.session.name] = policy
