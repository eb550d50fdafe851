"""The fixture pages, served on 127.0.0.1 to every tool alike, from a process of their own.

Run as `python server.py FIXTURES DOCS`: prints the port on its first line,
then serves until killed. Routes:
  /fixtures/...   static pages from bench/fixtures
  /docs/...       large real documents (Debian's Python HTML docs)
  /app/...        the multi-page shop the scripted task walks through
A process of its own, so that serving pages never competes with the timing
loop for the harness's interpreter lock.
"""

from __future__ import annotations

import html
import os
import sys
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

PRODUCTS = {
    1: ("Blue widget", "A sturdy blue widget for everyday use.", "12.00"),
    2: ("Red widget", "The red one: same widget, bolder colour.", "12.50"),
    3: ("Widget stand", "Keeps any widget upright on a desk.", "8.00"),
    4: ("Pocket gadget", "Not a widget, but people ask for it.", "19.90"),
    5: ("Green widget", "A widget made from recycled parts.", "11.00"),
}
SHIPPING = ("Standard", "Express", "Overnight")

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title} · Widget Shop</title>
<style>body{{font-family:sans-serif;max-width:48rem;margin:2rem auto}} nav a{{margin-right:1rem}}</style>
</head><body><header><nav aria-label="Main"><a href="/app/search">Home</a><a href="/app/help">Help</a>
<a href="/app/account">Account</a><a href="/app/login">Log out</a></nav></header>
<main><h1>{title}</h1>{body}</main><footer><p>Widget Shop · a local fixture for benchmarks</p></footer>
</body></html>"""


def page(title: str, body: str) -> bytes:
    return PAGE.format(title=html.escape(title), body=body).encode()


def login_page(error: str = "") -> bytes:
    note = f'<p role="alert">{html.escape(error)}</p>' if error else ""
    return page(
        "Log in",
        f"""{note}<form method="post" action="/app/login">
<p><label for="user">Username</label> <input id="user" name="user" autocomplete="username"></p>
<p><label for="pass">Password</label> <input id="pass" name="pass" type="password"></p>
<p><button type="submit">Log in</button></p></form>""",
    )


def search_page() -> bytes:
    return page(
        "Search",
        """<form method="get" action="/app/results" role="search">
<label for="q">Search products</label> <input id="q" name="q" type="search">
<button type="submit">Search</button></form><p>Try “widget”.</p>""",
    )


def results_page(query: str) -> bytes:
    hits = [(n, p) for n, p in PRODUCTS.items() if query.lower() in p[0].lower()]
    items = "".join(f'<li><a href="/app/item/{n}">{html.escape(p[0])}</a> — {p[2]} €</li>' for n, p in hits)
    return page(f"Results for {query}", f"<p>{len(hits)} results</p><ul>{items}</ul>")


def item_page(number: int) -> bytes:
    name, text, price = PRODUCTS[number]
    return page(
        name,
        f"""<p>{html.escape(text)}</p><p>Price: {price} €</p>
<p><a href="/app/order/{number}">Order this item</a></p><p><a href="/app/search">Back to search</a></p>""",
    )


def order_page(number: int) -> bytes:
    options = "".join(f'<option value="{s.lower()}">{s}</option>' for s in SHIPPING)
    return page(
        f"Order {PRODUCTS[number][0]}",
        f"""<form method="post" action="/app/order/{number}">
<p><label for="name">Full name</label> <input id="name" name="name" required></p>
<p><label for="ship">Shipping</label> <select id="ship" name="ship">{options}</select></p>
<p><label><input type="checkbox" name="gift" value="yes"> Gift wrap</label></p>
<p><button type="submit">Place order</button></p></form>""",
    )


def confirmation_page(query: dict[str, list[str]]) -> bytes:
    number = int(query.get("item", ["1"])[0])
    name = query.get("name", [""])[0]
    ship = query.get("ship", ["standard"])[0]
    gift = ", gift wrapped" if query.get("gift") else ""
    line = f"Order confirmed: {PRODUCTS[number][0]} for {name}, {ship} shipping{gift}."
    return page("Thank you", f"<p id='confirmation'>{html.escape(line)}</p>")


class Handler(SimpleHTTPRequestHandler):
    fixtures = ""
    docs = ""

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: a request log line per command would swamp the harness's output."""

    def translate_path(self, path: str) -> str:
        parts = urlsplit(path).path
        for prefix, root in (("/fixtures/", self.fixtures), ("/docs/", self.docs)):
            if parts.startswith(prefix):
                self.directory = root
                return super().translate_path(parts[len(prefix) - 1 :])
        return "/nonexistent"

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        if not url.path.startswith("/app/"):
            return super().do_GET()
        query = parse_qs(url.query)
        if url.path != "/app/login" and "sid=" not in self.headers.get("Cookie", ""):
            return self.redirect("/app/login")
        self.respond(self.app_page(url.path, query))

    def app_page(self, path: str, query: dict[str, list[str]]) -> bytes:
        if path == "/app/login":
            return login_page()
        if path == "/app/results":
            return results_page(query.get("q", [""])[0])
        if path.startswith("/app/item/"):
            return item_page(int(path.rsplit("/", 1)[1]))
        if path.startswith("/app/order/"):
            return order_page(int(path.rsplit("/", 1)[1]))
        if path == "/app/confirmation":
            return confirmation_page(query)
        return search_page()

    def do_POST(self) -> None:
        url = urlsplit(self.path)
        length = int(self.headers.get("Content-Length", "0"))
        form = parse_qs(self.rfile.read(length).decode())
        if url.path == "/app/login":
            if form.get("user") and form.get("pass"):
                return self.redirect("/app/search", cookie=f"sid={form['user'][0]}; Path=/")
            return self.respond(login_page("Enter a username and a password."))
        number = url.path.rsplit("/", 1)[1]
        fields = urlencode({key: values[0] for key, values in form.items()})
        return self.redirect(f"/app/confirmation?item={number}&{fields}")

    def redirect(self, location: str, cookie: str = "") -> None:
        self.send_response(303)
        self.send_header("Location", location)
        if cookie:
            self.send_header("Set-Cookie", cookie)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def respond(self, body: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def main() -> None:
    Handler.fixtures, Handler.docs = (os.path.abspath(p) for p in sys.argv[1:3])
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
