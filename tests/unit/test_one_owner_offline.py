"""Facts with one owner: the request's fields, the timeouts' chain."""

from __future__ import annotations

import dataclasses
import typing

from refbrowse import specs
from refbrowse.daemon.core.io.request import CheckedRequest
from refbrowse.daemon.core.runtime.timeouts import Timeouts
from refbrowse.daemon.intake import FIELDS
from refbrowse.registry import DEFAULTS

# The daemon's typed request names one field otherwise: the CLI's `timeout` is its `timeout_ms`.
_RENAMED = {"timeout": "timeout_ms"}


def test_the_request_fields_are_declared_once_and_the_daemon_s_forms_follow() -> None:
    declared = set(typing.get_type_hints(specs.Request))
    assert set(FIELDS) == declared
    typed = {field.name for field in dataclasses.fields(CheckedRequest)}
    assert {_RENAMED.get(name, name) for name in declared} == typed
    assert FIELDS["session"] == (str, type(None)) and FIELDS["args"] == (list,)


def test_a_request_s_timeout_is_over_the_daemon_s_and_the_defaults_are_the_root() -> None:
    root = Timeouts()
    assert (root.action(), root.navigation()) == (DEFAULTS["action_ms"], DEFAULTS["nav_ms"])
    daemon = Timeouts(default_ms=7_000, navigation_ms=DEFAULTS["nav_ms"])
    assert (daemon.action(), daemon.navigation()) == (7_000, DEFAULTS["nav_ms"])
    plain = daemon.child(None)
    assert (plain.action(), plain.navigation(), plain.longest()) == (7_000, 30_000, 30_000)
    given = daemon.child(2_500)
    assert (given.action(), given.navigation(), given.longest()) == (2_500, 2_500, 2_500)
