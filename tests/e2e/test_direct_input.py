"""Click, fill, select and check begun in one page call give the report the Playwright path gives.

Two daemons side by side: one as shipped (traced, to see which path each
action took), one with the one-call path off (`BROWSE_DIRECT_INPUT=0`). On
every interaction fixture, each of its first actionable elements is acted on
by both, from the same freshly loaded page, and the two reports must be the
same text; on each page some action must have taken the one-call path, or the
comparison would show nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import Site, Workspace

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).parent.parent / "fixtures"
PAGES = [
    *sorted(f"/effects/{p.name}" for p in (FIXTURES / "effects").glob("*.html") if "popup-" not in p.name),
    "/snap/form.html",
    "/snap/login.html",
    "/snap/modal.html",
    "/snap/onclick.html",
    "/snap/shadow.html",
    "/real/dialogs.html",
    "/real/settings.html",
    "/real/widgets.html",
]
PER_PAGE = 5
NONCE = re.compile(r"nonce=[0-9a-f]+")
LINE = re.compile(r'^\s*- (button|link|checkbox|radio|textbox|combobox|searchbox)( "[^"]*")? (@e\d+)')


class Pair:
    def __init__(self, root: Path) -> None:
        self.direct = Workspace(root / "direct")
        self.direct.env["BROWSE_TRACE"] = "1"
        self.fallback = Workspace(root / "fallback")
        self.fallback.env["BROWSE_DIRECT_INPUT"] = "0"

    def direct_inputs(self) -> int:
        log = self.direct.state_dir / "daemon.log"
        return log.read_text().count("trace: direct input: ") if log.exists() else 0


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    both = Pair(tmp_path_factory.mktemp("direct"))
    yield both
    both.direct.stop()
    both.fallback.stop()


def elements(snapshot: str) -> list[tuple[str, str]]:
    """(role, name) of each actionable line, in order: the same element in every load of the page."""
    found = [LINE.match(line) for line in snapshot.splitlines()]
    return [(m.group(1), m.group(2) or "") for m in found if m]


def command_for(role: str, ref: str) -> list[str]:
    if role == "checkbox":
        return ["check", ref]
    if role in ("textbox", "searchbox"):
        return ["fill", ref, "ada@example.org"]
    if role == "combobox":
        return ["select", ref, "2"]  # an option of that value or label, else the error both must give
    return ["click", ref]


def acted(ws: Workspace, url: str, index: int) -> str:
    """Load the page, act on its `index`th actionable element (by the ref this load gave it). The refs
    come from `snapshot -i`: a second load's report says the site's banner once, as one line."""
    ws.ok("goto", url)
    shown = ws.ok("snapshot", "-i")
    refs = [m.group(3) for m in map(LINE.match, shown.splitlines()) if m]
    role = elements(shown)[index][0]
    done = ws.run(*command_for(role, refs[index]))
    report = f"exit {done.code}\n{done.out}{done.err}"
    return re.sub(r"@e\d+", "@e", NONCE.sub("nonce=…", report))


@pytest.mark.parametrize("path", PAGES)
def test_the_one_call_path_and_the_fallback_report_the_same(pair: Pair, site: Site, path: str) -> None:
    url = site.url(path)
    pair.fallback.ok("goto", url)
    listed = elements(pair.fallback.ok("snapshot", "-i"))[:PER_PAGE]
    assert listed, f"no actionable element on {path}"
    before = pair.direct_inputs()
    for index, element in enumerate(listed):
        assert acted(pair.direct, url, index) == acted(pair.fallback, url, index), (path, element)
    assert pair.direct_inputs() > before, f"no action on {path} took the one-call path"


def test_a_covered_element_still_fails_as_covered(pair: Pair, site: Site) -> None:
    url = site.page(
        "/direct/covered.html",
        "<button onclick=\"this.textContent='hit'\">Under</button>"
        '<div style="position:fixed;inset:0;background:#fff8" aria-label="Overlay">cover</div>',
    )
    shown = pair.direct.ok("goto", url)
    ref = next(m.group(3) for m in map(LINE.match, shown.splitlines()) if m and m.group(1) == "button")
    done = pair.direct.run("click", ref)
    assert done.code == 1
    assert "is covered by another element" in done.err


def test_the_look_after_comes_with_the_wait_and_lets_the_field_go(pair: Pair, site: Site) -> None:
    """Fills on a page that answers at once: the look after is the one the last wait for quiet
    took (no look of its own), it reads what the field holds and what the page answered, and the
    fields are let go."""
    url = site.page(
        "/direct/fields.html",
        '<label for="who">Name</label> <input id="who">'
        ' <label for="note">Note</label> <input id="note"> <p id="out"></p>'
        "<script>note.oninput = () => { out.textContent = note.value.length + ' typed' }</script>",
    )
    shown = pair.direct.ok("goto", url)
    name, note = [m.group(3) for m in map(LINE.match, shown.splitlines()) if m and m.group(1) == "textbox"]
    log = pair.direct.state_dir / "daemon.log"
    looks = log.read_text().count("trace: look after ")
    assert pair.direct.ok("fill", name, "ada").startswith(f'Filled {name} (3 characters): now "ada"')
    assert "3 typed" in pair.direct.ok("fill", note, "bob")  # the page's answer, in the look as it went quiet
    assert log.read_text().count("trace: look after ") == looks
    held = pair.direct.ok(
        "js", "Object.getOwnPropertyNames(window).filter(k => k.startsWith('__refbrowse_aim'))"
    )
    assert "[]" in held, held
