"""argv → a request checked against the registry, and a request's values → parsed values.

Shared by both processes, standard library only. The CLI runs `parse_argv`
on its own argv (bad usage raises `UsageError` before anything expensive
happens); the daemon runs it on each step of a `chain`, and runs
`parse_values` on every request it is sent, so handlers get values of the
kinds the registry declares (see `refbrowse.kinds`).
"""

from __future__ import annotations

from refbrowse import kinds
from refbrowse.checks import CHECKS
from refbrowse.errors import UsageError
from refbrowse.kinds.bounds import MAX_MS
from refbrowse.registry import COMMANDS, GLOBAL_FLAGS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping

    from refbrowse.specs import CommandSpec, Kind, Request

    Flags = dict[str, str | bool | list[str]]


def parse_argv(argv: list[str]) -> Request:
    """Split argv into command, positional args, command flags and global options; check every value."""
    options: Flags = {}
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
        raise UsageError("no command given", "run `browse help` to list the commands")
    name = words[0]
    spec = command_spec(name)
    args, flags = _split_flags(name, spec, words[1:])
    args, flags = checked_words(name, args, flags)
    session = options.get("session")
    return {
        "command": name,
        "args": args,
        "flags": flags,
        "json": bool(options.get("json")),
        "raw": bool(options.get("raw")),
        "session": session if isinstance(session, str) else None,
        "timeout": _timeout_ms(options.get("timeout")),
        "stdin": None,
    }


def command_spec(name: str) -> CommandSpec:
    spec = COMMANDS.get(name)
    if spec is None:
        near = nearest(name, COMMANDS)
        hint = f"did you mean `browse {near}`?" if near else "run `browse help` to list the commands"
        raise UsageError(f"unknown command: {name}", hint)
    return spec


def checked_words(name: str, args: list[str], flags: Flags) -> tuple[list[str], Flags]:
    """The words to send for a command: every value checked, paths absolute, a rest-of-line joined."""
    spec = COMMANDS[name]
    pairs = _arg_kinds(name, spec, args)
    for (label, kind), word in zip(pairs, args, strict=False):
        kinds.parse_value(kind, word, label)
    sent = [kinds.wire_form(kind, word) for (_, kind), word in zip(pairs, args, strict=False)]
    if pairs and pairs[-1][1] == "rest":
        sent = [*sent[: len(pairs) - 1], " ".join(args[len(pairs) - 1 :])]
    out_flags: Flags = {}
    for flag, given in flags.items():
        flag_type = flag_kind(spec, flag)
        if isinstance(given, list) and flag_type is not None:
            for one in given:
                kinds.parse_value(flag_type, one, f"{name} {flag}")
        elif isinstance(given, str) and flag_type is not None:
            kinds.parse_value(flag_type, given, f"{name} {flag}")
            given = kinds.wire_form(flag_type, given)
        out_flags[flag] = given
    check_rules(name, spec, args, flags)  # after each value fits its kind: a check may read them
    return sent, out_flags


def parse_values(
    name: str, args: list[str], flags: dict[str, object]
) -> tuple[list[object], dict[str, object]]:
    """The daemon's side: a request's words checked again and parsed into values of their kinds."""
    spec = command_spec(name)
    unknown = [flag for flag in flags if flag not in spec["flags"]]
    if unknown:
        raise UsageError(f"unknown flag for {name}: {unknown[0]}", f"usage: browse {usage_line(name)}")
    pairs = _arg_kinds(name, spec, args)
    values = [
        kinds.parse_value(kind, value, label) for (label, kind), value in zip(pairs, args, strict=False)
    ]
    parsed: dict[str, object] = {}
    for flag, value in flags.items():
        kind = flag_kind(spec, flag)
        if kind is None or value is True:
            parsed[flag] = value
        elif flag in spec.get("repeat", ()):
            parsed[flag] = [kinds.parse_value(kind, str(one), flag) for one in _given(value)]
        else:
            parsed[flag] = kinds.parse_value(kind, str(value), flag)
    check_rules(name, spec, [str(arg) for arg in args], flags)
    return values, parsed


