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
from refbrowse.errors import Unavailable
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
# A client that sends HEADER_EARLY may get interim `102 Processing` heads before the answer, each
# with a line for the person waiting in HEADER_NOTE (UTF-8): a command waiting for its tab says so.
HEADER_EARLY = "X-Browse-Early"
HEADER_NOTE = "X-Browse-Note"
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
    "BROWSE_WEBMCP",
    "BROWSE_INIT_SCRIPTS",  # read once, when the daemon starts
    "BROWSE_EXTENSIONS",  # loaded once, when the browser starts
)

# Launch settings that may carry credentials (a proxy's password, a remote
# browser's token): the daemon gets them through a pipe, never in its
# environment, which `ps e` and /proc show for its whole life.
SECRET_ENV = ("BROWSE_PROXY", "BROWSE_CDP_URL", "BROWSE_WS_ENDPOINT")


def state_path(state_dir: str, name: str) -> str:
    return os.path.join(state_dir, name)


def untrusted_reason(state_dir: str) -> str:
    """Why this user must not use the state directory `state_dir`; "" if it may (or does not exist yet).

    Only a directory this user made and keeps private is trusted: a `.refbrowse/`
    planted in a folder others can write, or a symlink, could hand the token and
    the words typed into pages to its maker, or point a root CLI's writes anywhere.
    """
    try:
        info = os.lstat(state_dir)
    except FileNotFoundError:
        return ""
    except OSError as exc:
        return f"it cannot be examined ({exc.strerror})"
    return _stat_problem(info)


def _stat_problem(info: os.stat_result) -> str:
    if stat.S_ISLNK(info.st_mode):
        return "it is a symlink"
    if not stat.S_ISDIR(info.st_mode):
        return "it is not a directory"
    if info.st_uid != os.geteuid():
        return f"it belongs to another user (uid {info.st_uid})"
    if info.st_mode & 0o022:  # only read bits for others: ours alone, made private by `ensure_state_dir`
        return (
            f"its mode is {stat.S_IMODE(info.st_mode):04o}, not 0700 (other users could change what is in it)"
        )
    return ""


def refuse_state_dir(state_dir: str, reason: str) -> Unavailable:
    """The error for a state directory this user must not use, with the way out."""
    if "mode" in reason:
        hint = f"if you made it, run `chmod 700 {state_dir}`; otherwise remove it or set BROWSE_STATE_DIR"
    else:
        hint = "work in a folder of your own, or set BROWSE_STATE_DIR to a private folder of yours"
    return Unavailable(f"refusing the state directory {state_dir}: {reason}", hint)


