"""`fill` with several SEL TEXT pairs, and `fill` on boxes and dropdowns: a form set in one call."""

from __future__ import annotations

import pytest
from test_snapshot import ref, snap

from conftest import Site, Workspace

pytestmark = pytest.mark.browser  # every test here drives a real Chromium

PAGE = "/input/booking.html"


def refs_of(workspace: Workspace, site: Site) -> dict[str, str]:
    workspace.ok("goto", site.url(PAGE))
    view = snap(workspace, "-i")
    return {
        "guest": ref(view, "textbox", "Guest name"),
        "secret": ref(view, "textbox", "Password"),
        "room": ref(view, "combobox", "Room"),
        "nights": ref(view, "spinbutton", "Nights"),
        "breakfast": ref(view, "checkbox", "Breakfast included"),
        "news": ref(view, "checkbox", "Send news"),
        "arrival": ref(view, "combobox", "Arrival"),
        "card": ref(view, "radio", "Card"),
        "cash": ref(view, "radio", "Cash"),
        "plain": ref(view, "button", "Plain"),
        "city": ref(view, "combobox", "City"),
        "book": ref(view, "button", "Book"),
    }


def booked(workspace: Workspace, book: str) -> str:
    """What the page's own submit handler read from the form."""
    workspace.ok("click", book)
    line = next(line for line in workspace.ok("text").splitlines() if line.startswith("booked"))
    return line


def test_one_call_sets_text_select_number_boxes_and_a_dropdown(workspace: Workspace, site: Site) -> None:
    r = refs_of(workspace, site)
    printed = workspace.ok(
        "fill", r["guest"], "Grace Hopper", r["room"], "Suite", r["nights"], "3",
        r["breakfast"], "yes", r["news"], "off", r["arrival"], "noon", r["cash"], "yes",
    )  # fmt: skip
    first = printed.splitlines()[0]
    assert first == (
        f'Filled 7 fields: {r["guest"]} "Grace Hopper", {r["room"]} "Suite", {r["nights"]} "3",'
        f' {r["breakfast"]} checked, {r["news"]} unchecked, {r["arrival"]} "noon", {r["cash"]} checked'
    ), printed
    assert (
        f'-- radio "Card" {r["card"]} [checked]' in printed
    )  # one report: what changed beyond what was asked
    assert (
        booked(workspace, r["book"])
        == 'booked: "Grace Hopper" | 0 | x | 3 | true | false | noon | cash | Lisbon'
    )


def test_a_box_or_a_select_alone_is_set_by_fill(workspace: Workspace, site: Site) -> None:
    r = refs_of(workspace, site)
    assert workspace.ok("fill", r["news"], "no").splitlines()[0] == f"Filled {r['news']}: now unchecked"
    assert workspace.ok("fill", r["room"], "double").splitlines()[0] == f'Filled {r["room"]}: now "double"'
    assert booked(workspace, r["book"]) == 'booked: "" | 0 | d | 1 | false | false | evening | card | Lisbon'


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("breakfast", "maybe", 'is a box: fill takes yes or no for it, not "maybe"'),
        ("room", "Penthouse", 'has no option "Penthouse"'),
        ("plain", "x", "is not a text field, box or dropdown: fill cannot set it"),
        ("card", "no", "is a radio button: choosing another one of its group is what clears it"),
    ],
)
def test_a_value_that_cannot_be_set_changes_nothing(
    workspace: Workspace, site: Site, field: str, value: str, said: str
) -> None:
    r = refs_of(workspace, site)
    result = workspace.run("fill", r["guest"], "Grace", r[field], value)
    assert result.code == 1, result
    assert f"{r[field]} {said}" in result.err
    assert (
        booked(workspace, r["book"]) == 'booked: "" | 0 | s | 1 | false | true | evening | card | Lisbon'
    )  # not even Grace


def test_a_dropdown_without_the_option_says_which_fields_were_set_before_it(
    workspace: Workspace, site: Site
) -> None:
    r = refs_of(workspace, site)
    result = workspace.run("fill", r["guest"], "Grace", r["arrival"], "midnight")
    assert result.code == 1, result
    said = f'{r["arrival"]} has no option "midnight" (select clicked {r["arrival"]} once, on "evening")'
    assert f"{said} (after setting {r['guest']})" in result.err
    assert "its options are: morning, noon, evening" in result.err
    assert f"{r['guest']} stays set" in result.err
    assert booked(workspace, r["book"]).startswith('booked: "Grace" | ')


