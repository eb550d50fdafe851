"""The memory census's count of Python's arenas, read from the allocator's own report."""

from __future__ import annotations

import os
import re

from refbrowse.daemon.core.runtime.memwatch import arenas


def test_the_arenas_are_counted_and_stderr_is_given_back() -> None:
    before = os.fstat(2)
    found = re.fullmatch(r"([\d,]+) arenas \(at most ([\d,]+)\)", arenas())
    assert found is not None
    assert 1 <= int(found.group(1).replace(",", "")) <= int(found.group(2).replace(",", ""))
    after = os.fstat(2)
    assert (after.st_dev, after.st_ino) == (before.st_dev, before.st_ino)