def ensure_state_dir(state_dir: str) -> None:
    """Create the state directory private to the user, with a `.gitignore` of `*`; refuse one not ours.

    Only a directory of this user that no one else may write is used; one that
    others may read is made private (0700) through a descriptor that does not
    follow symlinks.
    """
    os.makedirs(os.path.dirname(state_dir) or ".", exist_ok=True)
    try:
        os.mkdir(state_dir, 0o700)
        made = True
    except FileExistsError:
        made = False
    try:
        fd = os.open(state_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        raise refuse_state_dir(state_dir, untrusted_reason(state_dir) or exc.strerror or str(exc)) from None
    try:
        info = os.fstat(fd)
        reason = _stat_problem(info)
        if reason:
            raise refuse_state_dir(state_dir, reason)
        if made or stat.S_IMODE(info.st_mode) != 0o700:
            os.fchmod(fd, 0o700)
        _write_gitignore(fd)
    finally:
        os.close(fd)


def _write_gitignore(dir_fd: int) -> None:
    try:
        fd = os.open(".gitignore", os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=dir_fd)
    except FileExistsError:
        return
    with os.fdopen(fd, "w") as f:
        f.write("*\n")


def open_state_file(state_dir: str, name: str, flags: int, create: bool = True) -> int:
    """A descriptor on the state file `name`, never through a symlink and never a FIFO or device.

    `flags` are `os.O_RDONLY`, `os.O_WRONLY | os.O_APPEND`, …; the file is made
    (mode 0600) when missing if `create`. See `open_regular`.
    """
    return open_regular(state_path(state_dir, name), flags | (os.O_CREAT if create else 0))


def open_regular(path: str, flags: int = os.O_RDONLY, follow: bool = False) -> int:
    """A descriptor on the regular file of this user at `path`, through no symlink unless `follow`.

    Opening does not block: a FIFO planted there would hang the caller (and
    whatever lock it holds) until someone wrote to it; a file that is not a
    regular file of this user raises `OSError` once it is open, before any read.
    """
    extra = os.O_CLOEXEC | os.O_NONBLOCK | (0 if follow else os.O_NOFOLLOW)
    fd = os.open(path, flags | extra, 0o600)
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid():
        os.close(fd)
        raise OSError(f"{path} is not a regular file of this user")
    os.set_blocking(fd, True)
    return fd


def read_regular(path: str, follow: bool = False) -> bytes:
    """The bytes of the regular file at `path`, opened as `open_regular` does."""
    with os.fdopen(open_regular(path, follow=follow), "rb") as f:
        return f.read()


# daemon.json


def launch_config() -> dict[str, str]:
    return {name: os.environ.get(name, "") for name in LAUNCH_ENV}


def config_hash(config: dict[str, str] | None = None) -> str:
    canonical = wire.dumps(dict(sorted((config or launch_config()).items()))).encode()
    return format(zlib.crc32(canonical), "08x")


SHOWN_VALUE_MAX = 1000  # a launch value daemon.json keeps to name a change: it stays far under its cap


def shown_launch_config() -> str:
    """The launch settings that carry no credentials, as daemon.json keeps them: what `launch_change`
    compares, to say which one made a CLI restart the daemon."""
    shown = {k: v[:SHOWN_VALUE_MAX] for k, v in launch_config().items() if k not in SECRET_ENV}
    return wire.dumps(shown)


def launch_change(info: dict[str, object]) -> str:
    """Why the daemon `info` describes is not this environment's, in a few words."""
    if info.get("version") != __version__:
        return f"it runs version {info.get('version')}, this is {__version__}"
    try:
        theirs = wire.loads_flat_object(str(info.get("launch", "")))
    except (ValueError, IndexError, KeyError, RecursionError):
        return "it was launched with other settings"
    changed = [
        f"{name}={here or '(unset)'} here, {theirs.get(name) or '(unset)'} there"
        for name, here in launch_config().items()
        if name not in SECRET_ENV and str(theirs.get(name, "")) != here[:SHOWN_VALUE_MAX]
    ]
    return "; ".join(changed) or f"one of {', '.join(SECRET_ENV)} differs"


def daemon_info(
    pid: int,
    port: int,
    token: str,
    started: float,
    mode: str,
    socket: str = "",
    config: str = "",
    state_dir: str = "",
) -> dict[str, object]:
    """What `daemon.json` holds: how to reach the daemon, what it was launched as, whose state it keeps."""
    return {
        "pid": pid,
        "state_dir": os.path.realpath(state_dir) if state_dir else "",
        "socket": socket,
        "port": port,
        "token": token,
        "started": started,
        "version": __version__,
        "mode": mode,
        "config": config or config_hash(),
        "launch": shown_launch_config(),
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
    """The running daemon's description, or None if the file is missing, malformed or foreign.

    Foreign: written for another state directory (a copy of a workspace made
    while its daemon ran), or naming a socket outside this one.
    """
    try:
        fd = open_state_file(state_dir, DAEMON_FILE, os.O_RDONLY, create=False)
        with os.fdopen(fd, "rb") as f:
            info = wire.loads_flat_object(f.read(MAX_DAEMON_FILE).decode())
    except (OSError, ValueError, IndexError, KeyError, RecursionError):
        return None
    return info if valid_daemon_info(info) and _belongs_to(info, state_dir) else None


def _belongs_to(info: dict[str, object], state_dir: str) -> bool:
    here = os.path.realpath(state_dir)
    recorded = info.get("state_dir")  # a daemon of an older version does not say: its socket does
    if recorded is not None and recorded != here:
        return False
    socket = str(info.get("socket") or "")
    return not socket or (
        os.path.basename(socket) == SOCKET_FILE and os.path.realpath(os.path.dirname(socket)) == here
    )


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
    if os.path.lexists(tmp):
        os.unlink(tmp)  # a leftover of a process that had this pid; never written through
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
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
