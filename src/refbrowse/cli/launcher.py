"""The CLI's cold path: start the workspace's daemon, or stop it.

Liveness is the daemon's life lock (`daemon.lock`, held with `flock` for the
daemon's whole life and released by the kernel when it dies), never an answer
from `/health` alone: a busy daemon is never taken for dead, and a live one is
never killed to start another. CLIs that find no daemon serialise on
`start.lock`, so many starting at once start exactly one.
"""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress

from refbrowse import wire
from refbrowse.cli.client import DaemonGone, request
from refbrowse.errors import Unavailable
from refbrowse.protocol import (
    COMMAND_PATH,
    DAEMON_FILE,
    DAEMON_LOG,
    HEALTH_PATH,
    LIFE_LOCK,
    SECRET_ENV,
    START_LOCK,
    STOP_REQUEST,
    ensure_state_dir,
    is_current,
    launch_change,
    open_state_file,
    read_daemon_file,
    state_path,
)

START_TIMEOUT = 60.0
REWRITE_EVERY_S = 0.25
ANSWER_WITHIN_S = 2.0  # a daemon past its start that does not answer, asked to rewrite daemon.json, this long
STARTING_S = 15.0  # a lock holder younger than this may still be starting: it gets START_TIMEOUT
STOP_TIMEOUT = 30.0
LOG_LIMIT = 5_000_000


def _state_file(state_dir: str, name: str, flags: int, create: bool = True) -> int:
    """`protocol.open_state_file`, with a clear error for a file planted in the way (a symlink, a FIFO)."""
    try:
        return open_state_file(state_dir, name, flags, create)
    except FileNotFoundError:
        raise
    except OSError as exc:
        path = state_path(state_dir, name)
        raise Unavailable(
            f"refusing to open {path}: {exc.strerror or exc} (a symlink or a special file is never followed)",
            f"remove {path}: it is made again when needed",
        ) from None


def ensure_daemon(state_dir: str) -> dict[str, object]:
    """Return the description of a running, matching daemon, starting one if needed."""
    ensure_state_dir(state_dir)
    with _locked(state_dir, START_LOCK):
        info = _wait_healthy(state_dir) if daemon_alive(state_dir) else None
        if info is not None:
            if is_current(info):
                return info
            sys.stderr.write(f"restarting the daemon: {launch_change(info)}\n")
            _ask_to_stop(info)
            wait_for_exit(state_dir)
        sys.stderr.write("starting browser…\n")
        sys.stderr.flush()
        return _wait_ready(state_dir, _spawn(state_dir))


def stop_daemon(state_dir: str) -> bool:
    """Stop the workspace's daemon, whatever its version. False if none was running."""
    info = _wait_healthy(state_dir) if daemon_alive(state_dir) else None
    if info is None:
        return False
    _ask_to_stop(info)
    wait_for_exit(state_dir)
    return True


def daemon_alive(state_dir: str) -> bool:
    try:
        fd = _state_file(state_dir, LIFE_LOCK, os.O_RDONLY, create=False)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing drops a lock taken here
    return False


def wait_for_exit(state_dir: str, timeout: float = STOP_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while daemon_alive(state_dir):
        if time.monotonic() > deadline:
            raise Unavailable(
                f"the daemon did not exit within {timeout:.0f} s",
                f"its pid is in {state_path(state_dir, DAEMON_FILE)}; kill it, then retry",
            )
        time.sleep(0.02)


@contextmanager
def _locked(state_dir: str, name: str) -> Iterator[None]:
    fd = _state_file(state_dir, name, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _healthy(info: dict[str, object] | None) -> bool:
    if info is None:
        return False
    try:
        status, _, _ = request(info, "GET", HEALTH_PATH, timeout=5.0)
    except (DaemonGone, OSError, ValueError):
        return False
    return status == 200


def _wait_healthy(state_dir: str) -> dict[str, object] | None:
    """Wait for a live daemon (it holds its lock) to answer; None once it has exited.

    One that does not answer yet is starting, one that answers 503 is stopping.
    """
    began = time.monotonic()
    deadline = began + START_TIMEOUT
    asked = 0.0
    while True:
        info = read_daemon_file(state_dir)
        if info is not None and _healthy(info):
            return info
        if not daemon_alive(state_dir):
            return None
        # Missing, unreadable or pointing elsewhere: the daemon that holds the lock writes it again.
        if time.monotonic() - asked > REWRITE_EVERY_S:
            asked = time.monotonic()
            ask_to_rewrite(state_dir)
        now = time.monotonic()
        if now > deadline or (now - began > ANSWER_WITHIN_S and _will_not_answer(lock_holder(state_dir))):
            raise _not_answering(state_dir)
        time.sleep(0.02)


def _not_answering(state_dir: str) -> Unavailable:
    pid = lock_holder(state_dir)
    who = f"a daemon (pid {pid})" if pid else "a process"
    return Unavailable(
        f"{who} holds this workspace's lock but does not answer, even asked to rewrite"
        f" {state_path(state_dir, DAEMON_FILE)}",
        f"see {state_path(state_dir, DAEMON_LOG)}; stop {f'it: kill {pid}' if pid else 'it'}, then retry",
    )


def _will_not_answer(pid: int) -> bool:
    """A lock holder that is no daemon, or one long past its start, is not waited on any longer."""
    return not _is_daemon(pid) or _past_start(pid)


def _past_start(pid: int) -> bool:
    """Whether process `pid` has lived longer than a daemon's start can take (False if unknown)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            started_ticks = int(f.read().rsplit(b")", 1)[1].split()[19])
        with open("/proc/uptime", "rb") as f:
            uptime = float(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return False
    return uptime - started_ticks / os.sysconf("SC_CLK_TCK") > STARTING_S


def lock_holder(state_dir: str) -> int:
    """The pid that holds the life lock, as the kernel says (/proc/locks), else as the lock
    file says; 0 if unknown. The kernel's word survives a lock file overwritten with garbage."""
    path = state_path(state_dir, LIFE_LOCK)
    try:
        st = os.lstat(path)
        with open("/proc/locks", "rb") as f:
            table = f.read().decode(errors="replace").splitlines()
    except OSError:
        table, st = [], None
    where = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}" if st is not None else "-"
    for fields in (line.split() for line in table):
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5] == where and fields[4].isdigit():
            return int(fields[4])
    try:
        with os.fdopen(open_state_file(state_dir, LIFE_LOCK, os.O_RDONLY, create=False), "rb") as f:
            return int(f.read(32).split()[0])
    except (OSError, ValueError, IndexError):
        return 0


