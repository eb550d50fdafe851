"""`vitals`: LCP with its element's ref, CLS of a known shift, INP of a slow click, each rated."""

from __future__ import annotations

import re
import time

import pytest

from conftest import Site, Workspace

pytestmark = pytest.mark.browser

SHIFTING = """<!doctype html><html lang="en"><title>shift</title><body><main>
<h1 style="font-size:64px">The biggest heading here</h1>
<p>Text that moves down when the banner arrives.</p>
<button onclick="const t = performance.now(); while (performance.now() - t < 300) {}; this.title = 'x'">
Slow</button></main><script>
setTimeout(() => { const b = document.createElement('div'); b.style.height = '200px';
  b.textContent = 'banner'; document.querySelector('main').prepend(b); }, 300);
</script></body></html>"""


@pytest.fixture(scope="module")
def page(site: Site) -> str:
    return site.page("/vitals/shift", SHIFTING)


def value(out: str, name: str) -> str:
    line = next(line for line in out.splitlines() if line.startswith(name + " "))
    return line.removeprefix(name + " ")


def test_a_fresh_load_gives_every_vital_rated_and_the_lcp_element_by_ref(
    workspace: Workspace, page: str
) -> None:
    out = workspace.ok("vitals", page)
    assert out.startswith(f"Web vitals of {page} ")
    lcp = value(out, "LCP")
    assert re.fullmatch(r"\d+ ms good \(@e\d+ heading \"The biggest heading here\"\)", lcp), lcp
    for name in ("FCP", "TTFB"):
        assert re.fullmatch(r"\d+ ms good", value(out, name)), out
    assert value(out, "INP").startswith("not measured: no interaction since the load")
    snapshot = workspace.ok("snapshot")
    ref = re.search(r"@e\d+", lcp)
    assert ref and f'heading "The biggest heading here" {ref.group(0)}' in snapshot


def test_a_layout_shift_and_a_slow_click_are_measured(workspace: Workspace, page: str) -> None:
    workspace.ok("goto", page)
    time.sleep(1)  # the banner arrives 300 ms after the load
    workspace.ok("click", "button")
    out = workspace.ok("vitals")
    cls = value(out, "CLS")
    number = float(cls.split()[0])
    assert 0.05 < number <= 0.1 and cls.endswith(" good"), cls
    inp = value(out, "INP")
    ms = int(inp.split()[0])
    assert ms >= 300 and "the slowest of 1 interactions since the load" in inp, inp
    data = workspace.run("--json", "vitals").json["data"]
    assert (
        isinstance(data, dict)
        and data["cls"]["rating"] == "good"
        and str(data["lcp"]["ref"]).startswith("@e")
    )


def test_a_url_that_does_not_load_fails_clearly(workspace: Workspace) -> None:
    result = workspace.run("vitals", "http://127.0.0.1:9/")
    assert result.code == 1 and "127.0.0.1:9" in result.err
