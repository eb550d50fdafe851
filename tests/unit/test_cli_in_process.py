"""The CLI runs in-process: `main(argv, env, stdout, stderr)` with its own streams, no subprocess."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from refbrowse import __version__
from refbrowse.cli.main import main
from refbrowse.errors import UsageError
from refbrowse.exitcodes import ExitCode


def _run(argv: list[str], env: dict[str, str] | None = None, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.BytesIO(), io.BytesIO()
    code = main(argv, env or {}, out, err, io.StringIO(stdin))
    return code, out.getvalue().decode(), err.getvalue().decode()


def test_version_and_help_are_written_to_the_given_stdout() -> None:
    assert _run(["--version"]) == (0, f"refbrowse {__version__}\n", "")
    code, out, err = _run(["help", "click"])
    assert code == 0 and out.startswith("browse click") and err == ""


def test_a_usage_error_goes_to_the_given_stderr_and_as_json_when_asked() -> None:
    code, out, err = _run(["clik", "@e1"])
    assert code == ExitCode.USAGE and out == "" and "unknown command: clik" in err and "click" in err
    code, out, _ = _run(["--json", "clik"])
    assert code == ExitCode.USAGE and json.loads(out)["ok"] is False


def test_status_and_stop_with_no_daemon_say_so_without_starting_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BROWSE_STATE_DIR", raising=False)
    code, _, err = _run(["status"])
    assert code == ExitCode.UNAVAILABLE and f"no daemon is running for {tmp_path}" in err
    assert _run(["stop"]) == (0, "no daemon is running\n", "")
    assert not (tmp_path / ".refbrowse" / "daemon.json").exists()


def test_a_dash_argument_is_read_from_the_given_stdin() -> None:
    from refbrowse.cli.argv import parse_argv
    from refbrowse.cli.main import _stdin_values, _text_places

    assert _text_places(parse_argv(["fill", "@e1", "-"])) == [1]
    assert _text_places(parse_argv(["fill", "@e1", "a", "@e2", "-"])) == [1, 3]
    assert _stdin_values(io.StringIO("s3cret\n"), 1) == ["s3cret"]


def test_several_dashes_take_one_value_each_and_a_dash_stdin_cannot_answer_is_refused() -> None:
    from refbrowse.cli.main import _stdin_values

    assert _stdin_values(io.StringIO("one\ntwo\n"), 2) == ["one", "two"]
    assert _stdin_values(io.StringIO("a b\nc\0d e\0"), 2) == ["a b\nc", "d e"]
    for short in ("only one\n", ""):
        with pytest.raises(UsageError, match="2 texts given as `-`, but stdin held"):
            _stdin_values(io.StringIO(short), 2)
    with pytest.raises(UsageError, match="but stdin held 0"):
        _stdin_values(io.StringIO(""), 1)
    closed = io.StringIO("x")
    closed.close()
    with pytest.raises(UsageError, match="there is no stdin"):
        _stdin_values(closed, 1)
