"""The docs name only what exists: every module, file, function and command they quote.

README.md, RELIABILITY.md, SKILL.md and docs/ quote code in backticks. A quoted path
(`daemon/core/browser/host.py`, `tests/e2e/`) must be a file or folder of the repository; a
quoted `module.name` must be defined in that module (`parse.parse_argv`), a `Class.member` or
`instance.member` on that class (`call.flag`); a quoted `browse CMD` must be a command. A
`module.name` whose module no longer exists while `name` does (`effects.perform` after the
module was split) fails too.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

from refbrowse.registry import COMMANDS, GLOBAL_FLAGS

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "refbrowse"
DOCS = [ROOT / "README.md", ROOT / "RELIABILITY.md", ROOT / "SKILL.md", *sorted((ROOT / "docs").glob("*.md"))]
# Folders a quoted path may start from: the repository's, the package's and the daemon's.
SOURCE_ROOTS = ("src/", "tests/", "bench/", "docs/", "scripts/", "reliability/", "bin/")
PACKAGE_DIRS = ("daemon/", "cli/", "mcp/", "setup/", "extension/", "demo/")
DAEMON_DIRS = ("core/", "page/", "action/", "services/", "handlers/", "scripts/")
DATA_SUFFIXES = ("json", "log", "lock", "har", "sqlite", "png", "webm", "txt", "html", "pdf")
SKIPPED_PARTS = {".git", ".venv", "__pycache__", "node_modules"}


@functools.cache
def _repo_paths() -> frozenset[str]:
    paths = set()
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT)
        if SKIPPED_PARTS.isdisjoint(rel.parts) and not str(rel).endswith(".egg-info"):
            paths.add(rel.as_posix() + ("/" if path.is_dir() else ""))
    return frozenset(paths)


def _exists(quoted: str) -> bool:
    return any(path == quoted or path.endswith("/" + quoted) for path in _repo_paths())


@functools.cache
def _definitions() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Names defined at any depth in each module (a package's include its modules); each class's members."""
    modules: dict[str, set[str]] = {}
    classes: dict[str, set[str]] = {}
    for path in SRC.rglob("*.py"):
        tree = ast.parse(path.read_text())
        own = path.parent.name if path.stem == "__init__" else path.stem
        names = modules.setdefault(own, set())
        if path.stem == "__init__":
            names.update(
                p.stem for p in path.parent.iterdir() if p.suffix == ".py" or (p / "__init__.py").exists()
            )
        for node in ast.walk(tree):
            names.update(_bound(node))
            if isinstance(node, ast.ClassDef):
                members = classes.setdefault(node.name, set())
                for inner in ast.walk(node):
                    members.update(_bound(inner))
                    if isinstance(inner, ast.Attribute) and isinstance(inner.ctx, ast.Store):
                        members.add(inner.attr)
    return modules, classes


def _bound(node: ast.AST) -> set[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {node.name}
    targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
    return (
        {t.id for t in targets if isinstance(t, ast.Name)}
        if isinstance(node, ast.Assign | ast.AnnAssign)
        else set()
    )


def _is_path(quoted: str) -> bool:
    if re.fullmatch(r"[\w./-]+\.(py|js|sh|toml|md)", quoted):
        return True
    starts = (*SOURCE_ROOTS, *PACKAGE_DIRS, *DAEMON_DIRS)
    return bool(re.fullmatch(r"[\w.-]+(/[\w.-]+)*/?", quoted)) and "/" in quoted and quoted.startswith(starts)


def _dotted_problem(first: str, second: str) -> str:
    modules, classes = _definitions()
    owner = classes.get(first) or classes.get(first[:1].upper() + first[1:])
    if owner is not None:
        return "" if second in owner else f"{first} has no member {second}"
    if first in modules:
        return "" if second in modules[first] else f"module {first} defines no {second}"
    if first.islower() and any(second in names for names in modules.values()):
        return f"there is no module {first} (but {second} is defined elsewhere)"
    return ""


def _command_problem(quoted: str) -> str:
    words = quoted.split()[1:]
    while words and words[0] in GLOBAL_FLAGS:
        words = words[2:] if GLOBAL_FLAGS[words[0]][0] else words[1:]
    if not words or words[0] in COMMANDS or not re.fullmatch(r"[a-z][a-z-]*", words[0]):
        return ""
    return f"no command {words[0]}"


def problems(text: str) -> list[str]:
    found = []
    for match in re.finditer(r"`([^`\n]+)`", text):
        quoted = match.group(1).strip()
        line = text.count("\n", 0, match.start()) + 1
        dotted = re.fullmatch(r"(\w+)\.(\w+)(\(.*\))?", quoted)
        if re.fullmatch(rf"[\w-]+\.({'|'.join(DATA_SUFFIXES)})", quoted):
            continue  # a data file the program writes (`daemon.json`), not code
        if _is_path(quoted):
            why = "" if _exists(quoted) else "no such file or folder"
        elif dotted:
            why = _dotted_problem(dotted.group(1), dotted.group(2))
        elif quoted.startswith("browse "):
            why = _command_problem(quoted)
        else:
            why = ""
        if why:
            found.append(f"line {line}: `{quoted}`: {why}")
    return found


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_the_docs_name_only_modules_functions_files_and_commands_that_exist(doc: Path) -> None:
    assert problems(doc.read_text()) == []


def test_the_check_finds_what_a_restructure_leaves_behind() -> None:
    stale = "See `daemon/session.py`, `effects.perform`, `parse.parse_everything` and `browse frobnicate`."
    assert len(problems(stale)) == 4, problems(stale)
    fine = "See `core/browser/host.py`, `parse.parse_argv`, `call.flag`, `browse snapshot -i`, `x.json`."
    assert problems(fine) == []
