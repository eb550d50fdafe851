"""`browse help` lists commands in the README's sections: network, emulation and recording apart."""

from __future__ import annotations

from refbrowse.cli.argv import help_text


def _sections() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    title = ""
    for line in help_text().splitlines():
        if line.endswith(":") and not line.startswith(" "):
            title = line[:-1]
            found[title] = []
        elif line.startswith("  ") and line.strip() and title:
            found[title].append(line.split()[0])
    return found


def test_help_groups_network_emulation_and_recording_as_the_readme_does() -> None:
    sections = _sections()
    assert {"route", "unroute", "routes", "headers", "offline", "throttle", "har"} <= set(sections["Network"])
    assert {"device", "devices", "geo", "timezone"} <= set(sections["Emulation"])
    assert {"trace", "profile", "video", "record"} <= set(sections["Recording"])
    acting, reading = set(sections["Act on the page"]), set(sections["Read and inspect"])
    assert not ({"route", "har", "device", "trace", "record"} & acting)
    assert not ({"routes", "devices"} & reading)
    assert "click" in acting and "snapshot" in reading
