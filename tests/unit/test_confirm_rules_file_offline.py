"""BROWSE_CONFIRM_RULES is opened as the state files are: no symlink followed, no FIFO waited on, no
file read past its bound; a file refused holds every action, and the daemon says why (its first
command's notice, `status`, each held action)."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from refbrowse.daemon.core.io.notices import Notices
from refbrowse.daemon.services.consent import policy as consent_policy
from refbrowse.daemon.services.consent.gate import ConsentGate
from refbrowse.daemon.services.consent.policy import ConsentPolicy, Consequence

RULE = [{"name": "^Wipe$"}]


def _policy(monkeypatch: pytest.MonkeyPatch, path: Path) -> ConsentPolicy:
    monkeypatch.setenv("BROWSE_CONFIRM_RULES", str(path))
    return ConsentPolicy.from_env()


def _holds_everything(policy: ConsentPolicy) -> bool:
    return policy.kinds_of(Consequence("click", name="Read more")) == ["rule"]


def test_a_regular_file_gives_its_rules(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "rules.json").write_text(json.dumps(RULE))
    policy = _policy(monkeypatch, tmp_path / "rules.json")
    assert policy.refused == "" and not _holds_everything(policy)
    assert policy.kinds_of(Consequence("click", name="Wipe")) == ["rule"]


def test_a_symlink_is_refused_and_said(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "theirs.json").write_text(json.dumps(RULE))
    (tmp_path / "rules.json").symlink_to(tmp_path / "theirs.json")
    policy = _policy(monkeypatch, tmp_path / "rules.json")
    assert "symlink" in policy.refused and _holds_everything(policy)
    notices = Notices()
    gate = ConsentGate(notices, policy)
    said = "BROWSE_CONFIRM_RULES was refused (it is a symlink; name the file it points to)"
    assert said in gate.status_line() and said in notices.take()[0]


def test_a_fifo_is_refused_without_waiting_for_a_writer(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fifo = tmp_path / "rules.json"
    os.mkfifo(fifo, 0o600)
    found: list[ConsentPolicy] = []
    reading = threading.Thread(target=lambda: found.append(_policy(monkeypatch, fifo)), daemon=True)
    reading.start()
    reading.join(5)
    if reading.is_alive():  # let the stuck reader go before failing
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert found and "not a regular file" in found[0].refused and _holds_everything(found[0])


def test_a_file_past_its_bound_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(consent_policy, "RULES_MAX", 100)
    (tmp_path / "rules.json").write_text(json.dumps(RULE * 20))
    policy = _policy(monkeypatch, tmp_path / "rules.json")
    assert policy.refused == "larger than 100 bytes" and _holds_everything(policy)
