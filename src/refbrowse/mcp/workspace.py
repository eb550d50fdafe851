"""Which workspace `browse mcp` serves when its client starts it outside any project.

Claude Desktop and some other clients start servers in no particular folder (`/`
on macOS, or the home directory). Serving that folder would make `/` or the
whole home directory the workspace that commands may write to. Outside any
project (no `.git` or `.refbrowse/` above), in such a folder, the server uses
a folder of its own instead: `$XDG_STATE_HOME/refbrowse` (by default
`~/.local/state/refbrowse`), with its state directory inside as usual.
"""

from __future__ import annotations

import os
import sys

from refbrowse.cli.workspace import find_state_dir, own_workspace
from refbrowse.protocol import STATE_DIRNAME

__all__ = ["choose", "own_workspace"]


def _outside_any_project(cwd: str) -> bool:
    state_dir = find_state_dir(cwd)
    root = os.path.dirname(state_dir)
    return root == cwd and not os.path.isdir(state_dir) and not os.path.exists(os.path.join(cwd, ".git"))


def _no_place_for_a_workspace(cwd: str) -> bool:
    home = os.path.realpath(os.path.expanduser("~"))
    return os.path.realpath(cwd) in (os.path.sep, home) or not os.access(cwd, os.W_OK)


def choose() -> None:
    """Point BROWSE_STATE_DIR at the server's own workspace when the current folder is no place for one."""
    if os.environ.get("BROWSE_STATE_DIR"):
        return
    cwd = os.getcwd()
    if _outside_any_project(cwd) and _no_place_for_a_workspace(cwd):
        root = own_workspace()
        os.makedirs(root, mode=0o700, exist_ok=True)
        os.environ["BROWSE_STATE_DIR"] = os.path.join(root, STATE_DIRNAME)
        sys.stderr.write(f"refbrowse: started in {cwd}, outside any project: using the workspace {root}\n")
