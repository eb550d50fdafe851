"""What the CLI and the daemon must agree on, spelled once.

Standard library only and cheap to import: the CLI's warm path loads it.
Both sides take from here the state directory's file names, `daemon.json`
(its writer, reader and launch-config check), the HTTP paths and headers, the
stop request, the result every command ends with and how it is printed.

A result is a plain dict (typed as `Result` for mypy):

    {"ok": bool, "output": str, "error": str, "hint": str, "exit_code": int}

plus an optional `data` field: the structured value of a command, for
machine callers, when the command has one.

The transport is HTTP over a Unix socket in the state directory (mode 0700;
both ends check the peer's uid) with a bearer token as a second lock; TCP on
127.0.0.1 where there are no Unix sockets, or when asked for (`BROWSE_PORT`).
It is known only to `daemon_address` here, `cli/client.py` and the daemon's
`server.py` and `transport.py`.
"""

from __future__ import annotations

import os
import stat
import time
import zlib

from refbrowse import __version__, wire
from refbrowse.exitcodes import ExitCode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from refbrowse.specs import Result

# The state directory (`.refbrowse/` in the workspace) and what lives in it.
STATE_DIRNAME = ".refbrowse"
DAEMON_FILE = "daemon.json"  # how to reach the running daemon: see `write_daemon_file`
LIFE_LOCK = "daemon.lock"  # held by the daemon for its whole life: the liveness test
START_LOCK = "start.lock"  # CLIs starting a daemon serialise on it
DAEMON_LOG = "daemon.log"
SOCKET_FILE = "daemon.sock"  # the CLI's way in: a Unix socket inside the private state directory
SOCKET_PATH_MAX = 100  # a Unix socket's path holds ~108 bytes; past that, see `socket_path_for_connect`

# HTTP between the two.
HEALTH_PATH = "/health"
COMMAND_PATH = "/command"
HEADER_EXIT = "X-Browse-Exit"  # the command's exit code
HEADER_STDOUT = "X-Browse-Stdout"  # bytes of the body that go to stdout; the rest go to stderr
STOPPING_STATUS = 503  # the daemon is on its way out: ask a fresh one
STOP_REQUEST = b'{"command": "stop", "args": [], "flags": {}}'

# Environment variables that change how the browser is launched: a daemon
# started with other values is restarted rather than reused.
LAUNCH_ENV = (
    "BROWSE_HEADED",
    "BROWSE_CDP_URL",
    "BROWSE_WS_ENDPOINT",
    "BROWSE_PROXY",
    "BROWSE_CHROMIUM_PATH",
    "BROWSE_ALLOWED_HOSTS",
)

# Launch settings that may carry credentials (a proxy's password, a remote
# browser's token): the daemon gets them through a pipe, never in its
# environment, which `ps e` and /proc show for its whole life.
SECRET_ENV = ("BROWSE_PROXY", "BROWSE_CDP_URL", "BROWSE_WS_ENDPOINT")


def state_path(state_dir: str, name: str) -> str:
    return os.path.join(state_dir, name)


def ensure_state_dir(state_dir: str) -> None:
    """Create the state directory private to the user, with a `.gitignore` of `*`."""
    os.makedirs(state_dir, mode=0o700, exist_ok=True)
    os.chmod(state_dir, 0o700)
    ignore = os.path.join(state_dir, ".gitignore")
    if not os.path.exists(ignore):
        with open(ignore, "w") as f:
            f.write("*\n")


# daemon.json


def launch_config() -> dict[str, str]:
    return {name: os.environ.get(name, "") for name in LAUNCH_ENV}


def config_hash(config: dict[str, str] | None = None) -> str:
    canonical = wire.dumps(dict(sorted((config or launch_config()).items()))).encode()
    return format(zlib.crc32(canonical), "08x")


def daemon_info(
    pid: int, port: int, token: str, started: float, mode: str, socket: str = "", config: str = ""
) -> dict[str, object]:
    """What `daemon.json` holds: how to reach the daemon and what it was launched as."""
    return {
        "pid": pid,
        "socket": socket,
        "port": port,
        "token": token,
        "started": started,
        "version": __version__,
        "mode": mode,
        "config": config or config_hash(),
    }


def is_current(info: dict[str, object]) -> bool:
    """True when the daemon described by `info` runs this version with this launch config."""
    return info.get("version") == __version__ and info.get("config") == config_hash()


