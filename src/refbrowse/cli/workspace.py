"""Which workspace the CLI is in, and so which state directory and daemon it uses.

Part of the CLI's warm path: `os.path` only, no `pathlib`, no `git` subprocess.
The workspace is the nearest directory upwards holding `.refbrowse/` or `.git`,
else the current directory; `BROWSE_STATE_DIR` names the state directory itself.
"""

import os

from refbrowse.protocol import STATE_DIRNAME


def find_state_dir(start: str | None = None) -> str:
    override = os.environ.get("BROWSE_STATE_DIR")
    if override:
        return os.path.abspath(override)
    here = os.path.abspath(start or os.getcwd())
    probe = here
    while True:
        if os.path.isdir(os.path.join(probe, STATE_DIRNAME)) or os.path.exists(os.path.join(probe, ".git")):
            return os.path.join(probe, STATE_DIRNAME)
        parent = os.path.dirname(probe)
        if parent == probe:
            return os.path.join(here, STATE_DIRNAME)
        probe = parent
