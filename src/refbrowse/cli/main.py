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
from refbrowse.errors import BrowseError, Unavailable, UsageError
from refbrowse.exitcodes import ExitCode
from refbrowse.protocol import COMMAND_PATH, DAEMON_LOG, is_current, read_daemon_file, state_path
from refbrowse.registry import COMMANDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping
    from typing import IO

    from refbrowse.specs import Request


class Console:
    """What one run of the CLI reads and writes: its arguments, environment and standard streams.

    `main` makes one from the process; tests make their own and run the CLI in-process.
    """

    def __init__(
        self,
        argv: list[str],
        env: Mapping[str, str],
        stdin: IO[str],
        stdout: IO[bytes],
        stderr: IO[bytes],
    ) -> None:
        self.argv, self.env = argv, env
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr

    def write(self, out: bytes, err: bytes = b"") -> None:
        self.stdout.write(out)
        self.stdout.flush()
        if err:
            self.stderr.write(err)
            self.stderr.flush()


def main(
    argv: list[str] | None = None,
    env: Mapping[str, str] | None = None,
    stdout: IO[bytes] | None = None,
    stderr: IO[bytes] | None = None,
    stdin: IO[str] | None = None,
) -> int:
    """Run `browse ARGV`; the process's own arguments, environment and streams by default."""
    console = Console(
        sys.argv[1:] if argv is None else argv,
        os.environ if env is None else env,
        sys.stdin if stdin is None else stdin,
        sys.stdout.buffer if stdout is None else stdout,
        sys.stderr.buffer if stderr is None else stderr,
    )
    try:
        return _run(console)
    except BrowseError as exc:
        return _fail(console, exc.exit_code, exc.message, exc.hint)
    except KeyboardInterrupt:
        return _fail(console, ExitCode.INTERRUPTED, "interrupted", "")


def _run(console: Console) -> int:
    argv = console.argv
    if not argv or argv[0] in ("-h", "--help"):
        console.write((help_text() + "\n").encode())
        return ExitCode.OK
    if argv[0] in ("-V", "--version"):
        console.write(f"refbrowse {__version__}\n".encode())
        return ExitCode.OK
    asked = _help_asked(argv)
    if asked is not None:
        console.write((help_text(asked) + "\n").encode())
        return ExitCode.OK
    req = parse_argv(argv)
    if isinstance(COMMANDS[req["command"]].get("local"), str):  # runs here for as long as it lasts
        return _run_local(req)
    if COMMANDS[req["command"]].get("stdin"):
        req["stdin"] = console.stdin.read()
    if COMMANDS[req["command"]].get("secrets_asked"):
        req["stdin"] = _secrets(console, req)
    places = _text_places(req)
    dashes = [i for i in places if req["args"][i] == "-"]
    for i, value in zip(dashes, _dash_values(console, req, len(dashes)), strict=True):
        req["args"][i] = value
    if len(dashes) < len(places):  # the others are in the process list, which every local user reads
        req["argv_text"] = True
        if dashes:
            req["stdin_texts"] = dashes
    code, out, err = respond(req, console.env, lambda line: console.write(b"", f"note: {line}\n".encode()))
    console.write(out, err)
    return code


def _dash_values(console: Console, req: Request, wanted: int) -> list[str]:
    """The texts given as `-`: from stdin, or from `--secret-file FILE` (read here, never sent)."""
    path = req["flags"].pop("--secret-file", None)
    if not isinstance(path, str):
        return _stdin_values(console.stdin, wanted)
    if not wanted:
        raise UsageError("--secret-file is read for the texts given as `-`, and none is", _FILE_HINT)
    try:
        with open(path, encoding="utf-8") as f:
            return _stdin_values(f, wanted)
    except OSError as exc:
        raise UsageError(f"--secret-file {path} cannot be read: {exc.strerror}", _FILE_HINT) from None


def _secrets(console: Console, req: Request) -> str:
    """The secrets the command asks for (`auth save`'s password), read from stdin, NUL-joined."""
    from refbrowse.secretasks import secrets_asked

    asked = secrets_asked(COMMANDS[req["command"]], req["args"], req["flags"])
    try:
        values = _stdin_values(console.stdin, len(asked), [f"{what}: " for what in asked])
    except UsageError as exc:
        said = f"{req['command']} reads {' and '.join(asked)} from stdin: {exc.message}"
        raise UsageError(said, _SECRET_HINT) from None
    return "\0".join(values)


def _text_places(req: Request) -> list[int]:
    """Where in the request's args its texts are (`fill SEL TEXT [SEL TEXT]…`, `type [SEL] TEXT`): each
    given as `-` comes on stdin, not in argv (where `ps` shows it)."""
    if not COMMANDS[req["command"]].get("stdin_arg") or not req["args"]:
        return []
    count = len(req["args"])
    return list(range(1, count, 2)) if req["command"] == "fill" else [count - 1]


