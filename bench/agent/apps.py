"""The real applications: installed from PyPI into a venv of their own, set up, served on 127.0.0.1.

Everything lives under bench/agent/.apps/ (gitignored): the venv, each app's
data and its log. Only what each app's own tools make is generated (a Wagtail
project from `wagtail start`, a SQLite file for Datasette, an MkDocs-Material
build of the Python-Markdown documentation from its sdist, and two small apps
written with NiceGUI's and Panel's own widgets); the packages are unmodified.
"""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tarfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, ".apps")
VENV = os.path.join(ROOT, "venv")
PINS = [
    "datasette==0.65.5",
    "wagtail==8.0.1",
    "nicegui==3.18.0",
    "panel==1.9.4",
    "mkdocs-material==9.8.1",
]
DOCS_SDIST = "markdown==3.10"
ADMIN = ("admin", "correct-horse-battery")
READY_SECONDS = 90.0


def bin_of(name: str) -> str:
    return os.path.join(VENV, "bin", name)


def ensure_venv() -> None:
    """The apps' venv with the pinned packages (reinstalled when the pins change)."""
    stamp = os.path.join(VENV, ".pins")
    wanted = "\n".join(PINS)
    if os.path.exists(stamp):
        with open(stamp) as f:
            if f.read() == wanted:
                return
    print(f"installing {' '.join(PINS)} into {VENV}", flush=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", VENV], check=True)
    subprocess.run([bin_of("pip"), "install", "-q", *PINS], check=True)
    with open(stamp, "w") as f:
        f.write(wanted)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class App:
    """One application: where its files are, how to start it, where it answers."""

    name: str
    home: str = ""
    port: int = 0
    proc: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def prepare(self) -> None:
        """Generate the app's data once (idempotent)."""

    def fresh(self) -> None:
        """Put the app's data back as `prepare` left it, before a task run: a run must not see what
        the run before it made (a second tool would read one more page than the first)."""

    def argv(self) -> list[str]:
        raise NotImplementedError

    ready_path = "/"

    def start(self) -> None:
        self.home = os.path.join(ROOT, self.name)
        os.makedirs(self.home, exist_ok=True)
        self.prepare()
        self.port = free_port()
        log = open(os.path.join(self.home, "server.log"), "ab")  # noqa: SIM115 - the child owns it
        self.proc = subprocess.Popen(self.argv(), cwd=self.home, stdout=log, stderr=log)
        self.wait_ready()

    def wait_ready(self) -> None:
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited: see {self.home}/server.log")
            try:
                with urllib.request.urlopen(self.base + self.ready_path, timeout=5):
                    return
            except (OSError, urllib.error.URLError):
                time.sleep(0.3)
        raise RuntimeError(f"{self.name} did not answer on {self.base} in {READY_SECONDS:.0f} s")

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None


class Datasette(App):
    """Datasette on a SQLite file of 240 made-up cities: filters, sort menus, a data table."""

    COUNTRIES = ("France", "Germany", "Italy", "Spain", "Portugal", "Poland", "Norway", "Greece")

    @property
    def db(self) -> str:
        return os.path.join(self.home, "places.db")

    def prepare(self) -> None:
        if os.path.exists(self.db):
            return
        rows = [
            (i, f"{c[:3]}town {i}", c, 10_000 + (i * 7_919 * 31) % 2_990_000, 800 + (i * 37) % 1150)
            for i, c in ((i, self.COUNTRIES[i % len(self.COUNTRIES)]) for i in range(1, 241))
        ]
        with sqlite3.connect(self.db) as db:
            db.execute(
                "create table cities (id integer primary key, name text, country text,"
                " population integer, founded integer)"
            )
            db.executemany("insert into cities values (?, ?, ?, ?, ?)", rows)

    def argv(self) -> list[str]:
        return [bin_of("datasette"), "serve", self.db, "-h", "127.0.0.1", "-p", str(self.port)]


class Wagtail(App):
    """A Wagtail site made by `wagtail start`, its admin user made by `createsuperuser`."""

    ready_path = "/admin/login/"

    @property
    def db(self) -> str:
        return os.path.join(self.home, "site", "db.sqlite3")

    @property
    def pristine(self) -> str:
        return self.db + ".pristine"

    def prepare(self) -> None:
        site = os.path.join(self.home, "site")
        if not os.path.exists(self.pristine):  # made before runs kept a pristine copy: made again
            shutil.rmtree(site, ignore_errors=True)
            self.create(site)
            shutil.copyfile(self.db, self.pristine)
        shutil.copyfile(self.pristine, self.db)
        # Wagtail autosaves a draft 500 ms after an edit; a Publish posted while that
        # request is in flight is refused (400), whichever tool clicks it. Turned
        # off in the project's own local settings so the check measures the tool.
        with open(os.path.join(site, "demo", "settings", "local.py"), "w") as f:
            f.write("WAGTAIL_AUTOSAVE_INTERVAL = 0\n")

    def create(self, site: str) -> None:
        os.makedirs(site, exist_ok=True)
        subprocess.run([bin_of("wagtail"), "start", "demo", site], check=True, capture_output=True)
        manage = [bin_of("python"), os.path.join(site, "manage.py")]
        subprocess.run([*manage, "migrate", "-v0"], check=True, cwd=site)
        env = {**os.environ, "DJANGO_SUPERUSER_PASSWORD": ADMIN[1]}
        user = ["createsuperuser", "--noinput", "--username", ADMIN[0], "--email", "admin@example.com"]
        subprocess.run([*manage, *user], check=True, cwd=site, env=env, capture_output=True)

    def fresh(self) -> None:
        """The pages the last run created are gone: the server stops, the database is put back, and
        the server starts again."""
        self.stop()
        self.start()

    def argv(self) -> list[str]:
        manage = os.path.join(self.home, "site", "manage.py")
        return [bin_of("python"), manage, "runserver", f"127.0.0.1:{self.port}", "--noreload"]


class NiceGui(App):
    """A task form of NiceGUI's own elements: a Quasar select, a dialog, a notification."""

    def prepare(self) -> None:
        shutil.copy(os.path.join(HERE, "appfiles", "nicegui_tasks.py"), self.home)

    @property
    def store(self) -> str:
        return os.path.join(self.home, "tasks.json")

    def argv(self) -> list[str]:
        return [bin_of("python"), "nicegui_tasks.py", str(self.port)]


class Panel(App):
    """A booking form of Panel's own widgets: Bokeh models, each rendered in a shadow root."""

    ready_path = "/panel_bookings"

    def prepare(self) -> None:
        shutil.copy(os.path.join(HERE, "appfiles", "panel_bookings.py"), self.home)

    @property
    def store(self) -> str:
        return os.path.join(self.home, "bookings.json")

    def argv(self) -> list[str]:
        origin = f"127.0.0.1:{self.port}"
        return [
            bin_of("panel"),
            "serve",
            "panel_bookings.py",
            "--address",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--allow-websocket-origin",
            origin,
        ]


class Docs(App):
    """The Python-Markdown documentation (from its sdist) built with MkDocs-Material, served as files."""

    @property
    def site(self) -> str:
        return os.path.join(self.home, "site")

    def prepare(self) -> None:
        if os.path.exists(os.path.join(self.site, "index.html")):
            return
        sdists = os.path.join(self.home, "sdist")
        pip = [bin_of("pip"), "download", "-q", "--no-binary", ":all:", "--no-deps", "-d", sdists]
        subprocess.run([*pip, DOCS_SDIST], check=True)
        (archive,) = (os.path.join(sdists, f) for f in os.listdir(sdists) if f.endswith(".tar.gz"))
        with tarfile.open(archive) as tar:
            tar.extractall(self.home, filter="data")
        shutil.copy(os.path.join(HERE, "appfiles", "mkdocs.yml"), self.home)
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        subprocess.run([bin_of("mkdocs"), "build", "-q"], check=True, cwd=self.home, env=env)

    def argv(self) -> list[str]:
        return [bin_of("python"), "-m", "http.server", str(self.port), "--bind", "127.0.0.1", "-d", self.site]


def all_apps() -> dict[str, App]:
    apps: list[App] = [
        Datasette("datasette"),
        Wagtail("wagtail"),
        NiceGui("nicegui"),
        Panel("panel"),
        Docs("mkdocs-material"),
    ]
    return {app.name: app for app in apps}
