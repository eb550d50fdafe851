"""Fuzzing: generated CLI argument vectors and HTTP requests against one live daemon.

CLI vectors run the `browse` entry point in this process (no interpreter
start per case), so thousands fit in minutes; HTTP requests go through the
CLI's own client, which takes the daemon's address from daemon.json, so the
fuzzer follows the transport wherever it goes. `hypothesis` draws the cases
from a fixed seed (`derandomize`), so a run can be repeated.

Counted: daemon deaths, Python tracebacks (in output or daemon.log), hangs
(no answer in `HANG_S`), HTTP 5xx, and CLI errors without a `hint:` line.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import sys
from dataclasses import dataclass

from common import Site, Workspace
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CLI_CASES = int(os.environ.get("FUZZ_CLI_CASES", 2_500))
HTTP_CASES = int(os.environ.get("FUZZ_HTTP_CASES", 8_000))
HANG_S = 60

# Commands a fuzzer may run without stopping the daemon, waiting on purpose,
# opening a display, or reading stdin.
SKIP = {
    "stop",
    "restart",
    "mcp",
    "skill",
    "wait",
    "chain",
    "connect",
    "disconnect",
    "focus",
    "handoff",
    "resume",
    "cookie-import-browser",
    "help",
}


@dataclass
class Tally:
    cases: int = 0
    tracebacks: int = 0
    hangs: int = 0
    server_errors: int = 0
    no_hint: int = 0
    exit_codes: dict[int, int] | None = None
    examples: list[str] | None = None  # a few of the cases that failed a check, to reproduce them


class Hang(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise Hang


def words(site: Site) -> st.SearchStrategy[str]:
    from refbrowse.registry import COMMANDS, GLOBAL_FLAGS

    flags = sorted({f for spec in COMMANDS.values() for f in spec["flags"]} | set(GLOBAL_FLAGS))
    samples = [
        "@e1",
        "@c1",
        "e99",
        "#x",
        ".y",
        "[z]",
        "body",
        "--",
        "-",
        "0",
        "-1",
        "99999999999",
        "1x1",
        "99999x99999",
        "0,0,1,1",
        "nan",
        "1e9",
        "Enter",
        "Control+A",
        "true",
        "{}",
        "[]",
        "null",
        site.url("/"),
        "about:blank",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "/etc/passwd",
        "../../x",
        "\x00",
        "é",
        "💥",
        " ",
        "\n",
    ]
    return st.one_of(st.sampled_from(flags), st.sampled_from(samples), st.text(max_size=40))


def argv_strategy(site: Site) -> st.SearchStrategy[list[str]]:
    """Half random words after a command, half the command's own arity filled with odd values."""
    from refbrowse.registry import COMMANDS

    names = sorted(set(COMMANDS) - SKIP)
    command = st.one_of(st.sampled_from(names), st.text(max_size=12).filter(lambda w: w not in SKIP))
    loose = st.tuples(command, st.lists(words(site), max_size=6)).map(lambda t: [t[0], *t[1]])
    return st.one_of(loose, st.sampled_from(names).flatmap(lambda name: _shaped(name, site)))


def _shaped(name: str, site: Site) -> st.SearchStrategy[list[str]]:
    from refbrowse.registry import COMMANDS

    required = [a for a in COMMANDS[name]["args"] if not a.startswith("[")]
    flags = st.lists(st.sampled_from(sorted(COMMANDS[name]["flags"]) or ["--json"]), max_size=1)
    args = st.lists(words(site), min_size=len(required), max_size=len(required))
    return st.tuples(args, flags).map(lambda t: [name, *t[0], *t[1]])


def _safe(argv: list[str]) -> bool:
    return not any(word in SKIP for word in argv[:1]) and "--timeout" not in argv


# Every vector runs with a short action timeout: a selector that matches nothing costs
# 1.5 s instead of 5, which is what lets thousands of cases fit in minutes.
SHORT = ["--timeout", "1500"]


def run_cli_case(argv: list[str], tally: Tally) -> None:
    from refbrowse.cli.main import main

    out, err = io.BytesIO(), io.BytesIO()
    stdout, stderr = io.TextIOWrapper(out), io.TextIOWrapper(err)
    signal.alarm(HANG_S)
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            sys.stdin = io.StringIO("")
            code = main(argv)
            stdout.flush()
            stderr.flush()
    except Hang:
        tally.hangs += 1
        return
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        signal.alarm(0)
    tally.cases += 1
    assert tally.exit_codes is not None
    tally.exit_codes[code] = tally.exit_codes.get(code, 0) + 1
    text = out.getvalue().decode(errors="replace") + err.getvalue().decode(errors="replace")
    traceback = "Traceback (most recent call last)" in text
    no_hint = code not in (0, 130) and not _has_hint(text)
    tally.tracebacks += traceback
    tally.no_hint += no_hint
    if (traceback or no_hint) and tally.examples is not None and len(tally.examples) < 4:
        last = [line for line in text.splitlines() if line.strip()][-1:] or [""]
        tally.examples.append(f"`{' '.join(argv[2:])!r}` → {last[0][:80]!r}")


