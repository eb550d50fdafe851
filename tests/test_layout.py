"""The layout shows the two processes, and what both must agree on is spelled in one place."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).parent.parent / "src" / "refbrowse"
SHARED = ("protocol.py", "registry.py", "kinds.py", "parse.py", "errors.py", "exitcodes.py", "wire.py")
PROTOCOL_WORDS = (
    "X-Browse-Exit",
    "X-Browse-Stdout",
    "daemon.json",
    "daemon.lock",
    "start.lock",
    "daemon.log",
    "daemon.sock",
    "/command",
    "/health",
)


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def _modules(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


@pytest.mark.parametrize("path", _modules(SRC / "cli") + [SRC / name for name in SHARED], ids=str)
def test_the_cli_and_the_shared_modules_import_nothing_of_the_daemon(path: Path) -> None:
    bad = [
        name
        for name in _imports(path)
        if name.startswith(("refbrowse.daemon", "playwright", "aiohttp", "asyncio"))
    ]
    assert bad == [], f"{path.name} imports {bad}"


@pytest.mark.parametrize("path", _modules(SRC / "daemon"), ids=str)
def test_the_daemon_imports_nothing_of_the_cli(path: Path) -> None:
    assert [name for name in _imports(path) if name.startswith("refbrowse.cli")] == []


def _string_constants(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_the_protocol_words_are_spelled_only_in_protocol() -> None:
    offenders = []
    for path in _modules(SRC):
        if path.name == "protocol.py":
            continue
        for text in _string_constants(path):
            offenders += [(path.name, word) for word in PROTOCOL_WORDS if word in text]
    assert offenders == []


def test_the_daemon_s_handlers_are_collected_and_a_duplicate_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from refbrowse.daemon import handlers

    table = handlers.collect()
    assert table["snapshot"].__module__.endswith(".snapshot")  # one handler for `snapshot`
    twin = tmp_path / "twin_goto.py"
    twin.write_text(
        "from refbrowse.daemon.handlers import handler\n\n\n"
        "@handler('goto')\nasync def goto(call):\n    return ''\n"
    )
    monkeypatch.setattr(handlers, "__path__", [*handlers.__path__, str(tmp_path)])
    with pytest.raises(handlers.DuplicateCommand, match="goto is handled twice"):
        handlers.collect()


def test_no_handler_module_keeps_a_service_or_registers_at_import() -> None:
    for path in _modules(SRC / "daemon" / "handlers"):
        tree = ast.parse(path.read_text())
        names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert "setup" not in names, f"{path.name}: wire its hooks in daemon/services.py instead"
        assert not any(isinstance(n, ast.Global) for n in ast.walk(tree)), path.name


_CONTAINERS = {
    "dict",
    "set",
    "list",
    "deque",
    "defaultdict",
    "WeakKeyDictionary",
    "WeakValueDictionary",
    "WeakSet",
}
# Module-level state not yet moved onto the services: each is keyed weakly by one daemon's
# objects (a tab, a browser) or only keeps tasks referenced; moving it means threading a
# service through the tab guard and the action path.
_NOT_YET_MOVED = {
    "background.py:_tasks",
    "effects.py:_busy_tabs",
    "popups.py:_counters",
    "viewdiff.py:_views",
}


def _module_state(path: Path) -> list[str]:
    """Names a module binds at its top level to a mutable container, other than UPPER_CASE constants."""
    found = []
    for node in ast.parse(path.read_text()).body:
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        value = getattr(node, "value", None)
        if not isinstance(target, ast.Name) or target.id.lstrip("_").isupper() or value is None:
            continue
        called = value.func if isinstance(value, ast.Call) else None
        name = getattr(called, "id", None) or getattr(called, "attr", None)
        if isinstance(value, ast.Dict | ast.List | ast.Set) or name in _CONTAINERS:
            found.append(f"{path.name}:{target.id}")
    return found


def test_daemon_state_lives_on_its_services_not_in_modules() -> None:
    found = {name for path in _modules(SRC / "daemon") for name in _module_state(path)}
    assert found - _NOT_YET_MOVED == set(), "keep per-daemon state on `Services` (daemon/services.py)"
