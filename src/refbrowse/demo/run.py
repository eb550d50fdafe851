"""`browse demo`: the main job on the demo page, done as an agent does it, each step printed.

Load the page (goto prints its refs), read it, then sign up: fill and click by
@ref, and read what the click did from its own report. The page is a file in
the package, so `goto` is told it may load one (`--allow-file`). Each step is
printed as a command line that can be pasted, then what `browse` answered.
"""

from __future__ import annotations

import shlex
import sys

from refbrowse.cli.argv import parse_argv
from refbrowse.cli.main import respond
from refbrowse.demo import url
from refbrowse.errors import PageError
from refbrowse.exitcodes import ExitCode
from refbrowse.specs import Request

# The form's controls, by role and accessible name, as `snapshot -i` lists them.
FORM = {
    "team": ("textbox", "Team name"),
    "email": ("textbox", "Work email"),
    "plan": ("combobox", "Plan"),
    "terms": ("checkbox", "I accept the terms of service"),
    "create": ("button", "Create team"),
}


class StepFailed(Exception):
    """A step failed; it has printed its own error and hint, and this carries its exit code."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def _answer(argv: list[str]) -> str:
    """Run one command: its stdout; its stderr (notes, or the error and hint) goes to ours."""
    code, out, err = respond(parse_argv(argv))
    sys.stdout.flush()
    sys.stderr.write(err.decode())
    if code != ExitCode.OK:
        sys.stdout.write(out.decode())
        raise StepFailed(code)
    return out.decode()


def step(*argv: str) -> None:
    print(f"\n$ browse {shlex.join(argv)}", flush=True)
    sys.stdout.write(_answer(list(argv)))
    sys.stdout.flush()


def refs_of_form() -> dict[str, str]:
    """The @ref of each control of `FORM`, from a fresh `snapshot -i`."""
    lines = _answer(["--raw", "snapshot", "-i"]).splitlines()
    refs = {}
    for key, (role, name) in FORM.items():
        line = next((line for line in lines if f'- {role} "{name}" @' in line), "")
        if not line:
            raise PageError(f'no {role} "{name}" in the demo page\'s snapshot', "run `browse doctor`")
        refs[key] = line.split(f'"{name}" ', 1)[1].split()[0].rstrip(":")
    return refs


def run(req: Request) -> int:
    try:
        _sign_up()
    except StepFailed as failed:
        return failed.code
    print("\nThe browser stays up for the next command: try `browse status`; `browse stop` ends it.")
    return ExitCode.OK


def _sign_up() -> None:
    step("goto", "--allow-file", url())
    for command in ("text", "forms", "links", "tabs"):
        step(command)
    ref = refs_of_form()
    step("fill", ref["team"], "Rocket Lab")
    step("fill", ref["email"], "ada@rocket.example")
    step("select", ref["plan"], "Enterprise")
    step("check", ref["terms"])
    step("click", ref["create"])
    step("text", "#welcome-text")