def running_daemon(state_dir: str) -> dict[str, object] | None:
    """The live daemon's description, found through its lock even if daemon.json is bad; None if none runs."""
    return _wait_healthy(state_dir) if daemon_alive(state_dir) else None


def ask_to_rewrite(state_dir: str) -> None:
    """Ask the daemon that holds the life lock to write daemon.json again (SIGUSR1).

    Only a process that is a refbrowse daemon is signalled: the pid comes from the
    lock file, which a live daemon wrote in the private state directory.
    """
    pid = lock_holder(state_dir)
    if _is_daemon(pid):
        with suppress(OSError):
            os.kill(pid, signal.SIGUSR1)


def _is_daemon(pid: int) -> bool:
    if pid <= 0 or pid == os.getpid():
        return False
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"refbrowse.daemon" in f.read()
    except FileNotFoundError:
        return not os.path.isdir("/proc")  # no /proc here: the lock holder is all we know
    except OSError:
        return False


def _ask_to_stop(info: dict[str, object]) -> None:
    with suppress(DaemonGone):
        request(info, "POST", COMMAND_PATH, STOP_REQUEST, timeout=STOP_TIMEOUT)


def _spawn(state_dir: str) -> subprocess.Popen[bytes]:
    log_path = state_path(state_dir, DAEMON_LOG)
    with suppress(FileNotFoundError):
        if os.lstat(log_path).st_size > LOG_LIMIT:
            os.replace(log_path, log_path + ".1")
    log_fd = _state_file(state_dir, DAEMON_LOG, os.O_WRONLY | os.O_APPEND)
    env = {k: v for k, v in os.environ.items() if k not in SECRET_ENV}
    secrets = {k: os.environ[k] for k in SECRET_ENV if os.environ.get(k)}
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "refbrowse.daemon"],
            stdin=subprocess.PIPE,
            stdout=log_fd,
            stderr=log_fd,
            cwd=os.path.dirname(state_dir),
            env={**env, "BROWSE_STATE_DIR": state_dir},
            start_new_session=True,
        )
    finally:
        os.close(log_fd)
    assert proc.stdin is not None
    with suppress(BrokenPipeError):
        proc.stdin.write(wire.dumps(secrets).encode())
    proc.stdin.close()
    return proc


def _wait_ready(state_dir: str, proc: subprocess.Popen[bytes]) -> dict[str, object]:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise Unavailable(
                f"the daemon exited while starting (code {proc.returncode})",
                _log_hint(state_dir),
            )
        info = read_daemon_file(state_dir)
        if info is not None and info.get("pid") == proc.pid and _healthy(info):
            return info
        time.sleep(0.01)
    raise Unavailable(f"the daemon did not answer within {START_TIMEOUT:.0f} s", _log_hint(state_dir))


def _log_hint(state_dir: str) -> str:
    log_path = state_path(state_dir, DAEMON_LOG)
    try:
        with os.fdopen(
            open_state_file(state_dir, DAEMON_LOG, os.O_RDONLY, create=False), errors="replace"
        ) as f:
            tail = [line.rstrip() for line in f.readlines()[-5:] if line.strip()]
    except OSError:
        tail = []
    last = f"; last log line: {tail[-1]}" if tail else ""
    return f"see {log_path}{last}"
