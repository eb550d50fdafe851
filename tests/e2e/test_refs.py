"""Refs: stable while Playwright keeps an element, new when it changes, never reused; stale ones fail fast."""

from __future__ import annotations

import re

import pytest
from test_snapshot import ref, refs, snap

from conftest import Site, Workspace, strip_fence

pytestmark = pytest.mark.browser  # every test here drives a real Chromium


def number(reference: str) -> int:
    return int(reference[2:])


def test_refs_stay_the_same_across_a_dom_insertion_and_push_state(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/spa.html"))
    before = snap(workspace, "-i")
    save, add = ref(before, "button", "Save"), ref(before, "button", "Add row")
    workspace.ok("click", add)
    workspace.ok("click", ref(before, "button", "Go to settings"))
    assert workspace.ok("url").strip().endswith("/snap/spa-settings")
    after = snap(workspace, "-i")
    assert ref(after, "button", "Save") == save
    assert number(ref(after, "button", "Row 1")) > max(number(r) for r in refs(before).values())


def test_a_re_rendered_element_gets_a_new_ref_and_the_old_one_fails_at_once(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/snap/spa.html"))
    before = snap(workspace, "-i")
    old_save = ref(before, "button", "Save")
    workspace.ok("click", ref(before, "button", "Re-render"))
    result = workspace.run("click", old_save)
    assert result.code == 1
    assert f'{old_save} (button "Save")' in result.err
    assert "not in the latest snapshot" in result.err and "browse snapshot" in result.err
    assert "pressed" not in strip_fence(workspace.ok("text", "#log"))
    new_save = ref(snap(workspace, "-i"), "button", "Save")
    assert number(new_save) > number(old_save)
    workspace.ok("click", new_save)
    assert "pressed Save" in strip_fence(workspace.ok("text", "#log"))


def test_a_renamed_element_gets_a_new_ref_and_the_old_one_is_stale(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/spa.html"))
    before = snap(workspace, "-i")
    save = ref(before, "button", "Save")
    printed = workspace.ok("click", ref(before, "button", "Rename"))
    # The click's report shows the rename: the old ref goes, a new one comes.
    assert f'-- button "Save" {save}' in printed and '+- button "Delete all" @e' in printed
    result = workspace.run("click", save)
    assert result.code == 1 and f'{save} (button "Save") changed' in result.err
    assert "pressed" not in strip_fence(workspace.ok("text", "#log"))
    assert ref(snap(workspace, "-i"), "button", "Delete all") != save


def test_numbers_are_never_reused_after_navigation(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/form.html"))
    first = snap(workspace, "-i")
    highest = max(number(r) for r in refs(first).values())
    workspace.ok("goto", site.url("/snap/form.html"))
    second = snap(workspace, "-i")
    assert min(number(r) for r in refs(second).values()) > highest
    stale = workspace.run("fill", ref(first, "textbox", "Name"), "x")
    assert stale.code == 1 and 'textbox "Name"' in stale.err


def test_an_unknown_ref_fails_at_once_and_says_to_snapshot(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/form.html"))
    snap(workspace, "-i")
    result = workspace.run("click", "@e99999")
    assert result.code == 1
    assert "@e99999 is unknown" in result.err and "browse snapshot" in result.err


def test_a_c_ref_to_a_removed_element_is_stale(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/onclick.html"))
    out = snap(workspace, "-C")
    chip = ref(out, "span", "Chip")
    workspace.ok("js", "document.getElementById('chip').remove()")
    result = workspace.run("click", chip)
    assert result.code == 1 and f'{chip} (span "Chip") is no longer in the page' in result.err


def test_a_ref_works_for_read_commands_too(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/snap/form.html"))
    heading = ref(snap(workspace, "-i"), "heading", "Order")
    assert strip_fence(workspace.ok("text", heading)) == "Order"
    for spelling in (heading[1:], "ref=" + heading[1:]):
        assert strip_fence(workspace.ok("text", spelling)) == "Order"
    assert re.search(r"@e\d+", heading)


# A modal as MUI, Radix and react-aria make one: the rest of the page goes aria-hidden while it is
# open, which takes the names of the controls behind it, and Playwright gives each a new ref.
MODAL = """<!doctype html><title>Modal</title>
<div id="app"><header><a href="#home"><img alt="Home" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
</a></header><button onclick="log('pressed Save')">Save</button>
<button onclick="open_()">Open</button><p id="log"></p></div>
<div id="modal" role="presentation" hidden>
<div><h2>Settings</h2><button onclick="close_()">Close</button></div></div>
<script>
const log = t => document.getElementById('log').textContent = t;
function open_() { document.getElementById('app').setAttribute('aria-hidden', 'true');
  document.getElementById('modal').hidden = false; }
function close_() { document.getElementById('app').removeAttribute('aria-hidden');
  document.getElementById('modal').hidden = true; }
</script>"""


def test_controls_behind_a_modal_keep_their_refs_while_it_hides_them_and_after(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.page("/refs/modal.html", MODAL))
    before = snap(workspace, "-i")
    save, home = ref(before, "button", "Save"), ref(before, "link", "Home")
    opened = workspace.ok("click", ref(before, "button", "Open"))
    assert "changed in the interactive view" in opened, opened  # a diff, not the page read anew
    assert f"link {home}" in opened, opened  # the one name the modal took, on the same ref
    assert ref(snap(workspace, "-i"), "button", "Save") == save
    workspace.ok("click", ref(snap(workspace, "-i"), "button", "Close"))
    after = snap(workspace, "-i")
    assert (ref(after, "button", "Save"), ref(after, "link", "Home")) == (save, home)
    workspace.ok("click", save)
    assert "pressed Save" in strip_fence(workspace.ok("text", "#log"))
