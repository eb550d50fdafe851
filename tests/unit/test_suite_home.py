"""The suite runs in a home of its own: what the person running it installed cannot change a result."""

from __future__ import annotations

import os
import pwd
from pathlib import Path


def test_no_test_reads_the_real_home() -> None:
    real = Path(pwd.getpwuid(os.getuid()).pw_dir).resolve()
    run = Path(os.environ["REFBROWSE_SUITE_TMP"]).resolve()
    home = Path(os.path.expanduser("~")).resolve()
    assert home != real and home.is_relative_to(run), home
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"):
        assert Path(os.environ[name]).resolve().is_relative_to(home), name
        assert Path(os.environ[name]).is_dir(), name
