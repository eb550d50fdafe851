"""Where diff lines stand: containers, moves, re-created lines."""

from __future__ import annotations

from refbrowse.daemon.action.diffplace import containers, placed
from refbrowse.daemon.action.viewdiff import view_change

LISTS = (
    '- listbox "Available groups" @e3\n  - option "auditors" @e4\n  - option "editors" @e5 [selected]\n'
    '- button "Choose" @e7\n- listbox "Chosen groups" @e9\n  - option "staff" @e10'
)


def test_each_line_stands_in_its_nearest_named_container() -> None:
    lines = LISTS.splitlines()
    assert containers(lines) == [
        "",
        'listbox "Available groups"',
        'listbox "Available groups"',
        "",
        "",
        'listbox "Chosen groups"',
    ]


def test_a_choice_that_changed_lists_is_moved_and_the_rest_re_created() -> None:
    after = (
        '- listbox "Available groups" @e3\n  - option "auditors" @e11\n'
        '- button "Choose" @e7\n- listbox "Chosen groups" @e9\n'
        '  - option "editors" @e12\n  - option "staff" @e13'
    )
    quoted = view_change(LISTS, after).quoted
    assert quoted[1:] == [
        '~ option "editors" @e12: moved from listbox "Available groups" to listbox "Chosen groups"',
        '~ re-created as they were, with new refs: option "auditors" @e11, option "staff" @e13',
    ]


def test_runs_in_places_of_one_role_are_led_by_their_place_and_places_unlike_need_none() -> None:
    two = [("+a", 'listbox "A"'), ("+b", 'listbox "A"'), ("+c", 'listbox "B"'), ("-d", "")]
    assert placed(two) == ['in listbox "A":', "+a", "+b", 'in listbox "B":', "+c", "elsewhere:", "-d"]
    assert placed([("+a", 'listbox "A"'), ("-d", "")]) == ["+a", "-d"]
    assert placed([("+a", 'main "M"'), ("+b", 'contentinfo "Bottom"')]) == ["+a", "+b"]


def test_a_calendars_redrawn_days_are_one_item_and_a_role_of_two_words_is_said_once() -> None:
    from refbrowse.daemon.action.diffplace import _compact, _counted

    days = [f'link "{n}" @e{106 + n}' for n in range(1, 31)]
    lines = [
        'link "Prev" @e104',
        *days,
        'slider handle @e141: "79%"',
        'slider handle @e143: "1%"',
        'link "9" @e300',
    ]
    assert _compact(_counted(lines)) == (
        'link "Prev" @e104, "1"…"30" @e107…@e136, slider handle @e141: "79%", @e143: "1%", link "9" @e300'
    )
    # numbers or refs that skip are not a run: each is said
    skipping = ['link "1" @e3', 'link "3" @e4', 'link "4" @e9']
    assert _compact(_counted(skipping)) == 'link "1" @e3, "3" @e4, "4" @e9'


SORTABLE = '- heading "Tasks" @e1\n- listitem "Alpha" @e3\n- listitem "Bravo" @e4\n- listitem "Krissie" @e6'


def test_items_dragged_into_another_order_are_one_line_of_the_new_order() -> None:
    moved = '- heading "Tasks" @e1\n- listitem "Krissie" @e6\n- listitem "Alpha" @e3\n- listitem "Bravo" @e4'
    change = view_change(SORTABLE, moved)
    assert change.quoted == [
        "changed in the interactive view:",
        '~ in a new order: listitem "Krissie" @e6, "Alpha" @e3, "Bravo" @e4',
    ]


def test_a_list_rebuilt_in_another_order_says_its_new_order_and_new_refs() -> None:
    before = (
        '- region "Sidebar" @e8\n  - link "Draft" @e41\n  - link "Getting started" @e14\n- button "Go" @e2'
    )
    after = (
        '- region "Sidebar" @e8\n  - link "Getting started" @e88\n  - link "Draft" @e89\n- button "Go" @e2'
    )
    assert view_change(before, after).quoted == [
        "changed in the interactive view:",
        '~ in a new order: link "Getting started" @e88, "Draft" @e89',
    ]


def test_a_list_that_only_changed_a_state_or_an_item_is_no_new_order() -> None:
    checked = SORTABLE.replace('"Bravo" @e4', '"Bravo" @e4 [selected]')
    assert not any("new order" in line for line in view_change(SORTABLE, checked).quoted)
    renamed = SORTABLE.replace('"Bravo" @e4', '"Bravo two" @e4')
    assert not any("new order" in line for line in view_change(SORTABLE, renamed).quoted)
    rebuilt = SORTABLE.replace("@e3", "@e13").replace("@e4", "@e14")  # same order, new refs
    assert not any("new order" in line for line in view_change(SORTABLE, rebuilt).quoted)


def test_a_long_list_in_a_new_order_is_said_within_bounds() -> None:
    items = [f'- listitem "Item number {n}" @e{n}' for n in range(100)]
    change = view_change("\n".join(items), "\n".join(items[::-1]))
    said = next(line for line in change.quoted if "new order" in line)
    assert len(said) < 520
    assert '"Item number 99" @e99' in said and "(100 in all: `browse snapshot -i` lists them)" in said


def test_lines_of_many_kinds_in_another_order_are_no_list_that_moved() -> None:
    # a view that puts what is in view first orders a page's mixed lines anew when the page scrolls
    before = '- button "Go" @e1\n- link "Home" @e2\n- textbox "Name" @e3\n- checkbox "Keep" @e4'
    after = '- textbox "Name" @e3\n- checkbox "Keep" @e4\n- button "Go" @e1\n- link "Home" @e2'
    assert not any("new order" in line for line in view_change(before, after).quoted)


def test_a_deeper_run_in_a_container_the_diff_leaves_out_is_led_by_its_place() -> None:
    # Wagtail's "More actions": Publish came in the footer's actions, right after a link "History"
    # that came at the top level; unled, it read as the link's child.
    lines = [
        ('+- link "History" @e44', ""),
        ('+  - button "Publish" @e45', 'navigation "Actions (footer)"'),
        ('-  - button "More actions" @e37 [expanded=false]', 'navigation "Actions (footer)"'),
        ('+  - button "More actions" @e37 [expanded]', 'navigation "Actions (footer)"'),
        ('-title: "New page"', ""),
    ]
    assert placed(lines) == [
        '+- link "History" @e44',
        'in navigation "Actions (footer)":',
        *(text for text, _ in lines[1:]),
    ]
    # a line that says a count, or one no deeper than the line before, reads right as it is
    assert placed(
        [('+- button "Run" @e42', ""), ('- 14 lines of "Launcher" are gone', 'region "Launcher"')]
    ) == [
        '+- button "Run" @e42',
        '- 14 lines of "Launcher" are gone',
    ]


def test_a_grid_row_whose_cell_was_drawn_again_is_re_created_not_changed() -> None:
    # Gradio's dataframe: each change draws the row's cells again; the row's own ref stays
    before = '- row "Banana" @e4 · "0.5" @e6\n- button "Compute total" @e8\n- textbox "Total" @e9'
    after = before.replace("@e6", "@e7").replace("@e9", '@e9: "Total: 5.0"')
    quoted = view_change(before, after).quoted
    assert '~ re-created as they were, with new refs: row "Banana" @e4 · "0.5" @e7' in quoted, quoted
    assert not any("Banana" in line and line[:1] in "+-" for line in quoted), quoted
