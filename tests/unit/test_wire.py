"""The CLI's own JSON encoder and daemon.json reader agree with the json module."""

from __future__ import annotations

import json
import random

import pytest

from refbrowse import wire

TRICKY = [
    "",
    "plain",
    'quote " inside',
    "back\\slash",
    "new\nline\ttab\r",
    "\x00\x1f\x7f",
    "héllo ☃ 😀",
    "\udcff",
]


@pytest.mark.parametrize("text", TRICKY)
def test_strings_encode_as_json_decodes_them(text: str) -> None:
    encoded = wire.dumps({"s": text, "l": [text, True, None, 3, 1.5]})
    decoded = json.loads(encoded)
    assert decoded == {"s": text, "l": [text, True, None, 3, 1.5]}
    encoded.encode()  # always valid UTF-8, lone surrogates included


def test_random_strings_round_trip() -> None:
    rng = random.Random(7)
    alphabet = [chr(c) for c in range(0, 0x250)] + ["😀", '"', "\\"]
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        assert json.loads(wire.dumps(text)) == text
        assert wire.loads_flat_object(json.dumps({"k": text, "n": 5})) == {"k": text, "n": 5}


def test_daemon_file_shape_is_read_back() -> None:
    state = {
        "pid": 12,
        "port": 40000,
        "token": "a-b_c",
        "started": 1763.25,
        "mode": "cdp ws://h/x",
        "ok": False,
    }
    assert wire.loads_flat_object(json.dumps(state)) == state
    assert wire.loads_flat_object(json.dumps(state, indent=2)) == state


@pytest.mark.parametrize("bad", ["", "{", '{"a": }', '{"a": 1} x', "[1]", '{"a": "unterminated'])
def test_malformed_daemon_files_raise(bad: str) -> None:
    with pytest.raises((ValueError, IndexError, KeyError)):
        wire.loads_flat_object(bad)
