"""argv → a request for the daemon, checked against the registry; help text.

Part of the CLI's warm path: standard library only, and little of it. Bad
usage raises `Usage` before anything expensive happens.
"""

from __future__ import annotations

import os

from refbrowse.registry import COMMANDS, GLOBAL_FLAGS, PATH_METAVARS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from refbrowse.specs import CommandSpec, Request


class CliError(Exception):
    """A failure the CLI reports itself: the message names the bad input, the hint the next step."""

    code = 1

    def __init__(self, message: str, hint: str = "", code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        if code is not None:
            self.code = code


class Usage(CliError):
    code = 2


def nearest_command(name: str) -> str | None:
    """The registered command closest to a mistyped one, if any is close."""
    best, best_distance = None, 3
    for candidate in COMMANDS:
        distance = _edit_distance(name, candidate)
        if distance < best_distance or (candidate.startswith(name) and best is None):
            best, best_distance = candidate, min(distance, best_distance)
    return best


def _edit_distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def parse_argv(argv: list[str]) -> Request:
    """Split argv into command, positional args, command flags and global options."""
    options: dict[str, str | bool] = {}
    words: list[str] = []
    rest = iter(argv)
    for word in rest:
        if word == "--":
            words.append(word)
            words.extend(rest)
        elif word in GLOBAL_FLAGS:
            metavar = GLOBAL_FLAGS[word][0]
            options[word[2:]] = _flag_value(word, metavar, rest) if metavar else True
        else:
            words.append(word)
    if not words:
        raise Usage("no command given", "run `browse help` to list the commands")
    name, raw_args = words[0], words[1:]
    spec = COMMANDS.get(name)
    if spec is None:
        near = nearest_command(name)
        hint = f"did you mean `browse {near}`?" if near else "run `browse help` to list the commands"
        raise Usage(f"unknown command: {name}", hint)
    args, flags = _split_flags(name, spec, raw_args)
    _check_arity(name, spec["args"], args)
    session = options.get("session")
    return {
        "command": name,
        "args": _absolute_paths(spec["args"], args),
        "flags": flags,
        "json": bool(options.get("json")),
        "raw": bool(options.get("raw")),
        "session": session if isinstance(session, str) else None,
        "timeout": _timeout_ms(options.get("timeout")),
        "stdin": None,
    }


def _flag_value(flag: str, metavar: str, rest: Iterator[str]) -> str:
    value = next(rest, None)
    if value is None:
        raise Usage(f"{flag} needs a value ({metavar})", f"for example: {flag} {metavar}")
    return value


def _split_flags(name: str, spec: CommandSpec, words: list[str]) -> tuple[list[str], dict[str, str | bool]]:
    known = spec["flags"]
    args: list[str] = []
    flags: dict[str, str | bool] = {}
    rest = iter(words)
    for word in rest:
        if word == "--":
            args.extend(rest)
            break
        if word in known:
            metavar = known[word][0]
            if metavar is None:
                flags[word] = True
                continue
            value = _flag_value(word, metavar, rest)
            flags[word] = os.path.abspath(value) if metavar in PATH_METAVARS else value
        elif word.startswith("-") and len(word) > 1 and not _is_number(word):
            takes = f"takes: {', '.join(known)}" if known else "takes no flags"
            raise Usage(
                f"unknown flag for {name}: {word}",
                f"`browse {name}` {takes} (put `--` before an argument that starts with -)",
            )
        else:
            args.append(word)
    return args, flags


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


def _check_arity(name: str, arg_names: tuple[str, ...], args: list[str]) -> None:
    required = [a for a in arg_names if not a.startswith("[")]
    variadic = any(a.endswith("...") for a in arg_names)
    if len(args) < len(required):
        missing = required[len(args)].rstrip(".")
        raise Usage(f"{name} needs {missing}", f"usage: browse {usage_line(name)}")
    if not variadic and len(args) > len(arg_names):
        extra = " ".join(args[len(arg_names) :])
        raise Usage(
            f"too many arguments for {name}: {extra}",
            f"usage: browse {usage_line(name)} (quote an argument that has spaces)",
        )


# An argument named SEL|PATH is a selector when it starts like one, else a path.
SELECTOR_STARTS = ("@", ".", "#", "[")


def _absolute_paths(arg_names: tuple[str, ...], args: list[str]) -> list[str]:
    out = []
    for i, value in enumerate(args):
        metavar = arg_names[min(i, len(arg_names) - 1)].strip("[].")
        selector = metavar == "SEL|PATH" and value.startswith(SELECTOR_STARTS)
        is_path = metavar in PATH_METAVARS or (metavar == "SEL|PATH" and not selector)
        out.append(os.path.abspath(value) if is_path else value)
    return out


def _timeout_ms(value: object) -> int | None:
    if value is None:
        return None
    try:
        ms = int(str(value))
    except ValueError:
        ms = -1
    if ms <= 0:
        raise Usage(
            f"--timeout must be a positive number of milliseconds, got {value!r}",
            "for example: --timeout 10000",
        )
    return ms


def usage_line(name: str) -> str:
    spec = COMMANDS[name]
    flags = " ".join(f"[{f} {m}]" if m else f"[{f}]" for f, (m, _) in spec["flags"].items())
    return " ".join(part for part in (name, flags, " ".join(spec["args"])) if part)


def help_text(name: str | None = None) -> str:
    if name is None:
        return _overview()
    if name not in COMMANDS:
        near = nearest_command(name)
        hint = f"did you mean `browse help {near}`?" if near else "run `browse help`"
        raise Usage(f"unknown command: {name}", hint)
    spec = COMMANDS[name]
    lines = [f"browse {usage_line(name)}", f"  {spec['help']}"]
    for flag, (metavar, text) in spec["flags"].items():
        lines.append(f"  {flag + (' ' + metavar if metavar else ''):<16} {text}")
    return "\n".join(lines)


def _overview() -> str:
    lines = ["usage: browse [--json] [--raw] [--session NAME] [--timeout MS] COMMAND [ARGS]", ""]
    for cat, title in (("write", "Act"), ("read", "Read"), ("meta", "Server")):
        lines.append(f"{title}:")
        for name, spec in COMMANDS.items():
            if spec["cat"] == cat:
                usage = usage_line(name)
                if len(usage) > 34:  # a long usage gets a line of its own
                    lines.append(f"  {usage}")
                    usage = ""
                lines.append(f"  {usage:<34} {spec['help']}")
        lines.append("")
    lines.append("Global flags:")
    for flag, (metavar, text) in GLOBAL_FLAGS.items():
        lines.append(f"  {flag + (' ' + metavar if metavar else ''):<16} {text}")
    lines.append("\nSelectors: a CSS selector, or @eN / @cN from `browse snapshot`.")
    return "\n".join(lines)