def test_a_password_comes_last_from_stdin_and_from_argv_is_refused_or_hinted(
    workspace: Workspace, site: Site
) -> None:
    r = refs_of(workspace, site)
    piped = workspace.ok("fill", r["guest"], "Ada", r["secret"], "-", input="hunter22\n")
    first = piped.splitlines()[0]
    assert first == f'Filled 2 fields: {r["guest"]} "Ada", {r["secret"]} (8 characters, hidden)'
    assert "hunter22" not in piped and "hint:" not in piped
    refused = workspace.run("fill", r["secret"], "hunter2", r["guest"], "Ada")
    assert refused.code == 2 and "password field" in refused.err, refused
    given = workspace.ok("fill", r["secret"], "hunter2", r["guest"], "Ada", "--allow-argv-secret")
    assert "hunter2" not in given
    assert "hint: a password was in the command line" in given
    # the last text piped, a password before it in the command line: still said (Django's add-user form)
    before = workspace.ok(
        "fill", r["secret"], "hunter2", r["guest"], "-", "--allow-argv-secret", input="Ada\n"
    )
    assert "hint: a password was in the command line" in before, before
    assert booked(workspace, r["book"]).startswith('booked: "Ada" | 7 | ')


def test_several_texts_come_from_stdin_and_a_dash_stdin_cannot_answer_is_never_typed(
    workspace: Workspace, site: Site
) -> None:
    r = refs_of(workspace, site)
    piped = workspace.ok("fill", r["secret"], "-", r["guest"], "-", input="hunter22\0Grace\0")
    assert "hunter22" not in piped and "hint:" not in piped, piped
    assert booked(workspace, r["book"]).startswith('booked: "Grace" | 8 | ')
    short = workspace.run("fill", r["secret"], "-", r["guest"], "-", input="s3cret\n")
    assert short.code == 2 and "2 texts given as `-`, but stdin held 1" in short.err, short
    nothing = workspace.run("fill", r["guest"], "-", input="")
    assert nothing.code == 2 and "stdin held 0" in nothing.err, nothing
    assert booked(workspace, r["book"]).startswith('booked: "Grace" | 8 | ')


def test_a_text_without_its_field_is_a_usage_error(workspace: Workspace) -> None:
    result = workspace.run("fill", "@e2", "Ann", "@e4")
    assert result.code == 2, result
    assert "fill takes SEL TEXT pairs: '@e4' has no TEXT after it" in result.err
    unquoted = workspace.run("fill", "@e2", "Ann", "Lee")
    assert unquoted.code == 2 and "quote an argument that has spaces" in unquoted.err


def test_a_field_with_a_list_gets_the_option_named_as_the_text(workspace: Workspace, site: Site) -> None:
    r = refs_of(workspace, site)
    printed = workspace.ok("fill", r["guest"], "Ann", r["city"], "kyoto")
    assert printed.splitlines()[0] == f'Filled 2 fields: {r["guest"]} "Ann", {r["city"]} "kyoto"', printed
    assert booked(workspace, r["book"]).endswith("| Kyoto")  # chosen from the list, not only typed


def test_a_field_with_a_list_without_the_option_keeps_the_text_and_says_so(
    workspace: Workspace, site: Site
) -> None:
    r = refs_of(workspace, site)
    printed = workspace.ok("fill", r["city"], "Paris")
    assert f'{r["city"]}\'s list shows no option "Paris": the text stays typed' in printed
    assert f"browse select {r['city']} NAME" in printed


