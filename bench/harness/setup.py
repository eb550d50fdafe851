"""Everything the harness needs before it measures: the peers, the documents, the facts.

The peers are installed from npm into `bench/peers/` (gitignored, thrown away
at will) at the exact versions compared; the large real documents come from
Debian's `python3.11-doc`, installed with apt when missing and allowed.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys

PEERS = {"agent-browser": "0.41.2", "@playwright/mcp": "0.0.83", "@playwright/cli": "0.1.22"}
DOCS_PACKAGE = "python3.11-doc"
DOCS_ROOT = "/usr/share/doc/python3.11/html"
CHROMIUM = "/usr/bin/chromium"


def installed_version(peers: str, package: str) -> str:
    try:
        with open(os.path.join(peers, "node_modules", package, "package.json")) as f:
            return str(json.load(f).get("version", ""))
    except (OSError, ValueError):
        return ""


def ensure_peers(peers: str) -> None:
    if all(installed_version(peers, name) == version for name, version in PEERS.items()):
        return
    if not shutil.which("npm"):
        sys.exit("npm is needed to install the peers: apt-get install -y nodejs npm")
    os.makedirs(peers, exist_ok=True)
    manifest = os.path.join(peers, "package.json")
    if not os.path.exists(manifest):
        with open(manifest, "w") as f:
            json.dump({"name": "refbrowse-bench-peers", "private": True}, f)
    specs = [f"{name}@{version}" for name, version in PEERS.items()]
    print(f"installing {' '.join(specs)} into {peers}", flush=True)
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", *specs], cwd=peers, check=True)


def ensure_docs() -> bool:
    """True when the large documents are there (installing them if this is root on Debian)."""
    marker = os.path.join(DOCS_ROOT, "library", "stdtypes.html")
    if os.path.exists(marker):
        return True
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        print(f"skipping the large documents: run `apt-get install -y {DOCS_PACKAGE}`", flush=True)
        return False
    print(f"installing {DOCS_PACKAGE} for the large real documents", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    if subprocess.run(["apt-get", "install", "-y", DOCS_PACKAGE], env=env, check=False).returncode:
        subprocess.run(["apt-get", "update"], env=env, check=False)
        subprocess.run(["apt-get", "install", "-y", DOCS_PACKAGE], env=env, check=False)
    return os.path.exists(marker)


def _first(command: list[str]) -> str:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)
    except OSError:
        return ""
    return (done.stdout or done.stderr).strip().splitlines()[0] if (done.stdout or done.stderr) else ""


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def memory_gb() -> float:
    try:
        with open("/proc/meminfo") as f:
            return int(f.readline().split()[1]) / 1024 / 1024
    except (OSError, ValueError, IndexError):
        return 0.0


def machine() -> dict[str, object]:
    return {
        "cores": os.cpu_count(),
        "cpu": cpu_model(),
        "memory_gb": round(memory_gb(), 1),
        "kernel": platform.release(),
        "load_at_start": list(os.getloadavg()),
    }


def versions(repo_python: str) -> dict[str, str]:
    return {
        "chromium": _first([CHROMIUM, "--version"]),
        "node": _first(["node", "--version"]),
        "python": platform.python_version(),
        "playwright (python)": _first(
            [repo_python, "-c", "import importlib.metadata as m; print(m.version('playwright'))"]
        ),
    }
