"""The diff of the interactive view an action reports, without the change the action itself asked for."""

from __future__ import annotations

from refbrowse.daemon.action.report import in_diff, said_above
from refbrowse.daemon.action.view_report import said_once
from refbrowse.daemon.action.viewdiff import Asked, Change, view_change

BEFORE = """title: "Order"
- textbox "Full name" @e9 [required]
- combobox "Shipping" @e10: "Standard"
  - option "Standard" [selected]
  - option "Express"
- checkbox "Gift wrap" @e11
- button "Place order" @e12"""


def test_a_fill_that_set_the_asked_value_leaves_no_diff() -> None:
    after = BEFORE.replace('"Full name" @e9 [required]', '"Full name" @e9 [required]: "Ada"')
    assert not view_change(BEFORE, after, Asked("@e9", (': "Ada"',))).quoted
    assert view_change(BEFORE, after).quoted[1:] == [
        '-- textbox "Full name" @e9 [required]',
        '+- textbox "Full name" @e9 [required]: "Ada"',
    ]


def test_a_value_the_page_rewrote_stays_in_the_diff() -> None:
    after = BEFORE.replace('"Full name" @e9 [required]', '"Full name" @e9 [required]: "ADA"')
    quoted = view_change(BEFORE, after, Asked("@e9", (': "Ada"',))).quoted
    assert '+- textbox "Full name" @e9 [required]: "ADA"' in quoted


def test_a_select_drops_its_options_lines_too_but_not_what_else_changed() -> None:
    after = (
        BEFORE.replace('@e10: "Standard"', '@e10: "Express"')
        .replace('"Standard" [selected]', '"Standard"')
        .replace('"Express"\n', '"Express" [selected]\n')
        .replace('- button "Place order" @e12', '- button "Place order (+5.00)" @e13')
    )
    quoted = view_change(BEFORE, after, Asked("@e10", ("express",), fold=True)).quoted
    assert quoted[1:] == ['+- button "Place order (+5.00)" @e13', '-- button "Place order" @e12']


def test_uncheck_asks_for_no_checked_state_and_a_ref_in_a_name_is_not_the_element() -> None:
    checked = BEFORE.replace("@e11", "@e11 [checked]").replace('"Place order"', '"Pay @e11"')
    after = BEFORE.replace('"Place order"', '"Pay @e11"')
    assert view_change(checked, after, Asked("@e11", ("[checked]",), absent=True)) == Change()
    assert view_change(checked, after, Asked("@e11", ("[checked]",))).quoted


def test_a_closed_list_is_one_line_that_counts_what_went_with_it() -> None:
    opened = BEFORE + '\n- listbox "Sizes" @e20\n  - option "S" @e21\n  - option "M" @e22'
    quoted = view_change(opened, BEFORE).quoted
    assert quoted[1:] == ['-- listbox "Sizes" @e20 (and the 2 lines inside it)']


def test_a_modals_line_in_the_tree_is_not_repeated_in_a_diff() -> None:
    shown = (
        '⚠ blocking modal dialog "Sure?": deal with it first\n  - dialog "Sure?" @e30\n'
        '    - button "Yes" @e31\n' + BEFORE + '\n- dialog "Sure?" @e30 (listed above)'
    )
    quoted = view_change(BEFORE, shown).quoted
    assert quoted[1:] == [
        '+⚠ blocking modal dialog "Sure?": deal with it first',
        '+  - dialog "Sure?" @e30',
        '+    - button "Yes" @e31',
    ]


def test_a_message_the_diff_already_shows_is_not_said_again() -> None:
    diff = [
        '+    - dialog "Page explorer" @e71',
        '+- alert @e12: "Saved"',
        '-⚠ blocking modal dialog "Sure?": deal with it first',
    ]
    assert in_diff('dialog opened: "Page explorer"', diff)
    assert in_diff('alert: "Saved"', diff)
    assert in_diff('dialog closed: "Sure?"', diff)
    assert not in_diff('dialog closed: "Page explorer"', diff)  # it came, it did not go
    assert not in_diff('status: "Saved elsewhere"', diff)
    assert not in_diff('invalid field "Email": "Saved"', diff)


def test_a_message_whose_toast_came_clickable_and_as_text_is_said_once_with_the_toast_s_ref() -> None:
    # Node-RED's deploy: the message, the toast one clicks away, and its text as a line of its own
    diff = [
        "changed in the interactive view:",
        '+- clickable "Successfully deployed" @c10',
        "+- img @e104",
        '+- "Successfully deployed"',
    ]
    said, rest = said_once(['message: "Successfully deployed"'], diff)
    assert said == ['message: "Successfully deployed" @c10']
    assert rest == ["changed in the interactive view:", "+- img @e104"]
    alone = said_once(
        ['status: "Saved"'], ["changed in the interactive view:", '+- paragraph "Saved" @e7', '+  - "Saved"']
    )
    assert alone == (['status: "Saved" @e7'], [])  # the diff said nothing else
    # a toast holding more than its text (its close button) stays whole in the diff
    boxed = ["changed in the interactive view:", '+- generic "Saved" @e7', '+  - button "close" @e8']
    assert said_once(['status: "Saved"'], boxed) == (['status: "Saved"'], boxed)
    other = ["changed in the interactive view:", '+- button "Saved" @e7']
    assert said_once(['dialog opened: "Saved"', "text line"], other) == (
        ['dialog opened: "Saved"', "text line"],
        other,
    )


def test_an_unnamed_dialog_is_said_without_a_name_and_not_again_when_the_diff_shows_a_dialog() -> None:
    opened = [
        '+⚠ blocking modal dialog "Save the task? CANCEL CONFIRM": deal with it first',
        "+  - dialog",
    ]
    assert in_diff("dialog opened", opened)
    assert in_diff("dialog opened", ["+    - dialog @e5"])
    assert not in_diff("dialog closed", opened)
    assert not in_diff("dialog opened", ['+- alert @e12: "Saved"'])


