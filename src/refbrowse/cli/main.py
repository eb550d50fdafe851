"""The `browse` command: argv → one request to the workspace's daemon → text.

The warm path (a daemon is running) imports only os, sys, `_socket`, `zlib` and
our own small modules: no json, re, enum or socket (see `wire` and `client`).
Starting a daemon, which needs subprocess and locks, lives in `launcher`,
imported only when no daemon answers.

The daemon answers in the form the CLI prints (see `refbrowse.protocol`):
with `--json` the JSON result; otherwise stdout's text then stderr's, split
at the byte count in the stdout header, with the exit code in another.
"""

from __future__ import annotations

import os
import sys

from refbrowse import __version__, protocol, wire
from refbrowse.cli.argv import help_text, parse_argv
from refbrowse.cli.client import DaemonGone, request
from refbrowse.cli.workspace import find_state_dir
from refbrowse.errors import BrowseError, Unavailable
from refbrowse.exitcodes import ExitCode
from refbrowse.protocol import COMMAND_PATH, DAEMON_LOG, is_current, read_daemon_file, state_path
from refbrowse.registry import COMMANDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from refbrowse.specs import Request


def main(argv: list[str] | None = None) -> int:
    try:
        return _run(sys.argv[1:] if argv is None else argv)
    except BrowseError as exc:
        return _fail(exc.exit_code, exc.message, exc.hint)
    except KeyboardInterrupt:
        return _fail(ExitCode.INTERRUPTED, "interrupted", "")


def _run(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(help_text())
        return ExitCode.OK
    if argv[0] in ("-V", "--version"):
        print(f"refbrowse {__version__}")
        return ExitCode.OK
    asked = _help_asked(argv)
    if asked is not None:
        print(help_text(asked))
        return ExitCode.OK
    req = parse_argv(argv)
    if req["command"] in LOCAL_RUNNERS:
        return _run_local(req)
    if COMMANDS[req["command"]].get("stdin"):
        req["stdin"] = sys.stdin.read()
    if _dash_means_stdin(req):
        req["args"][-1] = _stdin_text()
    code, out, err = respond(req)
    sys.stdout.buffer.write(out)
    sys.stdout.flush()
    if err:
        sys.stderr.buffer.write(err)
        sys.stderr.flush()
    return code


def _dash_means_stdin(req: Request) -> bool:
    """True when the request's text argument is `-`: the text comes on stdin, not in argv (see `ps`)."""
    spec = COMMANDS[req["command"]]
    return bool(spec.get("stdin_arg")) and req["args"][-1:] == ["-"]


def _stdin_text() -> str:
    """Stdin as one value: text piped in usually ends with a newline that is not part of it."""
    if sys.stdin.isatty():
        import getpass  # a person at a terminal: ask without echoing

        return getpass.getpass("text: ")
    text = sys.stdin.read()
    return text[:-2] if text.endswith("\r\n") else text.removesuffix("\n")


def _help_asked(argv: list[str]) -> str | None:
    """The command of `browse CMD -h` or `browse CMD --help` (before any `--`), else None."""
    words = argv[: argv.index("--")] if "--" in argv else argv
    if "-h" not in words and "--help" not in words:
        return None
    return next((word for word in words if word in COMMANDS), None)


# Commands that run in this process for as long as they last: imported only when used.
LOCAL_RUNNERS = {
    "mcp": "refbrowse.mcp.server",
    "skill": "refbrowse.skill",
    "install": "refbrowse.setup.install",
    "doctor": "refbrowse.setup.doctor",
    "demo": "refbrowse.demo.run",
}


def _run_local(req: Request) -> int:
    import importlib

    module = importlib.import_module(LOCAL_RUNNERS[req["command"]])
    code: int = module.run(req)
    return code


def respond(req: Request) -> tuple[int, bytes, bytes]:
    """Answer one parsed request as the CLI prints it: exit code, stdout, stderr.

    Shared by the CLI and the MCP server. Failures the CLI detects itself (no
    daemon, one that stopped answering) raise `BrowseError`.
    """
    if req["command"] == "help":
        return ExitCode.OK, (help_text(req["args"][0] if req["args"] else None) + "\n").encode(), b""
    if req["command"] == "version":
        return ExitCode.OK, f"refbrowse {__version__}\n".encode(), b""
    if req["session"] is None:
        req["session"] = os.environ.get("BROWSE_SESSION") or None
    if "client" not in req and os.environ.get("BROWSE_CLIENT"):
        req["client"] = os.environ["BROWSE_CLIENT"]  # who runs this `browse`, for the feed ("chat")
    state_dir = find_state_dir()
    if req["command"] == "restart":
        from refbrowse.cli import launcher

        launcher.stop_daemon(state_dir)
        launcher.ensure_daemon(state_dir)
        req["command"] = "status"
    return _send(state_dir, req)


def _send(state_dir: str, req: Request) -> tuple[int, bytes, bytes]:
    body = wire.dumps(req).encode()
    spec = COMMANDS[req["command"]]
    info = read_daemon_file(state_dir)
    # A daemon of another version or launch config is replaced, except by
    # `status` and `stop`, which talk to whatever daemon is there.
    if info is not None and (is_current(info) or spec.get("no_start")):
        try:
            reply = _split(req, *request(info, "POST", COMMAND_PATH, body))
        except DaemonGone:
            pass
        else:
            if req["command"] == "stop":
                from refbrowse.cli import launcher

                launcher.wait_for_exit(state_dir)
            return reply
    from refbrowse.cli import launcher

    if spec.get("no_start"):
        # daemon.json may be missing or corrupt while a daemon lives: its lock finds it.
        info = launcher.running_daemon(state_dir)
        if info is None:
            return _not_running(state_dir, req)
        try:
            reply = _split(req, *request(info, "POST", COMMAND_PATH, body))
        except DaemonGone as exc:
            raise Unavailable(f"the daemon stopped answering: {exc}", "retry") from exc
        if req["command"] == "stop":
            launcher.wait_for_exit(state_dir)
        return reply
    info = launcher.ensure_daemon(state_dir)
    try:
        return _split(req, *request(info, "POST", COMMAND_PATH, body))
    except DaemonGone as exc:
        raise Unavailable(
            f"the daemon stopped answering: {exc}", f"see {state_path(state_dir, DAEMON_LOG)}, then retry"
        ) from exc


def _split(req: Request, status: int, headers: dict[str, str], body: bytes) -> tuple[int, bytes, bytes]:
    if status == protocol.STOPPING_STATUS:
        raise DaemonGone("the daemon is stopping")
    exit_header, stdout_header = protocol.HEADER_EXIT.lower(), protocol.HEADER_STDOUT.lower()
    if status != 200 or exit_header not in headers:
        raise Unavailable(f"the daemon refused the request (HTTP {status})", "run `browse restart`")
    split = len(body) if req["json"] else int(headers.get(stdout_header, len(body)))
    return int(headers[exit_header]), body[:split], body[split:]


def _not_running(state_dir: str, req: Request) -> tuple[int, bytes, bytes]:
    if req["command"] == "stop":
        return ExitCode.OK, b"no daemon is running\n", b""
    raise Unavailable(
        f"no daemon is running for {os.path.dirname(state_dir)}",
        "any command starts it, e.g. `browse goto URL`",
    )


def _fail(code: int, message: str, hint: str) -> int:
    if "--json" in sys.argv[1:]:
        sys.stdout.buffer.write(protocol.render_json(protocol.failure(message, hint, code)))
        sys.stdout.flush()
    else:
        sys.stderr.write(protocol.render_error(message, hint))
    return code