def check_rules(name: str, spec: CommandSpec, args: list[str], flags: Mapping[str, object]) -> None:
    """The command's `rules` (see the registry): which flags and arguments go together, which do not."""
    if "rules" not in spec:
        return
    names = [arg.strip("[].") for arg in arg_names(name, spec, args)]

    def given(word: str) -> bool:
        if word.startswith("-"):  # a flag, or a flag with one value: `--samesite=none`
            flag, _, wanted = word.partition("=")
            value = flags.get(flag)
            return value not in (None, False) and (not wanted or _is(value, wanted))
        if word.islower():  # a form's first word: `geo off`
            return bool(args) and args[0].lower() == word
        return word in names and names.index(word) < len(args)

    for rule in spec["rules"]:
        if rule[0] == "check":
            CHECKS[rule[1]](name, args, flags)
            continue
        broken = _broken(name, rule, given)
        if broken is not None:
            raise broken


def _is(value: object, wanted: str) -> bool:
    """Whether a flag's value is the one a rule names: the same word, or the same whole number."""
    text = str(value).strip().lower()
    return int(text) == int(wanted) if text.isdigit() and wanted.isdigit() else text == wanted


def _broken(name: str, rule: tuple[str, ...], given: Callable[[str], bool]) -> UsageError | None:
    how, *named = rule
    on = [word.replace("=", " ", 1) for word in named if given(word)]  # `--delay=0` said `--delay 0`
    words = [word.replace("=", " ", 1) for word in named]
    if how == "one" and len(on) > 1:
        return UsageError(
            f"{name} takes one of {_either(words)}, not {on[0]} and {on[1]}", "keep one of them"
        )
    if how == "any" and not on:
        return UsageError(f"{name} needs {_either(words)}", f"usage: browse {usage_line(name)}")
    first, others = words[0], words[1:]
    if how == "apart" and given(named[0]) and len(on) > 1:
        return UsageError(f"{name} {first} does not go with {on[1]}", f"leave out {first} or {on[1]}")
    if how == "with" and given(named[0]) and len(on) == 1:
        if all(word.isupper() for word in others):  # arguments: `storage set KEY` lacks its VALUE
            return UsageError(f"{name} {first} needs {_either(others)}", f"usage: browse {usage_line(name)}")
        return UsageError(
            f"{name} {first} goes only with {_either(others)}", f"add {others[0]}, or leave out {first}"
        )
    return None


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _given(value: object) -> list[str]:
    """The values a repeatable flag was given so far: a list on the wire, or one word."""
    if isinstance(value, list):
        return [str(one) for one in value]
    return [] if value is None or isinstance(value, bool) else [str(value)]


def arg_kind(spec: CommandSpec, arg_name: str) -> Kind:
    bare = arg_name.strip("[].")
    return spec.get("kinds", {}).get(bare) or kinds.infer(bare)


def flag_kind(spec: CommandSpec, flag: str) -> Kind | None:
    """The kind of a flag's value; None for a switch."""
    metavar = spec["flags"][flag][0] if flag in spec["flags"] else None
    if metavar is None:
        return None
    return spec.get("kinds", {}).get(flag) or kinds.infer(metavar)


def arg_names(name: str, spec: CommandSpec, args: list[str]) -> tuple[str, ...]:
    """The arguments a call takes: a command with forms takes those of the form its first word names."""
    forms = spec.get("forms")
    if not forms or not args:
        return spec["args"]
    word = args[0].lower()
    if word not in forms:
        raise UsageError(
            f"{name} takes one of {', '.join(forms)}; got {args[0]!r}", f"usage: browse {usage_line(name)}"
        )
    return (spec["args"][0].strip("[]"), *forms[word])  # given, so no longer optional


def _arg_kinds(name: str, spec: CommandSpec, args: list[str]) -> list[tuple[str, Kind]]:
    """Each given argument's label and kind, after checking how many there are."""
    names = arg_names(name, spec, args)
    _check_arity(name, names, spec, args)
    group = repeated_group(names)
    fixed = len(names) - 1 if group else len(names)
    out = []
    for i in range(
        min(len(args), len(names)) if names and arg_kind(spec, names[-1]) == "rest" else len(args)
    ):
        in_group = group and i >= fixed
        arg_name = group[(i - fixed) % len(group)] if in_group else names[min(i, len(names) - 1)]
        out.append((f"{name} {arg_name.strip('[].')}", arg_kind(spec, arg_name)))
    return out


