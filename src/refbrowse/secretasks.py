"""What a command reads from the CLI's stdin as secrets (`auth save`'s password), in order.

The CLI asks for them (without echo on a terminal, else from stdin, one a line
or NUL-separated) and sends them in the request's `stdin`, never in argv; the
daemon reads them back by the same rule. Standard library only: the CLI imports it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from refbrowse.specs import CommandSpec


def secrets_asked(spec: CommandSpec, args: Sequence[str], flags: Mapping[str, object]) -> list[str]:
    """What is asked: each (`FORM` or `FORM --FLAG`, what) of the spec whose form and flag were given."""
    form = args[0].lower() if args else ""
    asked = []
    for when, what in spec.get("secrets_asked", ()):
        word, _, flag = when.partition(" ")
        if word == form and (not flag or flags.get(flag)):
            asked.append(what)
    return asked


def split_secrets(stdin: str | None, count: int) -> list[str]:
    """The `count` values the CLI sent: joined by NUL."""
    values = (stdin or "").split("\0") if count else []
    return values if len(values) == count else []