def test_a_search_that_reads_its_field_on_keyup_sees_what_was_filled(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/input/keyup_search.html"))
    search = ref(snap(workspace, "-i"), "searchbox", "Search")
    printed = workspace.ok("fill", search, "foot")
    assert 'link "Footnotes"' in printed, printed  # the result's ref, in fill's own report
    cleared = workspace.ok("fill", search, "")
    assert 'link "Footnotes"' in cleared and "-" in cleared  # emptied: the result went
    assert 'link "Footnotes"' not in snap(workspace, "-i")


def test_sliders_native_and_drawn_are_set_to_a_number(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/input/sliders.html"))
    view = snap(workspace, "-i")
    quantity, volume = ref(view, "slider", "Quantity"), ref(view, "slider", "Volume")
    printed = workspace.ok("fill", quantity, "7", volume, "65")
    assert printed.splitlines()[0] == f'Filled 2 fields: {quantity} "7", {volume} "65"', printed
    assert 'text changed: "quantity 2, volume 20" → "quantity 7, volume 65"' in printed, (
        printed
    )  # the page's own handlers saw both
    workspace.ok("fill", volume, "0")  # an end: Home
    assert "quantity 7, volume 0" in workspace.ok("text")


def test_a_drawn_sliders_value_is_in_the_snapshot(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/input/sliders.html"))
    view = snap(workspace, "-i")
    volume = ref(view, "slider", "Volume")
    assert f'- slider "Volume" {volume}: "20"' in view, view  # aria-valuenow, which Playwright leaves out
    workspace.ok("fill", volume, "35")
    assert f'- slider "Volume" {volume}: "35"' in snap(workspace, "-i")
    size = ref(view, "slider", "Size")
    assert f'- slider "Size" {size}: "M"' in view, view  # a range's own words for its value
    workspace.ok("fill", size, "2")
    assert f'- slider "Size" {size}: "L"' in snap(workspace, "-i")
    level = ref(view, "slider", "Level")
    workspace.ok("fill", level, "8")  # drawn right to left: its left arrow raises it
    assert f'- slider "Level" {level}: "8"' in snap(workspace, "-i")
    named = workspace.run("fill", size, "XL")
    assert named.code == 1 and "it says its value in words ('L' at 2): fill takes the position" in named.err


def test_a_slider_value_between_its_steps_ends_on_the_nearest_and_says_so(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.url("/input/sliders.html"))
    volume = ref(snap(workspace, "-i"), "slider", "Volume")
    printed = workspace.ok("fill", volume, "42")
    assert f"{volume} moves in steps that miss 42: it holds 40" in printed, printed
    assert "volume 40" in workspace.ok("text")


def test_a_slider_value_out_of_its_range_changes_nothing(workspace: Workspace, site: Site) -> None:
    workspace.ok("goto", site.url("/input/sliders.html"))
    view = snap(workspace, "-i")
    quantity, volume = ref(view, "slider", "Quantity"), ref(view, "slider", "Volume")
    done = workspace.run("fill", quantity, "5", volume, "120")
    assert done.code == 1, done
    assert f"{volume} is a slider from 0 to 100: fill takes a number in that range, not '120'" in done.err
    years = ref(view, "textbox", "Years")
    read_only = workspace.run("fill", quantity, "5", years, "15")
    assert read_only.code == 1 and f"{years} is read-only" in read_only.err, read_only
    failed = workspace.run("fill", volume, "loud")
    assert failed.code == 1 and "not 'loud'" in failed.err, failed
    assert "quantity 2, volume 20" in workspace.ok("text")  # checked before anything moved


# A field with a list that takes several options (Gradio's multiselect): a chosen option becomes a
# chip, and the list stays open for the next until the field loses focus.
TAGS = """<!doctype html><title>Tags</title>
<label for="tags">Tags</label> <span id="chips"></span>
<input id="tags" role="combobox" aria-expanded="false" aria-controls="list" autocomplete="off">
<ul id="list" role="listbox" hidden></ul>
<script>
const field = document.getElementById('tags'), list = document.getElementById('list');
const show = (open) => { list.hidden = !open; field.setAttribute('aria-expanded', String(open)); };
const draw = () => {
  list.innerHTML = '';
  for (const name of ['red', 'green', 'blue'].filter(n => n.startsWith(field.value))) {
    const option = document.createElement('li');
    option.setAttribute('role', 'option');
    option.textContent = name;
    option.onmousedown = (event) => {
      event.preventDefault();  // the field keeps the focus: the list stays open for the next
      document.getElementById('chips').textContent += name + ' ';
      field.value = '';
      draw();
    };
    list.append(option);
  }
};
field.onfocus = () => { draw(); show(true); };
field.oninput = () => { draw(); show(true); };
field.onblur = () => show(false);
</script>"""


def test_a_list_that_takes_several_is_closed_once_its_option_is_chosen(
    workspace: Workspace, site: Site
) -> None:
    workspace.ok("goto", site.page("/input/tags.html", TAGS))
    tags = ref(snap(workspace, "-i"), "combobox", "Tags")
    workspace.ok("fill", tags, "green")
    view = snap(workspace, "-i")
    assert f'combobox "Tags" {tags} [expanded=false]' in view, view
    assert "listbox" not in view, view
    assert workspace.ok("js", "document.getElementById('chips').textContent").count("green") == 1