def daemon_address(info: dict[str, object]) -> tuple[str, int, str]:
    """The Unix socket ("" if none), TCP port (0 if none) and bearer token of a checked description."""
    return str(info.get("socket") or ""), int(str(info["port"])), str(info["token"])


# Every field `daemon.json` must hold, and its type: a file that lacks one or
# has another type is treated as no daemon at all (and never crashes the CLI).
_FIELDS: dict[str, tuple[type, ...]] = {
    "pid": (int,),
    "port": (int,),
    "token": (str,),
    "started": (int, float),
    "version": (str,),
    "mode": (str,),
    "config": (str,),
}


def valid_daemon_info(info: dict[str, object]) -> bool:
    for name, kinds in _FIELDS.items():
        value = info.get(name)
        if isinstance(value, bool) or not isinstance(value, kinds):
            return False
    socket, pid, port, token = info.get("socket", ""), info["pid"], info["port"], info["token"]
    assert isinstance(pid, int) and isinstance(port, int) and isinstance(token, str)
    if not isinstance(socket, str) or pid <= 0 or not 0 <= port <= 65535 or len(token) < 16:
        return False
    return bool(socket) or port > 0


def socket_path_for_connect(path: str) -> str:
    """`path`, or for one too long for a socket address, the same file through /proc (Linux).

    The directory is opened once and its descriptor left open: the process is short-lived
    (the CLI) or binds once (the daemon).
    """
    if len(path.encode()) <= SOCKET_PATH_MAX:
        return path
    fd = os.open(os.path.dirname(path), os.O_RDONLY | os.O_DIRECTORY)
    return f"/proc/self/fd/{fd}/{os.path.basename(path)}"


MAX_DAEMON_FILE = 64 * 1024


def write_daemon_file(state_dir: str, info: dict[str, object]) -> None:
    write_private_file(state_path(state_dir, DAEMON_FILE), wire.dumps(info))


def read_daemon_file(state_dir: str) -> dict[str, object] | None:
    """The running daemon's description, or None if the file is missing, malformed or foreign."""
    try:
        # Non-blocking and regular files only: a FIFO planted as daemon.json must not hang the CLI.
        fd = os.open(state_path(state_dir, DAEMON_FILE), os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return None
            info = wire.loads_flat_object(f.read(MAX_DAEMON_FILE).decode())
    except (OSError, ValueError, IndexError, KeyError, RecursionError):
        return None
    return info if valid_daemon_info(info) else None


def remove_daemon_file(state_dir: str, pid: int) -> None:
    """Remove `daemon.json` if it still describes daemon `pid` (a successor may have replaced it)."""
    info = read_daemon_file(state_dir)
    if info is None or info.get("pid") != pid:
        return
    try:
        os.remove(state_path(state_dir, DAEMON_FILE))
    except FileNotFoundError:
        return


def write_private_file(path: str, text: str) -> None:
    """Write atomically (temp file + rename) with mode 0600; a directory in the way is moved aside."""
    if os.path.isdir(path) and not os.path.islink(path):
        os.replace(path, f"{path}.{time.strftime('%Y%m%d-%H%M%S')}.{os.getpid()}.corrupt")
    tmp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)


# results


def success(output: str, data: object = None) -> Result:
    result: Result = {"ok": True, "output": output, "error": "", "hint": "", "exit_code": ExitCode.OK}
    if data is not None:
        result["data"] = data
    return result


def failure(message: str, hint: str = "", exit_code: int = ExitCode.PAGE_ERROR, output: str = "") -> Result:
    """A failed command; `output` is what it printed before failing (a chain's earlier steps)."""
    return {"ok": False, "output": output, "error": message, "hint": hint, "exit_code": exit_code}


def render_error(message: str, hint: str = "") -> str:
    """The two lines every failure prints on stderr."""
    return f"error: {message}\n" + (f"hint: {hint}\n" if hint else "")


def render_text(result: Result) -> tuple[bytes, bytes]:
    """A result as the CLI prints it without --json: stdout, then stderr."""
    out = result["output"]
    stdout = out if not out or out.endswith("\n") else out + "\n"
    notes = "".join(f"note: {note}\n" for note in result.get("notes", ()))
    stderr = notes + (render_error(result["error"], result["hint"]) if result["error"] else "")
    return stdout.encode(), stderr.encode()


def render_json(result: Result) -> bytes:
    return (wire.dumps(result) + "\n").encode()
