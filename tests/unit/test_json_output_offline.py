"""`--json` is structured: snapshot, js, eval and chain give `data`; errors give error, hint, exit_code."""

from __future__ import annotations

from refbrowse.registry import COMMANDS


def test_every_command_with_data_documents_its_shape() -> None:
    from refbrowse.docs import render

    documented = [name for name, spec in COMMANDS.items() if "data" in spec]
    assert {"snapshot", "js", "eval", "chain", "click", "fill", "goto"} <= set(documented)
    for name in documented:
        assert f"With `--json`, `data` is `{COMMANDS[name]['data']}`." in render()
