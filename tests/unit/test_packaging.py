"""What a registry release ships: one version, a licence, metadata, and only the runtime by default."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import refbrowse

ROOT = Path(__file__).resolve().parent.parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
TOOLS = (
    "pytest",
    "pytest-xdist",
    "hypothesis",
    "ruff",
    "mypy",
    "haralyzer",
    "coverage",
    "keyring",
    "keyrings.alt",
)


def test_the_version_has_one_source() -> None:
    assert PROJECT["dynamic"] == ["version"] and "version" not in PROJECT
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setuptools["dynamic"]["version"] == {"attr": "refbrowse.__version__"}
    written = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "src").rglob("*.py")
        if re.search(r"""["']\d+\.\d+\.\d+["']""", path.read_text()) and path.name == "__init__.py"
    ]
    assert written == ["src/refbrowse/__init__.py"], written
    assert re.fullmatch(r"\d+\.\d+\.\d+", refbrowse.__version__)


def test_the_licence_is_mit_in_the_file_the_metadata_and_the_readme() -> None:
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")
    assert PROJECT["license"] == {"text": "MIT"}
    assert "License :: OSI Approved :: MIT License" in PROJECT["classifiers"]
    assert "MIT licence" in (ROOT / "README.md").read_text()


def test_the_metadata_a_registry_shows() -> None:
    assert PROJECT["readme"] == "README.md" and PROJECT["requires-python"] == ">=3.11"
    assert {"Homepage", "Documentation", "Issues"} <= set(PROJECT["urls"])
    assert any(c.startswith("Programming Language :: Python :: 3.11") for c in PROJECT["classifiers"])


def test_the_default_install_is_the_runtime_and_the_tools_are_extras() -> None:
    runtime = " ".join(PROJECT["dependencies"])
    assert not [tool for tool in TOOLS if tool in runtime]
    extras = PROJECT["optional-dependencies"]
    assert {"test", "lint", "dev"} <= set(extras)
    assert extras["dev"] == ["refbrowse[test,lint]"]
    assert {re.split(r"[=<>]", r)[0] for r in extras["test"] + extras["lint"]} == set(TOOLS)


def test_make_demo_installs_the_runtime_only_and_make_test_the_tools() -> None:
    def planned(target: str) -> str:
        argv = ["make", "-n", "-W", "pyproject.toml", target]  # as if pyproject.toml had changed
        return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=True).stdout

    demo = planned("demo")
    installs = [line for line in demo.splitlines() if " install " in line and "pip" in line]
    assert installs and all(line.rstrip().endswith(" -e .") for line in installs), installs
    assert "browse demo" in demo and "usually" in demo, "it says what it does and how long it takes"
    assert "-e '.[dev]'" in planned("test")
