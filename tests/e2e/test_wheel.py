"""The wheel as a new user gets it: built, installed into a fresh venv outside the clone, used there.

`scripts/wheel-smoke.sh` does the work (CI runs it through `make wheel-smoke`, as root and as a
new non-root user); `make test` leaves it out (it downloads the dependencies and takes minutes):
run it with `pytest -m wheel`.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

SCRIPT = Path(__file__).resolve().parent.parent.parent / "scripts" / "wheel-smoke.sh"


@pytest.mark.wheel
def test_the_wheel_installs_and_works_outside_the_clone() -> None:
    done = subprocess.run(["sh", str(SCRIPT)], capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    runs = done.stdout.count("wheel smoke test: every step passed")
    assert runs >= 1, done.stdout[-3000:]
    for step in ("browse install finds a browser", "MCP initialize + tools/list", "skill install goes to"):
        assert done.stdout.count(f"ok: {step}") == runs, step
