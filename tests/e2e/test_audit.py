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
# 5,000 failing images: seconds of axe (2,000 took 3.2 s here), and a snapshot the frame answers quickly.
BIG = (
    '<!doctype html><html lang="en"><title>big</title><main><h1>big</h1>'
    + f'<img src="{GIF}" width="2" height="2">' * 5_000
)


INNER = f"""<!doctype html><html><title>inner</title><main><h1>Inner</h1>
<img src="{GIF}" width="30" height="30">
<button id="inner-icon"><svg width="8" height="8"></svg></button></main>"""


def framed(site: Site) -> str:
    """A page whose one missing alt is its own, with two frames holding the rest: one of its origin,
    one of another (localhost against 127.0.0.1: another site, so a frame of its own process)."""
    inner = site.page("/audit/inner", INNER)
    cross = inner.replace("127.0.0.1", "localhost")
    return site.page(
        "/audit/framed",
        f"""<!doctype html><html lang="en"><title>framed</title><main><h1>Framed</h1>
<img src="{GIF}" width="20" height="20"><section id="frames">
<iframe src="{inner}" title="same" width="300" height="150"></iframe>
<iframe src="{cross}" title="cross" width="300" height="150"></iframe></section></main></html>""",
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


def test_frames_are_audited_with_refs_into_them(workspace: Workspace, site: Site) -> None:
    url = framed(site)
    cross = site.url("/audit/inner").replace("127.0.0.1", "localhost")
    workspace.ok("goto", url)
    assert wait_for(lambda: "button" in workspace.ok("snapshot").split('iframe "cross"')[-1])
    snapshot = workspace.ok("snapshot")
    same_part, cross_part = snapshot.split('iframe "same"')[1].split('iframe "cross"')
    same_button, cross_button = (re.search(r"- button (@e\d+)", part) for part in (same_part, cross_part))
    assert same_button and cross_button, snapshot
    out = strip_fence(workspace.ok("audit"))
    head = out.splitlines()[0]
    assert head.startswith("5 violations of 2 rules on ") and "and 2 frames in it (5 critical;" in head
    assert f"  {same_button.group(1)} button (frame {site.url('/audit/inner')}): Element does not" in out
    assert f"  {cross_button.group(1)} button (frame {cross}): Element does not have inner text" in out
    assert out.count("Element does not have an alt attribute") == 3
    # Rules of the top document only (its lang, its title) are not asked of the frames' documents.
    assert "html-has-lang" not in out and "document-title" not in out
    data = workspace.run("--json", "audit").json["data"]
    assert isinstance(data, dict) and data["frames"] == 2
    buttons = next(rule for rule in data["rules"] if rule["id"] == "button-name")["elements"]
    assert {(e["ref"], e["exact"], e["frame"]) for e in buttons} == {
        (same_button.group(1), True, site.url("/audit/inner")),
        (cross_button.group(1), True, cross),
    }
    # A scope takes the frames inside it, and only those.
    assert "and 2 frames in it" in strip_fence(workspace.ok("audit", "#frames"))
    alone = strip_fence(workspace.ok("audit", "h1"))
    assert alone.startswith("No violations on ") and "frames in it" not in alone


def test_frames_past_twenty_are_counted_not_audited(workspace: Workspace, site: Site) -> None:
    frame = (
        f"<iframe title='f' width='40' height='40' srcdoc='<img src=\"{GIF}\" width=4 height=4>'></iframe>"
    )
    url = site.page(
        "/audit/many", f'<!doctype html><html lang="en"><title>many</title><main>{frame * 25}</main>'
    )
    workspace.ok("goto", url)
    out = strip_fence(workspace.ok("audit"))
    assert "21 violations of 2 rules on " in out and "and 20 frames in it" in out
    assert "critical image-alt: Images must have alternative text (20 elements)" in out
    # The page's own: a frame alone is not asked for a main, an h1 or landmarks around its content.
    assert "page-has-heading-one: Page should contain a level-one heading (1 element)" in out
    assert "landmark-one-main" not in out and "region" not in out
    assert out.endswith("5 more frames not audited (the first 20 were)")


def test_a_cross_site_frame_too_big_to_audit_is_stopped_in_its_own_process(
    workspace: Workspace, site: Site
) -> None:
    big = site.page("/audit/big-frame", BIG)
    cross = big.replace("127.0.0.1", "localhost")
    url = site.page(
        "/audit/holds-big",
        f'<!doctype html><html lang="en"><title>h</title><main><h1>h</h1>'
        f'<iframe src="{cross}" title="big" width="300" height="200"></iframe></main>',
    )
    workspace.ok("goto", url)
    assert wait_for(lambda: 'heading "big"' in workspace.ok("snapshot"), 60)
    frame = re.search(r'iframe "big" (@e\d+)', workspace.ok("snapshot"))
    assert frame
    # a time axe cannot audit 5,000 images in, on a quiet machine too (1.5 s was enough there)
    result = workspace.run("audit", "--timeout", "400")
    assert result.code == 4 and "axe-core did not finish in 0.4 s" in result.err, result.out
    # The frame's process is free again (axe alone would hold it for seconds more): its text is
    # read within a command's time, not given up on as not answering.
    after = workspace.run("text", frame.group(1), "--timeout", "3000")
    assert after.code == 0 and "big" in after.out and "not answering" not in after.err


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
