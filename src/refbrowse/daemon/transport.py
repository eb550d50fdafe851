"""Where the daemon listens, and who may talk to it.

The CLI's way in is a Unix socket in the state directory: the directory is
private (0700), the socket file 0600, and every connection's peer must run as
this user (`SO_PEERCRED`). Nobody else can connect, and nobody can stand in for
a dead daemon on a reused port. TCP on 127.0.0.1 is opened only when asked for
(`BROWSE_PORT`, 0 for any free port), for surfaces that need it, or where there
are no Unix sockets; it keeps the Host and Origin checks. The bearer token is
required on both.
"""

from __future__ import annotations

import contextlib
import os
import socket
import struct
from dataclasses import dataclass

from aiohttp import web

from refbrowse import protocol


@dataclass(frozen=True, slots=True)
class Listening:
    socket: str  # the Unix socket's path, "" if none
    port: int  # the TCP port, 0 if none
    inode: int = 0  # the socket file's, as bound: only that file is ever removed


def has_unix_sockets() -> bool:
    return hasattr(socket, "AF_UNIX")


async def listen(runner: web.BaseRunner, state_dir: str) -> Listening:
    """Open the daemon's sites: its Unix socket, and TCP if asked for or needed."""
    path, inode = "", 0
    if has_unix_sockets():
        path = protocol.state_path(state_dir, protocol.SOCKET_FILE)
        await web.SockSite(runner, _unix_socket(path)).start()
        inode = os.stat(path).st_ino
    wanted = os.environ.get("BROWSE_PORT", "").strip()
    port = 0
    if wanted or not path:
        tcp = web.TCPSite(runner, "127.0.0.1", int(wanted or 0))
        await tcp.start()
        port = next(a[1] for a in runner.addresses if isinstance(a, tuple))
    return Listening(path, port, inode)


def _unix_socket(path: str) -> socket.socket:
    """A listening socket at `path`, private to this user.

    A file left there by a daemon that died is removed: this process holds the
    workspace's life lock, so no live daemon can be using it.
    """
    with contextlib.suppress(FileNotFoundError):
        os.remove(path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(protocol.socket_path_for_connect(path))
    os.chmod(path, 0o600)  # the 0700 directory already keeps others out; this says so twice
    sock.listen(128)
    sock.setblocking(False)
    return sock


def remove_socket(listening: Listening) -> None:
    """Remove this daemon's socket file, never another's: a workspace folder removed and made again
    holds a new daemon's socket at the same path while the old daemon is still on its way out."""
    if not listening.socket:
        return
    with contextlib.suppress(FileNotFoundError):
        if os.stat(listening.socket).st_ino == listening.inode:
            os.remove(listening.socket)


def peer_uid(request: web.BaseRequest) -> int | None:
    """The uid of the process at the other end of a Unix-socket request; None over TCP."""
    transport = request.transport
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is None or sock.family != getattr(socket, "AF_UNIX", None):
        return None
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return os.getuid()  # no way to ask; the private directory is the lock
    creds = sock.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    return int(struct.unpack("3i", creds)[1])


def refusal(request: web.BaseRequest, port: int) -> str:
    """Why a request may not reach the daemon ("" if it may), before the token is looked at.

    Over the Unix socket: the peer must be this user. Over TCP: the Host must be
    this daemon's, so that a web page cannot rebind a name to it. A browser's
    Origin is refused on both: a page must never drive the daemon.
    """
    if "Origin" in request.headers:
        return "a request from a web page (it has an Origin header)"
    uid = peer_uid(request)
    if uid is not None:
        return "" if uid == os.getuid() else f"a connection from another user (uid {uid})"
    if request.headers.get("Host") not in (f"127.0.0.1:{port}", f"localhost:{port}"):
        return "a Host header that is not this daemon's address"
    return ""
