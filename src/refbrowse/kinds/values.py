"""Plain values: keys and chords, JSON, sizes and regions, text, file paths."""

from __future__ import annotations

import os

from refbrowse.errors import UsageError
from refbrowse.kinds.bounds import MAX_PIXELS, MAX_VIEWPORT_SIDE

MODIFIERS = ("Shift", "Control", "Alt", "Meta", "ControlOrMeta")


def key(value: str, label: str) -> str:
    *modifiers, last = value.split("+") if value != "+" else [value]
    if not last and value.endswith("++"):
        last = "+"  # Control++ presses Control and +
        modifiers = modifiers[:-1]
    unknown = [m for m in modifiers if m not in MODIFIERS]
    if unknown or not last or not (len(last) == 1 or (last[:1].isupper() and last.isalnum())):
        raise UsageError(
            f"{label}: {value!r} is not a key name or chord",
            "for example: Enter, Tab, ArrowDown, a, Control+A (modifiers: Shift, Control, Alt, Meta)",
        )
    return value


def one_key(value: str, label: str) -> str:
    """One key, held or released on its own (`keydown Shift`): a chord is two keys."""
    if "+" in value.strip("+") or value.endswith("++"):
        raise UsageError(
            f"{label}: {value!r} is a chord; this takes one key",
            "hold each key in turn (keydown Shift, then keydown A), or press the chord with `press Shift+A`",
        )
    return key(value, label)


def json_value(value: str, label: str) -> object:
    import json

    try:
        return json.loads(value)
    except ValueError as exc:
        raise UsageError(f"{label} is not JSON: {exc}", "for example: '{\"a\": 1}'") from exc


def _pair(value: str, label: str, parts: int, example: str) -> tuple[int, ...]:
    separator = "," if parts == 4 else ("×" if "×" in value else "x")
    words = value.strip().split(separator)
    if len(words) != parts or not all(w.strip().isdigit() for w in words):
        raise UsageError(
            f"{label} takes {example.split()[0]}, got {value!r}", f"for example: {example.split()[1]}"
        )
    return tuple(int(w) for w in words)


def size(value: str, label: str) -> tuple[int, ...]:
    sides = _pair(value, label, 2, "WIDTHxHEIGHT 1280x800")
    if not all(10 <= side <= MAX_VIEWPORT_SIDE for side in sides):
        raise UsageError(
            f"{label} {value}: each side must be from 10 to {MAX_VIEWPORT_SIDE} pixels",
            "for example: 1280x800 (a full-page `screenshot` covers a longer page)",
        )
    return sides


def box(value: str, label: str) -> tuple[float, ...]:
    try:
        region = tuple(float(part) for part in value.split(","))
    except ValueError:
        region = ()
    if len(region) != 4:
        raise UsageError(f"{label} takes X,Y,W,H in CSS pixels, got {value!r}", "for example: 0,0,800,600")
    if region[2] <= 0 or region[3] <= 0 or region[0] < 0 or region[1] < 0:
        raise UsageError(f"{label} {value}: the region must have a positive size", "for example: 0,0,800,600")
    if not all(number <= MAX_PIXELS for number in region):  # nan and inf fail here too
        raise UsageError(
            f"{label} {value}: each number must be at most {MAX_PIXELS}", "for example: 0,0,800,600"
        )
    return region


def text(value: str, label: str) -> str:
    return value


def words(value: str, label: str) -> str:
    if not value.strip():
        raise UsageError(f"{label} is empty", f"give {label.split()[-1]} some text")
    return value


def path(value: str, label: str) -> str:
    if "\0" in value:
        raise UsageError(
            f"{label} is not a file path: it holds a NUL character", "give the file's path as it is"
        )
    return os.path.abspath(value)
