"""The MCP server's page-tool watcher: its long wait in the daemon never holds the server's exit."""

from __future__ import annotations

import threading

import anyio
import pytest

from refbrowse.mcp.pagetools import _left_behind_on_exit


def test_a_cancelled_watcher_returns_at_once_and_leaves_its_wait_to_a_daemon_thread() -> None:
    started, released = threading.Event(), threading.Event()
    backstop = threading.Timer(30, released.set)  # had the cancel waited for the ask, this ends it
    backstop.start()

    def ask(argv: list[str]) -> list[str]:
        started.set()
        released.wait()
        return argv

    async def scenario() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(_left_behind_on_exit, ask, ["tools-wait"])
            await anyio.to_thread.run_sync(started.wait)
            group.cancel_scope.cancel()

    anyio.run(scenario)
    assert not released.is_set(), "the cancel waited for the daemon's answer"
    waiting = [t for t in threading.enumerate() if t.name == "tools-wait"]
    assert waiting and all(t.daemon for t in waiting)  # the process's exit does not join it
    released.set()
    backstop.cancel()


@pytest.mark.filterwarnings(
    "ignore::pytest.PytestUnhandledThreadExceptionWarning"
)  # the failing ask's, printed
def test_the_watcher_gets_the_answer_of_its_ask_or_an_error() -> None:
    def ask(argv: list[str]) -> list[str]:
        if argv == ["fail"]:
            raise ValueError("no json")
        return [*argv, "answered"]

    assert anyio.run(_left_behind_on_exit, ask, ["tools-wait", "m"]) == ["tools-wait", "m", "answered"]
    with pytest.raises(RuntimeError, match="`fail` failed in its thread"):  # not a watcher waiting forever
        anyio.run(_left_behind_on_exit, ask, ["fail"])
    for thread in threading.enumerate():  # its hook reports the error within this test, not a later one
        if thread.name == "tools-wait":
            thread.join(10)
