"""`audit`: axe-core's violations by rule, worst first, each element with its ref; bounded on a huge page."""

from __future__ import annotations

import re

import pytest

from conftest import Site, Workspace, strip_fence, wait_for

pytestmark = pytest.mark.browser

GIF = "data:image/gif;base64,R0lGODlhAQABAAAAACw="
BROKEN = f"""<!doctype html><html lang="en"><head><title>shop</title></head><body><main><h1>Shop</h1>
<img src="{GIF}" width="40" height="40">
<button id="icon"><svg width="10" height="10"></svg></button>
<p style="color:#bbb;background:#fff">Faint text nobody can read</p>
<a href="/ok">A fine link</a>
</main></body></html>"""
CLEAN = """<!doctype html><html lang="en"><head><title>fine</title></head><body><main><h1>Fine</h1>
<img src="x.gif" alt="a cat" width="4" height="4"><button>Save</button><p>Readable</p></main></body></html>"""
HUGE = (
    '<!doctype html><html lang="en"><title>huge</title><main><h1>huge</h1>'
    + f'<img src="{GIF}" width="2" height="2">' * 20_000
    + "</main>"
)


@pytest.fixture(scope="module")
def pages(site: Site) -> dict[str, str]:
    return {
        "broken": site.page("/audit/broken", BROKEN),
        "clean": site.page("/audit/clean", CLEAN),
        "huge": site.page("/audit/huge", HUGE),
    }


def test_violations_come_by_rule_worst_first_with_refs(workspace: Workspace, pages: dict[str, str]) -> None:
    snapshot = workspace.ok("goto", pages["broken"])
    out = strip_fence(workspace.ok("audit"))
    lines = out.splitlines()
    assert (
        lines[0].startswith("3 violations of 3 rules on ")
        and "(2 critical, 1 serious; axe-core 4." in lines[0]
    )
    rules = [line.split(":")[0] for line in lines if not line.startswith(" ")][1:]
    assert rules == ["critical button-name", "critical image-alt", "serious color-contrast"]
    button = re.search(r"- button (@e\d+)", snapshot)
    assert button, snapshot
    assert f"  {button.group(1)} button: Element does not have inner text" in out
    assert re.search(r"\n  in @e\d+ main: Element does not have an alt attribute <img ", out)
    assert "contrast of 1.91" in out and "Expected contrast ratio of 4.5:1" in out
    assert "https://dequeuniversity.com/rules/axe/4." in out


def test_a_clean_page_is_one_line_and_tags_narrow_the_rules(
    workspace: Workspace, pages: dict[str, str]
) -> None:
    workspace.ok("goto", pages["clean"])
    clean = strip_fence(workspace.ok("audit"))
    assert re.fullmatch(
        r"No violations on \S+ \(axe-core 4\.[\d.]+, axe's default rules; \d+ rules passed\)\.", clean
    )
    workspace.ok("goto", pages["broken"])
    only = strip_fence(workspace.ok("audit", "--tags", "wcag2aa"))
    assert only.startswith("1 violation of 1 rule on ") and "serious color-contrast" in only
    assert "button-name" not in only


def test_a_scope_and_json(workspace: Workspace, pages: dict[str, str]) -> None:
    workspace.ok("goto", pages["broken"])
    inside = strip_fence(workspace.ok("audit", "#icon"))
    assert "inside #icon" in inside and "button-name" in inside and "image-alt" not in inside
    data = workspace.run("--json", "audit").json["data"]
    assert isinstance(data, dict)
    assert data["counts"] == {"critical": 2, "serious": 1, "moderate": 0, "minor": 0}
    first = data["rules"][0]
    assert first["id"] == "button-name" and first["elements"][0]["exact"] is True
    assert first["elements"][0]["ref"].startswith("@e")


def test_bad_tags_and_a_missing_scope_fail_with_the_next_step(
    workspace: Workspace, pages: dict[str, str]
) -> None:
    workspace.ok("goto", pages["broken"])
    bad = workspace.run("audit", "--tags", "wcag2a,nonsense")
    assert bad.code == 2 and "no axe-core rule has the tag nonsense" in bad.err and "wcag2aa" in bad.err
    missing = workspace.run("audit", "#nothing-here")
    assert missing.code == 1 and "#nothing-here" in missing.err


def test_20000_violations_give_a_bounded_answer_or_a_clear_message(
    workspace: Workspace, pages: dict[str, str]
) -> None:
    workspace.ok("goto", pages["huge"])
    # The page's own snapshot of 20,000 images runs first: the audit's clock starts when it is done.
    assert wait_for(lambda: workspace.run("js", "1 + 1", "--timeout", "2000").code == 0, seconds=60)
    result = workspace.run("audit", "--timeout", "3000")
    if result.code == 0:  # a fast machine: the answer is still a count and five elements
        out = strip_fence(result.out)
        assert "20000 violations of 1 rule" in out and "… and 19995 more" in out and len(out) < 3_000
    else:
        assert (
            result.code == 4
            and "axe-core did not finish in 3 s" in result.err
            and "browse audit SEL" in result.err
        )
    assert strip_fence(workspace.ok("js", "1 + 1")) == "2"  # the stopped run no longer holds the tab