TABS = """title: "Shipping"
- heading "Shipping quote" @e43 [level=1]
- tab "Quote" @e46 [selected]
- tab "Shout" @e47
- textbox "Customer name" @e48
- combobox "Destination" @e49 [expanded=false]: "Europe"
- checkbox "Express delivery" @e50
- spinbutton "Weight (kg)" @e51: "1"
- button "Get quote" @e52
- textbox "Result" @e53 [disabled]
- contentinfo "Gradio footer navigation" @e54
  - button "Settings" @e61"""


def test_a_tab_switch_shows_the_new_panel_and_counts_the_old_one() -> None:
    # Gradio's tabs: most of the view is replaced, yet what came is short and is what the agent acts on next.
    shout = ['- textbox "Text" @e63', '- textbox "Shouted" @e64 [disabled]', '- button "Shout" @e65']
    old_panel = TABS.splitlines()[4:10]
    after = TABS.replace('"Quote" @e46 [selected]', '"Quote" @e46').replace(
        '"Shout" @e47', '"Shout" @e47 [selected]'
    )
    after = after.replace("\n".join(old_panel), "\n".join(shout))
    change = view_change(TABS, after)
    assert change.quoted == [
        "changed in the interactive view:",
        *("+" + line for line in shout),
        '-- tab "Quote" @e46 [selected]',
        '+- tab "Quote" @e46',
        '-- tab "Shout" @e47',
        '+- tab "Shout" @e47 [selected]',
        '- 6 lines are gone, from textbox "Customer name" @e48',
    ]
    assert not change.trailer and not change.most


def test_what_came_is_listed_before_what_went_and_many_gone_lines_are_one_count() -> None:
    # An IDE's launcher replaced by a notebook's editor: the new cell and its buttons come first.
    launcher = [f'  - button "Kernel {n}" @e{10 + n}' for n in range(14)]
    before = '- region "Launcher" @e5\n' + "\n".join(launcher) + '\n- button "Save" @e40'
    after = '- region "Launcher" @e5\n- textbox "Cell 1" @e41\n- button "Run" @e42\n- button "Save" @e40'
    quoted = view_change(before, after).quoted
    assert quoted == [
        "changed in the interactive view:",
        '+- textbox "Cell 1" @e41',
        '+- button "Run" @e42',
        '- 14 lines of "Launcher" are gone',
    ]


def test_a_long_diff_is_cut_by_its_token_budget_not_by_a_line_count() -> None:
    rows = [f'- button "Row {n} with a rather long name to fill the budget" @e{n}' for n in range(60)]
    before = "\n".join(rows)
    after = "\n".join(rows + [f'- link "New {n}" @e{100 + n}' for n in range(20)])
    change = view_change(before, after, budget_tokens=1_000)
    assert len(change.quoted) == 21 and not change.trailer  # 20 short lines: more than 12, within the budget
    cut = view_change(before, after, budget_tokens=40)
    assert 1 < len(cut.quoted) < 21 and cut.trailer[0].startswith(f"… {21 - len(cut.quoted)} more lines")


def test_a_change_of_most_of_the_view_asks_for_the_new_view() -> None:
    before = "\n".join(f'- button "Item {n}" @e{n}' for n in range(40))
    after = "\n".join(f'- button "Thing {n}" @e{100 + n}' for n in range(40))
    assert view_change(before, after).most


def test_the_kind_of_page_the_daemon_takes_it_for_is_no_change() -> None:
    before = BEFORE.replace('title: "Order"', 'title: "Order"\npage: other · forms: 0')
    after = before.replace("page: other", "page: form")
    assert view_change(before, after) == Change()
    opened = after.replace(
        '- button "Place order" @e12', '- button "Place order" @e12\n- button "Try it out" @e13'
    )
    assert view_change(before, opened).quoted[1:] == ['+- button "Try it out" @e13']


def test_lines_that_only_moved_under_another_parent_are_no_change() -> None:
    # Node-RED: once its edit tray opens, the drawing's shapes are no longer under the drawing's line
    before = '- img "flow" @e9\n  - rectangle "flow port" @c6 (near "timestamp")\n- button "Deploy" @e2'
    after = '- button "Deploy" @e2\n- rectangle "flow port" @c6\n- button "Done" @e82'
    change = view_change(before, after)
    assert not any("flow port" in line for line in change.quoted), change.quoted
    assert any('button "Done" @e82' in line for line in change.quoted)


def test_a_terminals_screen_whose_text_went_on_is_no_diff_line_but_a_renamed_button_is() -> None:
    screen = '- clickable "Welcome to the demo shell ${}" @c1\n- button "Follow{}" @e4'
    assert view_change(screen.format("", ""), screen.format(" seq 3 1 2 3 $", "")) == Change()
    renamed = view_change(screen.format("", ""), screen.format("", "ing"))
    assert renamed.quoted[1:] == ['-- button "Follow" @e4', '+- button "Following" @e4'], renamed


def test_a_view_drops_the_text_line_a_message_above_says() -> None:
    view = '- heading "List of issues" @e10 [level=1]\n  - "Welcome admin!"\n- link "clear this message" @e11'
    assert (
        said_above(view, {"Welcome  admin!"})
        == '- heading "List of issues" @e10 [level=1]\n- link "clear this message" @e11'
    )
    kept = '- status: "Welcome admin!"\n- link "Welcome admin!" @e3\n- "Welcome admin! Again"'
    assert said_above(kept, {"Welcome admin!"}) == kept  # a status line, a link of those words, a longer text
