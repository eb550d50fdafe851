"""Which workspace the CLI is in, and so which state directory and daemon it uses.

Part of the CLI's warm path: `os.path` only, no `pathlib`, no `git` subprocess.
The workspace is the nearest directory upwards holding `.refbrowse/` or `.git`,
else the current directory; `BROWSE_STATE_DIR` names the state directory itself.
The home folder is a workspace only when asked (`BROWSE_STATE_DIR=~/.refbrowse`):
its dotfiles hold a person's credentials, and a workspace's files are the ones
commands may upload or write. The walk stops below it, and in the home folder
itself the workspace is a folder of refbrowse's own (`own_workspace`).

Only a state directory this user made and keeps private is used (see
`protocol.untrusted_reason`): one found on the way up that is not is passed
over with a one-line note, and one where the workspace itself lies is an error.
"""

from __future__ import annotations

import os
import sys

from refbrowse.protocol import STATE_DIRNAME, refuse_state_dir, untrusted_reason


def find_state_dir(start: str | None = None) -> str:
    state_dir, passed_over = locate_state_dir(start)
    return _usable(state_dir, passed_over)


def locate_state_dir(start: str | None = None) -> tuple[str, list[str]]:
    """The state directory the upward walk finds, before it is checked for this user (`doctor`
    says why one is refused); and the notes on those it passed over."""
    override = os.environ.get("BROWSE_STATE_DIR")
    if override:
        return os.path.abspath(override), []
    here = os.path.abspath(start or os.getcwd())
    home = os.path.realpath(os.path.expanduser("~"))
    passed_over: list[str] = []
    probe = here
    while os.path.realpath(probe) != home:
        candidate = os.path.join(probe, STATE_DIRNAME)
        if os.path.exists(os.path.join(probe, ".git")):
            return candidate, passed_over
        if os.path.isdir(candidate) or os.path.islink(candidate):
            reason = untrusted_reason(candidate)
            if not reason:
                return candidate, passed_over
            passed_over.append(f"note: ignoring {candidate}: {reason}\n")
        parent = os.path.dirname(probe)
        if parent == probe:
            break
        probe = parent
    if os.path.realpath(here) == home:
        return os.path.join(own_workspace(), STATE_DIRNAME), passed_over
    return os.path.join(here, STATE_DIRNAME), passed_over


def own_workspace() -> str:
    """refbrowse's own workspace, for where no folder should be one: `$XDG_STATE_HOME/refbrowse`."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "refbrowse")


def _usable(state_dir: str, passed_over: list[str] | None = None) -> str:
    """`state_dir` if this user may use it (or make it), saying which were passed over; else the error."""
    reason = untrusted_reason(state_dir)
    if reason:
        raise refuse_state_dir(state_dir, reason)
    sys.stderr.write("".join(passed_over or ()))
    return state_dir