def repeated_group(names: tuple[str, ...]) -> tuple[str, ...]:
    """The names of a last argument that repeats as a group (`[SEL TEXT]...`: SEL, TEXT); () if none."""
    last = names[-1] if names else ""
    return tuple(last.strip("[].").split()) if " " in last and last.endswith("...") else ()


def _flag_value(flag: str, metavar: str, rest: Iterator[str]) -> str:
    value = next(rest, None)
    if value is None:
        raise UsageError(f"{flag} needs a value ({metavar})", f"for example: {flag} {metavar}")
    return value


def _split_flags(name: str, spec: CommandSpec, words: list[str]) -> tuple[list[str], Flags]:
    known = spec["flags"]
    args: list[str] = []
    flags: Flags = {}
    rest = iter(words)
    for word in rest:
        if word == "--":
            args.extend(rest)
            break
        if word in known:
            metavar = known[word][0]
            value: str | bool = True if metavar is None else _flag_value(word, metavar, rest)
            if word in spec.get("repeat", ()) and isinstance(value, str):
                flags[word] = [*_given(flags.get(word)), value]
            else:
                flags[word] = value
        elif _flag_like(word):
            raise _unknown_flag(name, word, known)
        else:
            args.append(word)
    return args, flags


def _flag_like(word: str) -> bool:
    """A dash word that is not a number (`-5`, `-3,4`) nor words with a space, which no flag holds
    (an option named "- nothing -")."""
    if not word.startswith("-") or len(word) == 1 or any(ch.isspace() for ch in word):
        return False
    return not all(_is_number(part) for part in word.split(","))


def _unknown_flag(name: str, word: str, known: Iterable[str]) -> UsageError:
    near = nearest(word, known)
    if near:
        hint = f"did you mean {near}?"
    elif known:
        hint = f"`browse {name}` takes: {', '.join(known)}"
    else:
        hint = f"`browse {name}` takes no flags"
    return UsageError(
        f"unknown flag for {name}: {word}", f"{hint} (put `--` before an argument that starts with -)"
    )


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


def _check_arity(name: str, arg_names: tuple[str, ...], spec: CommandSpec, args: list[str]) -> None:
    required = [a for a in arg_names if not a.startswith("[")]
    variadic = any(a.strip("[]").endswith("...") for a in arg_names) or bool(
        arg_names and arg_kind(spec, arg_names[-1]) == "rest"
    )
    if len(args) < len(required):
        missing = required[len(args)].rstrip(".")
        raise UsageError(f"{name} needs {missing}", f"usage: browse {usage_line(name)}")
    group = repeated_group(arg_names)
    in_groups = len(args) - (len(arg_names) - 1)
    if group and in_groups > 0 and in_groups % len(group):
        lacking = group[in_groups % len(group)]
        raise UsageError(
            f"{name} takes {' '.join(group)} pairs: {args[-1]!r} has no {lacking} after it",
            f"usage: browse {usage_line(name)} (quote an argument that has spaces)",
        )
    if not variadic and len(args) > len(arg_names):
        extra = " ".join(args[len(arg_names) :])
        raise UsageError(
            f"too many arguments for {name}: {extra}",
            f"usage: browse {usage_line(name)} (quote an argument that has spaces)",
        )


MAX_TIMEOUT_MS = MAX_MS


def _timeout_ms(value: object) -> int | None:
    if value is None:
        return None
    ms = int(str(value)) if str(value).isdigit() else 0
    if not 0 < ms <= MAX_TIMEOUT_MS:
        raise UsageError(
            f"--timeout must be a positive number of milliseconds up to {MAX_TIMEOUT_MS}, got {value!r}",
            "for example: --timeout 10000",
        )
    return ms


def nearest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate closest to a mistyped name, if any is close."""
    best, best_distance = None, 3
    for candidate in candidates:
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


def usage_line(name: str) -> str:
    spec = COMMANDS[name]
    flags = " ".join(f"[{f} {m}]" if m else f"[{f}]" for f, (m, _) in spec["flags"].items())
    return " ".join(part for part in (name, flags, args_usage(spec)) if part)


def args_usage(spec: CommandSpec) -> str:
    """The arguments as usage shows them; a command with forms shows each (`set NAME VALUE | clear`)."""
    forms = spec.get("forms")
    if not forms:
        return " ".join(spec["args"])
    shown = " | ".join(" ".join((word, *names)) for word, names in forms.items())
    return f"[{shown}]" if spec["args"][0].startswith("[") else shown
