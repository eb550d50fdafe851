"""CA certificates that a cold start does not need, loaded once it is over.

Importing aiohttp (the daemon's HTTP server) makes its client's two default
TLS contexts at once, and each reads and parses the system's CA bundle: about
a quarter of aiohttp's import, on a start that competes for the CPU with
Node and Chromium. The daemon's only TLS client is `download` by URL. While
the server is imported, `CertLoads.deferred` lets TLS contexts be made
without their certificates and notes each load; `load_later` runs those
loads in a thread once the first command has answered, and `loaded` is what
a TLS client awaits before its first connection.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Callable, Iterator
from contextlib import contextmanager


class CertLoads:
    """The certificate loads put off while the daemon's server was imported (one per daemon)."""

    def __init__(self) -> None:
        self._pending: list[Callable[[], None]] = []
        self._loading: asyncio.Future[None] | None = None

    @contextmanager
    def deferred(self) -> Iterator[None]:
        """While the body runs, a TLS context's CA certificates are noted to load later, not loaded."""
        context_class = ssl.SSLContext
        load_default, default_paths = context_class.load_default_certs, context_class.set_default_verify_paths

        def note_default(context: ssl.SSLContext, purpose: ssl.Purpose = ssl.Purpose.SERVER_AUTH) -> None:
            self._pending.append(lambda: load_default(context, purpose))

        def note_paths(context: ssl.SSLContext) -> None:
            self._pending.append(lambda: default_paths(context))

        setattr(context_class, "load_default_certs", note_default)  # noqa: B010 - swapped for the body only
        setattr(context_class, "set_default_verify_paths", note_paths)  # noqa: B010
        try:
            yield
        finally:
            setattr(context_class, "load_default_certs", load_default)  # noqa: B010
            setattr(context_class, "set_default_verify_paths", default_paths)  # noqa: B010

    def load_later(self) -> None:
        """Start loading what `deferred` noted (in a thread), if it has not started."""
        if self._loading is None and self._pending:
            self._loading = asyncio.ensure_future(asyncio.to_thread(self._load_pending))

    async def loaded(self) -> None:
        """Every load `deferred` noted is done: a TLS connection may verify its peer."""
        self.load_later()
        if self._loading is not None:
            await asyncio.shield(self._loading)

    def _load_pending(self) -> None:
        while self._pending:
            self._pending.pop(0)()