def _stdin_values(stdin: IO[str], wanted: int, asks: list[str] | None = None) -> list[str]:
    """`wanted` values from stdin: all of it for one (text piped in usually ends with a newline that
    is not part of it); for several, NUL-separated if it holds a NUL, else one a line. A `-` stdin
    cannot answer is refused, never typed."""
    if not wanted:
        return []
    if stdin is None or stdin.closed:  # started with its stdin closed (`<&-`)
        raise UsageError("`-` asks for a text on stdin, and there is no stdin", _PIPE_HINT)
    if stdin.isatty():
        import getpass  # a person at a terminal: ask without echoing

        if asks is None:
            asks = [f"text {n + 1} of {wanted}: " for n in range(wanted)] if wanted > 1 else ["text: "]
        return [getpass.getpass(ask) for ask in asks]
    try:
        text = stdin.read()
    except (OSError, ValueError) as exc:
        raise UsageError(f"`-` asks for a text on stdin, which cannot be read: {exc}", _PIPE_HINT) from exc
    if wanted == 1 and text:
        return [text[:-2] if text.endswith("\r\n") else text.removesuffix("\n")]
    values = _separated(text) if text else []
    if len(values) != wanted:
        raise UsageError(f"{wanted} texts given as `-`, but stdin held {len(values)}", _PIPE_HINT)
    return values


_FILE_HINT = "give `-` for each text the file holds, one a line: browse fill @e1 - @e2 - --secret-file FILE"
_SECRET_HINT = 'pipe it, one a line: printf %s "$PASSWORD" | browse auth save NAME --url URL'  # noqa: S105
_PIPE_HINT = (
    "pipe one value for each `-`, NUL- or newline-separated:"
    ' printf \'%s\\0%s\' "$A" "$B" | browse fill @e1 - @e2 -'
)


def _separated(text: str) -> list[str]:
    if "\0" in text:
        return text.removesuffix("\n").removesuffix("\0").split("\0")
    return text.removesuffix("\n").replace("\r\n", "\n").split("\n")


def _help_asked(argv: list[str]) -> str | None:
    """The command of `browse CMD -h` or `browse CMD --help` (before any `--`), else None."""
    words = argv[: argv.index("--")] if "--" in argv else argv
    if "-h" not in words and "--help" not in words:
        return None
    return next((word for word in words if word in COMMANDS), None)


def _run_local(req: Request) -> int:
    import importlib

    module = importlib.import_module(str(COMMANDS[req["command"]]["local"]))
    code: int = module.run(req)
    return code


def respond(
    req: Request, env: Mapping[str, str] | None = None, early: Callable[[str], None] | None = None
) -> tuple[int, bytes, bytes]:
    """Answer one parsed request as the CLI prints it: exit code, stdout, stderr.

    Shared by the CLI and the MCP server. `early` hears the lines the daemon says before its
    answer (a command waiting for its tab says for what). Failures the CLI detects itself (no
    daemon, one that stopped answering) raise `BrowseError`.
    """
    env = os.environ if env is None else env
    if req["command"] == "help":
        return ExitCode.OK, (help_text(req["args"][0] if req["args"] else None) + "\n").encode(), b""
    if req["command"] == "version":
        return ExitCode.OK, f"refbrowse {__version__}\n".encode(), b""
    if req["session"] is None:
        req["session"] = env.get("BROWSE_SESSION") or None
    if "client" not in req and env.get("BROWSE_CLIENT"):
        req["client"] = env["BROWSE_CLIENT"]  # who runs this `browse`, for the feed ("chat")
    state_dir = find_state_dir()
    if req["command"] == "restart":
        from refbrowse.cli import launcher

        launcher.stop_daemon(state_dir)
        launcher.ensure_daemon(state_dir)
        req["command"] = "status"
    return _send(state_dir, req, env, early)


def _send(
    state_dir: str, req: Request, env: Mapping[str, str], early: Callable[[str], None] | None = None
) -> tuple[int, bytes, bytes]:
    """Connect, then send: to the daemon daemon.json names, else to the one the launcher finds or starts."""
    body = wire.dumps(req).encode()
    for info, last in _daemons_to_ask(state_dir, req, bool(env.get("BROWSE_ATTACH"))):
        try:
            reply = _split(req, *request(info, "POST", COMMAND_PATH, body, early=early))
        except DaemonGone as exc:
            if not last:
                continue  # daemon.json named a daemon that is gone: the launcher finds or starts one
            no_start = COMMANDS[req["command"]].get("no_start")
            hint = "retry" if no_start else f"see {state_path(state_dir, DAEMON_LOG)}, then retry"
            raise Unavailable(f"the daemon stopped answering: {exc}", hint) from exc
        if req["command"] == "stop":
            from refbrowse.cli import launcher

            launcher.wait_for_exit(state_dir)
        return reply
    return _not_running(state_dir, req)


def _daemons_to_ask(state_dir: str, req: Request, attach: bool) -> Iterator[tuple[dict[str, object], bool]]:
    """The daemon to send to, and whether it is the last one to try.

    First the one daemon.json names, if it is of this version and launch config
    (`status` and `stop` talk to whatever daemon is there, and so do the commands
    of an agent its chat runs, `BROWSE_ATTACH`, which must drive it); then, importing the
    launcher only now, the one its lock finds, started here unless the command
    must not start one.
    """
    no_start = bool(COMMANDS[req["command"]].get("no_start"))
    info = read_daemon_file(state_dir)
    if info is not None and (is_current(info) or no_start or attach):
        yield info, False
    from refbrowse.cli import launcher

    # daemon.json may be missing or corrupt while a daemon lives: its lock finds it.
    found = launcher.running_daemon(state_dir) if no_start else launcher.ensure_daemon(state_dir)
    if found is not None:
        yield found, True


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


def _fail(console: Console, code: int, message: str, hint: str) -> int:
    if "--json" in console.argv:
        console.write(protocol.render_json(protocol.failure(message, hint, code)))
    else:
        console.write(b"", protocol.render_error(message, hint).encode())
    return code
