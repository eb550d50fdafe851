"""The `browse` command: argv → one request to the workspace's daemon → text.

The warm path (a daemon is running) imports only os, sys, `_socket`, `zlib` and
our own small modules: no json, re, enum or socket (see `wire` and `client`).
Starting a daemon, which needs subprocess and locks, lives in `launcher`,
imported only when no daemon answers.

The daemon answers in the form the CLI prints: with `--json` the JSON object;
otherwise stdout's text then stderr's, split at the byte count in the
`X-Browse-Stdout` header, with the exit code in `X-Browse-Exit`.
"""

from __future__ import annotations

import os
import sys

from refbrowse import __version__, wire
from refbrowse.client import DaemonGone, request
from refbrowse.cliparse import CliError, help_text, parse_argv
from refbrowse.exitcodes import ExitCode
from refbrowse.registry import COMMANDS
from refbrowse.workspace import find_state_dir, is_current, read_daemon_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from refbrowse.specs import Request


def main(argv: list[str] | None = None) -> int:
    try:
        return _run(sys.argv[1:] if argv is None else argv)
    except CliError as exc:
        return _fail(exc.code, exc.message, exc.hint)
    except KeyboardInterrupt:
        return _fail(ExitCode.INTERRUPTED, "interrupted", "")


def _run(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(help_text())
        return ExitCode.OK
    if argv[0] in ("-V", "--version"):
        print(f"refbrowse {__version__}")
        return ExitCode.OK
    req = parse_argv(argv)
    if req["command"] == "help":
        print(help_text(req["args"][0] if req["args"] else None))
        return ExitCode.OK
    if COMMANDS[req["command"]].get("stdin"):
        req["stdin"] = sys.stdin.read()
    if req["session"] is None:
        req["session"] = os.environ.get("BROWSE_SESSION") or None
    state_dir = find_state_dir()
    if req["command"] == "restart":
        return _restart(state_dir, req)
    return _send(state_dir, req)


def _send(state_dir: str, req: Request) -> int:
    body = wire.dumps(req).encode()
    spec = COMMANDS[req["command"]]
    info = read_daemon_file(state_dir)
    # A daemon of another version or launch config is replaced, except by
    # `status` and `stop`, which talk to whatever daemon is there.
    if info is not None and (is_current(info) or spec.get("no_start")):
        try:
            code = _show(req, *request(_port(info), "POST", "/command", _token(info), body))
        except DaemonGone:
            pass
        else:
            if req["command"] == "stop":
                from refbrowse import launcher

                launcher.wait_for_exit(state_dir)
            return code
    if spec.get("no_start"):
        return _not_running(state_dir, req)
    from refbrowse import launcher

    info = launcher.ensure_daemon(state_dir)
    try:
        return _show(req, *request(_port(info), "POST", "/command", _token(info), body))
    except DaemonGone as exc:
        return _fail(
            ExitCode.UNAVAILABLE,
            f"the daemon stopped answering: {exc}",
            f"see {os.path.join(state_dir, 'daemon.log')}, then retry",
        )


def _port(info: dict[str, object]) -> int:
    return int(str(info["port"]))


def _token(info: dict[str, object]) -> str:
    return str(info["token"])


def _show(req: Request, status: int, headers: dict[str, str], body: bytes) -> int:
    if status == 503:
        raise DaemonGone("the daemon is stopping")
    if status != 200 or "x-browse-exit" not in headers:
        return _fail(
            ExitCode.UNAVAILABLE, f"the daemon refused the request (HTTP {status})", "run `browse restart`"
        )
    split = len(body) if req["json"] else int(headers.get("x-browse-stdout", len(body)))
    out = sys.stdout.buffer
    out.write(body[:split])
    out.flush()
    if split < len(body):
        sys.stderr.buffer.write(body[split:])
        sys.stderr.flush()
    return int(headers["x-browse-exit"])


def _not_running(state_dir: str, req: Request) -> int:
    if req["command"] == "stop":
        print("no daemon is running")
        return ExitCode.OK
    return _fail(
        ExitCode.UNAVAILABLE,
        f"no daemon is running for {os.path.dirname(state_dir)}",
        "any command starts it, e.g. `browse goto URL`",
    )


def _restart(state_dir: str, req: Request) -> int:
    from refbrowse import launcher

    launcher.stop_daemon(state_dir)
    launcher.ensure_daemon(state_dir)
    req["command"] = "status"
    return _send(state_dir, req)


def _fail(code: int, message: str, hint: str) -> int:
    if "--json" in sys.argv[1:]:
        result = {"ok": False, "output": "", "error": message, "hint": hint, "exit_code": code}
        sys.stdout.write(wire.dumps(result) + "\n")
    else:
        _stderr(message, hint)
    return code


def _stderr(message: str, hint: str) -> None:
    sys.stderr.write(f"error: {message}\n" + (f"hint: {hint}\n" if hint else ""))