def body_strategy() -> st.SearchStrategy[bytes]:
    from refbrowse.registry import COMMANDS

    scalar = st.one_of(
        st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20)
    )
    value = st.recursive(
        scalar,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
        max_leaves=6,
    )
    names = sorted(set(COMMANDS) - SKIP)
    request = st.fixed_dictionaries(
        {"command": st.one_of(st.sampled_from(names), value)},
        optional={
            "args": value,
            "flags": value,
            "json": value,
            "raw": value,
            "session": value,
            "timeout": value,
            "stdin": value,
            "extra": value,
        },
    )
    return st.one_of(
        request.map(lambda r: json.dumps(r).encode()),
        value.map(lambda v: json.dumps(v).encode()),
        st.binary(max_size=200),
        st.text(max_size=100).map(str.encode),
    )


def run_http_case(info: dict[str, object], method: str, path: str, body: bytes, tally: Tally) -> None:
    from refbrowse.cli.client import DaemonGone, request

    try:
        status, _, answer = request(info, method, path, body, timeout=HANG_S)
    except DaemonGone as exc:
        tally.hangs += "timed out" in str(exc)
        tally.server_errors += "timed out" not in str(exc)
        return
    tally.cases += 1
    tally.server_errors += status >= 500
    tally.tracebacks += b"Traceback" in answer


def run() -> list[tuple[str, str]]:
    from refbrowse.protocol import read_daemon_file

    site = Site()
    ws = Workspace("fuzz")
    os.environ["BROWSE_STATE_DIR"] = str(ws.state_dir)
    home = os.getcwd()
    os.chdir(ws.root)  # files the fuzzed commands write (screenshots, PDFs) land in the workspace
    signal.signal(signal.SIGALRM, _alarm)
    cli, http = Tally(exit_codes={}, examples=[]), Tally()
    try:
        ws.run(
            "goto", site.page("/", "<title>fuzz</title><input id=x><a href='/'>home</a><button>b</button>")
        )
        pid = ws.daemon_pid()

        @settings(
            max_examples=CLI_CASES,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
        @given(argv_strategy(site))
        def fuzz_cli(argv: list[str]) -> None:
            if _safe(argv):
                run_cli_case([*SHORT, *argv], cli)

        fuzz_cli()
        info = read_daemon_file(str(ws.state_dir)) or {}

        @settings(
            max_examples=HTTP_CASES,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
        @given(
            st.sampled_from(["POST", "GET", "PUT", "DELETE", "PATCH", "OPTIONS"]),
            st.sampled_from(["/command", "/health", "/", "/command/x", "/../command", "/%00"]),
            body_strategy(),
        )
        def fuzz_http(method: str, path: str, body: bytes) -> None:
            run_http_case(info, method, path, body, http)

        fuzz_http()
        deaths = int(ws.daemon_pid() != pid or not _alive(pid))
        log = (ws.state_dir / "daemon.log").read_text() if (ws.state_dir / "daemon.log").exists() else ""
        logged = log.count("Traceback (most recent call last)")
        cli.examples = (cli.examples or []) + _logged_errors(log)
    finally:
        os.environ.pop("BROWSE_STATE_DIR", None)
        os.chdir(home)
        ws.close()
    return _rows(cli, http, deaths, logged)


def _has_hint(text: str) -> bool:
    """An error's next step: a `hint:` line, or a non-empty hint field under --json."""
    if "hint:" in text:
        return True
    try:
        answer = json.loads(text.strip().splitlines()[0]) if text.strip() else {}
    except ValueError:
        return False
    return isinstance(answer, dict) and bool(answer.get("hint"))


def _logged_errors(log: str) -> list[str]:
    """The exception line closing each traceback of daemon.log, once each."""
    found: list[str] = []
    for block in log.split("Traceback (most recent call last):\n")[1:]:
        lines = [line for line in block.splitlines() if line and not line.startswith((" ", "\t"))]
        last = lines[0][:100] if lines else "?"
        if last not in found:
            found.append(last)
    return [f"daemon.log: {line!r}" for line in found[:4]]


def _alive(pid: int | None) -> bool:
    return pid is not None and os.path.exists(f"/proc/{pid}")


def _rows(cli: Tally, http: Tally, deaths: int, logged: int) -> list[tuple[str, str]]:
    codes = ", ".join(f"{code}: {n}" for code, n in sorted((cli.exit_codes or {}).items()))
    return [
        ("cases (CLI argv + HTTP)", f"{cli.cases:,} + {http.cases:,} = {cli.cases + http.cases:,}"),
        ("daemon deaths", str(deaths)),
        ("tracebacks (output, answers, daemon.log)", str(cli.tracebacks + http.tracebacks + logged)),
        ("hangs (no answer in 60 s)", str(cli.hangs + http.hangs)),
        ("HTTP 5xx", str(http.server_errors)),
        ("CLI exit codes", codes),
        ("CLI errors without a hint line", str(cli.no_hint)),
        ("examples to reproduce", "; ".join(cli.examples or []) or "none"),
    ]
