"""The node driver the daemon starts before importing Playwright is the one Playwright would start."""

from __future__ import annotations

import asyncio
import os

import pytest
from playwright._impl._driver import compute_driver_executable, get_driver_env
from playwright._impl.transport import PipeTransport
from playwright.async_api import async_playwright

from refbrowse.daemon.core.browser import driver
from refbrowse.protocol import SECRET_ENV

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def test_the_early_driver_is_playwrights_own_node_and_cli() -> None:
    assert driver.command() == [*compute_driver_executable(), "run-driver"]


def test_the_early_driver_gets_playwrights_environment_without_the_secret_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    secret = sorted(SECRET_ENV)[0]
    monkeypatch.setenv(secret, "hunter2")
    env = driver.environment()
    assert secret not in env
    assert {k: v for k, v in get_driver_env().items() if k != secret} == env


def test_playwright_starts_on_the_early_driver_and_spawns_none_of_its_own() -> None:
    spawn_own = PipeTransport.connect
    early = driver.spawn()
    assert early is not None

    async def start() -> int:
        manager = async_playwright()
        with driver.adopted(early):
            playwright = await manager.start()
        assert manager._client is not None
        pid = manager._client._transport._proc.pid
        await playwright.stop()
        return int(pid)

    assert asyncio.run(start()) == early.pid
    assert PipeTransport.connect is spawn_own
    assert early.wait(timeout=10) is not None  # stopping Playwright ended it


def test_without_an_early_driver_playwright_spawns_its_own() -> None:
    spawn_own = PipeTransport.connect
    with driver.adopted(None):
        assert PipeTransport.connect is spawn_own
    assert os.path.isfile(compute_driver_executable()[1])
