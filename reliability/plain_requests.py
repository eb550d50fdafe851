"""Plain Playwright, no daemon: do its live Request objects stay under the driver's cap of 10,000?

The control for `gotoleak.py`: one page of `--images` + 1 requests loaded
`--gotos` times in one process, with a `requestfinished` listener (as the
network log has) and, with `--toggle`, a `request` listener added and removed
around each `goto` (as an action's watch does). Every 100 `goto`s it prints
the live Request objects counted after a full collection.

    .venv/bin/python reliability/plain_requests.py --gotos 700 [--toggle]

Not part of `make reliability`; its figures are quoted in RELIABILITY.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from playwright._impl.network import Request
from playwright.async_api import async_playwright

from refbrowse.daemon.core.browser.chromium import find_chromium


class Pages(BaseHTTPRequestHandler):
    images = 20

    def log_message(self, *_: object) -> None:
        pass

    def handle_one_request(self) -> None:
        with contextlib.suppress(OSError):  # an image the next `goto` cut short
            super().handle_one_request()

    def do_GET(self) -> None:
        page = self.path.startswith("/p")
        body = "<title>x</title>" + "".join(f"<img src='/i{i}.png?{self.path}'>" for i in range(self.images))
        data = body.encode() if page else b"x"
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


async def run(gotos: int, toggle: bool, port: int) -> None:
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=find_chromium(), args=["--no-sandbox"])
        page = await (await browser.new_context()).new_page()
        page.on("requestfinished", lambda _: None)
        for n in range(gotos):
            watch = lambda _: None  # noqa: E731 - a new listener each time, as each action's watch is
            if toggle:
                page.on("request", watch)
            await page.goto(f"http://127.0.0.1:{port}/p{n}")
            if toggle:
                page.remove_listener("request", watch)
            if n % 100 == 99:
                gc.collect()
                live = sum(1 for o in gc.get_objects() if isinstance(o, Request))
                print(f"{n + 1:6d} gotos · {live:6d} live Request objects", flush=True)
        await browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gotos", type=int, default=700)
    parser.add_argument("--images", type=int, default=20)
    parser.add_argument("--toggle", action="store_true", help="a request listener added and removed per goto")
    args = parser.parse_args()
    Pages.images = args.images
    server = ThreadingHTTPServer(("127.0.0.1", 0), Pages)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    asyncio.run(run(args.gotos, args.toggle, server.server_address[1]))


if __name__ == "__main__":
    main()
