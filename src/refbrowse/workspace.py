"""Where a workspace keeps its daemon's state, and what the daemon was launched with.

Shared by the CLI's warm path and the daemon, so it uses `os.path` and `zlib`
only: no `pathlib`, no `hashlib`, no `git` subprocess.

The workspace is the nearest directory upwards holding `.refbrowse/` or `.git`,
else the current directory; `BROWSE_STATE_DIR` names the state directory itself.
"""

import os
import zlib

from refbrowse import __version__, wire

STATE_DIRNAME = ".refbrowse"

# Environment variables that change how the browser is launched: a daemon
# started with other values is restarted rather than reused.
LAUNCH_ENV = ("BROWSE_HEADED", "BROWSE_CDP_URL", "BROWSE_PROXY", "BROWSE_CHROMIUM_PATH")


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


def ensure_state_dir(state_dir: str) -> None:
    """Create the state directory private to the user, with a `.gitignore` of `*`."""
    os.makedirs(state_dir, mode=0o700, exist_ok=True)
    os.chmod(state_dir, 0o700)
    ignore = os.path.join(state_dir, ".gitignore")
    if not os.path.exists(ignore):
        with open(ignore, "w") as f:
            f.write("*\n")


def launch_config() -> dict[str, str]:
    return {name: os.environ.get(name, "") for name in LAUNCH_ENV}


def config_hash(config: dict[str, str]) -> str:
    canonical = wire.dumps(dict(sorted(config.items()))).encode()
    return format(zlib.crc32(canonical), "08x")


def is_current(info: dict[str, object]) -> bool:
    """True when the daemon described by `info` runs this version with this launch config."""
    return info.get("version") == __version__ and info.get("config") == config_hash(launch_config())


def daemon_file(state_dir: str) -> str:
    return os.path.join(state_dir, "daemon.json")


def read_daemon_file(state_dir: str) -> dict[str, object] | None:
    try:
        with open(daemon_file(state_dir)) as f:
            return wire.loads_flat_object(f.read())
    except (OSError, ValueError, IndexError, KeyError):
        return None


def write_private_file(path: str, text: str) -> None:
    """Write atomically (temp file + rename) with mode 0600."""
    tmp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)
