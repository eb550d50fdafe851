"""Two more real applications of shapes the first five lack: an IDE-like app and a large Sphinx site.

JupyterLab (from PyPI, into a venv of its own under .apps/, so that the other
apps' pins stay as they are) serves a notebook server on an empty folder. The
Python 3.11 documentation is Debian's `python3.11-doc` package (Sphinx-built
HTML, installed with apt when missing), served as files. Neither is modified.
"""

from __future__ import annotations

import os
import subprocess
import sys

from agent.apps import ROOT, App

IDE_VENV = os.path.join(ROOT, "venv-ide")
IDE_PINS = ["jupyterlab==4.6.6"]
PYTHON_DOCS = "/usr/share/doc/python3.11/html"


def ensure_ide_venv() -> None:
    stamp = os.path.join(IDE_VENV, ".pins")
    wanted = "\n".join(IDE_PINS)
    if os.path.exists(stamp):
        with open(stamp) as f:
            if f.read() == wanted:
                return
    print(f"installing {' '.join(IDE_PINS)} into {IDE_VENV}", flush=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", IDE_VENV], check=True)
    subprocess.run([os.path.join(IDE_VENV, "bin", "pip"), "install", "-q", *IDE_PINS], check=True)
    with open(stamp, "w") as f:
        f.write(wanted)


class JupyterLab(App):
    """JupyterLab on an empty folder: a launcher, a notebook's cells, a kernel, a save dialog."""

    ready_path = "/lab"

    @property
    def notebooks(self) -> str:
        return os.path.join(self.home, "notebooks")

    def prepare(self) -> None:
        ensure_ide_venv()
        os.makedirs(self.notebooks, exist_ok=True)

    def argv(self) -> list[str]:
        return [
            os.path.join(IDE_VENV, "bin", "jupyter"),
            "lab",
            "--allow-root",
            "--no-browser",
            "--ServerApp.token=",
            "--ServerApp.password=",
            "--ip=127.0.0.1",
            f"--port={self.port}",
            f"--ServerApp.root_dir={self.notebooks}",
        ]


class PythonDocs(App):
    """Debian's Python 3.11 documentation: a large Sphinx site, served as files."""

    ready_path = "/library/asyncio-task.html"

    def prepare(self) -> None:
        if not os.path.exists(os.path.join(PYTHON_DOCS, "index.html")):
            subprocess.run(["apt-get", "install", "-y", "-q", "python3.11-doc"], check=True)

    def argv(self) -> list[str]:
        return [sys.executable, "-m", "http.server", str(self.port), "--bind", "127.0.0.1", "-d", PYTHON_DOCS]


class AdminLike(App):
    """Small pages of Django admin's and MLflow's shapes: the tests' fixtures (`tasks_admin`)."""

    ready_path = "/reports/related.html"

    def argv(self) -> list[str]:
        return [sys.executable, "-m", "http.server", str(self.port), "--bind", "127.0.0.1", "-d", ADMIN_PAGES]


# The tests' pages, one copy: the tasks load /reports/related.html, /reports3/changelist.html...
ADMIN_PAGES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "fixtures")


def more_apps() -> dict[str, App]:
    return {
        app.name: app for app in (JupyterLab("jupyterlab"), PythonDocs("python-docs"), AdminLike("adminlike"))
    }
